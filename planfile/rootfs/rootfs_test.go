package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"
)

// project lays out a directory with a file, a subdirectory, symlinks that stay inside and
// symlinks that lead out, and returns it with the outside directory.
func project(t *testing.T) (string, string) {
	t.Helper()
	root, outside := t.TempDir(), t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, ".planning", "phases", "01-a"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".planning", "ROADMAP.md"), []byte("# Roadmap\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, ".planning", "phases", "01-a", "01-01-PLAN.md"), []byte("plan"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644))
	must(os.Symlink("phases/01-a/01-01-PLAN.md", filepath.Join(root, ".planning", "inside")))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, ".planning", "absolute")))
	must(os.Symlink("../../"+filepath.Base(outside)+"/secret", filepath.Join(root, ".planning", "relative-out")))
	must(os.Symlink("loop", filepath.Join(root, ".planning", "loop")))
	return root, outside
}

func TestConfined(t *testing.T) {
	root, _ := project(t)
	fsys, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(fsys, ".planning/phases")
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(sub, "01-a/01-01-PLAN.md"); err != nil {
		t.Fatal(err)
	}
	b, err := fs.ReadFile(fsys, ".planning/inside")
	if err != nil || string(b) != "plan" {
		t.Errorf("a symlink that stays inside: %q, %v", b, err)
	}
	for _, name := range []string{".planning/absolute", ".planning/relative-out"} {
		if _, err := fsys.Open(name); err == nil || !errors.Is(err, ErrEscapes) && !isEscape(err) {
			t.Errorf("Open(%s) = %v, want an escape", name, err)
		}
		if _, err := fs.Stat(fsys, name); err == nil {
			t.Errorf("Stat(%s) succeeded", name)
		}
	}
	for _, name := range []string{"../x", "/etc/passwd", ".planning/../../x"} {
		if _, err := fsys.Open(name); err == nil {
			t.Errorf("Open(%q) succeeded", name)
		}
	}
	if _, err := fsys.Open(".planning/loop"); err == nil {
		t.Error("a symlink loop opened")
	}
	if _, err := fsys.Open(".planning/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v, want fs.ErrNotExist", err)
	}
	// A directory lists by name without lstat'ing its entries.
	f, err := fsys.Open(".planning")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rd, ok := f.(interface{ Readdirnames(int) ([]string, error) })
	if !ok {
		t.Fatalf("%T has no Readdirnames", f)
	}
	names, err := rd.Readdirnames(-1)
	slices.Sort(names)
	if err != nil || !slices.Equal(names, []string{"ROADMAP.md", "absolute", "inside", "loop", "phases", "relative-out"}) {
		t.Errorf("Readdirnames = %v, %v", names, err)
	}
}
