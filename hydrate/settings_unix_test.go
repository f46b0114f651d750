//go:build unix

package hydrate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/identity"
)

// A config file that is a FIFO or a directory is an error naming it, and a FIFO is never
// opened for reading (which would block this test until someone wrote to it).
func TestConfigFileNotRegular(t *testing.T) {
	for name, mk := range map[string]func(string) error{
		"fifo": func(p string) error { return syscall.Mkfifo(p, 0o644) },
		"dir":  func(p string) error { return os.Mkdir(p, 0o755) },
	} {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, ".planning"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := mk(filepath.Join(root, ".planning", "config.json")); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() {
			_, err := Open(Config{Dir: root, Identity: identity.Sources{Flag: "ann"}})
			done <- err
		}()
		want := map[string]string{
			"fifo": ".planning/config.json: not a regular file (p---------)",
			"dir":  ".planning/config.json: is a directory",
		}[name]
		select {
		case err := <-done:
			if err == nil || err.Error() != want {
				t.Errorf("%s: %v, want %s", name, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Open blocked on the config file", name)
		}
	}
}
