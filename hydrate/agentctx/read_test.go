package agentctx

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncremental: a transcript read in two parts, at any line boundary, the second read
// starting at the cursor the first left, yields the capture one read of the whole does: what
// was folded before the window is held (a todo list, a task created before its update, a rewind
// to a message read before).
func TestIncremental(t *testing.T) {
	for _, name := range fixtures {
		data := fixture(t, name)
		whole := foldFile(t, name, data)
		for cut := 0; cut <= len(data); cut++ {
			if cut > 0 && data[cut-1] != '\n' {
				continue
			}
			path := filepath.Join(t.TempDir(), name)
			writeFile(t, path, data[:cut])
			var c Capture
			s, err := Advance(&c, path, Cursor{}, fixtureOpt)
			if err != nil {
				t.Fatal(err)
			}
			appendFile(t, path, data[cut:])
			s2, err := Advance(&c, path, s.Next, fixtureOpt)
			if err != nil {
				t.Fatal(err)
			}
			if s2.Fresh && Detect(name, nil) != Gemini {
				// (Gemini's: a rewind to a message of the first part reads the end afresh.)
				t.Fatalf("%s cut at %d: the cursor did not hold", name, cut)
			}
			if got := marshal(t, &c); !bytes.Equal(got, whole) {
				t.Errorf("%s cut at %d:\n%s\nwant:\n%s", name, cut, got, whole)
			}
			// Nothing appended: nothing read but a torn last line, nothing changed.
			s3, err := Advance(&c, path, s2.Next, fixtureOpt)
			if err != nil || s3.Read != int64(len(data))-s2.Next.Offset || s3.Next != s2.Next || !bytes.Equal(marshal(t, &c), whole) {
				t.Errorf("%s cut at %d: a read with nothing appended read %d bytes (%v)", name, cut, s3.Read, err)
			}
		}
	}
}

func foldFile(t *testing.T, name string, data []byte) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	writeFile(t, path, data)
	var c Capture
	if _, err := Advance(&c, path, Cursor{}, fixtureOpt); err != nil {
		t.Fatal(err)
	}
	return marshal(t, &c)
}

func writeFile(t testing.TB, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendFile(t testing.TB, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
}

// claudeLines are a prompt and a TodoWrite in Claude Code's shape.
func claudePrompt(text string) string {
	return `{"type":"user","isSidechain":false,"timestamp":"2026-03-02T09:00:00.000Z","message":{"role":"user","content":` + quote(text) + `}}` + "\n"
}

func claudeTodo(content string) string {
	return `{"type":"assistant","isSidechain":false,"timestamp":"2026-03-02T09:00:05.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_x","name":"TodoWrite","input":{"todos":[{"content":` + quote(content) + `,"status":"in_progress","activeForm":"Doing it"}]}}]}}` + "\n"
}

func quote(s string) string { return fmt.Sprintf("%q", s) }

// hugeResult is a tool_result line of n bytes: a screenshot or a test log in the transcript.
func hugeResult(n int) string {
	head := `{"type":"user","isSidechain":false,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_big","content":"`
	tail := `"}]}}` + "\n"
	return head + strings.Repeat("A", n-len(head)-len(tail)) + tail
}

// TestLongLine: a 10 MB line is skipped without being decoded, in one window or across reads;
// what comes before and after it is read.
func TestLongLine(t *testing.T) {
	big := hugeResult(10 << 20)
	data := claudePrompt("Speed up the import") + big + claudeTodo("Profile the import")
	var c Capture
	r := Fold(&c, Claude, []byte(data), fixtureOpt)
	if r.Skipped != 1 || c.Prompt != "Speed up the import" || len(c.Todos) != 1 || c.Todos[0].Content != "Profile the import" {
		t.Fatalf("one window: %+v, %+v", r, c)
	}

	// Across reads: the prompt read first; then the line and the todo list appended; the read
	// takes the newest MaxRead bytes and says it left a gap.
	path := filepath.Join(t.TempDir(), "s.jsonl")
	writeFile(t, path, []byte(claudePrompt("Speed up the import")))
	c = Capture{}
	s, err := Advance(&c, path, Cursor{}, fixtureOpt)
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, path, []byte(big+claudeTodo("Profile the import")))
	s, err = Advance(&c, path, s.Next, fixtureOpt)
	if err != nil || !s.Gap || s.Read > MaxRead || c.Prompt != "Speed up the import" || len(c.Todos) != 1 {
		t.Fatalf("across reads: %+v, %+v, %v", s, c, err)
	}

	// The line still being written (no newline yet) and over MaxLine: skipped, not waited for.
	writeFile(t, path, []byte(claudePrompt("first")))
	c = Capture{}
	s, _ = Advance(&c, path, Cursor{}, fixtureOpt)
	appendFile(t, path, []byte(big[:MaxLine+10]))
	s, err = Advance(&c, path, s.Next, fixtureOpt)
	if err != nil || !s.Next.MidLine {
		t.Fatalf("a long line being written: %+v, %v", s.Next, err)
	}
	appendFile(t, path, []byte(big[MaxLine+10:]+claudePrompt("second")))
	if _, err = Advance(&c, path, s.Next, fixtureOpt); err != nil || c.Prompt != "second" {
		t.Fatalf("after the long line: %q, %v", c.Prompt, err)
	}
}

// TestTornLine: a last line still being written is not read, and the cursor stays before it;
// once whole, it is.
func TestTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	line := claudeTodo("Write the migration")
	writeFile(t, path, []byte(claudePrompt("Add a column")+line[:40]))
	var c Capture
	s, err := Advance(&c, path, Cursor{}, fixtureOpt)
	if err != nil || len(c.Todos) != 0 || s.Next.Offset != int64(len(claudePrompt("Add a column"))) {
		t.Fatalf("torn: %+v, %+v, %v", s.Next, c, err)
	}
	appendFile(t, path, []byte(line[40:]))
	if _, err := Advance(&c, path, s.Next, fixtureOpt); err != nil || len(c.Todos) != 1 {
		t.Fatalf("whole: %+v, %v", c, err)
	}
}

// TestCursorDoesNotHold: a transcript replaced, truncated, or rewritten under the cursor is read
// afresh from its end, never from a stale offset.
func TestCursorDoesNotHold(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	writeFile(t, path, []byte(claudePrompt("one")+claudePrompt("two")))
	var c Capture
	s, _ := Advance(&c, path, Cursor{}, fixtureOpt)
	// Rewritten in place to the same length: the bytes before the cursor differ.
	writeFile(t, path, []byte(claudePrompt("uno")+claudePrompt("dos")))
	s2, err := Advance(&c, path, s.Next, fixtureOpt)
	if err != nil || !s2.Fresh || c.Prompt != "dos" {
		t.Errorf("rewritten: %+v, %q, %v", s2.Window.Next, c.Prompt, err)
	}
	// Truncated below the cursor.
	writeFile(t, path, []byte(claudePrompt("tres")))
	s3, err := Advance(&c, path, s2.Next, fixtureOpt)
	if err != nil || !s3.Fresh || c.Prompt != "tres" {
		t.Errorf("truncated: %+v, %q, %v", s3.Window.Next, c.Prompt, err)
	}
	// Replaced by another file under the same name.
	other := filepath.Join(dir, "other.jsonl")
	writeFile(t, other, []byte(claudePrompt("tres")+claudePrompt("cuatro")))
	if err := os.Rename(other, path); err != nil {
		t.Fatal(err)
	}
	s4, err := Advance(&c, path, s3.Next, fixtureOpt)
	if err != nil || (!s4.Fresh && fileID(mustStat(t, path)) != "") || c.Prompt != "cuatro" {
		t.Errorf("replaced: %+v, %q, %v", s4.Window.Next, c.Prompt, err)
	}
}

func mustStat(t *testing.T, path string) os.FileInfo {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// TestHostile: lines that are not JSON, nest deeply, have the wrong types, or are binary give
// a partial capture (what the good lines hold) or none, never a failure, and never more than
// the bounds.
func TestHostile(t *testing.T) {
	deep := strings.Repeat(`{"message":`, 20000) + strings.Repeat("}", 20000)
	deepList := `{"type":"assistant","message":{"content":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}}`
	lines := []string{
		"not json at all",
		"\x00\x01\x02\xff\xfe",
		deep,
		deepList,
		`{"type":"user","message":{"content":5}}`,
		`{"type":"user","isSidechain":"yes","message":{"content":"wrong type of isSidechain"}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":"all of them"}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"TodoWrite","input":{"todos":[5,null,{"content":7}]}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"TaskUpdate","input":{"taskId":{"a":1},"status":[]}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":["/home/ann/src/tasklist/a.go"]}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"bad\nname","input":{}}]}}`,
		`{"type":"last-prompt","lastPrompt":{"x":1}}`,
		`[]`, `null`, `"string"`, `{}`,
		strings.TrimSuffix(claudePrompt("the one good prompt"), "\n"),
	}
	for _, agent := range []string{Claude, Codex, Gemini} {
		var c Capture
		Fold(&c, agent, []byte(strings.Join(lines, "\n")+"\n"), fixtureOpt)
		checkBounds(t, &c)
		if agent == Claude && (c.Prompt != "the one good prompt" || len(c.Todos) != 0 || len(c.Files) != 0 || len(c.Tools) != 3) {
			t.Errorf("claude: %+v", c)
		}
	}
}

// checkBounds fails the test unless c is within every bound a capture has.
func checkBounds(t testing.TB, c *Capture) {
	t.Helper()
	if n := len([]rune(c.Prompt)); n > MaxPromptRunes {
		t.Errorf("prompt of %d runes", n)
	}
	if len(c.Tools) > MaxTools || len(c.Todos) > MaxTodos || len(c.Files) > MaxFiles {
		t.Errorf("lists of %d tools, %d todos, %d files", len(c.Tools), len(c.Todos), len(c.Files))
	}
	for _, name := range c.Tools {
		if !toolName(name) {
			t.Errorf("tool name %q", name)
		}
	}
	for _, td := range c.Todos {
		if status(td.Status) != td.Status || td.Content == "" || len([]rune(td.Content)) > MaxTodoRunes || len([]rune(td.ActiveForm)) > MaxTodoRunes {
			t.Errorf("todo %+v", td)
		}
	}
	for _, f := range c.Files {
		if !filepath.IsLocal(filepath.FromSlash(f)) || len(f) > maxFileBytes {
			t.Errorf("file %q", f)
		}
	}
	if strings.ContainsAny(c.Prompt, "\n\r\x00") {
		t.Errorf("prompt %q is not one line", c.Prompt)
	}
}

// TestCodexLongCompacted: a compacted record too long to decode (it re-embeds the history) is
// still read as a compaction, from its first bytes.
func TestCodexLongCompacted(t *testing.T) {
	line := `{"timestamp":"2026-07-08T16:40:00.000Z","type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","content":"` +
		strings.Repeat("x", 7<<20) + `"}]}}` + "\n"
	var c Capture
	r := Fold(&c, Codex, []byte(line), fixtureOpt)
	if r.Skipped != 1 || c.CompactedAt.Format("15:04:05") != "16:40:00" {
		t.Errorf("%+v, %v", r, c.CompactedAt)
	}
}
