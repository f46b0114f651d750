package cmd

import (
	"bytes"
	"strings"
	"testing"
)

// TestLifecycleHooksNeverFail: whatever the input, every hook exits 0 with nothing on stdout and
// at most one line on stderr.
func TestLifecycleHooksNeverFail(t *testing.T) {
	for _, hook := range []string{"pre-compact", "session-end", "turn-end", "turn-start"} {
		for _, in := range []string{"", "{", "null", "[]", `{"cwd": 42}`, "\x00\xff", `{"hook_event_name":"PreCompact","cwd":"/no/such/dir"}`, strings.Repeat("x", 1<<21)} {
			var stdout, stderr bytes.Buffer
			code := Main([]string{"-C", t.TempDir(), "hook", hook}, strings.NewReader(in), &stdout, &stderr)
			if code != 0 || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") > 1 {
				t.Errorf("%s, input %.40q: exit %d, stdout %q, stderr %q", hook, in, code, stdout.String(), stderr.String())
			}
		}
	}
}

// TestHookNotesAreEscaped: what the input puts in a hook's note (an event name with an escape
// sequence, say) is escaped like everything else gsd prints, for every hook.
func TestHookNotesAreEscaped(t *testing.T) {
	for _, hook := range []string{"session-start", "pre-compact", "session-end", "turn-end", "turn-start"} {
		var stdout, stderr bytes.Buffer
		in := `{"hook_event_name":"Stop\u001b[2J"}`
		code := Main([]string{"-C", t.TempDir(), "hook", hook}, strings.NewReader(in), &stdout, &stderr)
		want := "gsd: hook " + hook + `: called for Stop\x1b[2J, not `
		if code != 0 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), want) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", hook, code, stdout.String(), stderr.String())
		}
	}
}
