// Command gentranscript appends Claude Code transcript lines to FILE until it holds SIZE bytes
// (a whole line more at most), each entry's members in the order Claude Code writes them: turns
// of a user prompt, the agent's thinking and text, then a dozen tool calls (Read, Grep, Edit and
// Write of files under ROOT, Bash, Glob; a TodoWrite every third turn) each with its result, of
// 1 to 12 KB, and in one turn of eight a 400 KB one (a screenshot, a long test log). For timing
// gsd's hooks on large transcripts.
// Usage: gentranscript FILE SIZE ROOT (SIZE in bytes, or with a K, M or G suffix)
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gentranscript FILE SIZE ROOT")
		os.Exit(2)
	}
	size, err := parseSize(os.Args[2])
	check(err)
	root := os.Args[3]
	f, err := os.OpenFile(os.Args[1], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	check(err)
	fi, err := f.Stat()
	check(err)
	have := fi.Size()
	t := time.Date(2026, 2, 3, 8, 0, 0, 0, time.UTC)
	big := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAA", 400<<10/24)
	for turn := int(have / 1000); have < size; turn++ {
		var lines []any
		// env is the next entry's members before its message, and its uuid and time.
		env := func() (envelope, string, string) {
			t = t.Add(time.Second)
			return envelope{ParentUUID: fmt.Sprintf("u%d-%d", turn, len(lines)), UserType: "external", Cwd: root,
					SessionID: "5f0c1e9a-7b3d-4d2e-9a61-2c8f4e7b1d30", Version: "2.0.31", GitBranch: "main"},
				fmt.Sprintf("u%d-%d", turn, len(lines)+1), t.Format(time.RFC3339Nano)
		}
		user := func(content any) {
			e, uuid, at := env()
			lines = append(lines, userEntry{e, "user", userMessage{"user", content}, uuid, at})
		}
		assistant := func(block any) {
			e, uuid, at := env()
			lines = append(lines, assistantEntry{e,
				assistantMessage{"claude-sonnet-4-5-20250929", fmt.Sprintf("msg_%d_%d", turn, len(lines)), "message", "assistant",
					[]any{block}, nil, nil, usage{3, 1200, 54000, 9}}, fmt.Sprintf("req_%d_%d", turn, len(lines)), "assistant", uuid, at})
		}
		tool := func(name string, input any, result string) {
			id := fmt.Sprintf("toolu_%d_%s", turn, name)
			assistant(toolUse{"tool_use", id, name, input})
			user([]any{toolResult{id, "tool_result", result}})
		}
		user(fmt.Sprintf("Turn %d: make the importer skip rows whose date does not parse, and log them", turn))
		assistant(thinking{"thinking", strings.Repeat("Let me look at the importer first. ", 20), "sig"})
		assistant(text{"text", strings.Repeat("I will read the importer, change it, then run the tests. ", 8)})
		for k, name := range []string{"Read", "Grep", "Edit", "Bash", "Glob", "Read", "Edit", "Bash", "Write", "Read", "Grep", "Bash"} {
			file := fmt.Sprintf("%s/internal/import/file%d.go", root, (turn*12+k)%40)
			out := strings.Repeat("ok  \tgithub.com/example/app/internal/pkg\t0.012s\n", 20*(1+(turn+k)%12))
			if turn%8 == 7 && k == 3 {
				out = big
			}
			switch name {
			case "Read":
				tool(name, map[string]any{"file_path": file}, strings.Repeat("package importer\n\nfunc Parse(row []string) error { return nil }\n", 30))
			case "Edit":
				tool(name, edit{file, "return nil", "return errSkip"}, "The file has been updated.")
			case "Write":
				tool(name, write{file, strings.Repeat("package importer\n", 100)}, "File created successfully")
			case "Grep", "Glob":
				tool(name, map[string]any{"pattern": "Parse", "path": root}, strings.Repeat(file+"\n", 30))
			default:
				tool(name, bash{"go test ./...", "Run the tests"}, out)
			}
		}
		if turn%3 == 0 {
			tool("TodoWrite", todoWrite{[]todo{
				{fmt.Sprintf("Skip bad dates (turn %d)", turn), "in_progress", "Skipping bad dates"},
				{"Log the skipped rows", "pending", "Logging the skipped rows"},
			}}, "Todos have been modified successfully.")
		}
		for _, l := range lines {
			b, err := json.Marshal(l)
			check(err)
			n, err := f.Write(append(b, '\n'))
			check(err)
			have += int64(n)
		}
	}
	check(f.Close())
}

// The entries, with their members in the order Claude Code writes them (an embedded struct's
// members are written where it stands).
type envelope struct {
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	UserType    string `json:"userType"`
	Cwd         string `json:"cwd"`
	SessionID   string `json:"sessionId"`
	Version     string `json:"version"`
	GitBranch   string `json:"gitBranch"`
}

type userEntry struct {
	envelope
	Type      string      `json:"type"`
	Message   userMessage `json:"message"`
	UUID      string      `json:"uuid"`
	Timestamp string      `json:"timestamp"`
}

type userMessage struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

type assistantEntry struct {
	envelope
	Message   assistantMessage `json:"message"`
	RequestID string           `json:"requestId"`
	Type      string           `json:"type"`
	UUID      string           `json:"uuid"`
	Timestamp string           `json:"timestamp"`
}

type assistantMessage struct {
	Model        string  `json:"model"`
	ID           string  `json:"id"`
	Type         string  `json:"type"`
	Role         string  `json:"role"`
	Content      []any   `json:"content"`
	StopReason   *string `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        usage   `json:"usage"`
}

type usage struct {
	Input         int `json:"input_tokens"`
	CacheCreation int `json:"cache_creation_input_tokens"`
	CacheRead     int `json:"cache_read_input_tokens"`
	Output        int `json:"output_tokens"`
}

type toolUse struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input any    `json:"input"`
}

type toolResult struct {
	ToolUseID string `json:"tool_use_id"`
	Type      string `json:"type"`
	Content   string `json:"content"`
}

type thinking struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature"`
}

type text struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type edit struct {
	FilePath  string `json:"file_path"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

type write struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

type bash struct {
	Command     string `json:"command"`
	Description string `json:"description"`
}

type todoWrite struct {
	Todos []todo `json:"todos"`
}

type todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, strings.TrimSuffix(s, "K")
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, strings.TrimSuffix(s, "M")
	case strings.HasSuffix(s, "G"):
		mult, s = 1<<30, strings.TrimSuffix(s, "G")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n * mult, err
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentranscript:", err)
		os.Exit(1)
	}
}
