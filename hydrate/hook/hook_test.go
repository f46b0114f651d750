package hook

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestParseInput(t *testing.T) {
	in, err := ParseInput([]byte(`{"session_id":"abc","cwd":"/p","hook_event_name":"SessionStart","source":"fork","extra":1}`))
	if err != nil || in.SessionID != "abc" || in.Cwd != "/p" || in.HookEventName != "SessionStart" || in.Source != "fork" {
		t.Errorf("ParseInput = %+v, %v", in, err)
	}
	for _, empty := range []string{"", " \n\t"} {
		if _, err := ParseInput([]byte(empty)); !errors.Is(err, ErrNoInput) {
			t.Errorf("ParseInput(%q) = %v, want ErrNoInput", empty, err)
		}
	}
	for _, bad := range []string{"garbage", `{"session_id":`, "[1,2]", `"text"`} {
		_, err := ParseInput([]byte(bad))
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "stdin is not the hook's JSON") {
			t.Errorf("ParseInput(%q) = %v, want a one-line error", bad, err)
		}
	}
}

func TestSessionStartOutput(t *testing.T) {
	b, err := json.Marshal(NewSessionStartOutput("SessionStart", "# brief"))
	if err != nil || string(b) != `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"# brief"}}` {
		t.Errorf("output = %s, %v", b, err)
	}
}

// What agents write parses: Claude Code's input, Codex's with a null, keys gsd does not read.
func TestParseInputAgents(t *testing.T) {
	for in, want := range map[string]Input{
		`{"session_id":"019d","transcript_path":null,"cwd":"proj","hook_event_name":"SessionStart","model":"gpt-5.1-codex","source":"startup"}`: {SessionID: "019d", Cwd: "proj", HookEventName: "SessionStart", Source: "startup"},
		`{"session_id":"s","cwd":"/p\\q","timestamp":"2026-02-03T10:00:00.000Z","trigger":"auto","n":3,"tool_input":{"command":"ls"}}`:          {SessionID: "s", Cwd: `/p\q`, Trigger: "auto"},
	} {
		if got, err := ParseInput([]byte(in)); err != nil || got != want {
			t.Errorf("ParseInput(%s) = %+v, %v; want %+v", in, got, err, want)
		}
	}
}

// SessionStart's output is one line of JSON, the brief's text as written (no HTML escaping).
func TestSessionStartOutputWrite(t *testing.T) {
	ctx := "Map<K, V> && \"x\"\n\t\x01 \u2028"
	var buf strings.Builder
	if err := NewSessionStartOutput("SessionStart", ctx).Write(&buf); err != nil {
		t.Fatal(err)
	}
	want := `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"Map<K, V> && \"x\"\n\t\u0001 \u2028"}}` + "\n"
	if buf.String() != want {
		t.Errorf("Write = %s, want %s", buf.String(), want)
	}
}
