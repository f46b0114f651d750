package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// dirNames lists dir's entries, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// assertNoTemp fails if dir holds anything IsTemp recognises.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	for _, name := range dirNames(t, dir) {
		if IsTemp(name) || strings.HasPrefix(name, ".") {
			t.Errorf("left behind in %s: %s", dir, name)
		}
	}
}

func assertContent(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s = %q, want %q", path, got, want)
	}
}

func assertPerm(t *testing.T, path string, want fs.FileMode) {
	t.Helper()
	if runtime.GOOS == "windows" {
		return // only the read-only bit exists there
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s has mode %v, want %v", path, got, want)
	}
}

// symlinkOrSkip creates a symlink, skipping the test where that needs privileges (Windows).
func symlinkOrSkip(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("cannot create symlinks: %v", err)
		}
		t.Fatal(err)
	}
}

func TestWriteFileReplacesContent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "current-plan.md")
	if err := os.WriteFile(path, []byte("old content that is longer\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, []byte("new\r\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "new\r\n")
	if err := WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "")
	assertNoTemp(t, dir)
}

func TestWriteFileKeepsPermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permission bits on Windows")
	}
	// 0o666 and 0o604 are beyond a 022 umask: kept all the same, as they belong to the file.
	for _, perm := range []fs.FileMode{0o600, 0o640, 0o604, 0o666, 0o755} {
		t.Run(perm.String(), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "f")
			if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, perm); err != nil {
				t.Fatal(err)
			}
			// The perm argument is for new files only; it must not leak onto an existing one.
			if err := WriteFile(path, []byte("new"), 0o644); err != nil {
				t.Fatal(err)
			}
			assertContent(t, path, "new")
			assertPerm(t, path, perm)
		})
	}
}

func TestWriteFileNewFileGetsPerm(t *testing.T) {
	dir := t.TempDir()
	for _, perm := range []fs.FileMode{0o600, 0o640} { // both inside any usual umask
		path := filepath.Join(dir, "new-"+perm.String())
		if err := WriteFile(path, []byte("x"), perm); err != nil {
			t.Fatal(err)
		}
		assertContent(t, path, "x")
		assertPerm(t, path, perm)
	}
	assertNoTemp(t, dir)
}

func TestWriteFileFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	realDir := filepath.Join(dir, "real")
	if err := os.Mkdir(realDir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(realDir, "plan.md")
	if err := os.WriteFile(target, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	symlinkOrSkip(t, filepath.Join("real", "plan.md"), link) // relative, as users make them

	if err := WriteFile(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symlink (mode %v)", link, fi.Mode())
	}
	assertContent(t, target, "new")
	assertPerm(t, target, 0o640)
	assertNoTemp(t, dir)
	assertNoTemp(t, realDir) // the temporary file went next to the target, and is gone
}

func TestWriteFileSymlinkChainAndDangling(t *testing.T) {
	dir := t.TempDir()
	// a -> b -> c, and c does not exist yet: the write creates c and keeps both links.
	symlinkOrSkip(t, "b", filepath.Join(dir, "a"))
	symlinkOrSkip(t, "c", filepath.Join(dir, "b"))
	if err := WriteFile(filepath.Join(dir, "a"), []byte("via chain"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, filepath.Join(dir, "c"), "via chain")
	for _, name := range []string{"a", "b"} {
		fi, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s was replaced by a regular file", name)
		}
	}
	if got, want := dirNames(t, dir), []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("directory holds %q, want %q", got, want)
	}
}

func TestWriteFileSymlinkDotDotThroughLinkedDir(t *testing.T) {
	// dir/alias -> dir/deep/inner, and alias/up.md -> ../x.md. The kernel resolves ".." from
	// dir/deep/inner, giving dir/deep/x.md; a lexical join would wrongly give dir/x.md.
	dir := t.TempDir()
	inner := filepath.Join(dir, "deep", "inner")
	if err := os.MkdirAll(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	symlinkOrSkip(t, inner, filepath.Join(dir, "alias"))
	symlinkOrSkip(t, filepath.Join("..", "x.md"), filepath.Join(inner, "up.md"))
	if err := WriteFile(filepath.Join(dir, "alias", "up.md"), []byte("deep"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, filepath.Join(dir, "deep", "x.md"), "deep")
	if _, err := os.Lstat(filepath.Join(dir, "x.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("wrote %s, which the link does not point to", filepath.Join(dir, "x.md"))
	}
}

func TestWriteFileSymlinkLoop(t *testing.T) {
	dir := t.TempDir()
	symlinkOrSkip(t, "b", filepath.Join(dir, "a"))
	symlinkOrSkip(t, "a", filepath.Join(dir, "b"))
	err := WriteFile(filepath.Join(dir, "a"), []byte("x"), 0o600)
	if err == nil {
		t.Fatal("write through a symlink loop succeeded")
	}
	assertNoTemp(t, dir)
}

func TestWriteFileMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "sessions", "ann")
	path := filepath.Join(missing, "current-plan.md")
	err := WriteFile(path, []byte("x"), 0o644)
	if err == nil {
		t.Fatal("write into a missing directory succeeded")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error does not wrap fs.ErrNotExist: %v", err)
	}
	// Names the file asked for and the directory that is missing, not a random temporary name.
	msg := err.Error()
	if !strings.HasPrefix(msg, "write "+path+": ") || !strings.Contains(msg, missing) || strings.Contains(msg, ".current-plan.md") {
		t.Errorf("unclear error: %v", err)
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}

func TestWriteFileRefusesDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.md")
	if err := os.Mkdir(path, 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, []byte("x"), 0o644)
	if err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("WriteFile over a directory: got %v, want an error naming %s", err, path)
	}
	if got := dirNames(t, dir); !slices.Equal(got, []string{"plan.md"}) {
		t.Errorf("left behind: %q", got)
	}
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		t.Errorf("directory was replaced: %v %v", fi, err)
	}
}

// failBeforeRename makes the next writes fail after their temporary file was written and synced,
// just before the rename, and records the temporary names. Tests using it must not be parallel.
func failBeforeRename(t *testing.T) *[]string {
	t.Helper()
	var seen []string
	testHookBeforeRename = func(tmp string) error {
		seen = append(seen, tmp)
		if _, err := os.Stat(tmp); err != nil {
			t.Errorf("temporary file missing before rename: %v", err)
		}
		return errors.New("injected failure")
	}
	t.Cleanup(func() { testHookBeforeRename = nil })
	return &seen
}

func TestWriteFileFailureLeavesTargetAndNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "current-plan.md")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	seen := failBeforeRename(t)
	err := WriteFile(path, []byte("new"), 0o644)
	if err == nil || !strings.Contains(err.Error(), "injected failure") || !strings.HasPrefix(err.Error(), "write "+path+": ") {
		t.Fatalf("got %v, want the injected failure wrapped with the path", err)
	}
	if len(*seen) != 1 {
		t.Fatalf("hook ran %d times, want 1", len(*seen))
	}
	tmp := (*seen)[0]
	if filepath.Dir(tmp) != dir || !IsTemp(tmp) || !strings.HasPrefix(filepath.Base(tmp), ".current-plan.md") {
		t.Errorf("temporary file %s is not a recognisable dot-file next to the target", tmp)
	}
	assertContent(t, path, "old")
	if got := dirNames(t, dir); !slices.Equal(got, []string{"current-plan.md"}) {
		t.Errorf("directory holds %q after a failed write", got)
	}
}

func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "current-plan.2026-01-02.md")
	if err := CreateExclusive(path, []byte("archived\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "archived\n")
	assertPerm(t, path, 0o640)

	err := CreateExclusive(path, []byte("other"), 0o640)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second create: got %v, want fs.ErrExist", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error does not name the file: %v", err)
	}
	assertContent(t, path, "archived\n")
	assertNoTemp(t, dir)
}

func TestCreateExclusiveDanglingSymlinkExists(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "archive.md")
	symlinkOrSkip(t, "nowhere", path)
	if err := CreateExclusive(path, []byte("x"), 0o644); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("got %v, want fs.ErrExist", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("created the symlink's target")
	}
}

func TestCreateExclusiveLosesRace(t *testing.T) {
	// Another process creates the name after the early check: the no-replace move must refuse
	// and keep that process's content. The hook runs exactly in that window.
	dir := t.TempDir()
	path := filepath.Join(dir, "archive.md")
	testHookBeforeRename = func(string) error { return os.WriteFile(path, []byte("winner"), 0o644) }
	t.Cleanup(func() { testHookBeforeRename = nil })
	err := CreateExclusive(path, []byte("loser"), 0o644)
	if !errors.Is(err, fs.ErrExist) {
		t.Fatalf("got %v, want fs.ErrExist", err)
	}
	assertContent(t, path, "winner")
	assertNoTemp(t, dir)
}

func TestCreateExclusiveFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "archive.md")
	failBeforeRename(t)
	if err := CreateExclusive(path, []byte("x"), 0o644); err == nil {
		t.Fatal("injected failure not reported")
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("left behind: %q", got)
	}
}

func TestCreateExclusiveMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "archive.md")
	err := CreateExclusive(path, []byte("x"), 0o644)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "create "+path+": ") {
		t.Fatalf("got %v, want a not-exist error naming %s", err, path)
	}
}

func TestIsTemp(t *testing.T) {
	for name, want := range map[string]bool{
		".current-plan.md8674665223082153551": true,
		".plan2.md0":                          true,
		"/a/b/.x1":                            true,
		"current-plan.md":                     false,
		".current-plan.md":                    false, // no random suffix
		".123":                                false, // no target name
		".":                                   false,
		"":                                    false,
		"plan.md123":                          false, // not a dot-file
	} {
		if got := IsTemp(name); got != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, got, want)
		}
	}
	// And the names actually produced, by renameio (WriteFile on Unix) and by writeTemp.
	dir := t.TempDir()
	tmp, err := writeTemp(dir, "plan.md", []byte("x"), 0o600, true)
	if err != nil {
		t.Fatal(err)
	}
	if !IsTemp(tmp) {
		t.Errorf("IsTemp(%q) = false for a name writeTemp made", tmp)
	}
}

// WriteFileUnsynced replaces the content whole, follows a symlink, refuses a directory, and a
// failure before the rename leaves the old content and no temporary file.
func TestWriteFileUnsynced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ann.json")
	if err := WriteFileUnsynced(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "one")
	assertPerm(t, path, 0o600)
	if err := WriteFileUnsynced(path, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "two")
	assertNoTemp(t, dir)
	link := filepath.Join(dir, "link.json")
	symlinkOrSkip(t, "ann.json", link)
	if err := WriteFileUnsynced(link, []byte("three"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "three")
	if err := WriteFileUnsynced(dir, []byte("x"), 0o600); err == nil {
		t.Error("a directory was replaced")
	}
	seen := failBeforeRename(t)
	if err := WriteFileUnsynced(path, []byte("four"), 0o600); err == nil || !strings.Contains(err.Error(), "injected failure") || len(*seen) != 1 {
		t.Fatalf("injected failure: %v", err)
	}
	assertContent(t, path, "three")
	if got := dirNames(t, dir); !slices.Equal(got, []string{"ann.json", "link.json"}) {
		t.Errorf("directory holds %q after a failed write", got)
	}
}

// ReplaceUnsynced replaces the content whole, through a symlink too; it leaves no file but the
// target and, where it exchanged them, an empty spare; a failure before the exchange leaves
// the old content and no spare.
func TestReplaceUnsynced(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ann.json")
	for _, content := range []string{"one", "two", "three"} {
		if err := ReplaceUnsynced(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		assertContent(t, path, content)
		assertPerm(t, path, 0o600)
		for _, name := range dirNames(t, dir) {
			switch name {
			case "ann.json":
			case ".ann.json.spare":
				assertContent(t, filepath.Join(dir, name), "")
			default:
				t.Errorf("left %s", name)
			}
		}
	}
	link := filepath.Join(dir, "link.json")
	symlinkOrSkip(t, "ann.json", link)
	if err := ReplaceUnsynced(link, []byte("four"), 0o600); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "four")
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	seen := failBeforeRename(t)
	if err := ReplaceUnsynced(path, []byte("five"), 0o600); err == nil || !strings.Contains(err.Error(), "injected failure") || len(*seen) != 1 {
		t.Fatalf("injected failure: %v", err)
	}
	assertContent(t, path, "four")
	if got := dirNames(t, dir); !slices.Equal(got, []string{"ann.json", "link.json"}) {
		t.Errorf("directory holds %q after a failed write", got)
	}
}
