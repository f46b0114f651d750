package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Opening a name in its directory, opened once, answers as os.Root alone does: the same file,
// or the same kind of error, for names through symlinks that stay in their directory, leave it
// for another of the project, or leave the project.
func TestDirRootsAsRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"p/a/x", "p/b"} {
		must(os.MkdirAll(filepath.Join(root, d), 0o755))
	}
	must(os.WriteFile(filepath.Join(root, "p/a/x/f"), []byte("a/x/f"), 0o644))
	must(os.WriteFile(filepath.Join(root, "p/b/g"), []byte("b/g"), 0o644))
	must(os.WriteFile(filepath.Join(root, "top"), []byte("top"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644))
	links := map[string]string{
		"p/a/x/same":   "f",            // in its directory
		"p/a/x/sister": "../../b/g",    // out of its directory, in the project
		"p/a/x/up":     "../../../top", // to the top
		"p/a/x/out":    "../../../../" + filepath.Base(outside) + "/secret",
		"p/a/x/abs":    filepath.Join(outside, "secret"),
		"p/a/x/loop":   "loop",
		"p/a/bdir":     "../b",  // a directory elsewhere in the project
		"p/a/outdir":   outside, // a directory outside
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	fsys, err := Open(root)
	must(err)
	defer Close(fsys)
	r, err := os.OpenRoot(root)
	must(err)
	defer r.Close()
	oracle := r.FS()
	names := []string{"top", "p/a/x/f", "p/b/g", "p/a/x", "p/a/bdir/g", "p/a/outdir/secret", "missing",
		"p/missing/f", "top/f", "p/a/x/f/g"}
	for name := range links {
		names = append(names, name)
	}
	// Twice: the second time through the directories the first opened.
	for range 2 {
		for _, name := range names {
			got, gotErr := readThrough(fsys, name)
			want, wantErr := readThrough(oracle, name)
			if got != want || (gotErr == nil) != (wantErr == nil) ||
				errors.Is(gotErr, fs.ErrNotExist) != errors.Is(wantErr, fs.ErrNotExist) ||
				errors.Is(gotErr, ErrEscapes) != isEscape(wantErr) {
				t.Errorf("%s: %q, %v; os.Root says %q, %v", name, got, gotErr, want, wantErr)
			}
			var pe *fs.PathError
			if errors.As(gotErr, &pe) && pe.Path != name {
				t.Errorf("%s: the error names %q", name, pe.Path)
			}
			gotFI, gotErr := fs.Stat(fsys, name)
			wantFI, wantErr := fs.Stat(oracle, name)
			if (gotErr == nil) != (wantErr == nil) || gotErr == nil && (gotFI.Mode() != wantFI.Mode() || gotFI.Size() != wantFI.Size()) {
				t.Errorf("Stat(%s) = %v, %v; os.Root says %v, %v", name, gotFI, gotErr, wantFI, wantErr)
			}
		}
	}
}

// readThrough is name's content, or its type for a directory.
func readThrough(fsys fs.FS, name string) (string, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return "directory", nil
	}
	b, err := io.ReadAll(f)
	return string(b), err
}

// Goroutines sharing one FS open its directories once between them (go test -race checks it).
func TestDirRootsShared(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/b", "a/c"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "f"), []byte(d), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fsys, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer Close(fsys)
	done := make(chan error)
	for i := range 8 {
		go func() {
			d := []string{"a/b", "a/c"}[i%2]
			b, err := ReadFile(fsys, d+"/f", 100)
			if err == nil && string(b) != d {
				err = errors.New("read " + string(b) + " from " + d)
			}
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
	openedOnce(t, fsys, "a", "a/b", "a/c")
}

// openedOnce checks that fsys keeps exactly the directories want open, one os.Root each.
func openedOnce(t *testing.T, fsys fs.FS, want ...string) {
	t.Helper()
	r := fsys.(*rootFS)
	r.mu.Lock()
	defer r.mu.Unlock()
	var got []string
	for d := range r.dirs {
		got = append(got, d)
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("directories opened %q, want %q", got, want)
	}
}
