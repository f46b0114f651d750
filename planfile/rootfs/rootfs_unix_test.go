//go:build unix

package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A FIFO is seen by Stat without blocking, so that readers can refuse it before opening it.
func TestStatFIFODoesNotBlock(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan fs.FileInfo, 1)
	go func() {
		fi, _ := fs.Stat(fsys, "fifo")
		done <- fi
	}()
	select {
	case fi := <-done:
		if fi == nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("Stat(fifo) = %v", fi)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stat of a FIFO blocked")
	}
}

// fs.ReadDir lists as os.ReadDir does (names, order, types), with the same error for a file.
func TestLinuxReadDirAsOS(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"b-dir", "d-dir/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "c-file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "a-fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("b-dir", filepath.Join(root, "e-link")); err != nil {
		t.Fatal(err)
	}
	fsys := openT(t, root)
	want, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fs.ReadDir(fsys, ".")
	if err != nil || len(got) != len(want) {
		t.Fatalf("ReadDir = %v, %v; want %v", got, err, want)
	}
	for i := range got {
		if got[i].Name() != want[i].Name() || got[i].Type() != want[i].Type() || got[i].IsDir() != want[i].IsDir() {
			t.Errorf("entry %d = %v; os says %v", i, got[i], want[i])
		}
	}
	_, err = fs.ReadDir(fsys, "c-file")
	if err == nil || err.Error() != "readdirent c-file: not a directory" || !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("ReadDir(a file): %v", err)
	}
	if _, err := fs.ReadDir(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDir(missing): %v", err)
	}
}

// Nothing opened through Open's FS waits on a named pipe: not an Open, not a listing of one.
func TestOpenFIFODoesNotBlock(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys := openT(t, root)
	done := make(chan error, 2)
	go func() {
		f, err := fsys.Open("fifo")
		if err == nil {
			f.Close()
		}
		done <- err
		_, err = fs.ReadDir(fsys, "fifo")
		done <- err
	}()
	for _, what := range []string{"Open(fifo)", "ReadDir(fifo)"} {
		select {
		case err := <-done:
			if what == "ReadDir(fifo)" && err == nil {
				t.Errorf("%s listed a named pipe", what)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s blocked", what)
		}
	}
}

// openT is Open's FS, closed when the test ends.
func openT(t *testing.T, root string) fs.FS {
	t.Helper()
	fsys, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { Close(fsys) })
	return fsys
}
