//go:build unix

package hydrate

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// holdFlock locks the file at path as a live writer does its temporary file, until the test ends.
func holdFlock(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
}
