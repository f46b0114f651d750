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
