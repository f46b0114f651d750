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

// Stat gives what os.Stat gives, and a directory entry's Info what os.Lstat gives, through the
// directories Open's FS opens once.
func TestStatAsOS(t *testing.T) {
	root := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "file"), []byte("twelve bytes"), 0o640))
	must(os.Chmod(filepath.Join(root, "file"), 0o640|os.ModeSetuid|os.ModeSetgid))
	must(os.Mkdir(filepath.Join(root, "dir"), 0o755))
	must(os.Chmod(filepath.Join(root, "dir"), 0o755|os.ModeSticky))
	must(syscall.Mkfifo(filepath.Join(root, "fifo"), 0o600))
	must(os.Symlink("file", filepath.Join(root, "link")))
	fsys := openT(t, root)
	for _, name := range []string{"file", "dir", "fifo", "link"} {
		want, err := os.Stat(filepath.Join(root, name))
		must(err)
		got, err := fs.Stat(fsys, name)
		must(err)
		sameInfo(t, "Stat("+name+")", got, want)
	}
	ents, err := fs.ReadDir(fsys, ".")
	must(err)
	for _, e := range ents {
		want, err := os.Lstat(filepath.Join(root, e.Name()))
		must(err)
		got, err := e.Info()
		must(err)
		sameInfo(t, "Info("+e.Name()+")", got, want)
	}
}

func sameInfo(t *testing.T, what string, got, want fs.FileInfo) {
	t.Helper()
	if got.Name() != want.Name() || got.Size() != want.Size() || got.Mode() != want.Mode() ||
		!got.ModTime().Equal(want.ModTime()) || got.IsDir() != want.IsDir() {
		t.Errorf("%s = %s %d %v %v; os says %s %d %v %v", what,
			got.Name(), got.Size(), got.Mode(), got.ModTime(), want.Name(), want.Size(), want.Mode(), want.ModTime())
	}
}

// fs.ReadDir lists as os.ReadDir does (names, order, types), with the same error for a file.
func TestReadDirAsOS(t *testing.T) {
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
