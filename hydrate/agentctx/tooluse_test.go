package agentctx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// sameAsDecoded fails the test unless toolUses, where it reads a line that is JSON, finds what
// decoding the whole line finds: the same calls, in order, with the same inputs. (On a line that
// is not JSON, a corrupt one, it may find calls the decoder would not: their names are held to
// a tool name's shape and their inputs are decoded, as ever, so the capture stays in its
// bounds.)
func sameAsDecoded(t *testing.T, line []byte) {
	t.Helper()
	calls, ok := toolUses(line)
	if !ok || !json.Valid(line) {
		return
	}
	var e claudeEntry
	if !claudeDecode(line, &e) {
		t.Fatalf("toolUses read a line that does not decode: %q", line)
	}
	var want []claudeBlock
	for _, b := range e.Message.Content {
		if b.Type == "tool_use" {
			want = append(want, b)
		}
	}
	if e.IsSidechain || len(calls) != len(want) {
		t.Fatalf("toolUses found %d calls (sidechain %v), decoding %d: %q", len(calls), e.IsSidechain, len(want), line)
	}
	for i := range calls {
		c := &calls[i]
		var fast, whole any
		fastOK := c.decode(&fast)
		wholeOK := json.Unmarshal(want[i].Input, &whole) == nil
		if c.id != want[i].ID || c.name != want[i].Name || fastOK != wholeOK || !reflect.DeepEqual(fast, whole) || !samePath(c, want[i].Input) {
			t.Fatalf("call %d: %q %q %v, decoded %q %q %v", i, c.id, c.name, fast, want[i].ID, want[i].Name, whole)
		}
	}
}

// TestToolUsesOracle: on every line of the fixtures, toolUses agrees with the decoder; it reads
// the tool calls Claude Code writes, and declines a line written otherwise.
func TestToolUsesOracle(t *testing.T) {
	read := 0
	for _, name := range fixtures {
		data := fixture(t, name)
		for _, line := range bytes.Split(data, []byte("\n")) {
			if _, ok := toolUses(line); ok {
				read++
			}
			sameAsDecoded(t, line)
		}
	}
	if read < 20 {
		t.Errorf("toolUses read %d fixture lines", read)
	}
	for _, line := range []string{
		`{"isSidechain":true,"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Edit","input":{}}]}}`,
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Edit","input":{}}]}}`,
		`{"isSidechain":false,"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Ed\u0069t","input":{}}]}}`,
		`{"isSidechain":false,"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit","id":"t","input":{}}]}}`,
	} {
		if calls, ok := toolUses([]byte(line)); ok {
			t.Errorf("read %q: %+v", line, calls)
		}
	}
}

// claudeAssistant is an assistant entry with its members in the order Claude Code writes them.
type claudeAssistant struct {
	ParentUUID  string `json:"parentUuid"`
	IsSidechain bool   `json:"isSidechain"`
	UserType    string `json:"userType"`
	Cwd         string `json:"cwd"`
	SessionID   string `json:"sessionId"`
	Version     string `json:"version"`
	GitBranch   string `json:"gitBranch"`
	Message     struct {
		Model   string `json:"model"`
		ID      string `json:"id"`
		Type    string `json:"type"`
		Role    string `json:"role"`
		Content []any  `json:"content"`
		Usage   any    `json:"usage"`
	} `json:"message"`
	RequestID string `json:"requestId"`
	Type      string `json:"type"`
	UUID      string `json:"uuid"`
	Timestamp string `json:"timestamp"`
}

type toolUseBlock struct {
	Type  string `json:"type"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Input any    `json:"input"`
}

// FuzzToolUses: on any assistant entry in Claude Code's layout (whatever its ids, names, inputs,
// blocks and texts), toolUses reads it unless an escape or a subagent's mark says otherwise, and
// agrees with the decoder. (A line made to mislead it, a second "tool_use" object outside the
// content in a line otherwise Claude Code's, gives one more tool name, held to a name's shape:
// FuzzFold holds the capture to its bounds whatever the line.)
func FuzzToolUses(f *testing.F) {
	f.Add("toolu_1", "Edit", `{"file_path":"/home/ann/src/tasklist/a.go","old_string":"x"}`, uint8(1), "some text")
	f.Add("toolu_\\2", "TodoWrite", `{"todos":[{"content":"a","status":"pending"}]}`, uint8(6), "")
	f.Add("toolu_3", "Bash", `{"command":"ls"}`, uint8(16|32|3), "before and after")
	f.Fuzz(func(t *testing.T, id, name, input string, shape uint8, text string) {
		var e claudeAssistant
		e.ParentUUID, e.IsSidechain, e.UserType, e.Cwd, e.SessionID, e.Version = "u1", shape&8 != 0, "external", root, "s", "2.1.0"
		e.Message.Model, e.Message.ID, e.Message.Type, e.Message.Role = "m", "msg_1", "message", "assistant"
		e.Message.Usage = map[string]int{"input_tokens": 3}
		e.RequestID, e.Type, e.UUID, e.Timestamp = "r", "assistant", "u2", "2026-02-03T10:00:00Z"
		var in any = input
		if json.Valid([]byte(input)) {
			in = json.RawMessage(input)
		}
		if shape&16 != 0 {
			e.Message.Content = append(e.Message.Content, map[string]string{"type": "text", "text": text})
		}
		for k := 0; k <= int(shape%4); k++ {
			e.Message.Content = append(e.Message.Content, toolUseBlock{"tool_use", id + string(rune('a'+k)), name, in})
		}
		if shape&32 != 0 {
			e.Message.Content = append(e.Message.Content, map[string]string{"type": "text", "text": text})
		}
		line, err := json.Marshal(e)
		if err != nil {
			t.Skip()
		}
		sameAsDecoded(t, line)
		plain := func(s string) bool { q, _ := json.Marshal(s); return string(q) == `"`+s+`"` }
		if calls, ok := toolUses(line); !ok && shape&(8|16) == 0 && plain(id) && plain(name) {
			t.Errorf("a line in Claude Code's layout was not read: %s", line)
		} else if ok && len(calls) != int(shape%4)+1 {
			t.Errorf("%d calls read of %d: %s", len(calls), shape%4+1, line)
		}
	})
}

// samePath reports whether the file_path the call's input gives without decoding, when it gives
// one, is the decoded input's.
func samePath(c *toolCall, input json.RawMessage) bool {
	p, ok := c.filePath()
	if !ok {
		return true
	}
	var in struct {
		FilePath *string `json:"file_path"`
	}
	return json.Unmarshal(input, &in) == nil && in.FilePath != nil && *in.FilePath == p
}
