//go:build unix

package agentctx

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestHostileFiles: a FIFO (no writer: a plain open would wait forever), a symlink to a device,
// a directory and a missing file are refused at once without a byte read; a 2 GB sparse file is
// read only at its end, at most TailRead bytes the first time and nothing more after.
func TestHostileFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.jsonl")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{fifo, zero, dir, filepath.Join(dir, "missing.jsonl"), "", strings.Repeat("x", 5000)} {
		var c Capture
		s, err := Advance(&c, path, Cursor{}, fixtureOpt)
		if err == nil || s.Read != 0 || !c.Empty() {
			t.Errorf("%.40s: %+v, %v", path, s, err)
		}
	}

	sparse := filepath.Join(dir, "sparse.jsonl")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(2 << 30); err != nil {
		f.Close()
		t.Skipf("no 2 GB sparse file here: %v", err)
	}
	f.Close()
	var c Capture
	s, err := Advance(&c, sparse, Cursor{}, fixtureOpt)
	if err != nil || s.Read != TailRead || !s.Next.MidLine || !c.Empty() {
		t.Fatalf("sparse: %+v, %v", s, err)
	}
	// Appended to: only what was appended is read.
	appendFile(t, sparse, []byte("\n"+claudePrompt("after the zeros")))
	s2, err := Advance(&c, sparse, s.Next, fixtureOpt)
	if err != nil || s2.Read > int64(len(claudePrompt("after the zeros"))+1) || c.Prompt != "after the zeros" {
		t.Fatalf("sparse, appended: %+v, %q, %v", s2, c.Prompt, err)
	}
}
