package rootfs

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// recordProject makes a small project under root: a roadmap, a phase with a plan, a session.
func recordProject(t *testing.T, root string) {
	t.Helper()
	for name, data := range map[string]string{
		".planning/ROADMAP.md":                       "# Roadmap\n",
		".planning/phases/01-a/01-01-PLAN.md":        "<task>one</task>\n",
		".planning/sessions/ann/current-plan.md":     "<task status=\"pending\">one</task>\n",
		".planning/phases/02-b/02-01-PLAN.md":        "plan\n",
		".planning/phases/02-b/02-01-SUMMARY.md":     "done\n",
		".planning/odd\nname.md":                     "a name with a newline\n",
		".planning/sessions/ann/journal/0001.events": "{}\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// recordReads opens root recording, reads what a command would (each way the FS reads), and
// returns the inputs and whether they can be checked.
func recordReads(t *testing.T, root, cache string) ([]byte, bool) {
	t.Helper()
	fsys, err := OpenWith(root, Options{ListingCache: cache, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*beneath); !ok {
		Close(fsys)
		t.Skip("no openat2 on this kernel")
	}
	defer Close(fsys)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	_, err = ReadFile(fsys, ".planning/ROADMAP.md", 1<<20)
	must(err)
	_, err = ReadFile(fsys, ".planning/odd\nname.md", 1<<20)
	must(err)
	ReadFile(fsys, ".planning/active-workstream", 1<<20) // missing until a change creates it
	_, err = ReadCachedDirNames(fsys, ".planning/phases")
	must(err)
	_, err = ReadDirNames(fsys, ".planning/phases/01-a") // from the cache, after a stat
	must(err)
	_, err = ReadDirNames(fsys, ".planning/sessions/ann") // listed
	must(err)
	_, err = fs.ReadDir(fsys, ".planning/sessions")
	must(err)
	_, err = fs.Stat(fsys, ".planning/sessions/ann/current-plan.md")
	must(err)
	fs.Stat(fsys, ".planning/sessions/bob/current-plan.md") // missing, on the way too
	f, err := fsys.Open(".planning/phases/02-b/02-01-SUMMARY.md")
	must(err)
	f.Close()
	return AppendInputs(nil, fsys)
}

func TestRecordInputs(t *testing.T) {
	shortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	onTrustedFS(t, root)
	recordProject(t, root)
	at := func(name string) string { return filepath.Join(root, filepath.FromSlash(name)) }
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(at(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(at(name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Each change to something read, made after a settled record, is seen by Unchanged.
	for _, c := range []struct {
		name string
		do   func()
	}{
		{"file rewritten, same size, mtime set back", func() {
			fi, _ := os.Stat(at(".planning/ROADMAP.md"))
			write(".planning/ROADMAP.md", "# Roadmaq\n")
			os.Chtimes(at(".planning/ROADMAP.md"), fi.ModTime(), fi.ModTime())
		}},
		{"file with a newline in its name rewritten", func() { write(".planning/odd\nname.md", "changed\n") }},
		{"missing file created", func() { write(".planning/active-workstream", "ws\n") }},
		{"plan added to a cached phase directory", func() { write(".planning/phases/01-a/01-02-PLAN.md", "") }},
		{"phase directory added", func() { os.Mkdir(at(".planning/phases/03-c"), 0o755) }},
		{"entry added to a listed directory", func() { write(".planning/sessions/ann/notes.md", "") }},
		{"user added to a directory read with ReadDir", func() { os.Mkdir(at(".planning/sessions/cy"), 0o755) }},
		{"missing session (and its directory) created", func() { write(".planning/sessions/bob/current-plan.md", "") }},
		{"stat'ed file rewritten", func() { write(".planning/sessions/ann/current-plan.md", "<task status=\"complete\">one</task>\n") }},
		{"opened file's mode changed", func() { os.Chmod(at(".planning/phases/02-b/02-01-SUMMARY.md"), 0o600) }},
		{"opened file replaced by a rename", func() {
			write(".planning/new", "done\n")
			os.Rename(at(".planning/new"), at(".planning/phases/02-b/02-01-SUMMARY.md"))
		}},
	} {
		settle()
		in, ok := recordReads(t, root, cache)
		if !ok {
			t.Fatalf("before %s: the record of settled reads cannot be checked", c.name)
		}
		if !Unchanged(root, in) {
			t.Fatalf("before %s: Unchanged is false with nothing changed; inputs:\n%q", c.name, in)
		}
		c.do()
		if Unchanged(root, in) {
			t.Errorf("%s: not seen", c.name)
		}
	}

	// Torn inputs are never unchanged.
	settle()
	in, ok := recordReads(t, root, cache)
	if !ok || !Unchanged(root, in) {
		t.Fatalf("settled record: ok %v", ok)
	}
	for _, torn := range [][]byte{in[:len(in)-1], in[:len(in)/2], append([]byte("x"), in...), []byte("f../etc/passwd\x00\n")} {
		if Unchanged(root, torn) {
			t.Errorf("torn inputs %q are unchanged", torn)
		}
	}
	if Unchanged(filepath.Join(root, "missing"), in) {
		t.Error("inputs are unchanged under a root that is missing")
	}
}

func TestRecordRefuses(t *testing.T) {
	shortSettle(t)
	root := t.TempDir()
	onTrustedFS(t, root)
	recordProject(t, root)
	if err := os.Symlink("/etc/hostname", filepath.Join(root, ".planning/out")); err != nil {
		t.Fatal(err)
	}
	settle()
	open := func() fs.FS {
		fsys, err := OpenWith(root, Options{Record: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := fsys.(*beneath); !ok {
			Close(fsys)
			t.Skip("no openat2 on this kernel")
		}
		t.Cleanup(func() { Close(fsys) })
		return fsys
	}
	fsys := open()
	if _, err := ReadFile(fsys, ".planning/ROADMAP.md", 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, ok := AppendInputs(nil, fsys); !ok {
		t.Fatal("a settled read cannot be checked")
	}
	// A read that failed for another reason than absence: an escape.
	if _, err := ReadFile(fsys, ".planning/out", 1<<20); err == nil {
		t.Fatal("read through a symlink out of the root")
	}
	if _, ok := AppendInputs(nil, fsys); ok {
		t.Error("an escape refused is recorded as checkable")
	}
	// A file changed less than the settling time before the FS was opened.
	if err := os.WriteFile(filepath.Join(root, ".planning/STATE.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys = open()
	if _, err := ReadFile(fsys, ".planning/STATE.md", 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, ok := AppendInputs(nil, fsys); ok {
		t.Error("a file changed just now is recorded as checkable")
	}
	// An FS not recording.
	plain, err := OpenCaching(root, "")
	if err != nil {
		t.Fatal(err)
	}
	defer Close(plain)
	ReadFile(plain, ".planning/ROADMAP.md", 1<<20)
	if _, ok := AppendInputs(nil, plain); ok {
		t.Error("an FS opened without Record gives inputs")
	}
	if _, ok := AppendInputs(nil, os.DirFS(root)); ok {
		t.Error("os.DirFS gives inputs")
	}
}
