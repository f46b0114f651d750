package cmd

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// TestHookStdinNeverCloses: a hook runner that leaves stdin open must not hang the session.
func TestHookStdinNeverCloses(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	defer func(d time.Duration) { hookStdinWait = d }(hookStdinWait)
	hookStdinWait = 50 * time.Millisecond
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := Main([]string{"-C", t.TempDir(), "hook", "session-start"}, r, &stdout, &stderr)
	if code != 0 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "no hook input on stdin") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestHookNeverFails: whatever the input, exit 0 and at most one line on stderr.
func TestHookNeverFails(t *testing.T) {
	for _, in := range []string{"", "{", "null", "[]", `{"cwd": 42}`, "\x00\xff"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"-C", t.TempDir(), "hook", "session-start"}, strings.NewReader(in), &stdout, &stderr)
		if code != 0 || strings.Count(stderr.String(), "\n") > 1 {
			t.Errorf("input %q: exit %d, stderr %q", in, code, stderr.String())
		}
	}
}
