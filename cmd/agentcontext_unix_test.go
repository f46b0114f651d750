//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHostileTranscripts: whatever transcript_path names (a FIFO no one writes to, a symlink to
// a device, a 2 GB sparse file, a directory, lines that are not JSON or nest without end), every
// capturing hook exits 0 at once, prints nothing on stdout and at most one line on stderr, and
// the session's SessionStart still gives the brief.
func TestHostileTranscripts(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile files")
	}
	dir := mcpProject(t)
	t.Setenv("XDG_STATE_HOME", "")
	tmp := t.TempDir()
	fifo := filepath.Join(tmp, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(tmp, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	sparse := filepath.Join(tmp, "sparse.jsonl")
	if f, err := os.Create(sparse); err == nil {
		_ = f.Truncate(2 << 30)
		f.Close()
	}
	garbage := filepath.Join(tmp, "garbage.jsonl")
	data := "\x00\xff not json\n" + strings.Repeat("[", 200000) + "\n" + strings.Repeat(`{"a":`, 50000) + "\n" +
		`{"type":"user","message":{"content":{"nested":[1,2,3]}}}` + "\n" + `{"type":"assistant","message":{"content":"tool_use"}}` + "\n"
	if err := os.WriteFile(garbage, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, zero, sparse, garbage, tmp, strings.Repeat("x/", 3000)} {
		for _, h := range []struct{ sub, event string }{{"turn-end", "Stop"}, {"pre-compact", "PreCompact"}, {"session-end", "SessionEnd"}, {"turn-end", "AfterAgent"}} {
			in, _ := json.Marshal(map[string]any{"session_id": "s", "transcript_path": path, "cwd": dir, "hook_event_name": h.event})
			var stdout, stderr bytes.Buffer
			code := Main([]string{"-C", dir, "--user", "ann", "hook", h.sub}, bytes.NewReader(in), &stdout, &stderr)
			if code != 0 || stdout.Len() > 0 || strings.Count(stderr.String(), "\n") > 1 {
				t.Errorf("%s on %.40s: exit %d, stdout %q, stderr %q", h.sub, path, code, stdout.String(), stderr.String())
			}
		}
	}
	out := hookRun(t, dir, "ann", "session-start", map[string]any{"session_id": "s2", "cwd": dir, "hook_event_name": "SessionStart", "source": "clear"})
	if !strings.Contains(out, "# GSD resume brief") || strings.Contains(out, "Before the reset") {
		t.Errorf("SessionStart after hostile transcripts: %s", out)
	}
}
