package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// readFixture lays out a directory for ReadFile and ReadDirNames, with a file leading outside it.
func readFixture(t *testing.T) string {
	t.Helper()
	root, outside := t.TempDir(), t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("file", []byte("hello\x00world\n"))
	write("empty", nil)
	write("limit", bytes.Repeat([]byte("x"), 100))
	write("over", bytes.Repeat([]byte("x"), 101))
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "escape")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	return root
}

// fsysOf are the file systems ReadFile reads through: Open's (os.Root's, its files opened
// non-blocking), os.Root's own and os.DirFS (any fs.FS: a Stat first; os.DirFS does not confine).
func fsysOf(t *testing.T, root string) map[string]fs.FS {
	t.Helper()
	opened, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return map[string]fs.FS{"Open": opened, "os.Root": r.FS(), "os.DirFS": os.DirFS(root)}
}

func TestReadFile(t *testing.T) {
	root := readFixture(t)
	for kind, fsys := range fsysOf(t, root) {
		t.Run(kind, func(t *testing.T) {
			for _, name := range []string{"file", "empty", "limit"} {
				want, _ := os.ReadFile(filepath.Join(root, name))
				got, err := ReadFile(fsys, name, 100)
				if err != nil || !bytes.Equal(got, want) {
					t.Errorf("ReadFile(%s) = %q, %v; want %q", name, got, err, want)
				}
			}
			wantErr(t, fsys, "over", ErrTooLarge, "read over: file larger than the limit")
			wantErr(t, fsys, "dir", ErrIsDir, "read dir: is a directory")
			wantErr(t, fsys, "missing", fs.ErrNotExist, "")
			wantErr(t, fsys, "../x", fs.ErrInvalid, "")
			if kind != "os.DirFS" {
				wantErr(t, fsys, "escape", ErrEscapes, "")
			}
		})
	}
}

// wantErr checks ReadFile's error for name: want in its chain and, when text is not empty, its
// text.
func wantErr(t *testing.T, fsys fs.FS, name string, want error, text string) {
	t.Helper()
	b, err := ReadFile(fsys, name, 100)
	if !errors.Is(err, want) {
		t.Errorf("ReadFile(%s) = %q, %v; want %v", name, b, err, want)
	}
	if text != "" && (err == nil || err.Error() != text) {
		t.Errorf("ReadFile(%s): %v; want %q", name, err, text)
	}
}

// Any fs.FS: fstest.MapFS, its files' modes made up.
func TestReadFileMapFS(t *testing.T) {
	fsys := fstest.MapFS{
		"file":    {Data: []byte("data")},
		"fifo":    {Mode: fs.ModeNamedPipe},
		"dev":     {Mode: fs.ModeDevice | fs.ModeCharDevice},
		"dir/a":   {},
		"too/big": {Data: make([]byte, 11)},
	}
	if b, err := ReadFile(fsys, "file", 10); err != nil || string(b) != "data" {
		t.Errorf("ReadFile(file) = %q, %v", b, err)
	}
	for name, typ := range map[string]fs.FileMode{"fifo": fs.ModeNamedPipe, "dev": fs.ModeDevice | fs.ModeCharDevice} {
		_, err := ReadFile(fsys, name, 10)
		var nr *NotRegularError
		if !errors.As(err, &nr) || nr.Type != typ {
			t.Errorf("ReadFile(%s): %v; want a *NotRegularError of type %v", name, err, typ)
		}
	}
	for name, want := range map[string]error{"dir": ErrIsDir, "too/big": ErrTooLarge, "missing": fs.ErrNotExist} {
		if _, err := ReadFile(fsys, name, 10); !errors.Is(err, want) {
			t.Errorf("ReadFile(%s): %v; want %v", name, err, want)
		}
	}
}

// A file that grows after its size was taken is read to its end, up to the limit.
func TestReadAllGrown(t *testing.T) {
	b, err := readAll("f", strings.NewReader("grown since"), 3, 100)
	if err != nil || string(b) != "grown since" {
		t.Errorf("readAll = %q, %v", b, err)
	}
	if b, err := readAll("f", strings.NewReader("grown since"), 3, 10); !errors.Is(err, ErrTooLarge) {
		t.Errorf("readAll past the limit = %q, %v; want ErrTooLarge", b, err)
	}
}

func TestReadDirNames(t *testing.T) {
	root := t.TempDir()
	for i := range 3000 {
		// Names of every length, so that records straddle getdents64's buffers (some 170 KB of
		// records).
		name := fmt.Sprintf("%04d-%s", i, strings.Repeat("n", i%60))
		if err := os.WriteFile(filepath.Join(root, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range ents {
		want = append(want, e.Name())
	}
	for kind, fsys := range fsysOf(t, root) {
		t.Run(kind, func(t *testing.T) {
			got, err := ReadDirNames(fsys, ".")
			slices.Sort(got)
			if err != nil || !slices.Equal(got, want) {
				t.Errorf("ReadDirNames = %d names, %v; want the %d of os.ReadDir", len(got), err, len(want))
			}
			if names, err := ReadDirNames(fsys, "sub"); err != nil || len(names) != 0 {
				t.Errorf("ReadDirNames(sub) = %q, %v", names, err)
			}
			if _, err := ReadDirNames(fsys, "0001-n"); !errors.Is(err, ErrNotDir) {
				t.Errorf("ReadDirNames(a file): %v; want ErrNotDir", err)
			}
			if _, err := ReadDirNames(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("ReadDirNames(missing): %v; want fs.ErrNotExist", err)
			}
			if _, err := ReadDirNames(fsys, "0001-n/x"); err == nil || errors.Is(err, ErrNotDir) {
				t.Errorf("ReadDirNames(below a file): %v; want an error other than ErrNotDir", err)
			}
		})
	}
}

func TestReadDirNamesMapFS(t *testing.T) {
	fsys := fstest.MapFS{"d/a": {}, "d/b": {}, "d/e/f": {}}
	got, err := ReadDirNames(fsys, "d")
	slices.Sort(got)
	if err != nil || !slices.Equal(got, []string{"a", "b", "e"}) {
		t.Errorf("ReadDirNames(d) = %q, %v", got, err)
	}
	if _, err := ReadDirNames(fsys, "d/a"); !errors.Is(err, ErrNotDir) {
		t.Errorf("ReadDirNames(a file): %v; want ErrNotDir", err)
	}
	if _, err := ReadDirNames(fsys, "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadDirNames(missing): %v; want fs.ErrNotExist", err)
	}
}
