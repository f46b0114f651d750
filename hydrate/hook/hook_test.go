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

// FuzzParseInput: what the flat reader reads is what encoding/json reads.
func FuzzParseInput(f *testing.F) {
	for _, s := range []string{
		`{"session_id":"abc","cwd":"/p","hook_event_name":"SessionStart","source":"fork","extra":1}`,
		`{"session_id":"019d","transcript_path":null,"cwd":"proj","hook_event_name":"SessionStart","model":"gpt-5.1-codex","source":"startup"}`,
		` { "cwd" : "a\"b" , "CWD": "x", "trigger": true } `, `{"reason":"a","reason":"b"}`, `{}`, `{"x":{"y":1}}`,
		`{"cwd":null}`, `{"cwd":"a"} x`, `{"Source":"s"}`, `{"ſource":"s"}`, `{"n":-1.5e3,"t":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, ok := parseFlat(data)
		if !ok {
			return
		}
		var want Input
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("parseFlat read %+v from %q, which encoding/json refuses: %v", in, data, err)
		}
		if in != want {
			t.Fatalf("parseFlat(%q) = %+v, encoding/json %+v", data, in, want)
		}
	})
}

func TestParseInputFlat(t *testing.T) {
	// The inputs agents write are read without encoding/json; the others still are, alike.
	for _, tc := range []struct {
		in   string
		flat bool
	}{
		{`{"session_id":"019d","transcript_path":null,"cwd":"proj","hook_event_name":"SessionStart","source":"startup"}`, true},
		{`{"session_id":"s","cwd":"/p\\q","timestamp":"2026-02-03T10:00:00.000Z","trigger":"auto","n":3}`, true},
		{`{"session_id":"s","tool_input":{"command":"ls"}}`, false},
		{`{"Session_ID":"s"}`, false},
		{`{"cwd":null}`, false},
	} {
		flat, ok := parseFlat([]byte(tc.in))
		in, err := ParseInput([]byte(tc.in))
		var want Input
		json.Unmarshal([]byte(tc.in), &want)
		if ok != tc.flat || err != nil || in != want || ok && flat != want {
			t.Errorf("%s: flat %v (%+v), ParseInput %+v, %v; encoding/json %+v", tc.in, ok, flat, in, err, want)
		}
	}
}

func TestSessionStartOutputAppendJSON(t *testing.T) {
	for _, ctx := range []string{"# brief", "Map<K, V> && \"x\"\n\t\x01 \u2028 \xff"} {
		o := NewSessionStartOutput("SessionStart", ctx)
		want, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.Encode(o)
		if got := string(o.AppendJSON(nil)); got != buf.String() {
			t.Errorf("AppendJSON = %s, encoding/json %s (Marshal %s)", got, buf.String(), want)
		}
	}
}
