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

// The raw reader and the portable one agree on every kind of file, and neither blocks on a FIFO
// nobody writes to.
func TestReadRegularAgreesWithPortable(t *testing.T) {
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
		var raw, portable []byte
		var rawErr, portableErr error
		go func() {
			defer close(done)
			raw, rawErr = readRegular(c.name, c.limit)
			portable, portableErr = readPortable(c.name, c.limit)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: reading blocked", c.name)
		}
		if (rawErr == nil) != (portableErr == nil) || string(raw) != string(portable) {
			t.Errorf("%s: raw %q, %v; portable %q, %v", c.name, raw, rawErr, portable, portableErr)
		}
		switch {
		case c.want == "" && rawErr != nil:
			t.Errorf("%s: %v", c.name, rawErr)
		case c.want != "" && (rawErr == nil || !strings.Contains(rawErr.Error(), c.want)):
			t.Errorf("%s: error %v, want %q", c.name, rawErr, c.want)
		case c.want != "" && portableErr.Error() != rawErr.Error() && !strings.Contains(c.want, "no such"):
			t.Errorf("%s: raw says %q, portable %q", c.name, rawErr, portableErr)
		}
	}
}
