//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// ReadFile reads a regular file and refuses every other kind by its type, without blocking on a
// FIFO nobody writes to.
func TestReadFileKinds(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "empty")
	_ = os.WriteFile(empty, nil, 0o644)
	text := filepath.Join(dir, "text")
	_ = os.WriteFile(text, []byte(strings.Repeat("gsd\n", 5000)), 0o644)
	link := filepath.Join(dir, "link")
	_ = os.Symlink("text", link)
	for _, c := range []struct {
		name  string
		limit int64
		want  string // the error's text, or "" and the file's bytes
	}{
		{fifo, 100, "not a regular file (a named pipe)"},
		{"/dev/null", 100, "not a regular file (a device)"},
		{dir, 100, "not a regular file (a directory)"},
		{empty, 100, ""},
		{text, 1 << 20, ""},
		{link, 1 << 20, ""},
		{text, 19999, "larger than the 19999 bytes gsd reads"},
		{filepath.Join(dir, "missing"), 100, "no such file"},
	} {
		done := make(chan struct{})
		var got []byte
		var err error
		go func() {
			defer close(done)
			got, err = ReadFile(c.name, c.limit)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading blocked", c.name)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want == "":
			if want, _ := os.ReadFile(c.name); string(got) != string(want) {
				t.Errorf("%s: read %d bytes, os.ReadFile %d", c.name, len(got), len(want))
			}
		case err == nil || !strings.Contains(err.Error(), c.want):
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
