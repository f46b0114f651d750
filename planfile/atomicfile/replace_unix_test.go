//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// linkNoReplace is the only CreateExclusive path on macOS and the BSDs, and Linux's fallback
// where renameat2 is unsupported, so test it directly too.
func TestLinkNoReplace(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, ".b1"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := linkNoReplace(a, b); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("over an existing file: got %v, want fs.ErrExist", err)
	}
	assertContent(t, b, "old")
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	if err := linkNoReplace(a, b); err != nil {
		t.Fatal(err)
	}
	assertContent(t, b, "new")
	if _, err := os.Lstat(a); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("old name still there: %v", err)
	}
}

func TestSyncDir(t *testing.T) {
	if err := syncDir(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if err := syncDir(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("got %v, want fs.ErrNotExist", err)
	}
}
