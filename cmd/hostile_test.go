package cmd_test

// Hostile and broken input: every file in testdata/hostile is put where gsd reads it (a session,
// a plan or the roadmap, by its name) and every command that reads it is run. The transcript of
// exit codes and messages must equal ../testdata/hostile.golden (go test -run Hostile -update
// rewrites it; review the diff). Beyond the transcript, for every run: no panic, at most one
// line of error, nothing modified by a command that failed or only reads, and a session that
// hydrate replaces is always archived first, byte for byte.

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/gsd-tools/gsd/cmd"
	"github.com/gsd-tools/gsd/planfile"
)

var update = flag.Bool("update", false, "rewrite ../testdata/hostile.golden and ../testdata/escape.golden")

const (
	hostilePlan    = ".planning/phases/01-x/01-01-PLAN.md"
	hostileNext    = ".planning/phases/01-x/01-02-PLAN.md"
	hostileSession = ".planning/sessions/ann/current-plan.md"
)

// hostileProject is a small valid project: phase 1 in progress, plan 01-01 with two tasks, and
// (unless session is nil) ann's session.
func hostileProject(t *testing.T, session []byte) string {
	t.Helper()
	root := t.TempDir()
	plan := "---\nphase: 01\n---\n\n<tasks>\n<task type=\"auto\">\n  <name>Task 1: Alpha</name>\n  <action>do it</action>\n</task>\n<task type=\"auto\">\n  <name>Task 2: Beta</name>\n</task>\n</tasks>\n"
	writeFile(t, filepath.Join(root, hostilePlan), plan)
	writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), "# Roadmap\n\n| Phase | Plans Complete | Status |\n|---|---|---|\n| 1. X | 0/2 | In progress |\n")
	if session != nil {
		writeFile(t, filepath.Join(root, hostileSession), string(session))
	}
	return root
}

// validSession is ann's session for the project's plan, task 1 complete.
func validSession(t *testing.T) []byte {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "hostile", "bom.md"))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
}

// snapshot is every file under root (not the lock file) with its bytes and mode.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.Name() == ".gsd.lock" {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				m[rel] = fmt.Sprintf("unreadable %v", fi.Mode())
				return nil
			}
			m[rel] = fmt.Sprintf("%v %s", fi.Mode(), b)
		case fi.Mode()&fs.ModeSymlink != 0:
			dest, _ := os.Readlink(p)
			m[rel] = "-> " + dest
		case fi.IsDir():
			m[rel] = "dir"
		default:
			m[rel] = fi.Mode().String()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func diffSnapshots(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok {
			out = append(out, "removed "+k)
		} else if v != w {
			out = append(out, "changed "+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, "added "+k)
		}
	}
	sort.Strings(out)
	return out
}

// runGSD runs gsd in-process with a deadline: a hang is a failure, not a stuck test run.
func runGSD(t *testing.T, root string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cmd.Main(append([]string{"-C", root, "--user", "ann", "--no-color"}, args...), strings.NewReader(""), &out, &errb)
	}()
	select {
	case code = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("gsd %s: still running after 30s", strings.Join(args, " "))
	}
	clean := func(s string) string {
		s = strings.ReplaceAll(s, root, "$ROOT")
		if r, err := filepath.EvalSymlinks(root); err == nil {
			s = strings.ReplaceAll(s, r, "$ROOT")
		}
		return s
	}
	stdout, stderr = clean(out.String()), clean(errb.String())
	for _, bad := range []string{"internal error", "panic", "goroutine "} {
		if strings.Contains(stderr, bad) {
			t.Errorf("gsd %s: %s", strings.Join(args, " "), stderr)
		}
	}
	if code != 0 && !(code == 1 && (args[0] == "check" || args[0] == "progress") && stderr == "") {
		lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
		if !strings.HasPrefix(stderr, "gsd: ") || len(lines) > 1 && !(code == 2 && len(lines) == 2) {
			t.Errorf("gsd %s: exit %d, want one line \"gsd: ...\" on stderr, got %q", strings.Join(args, " "), code, stderr)
		}
	}
	return code, stdout, stderr
}

func hostileEnv(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CEILING_DIRECTORIES", filepath.Dir(home))
	t.Setenv("GSD_USER", "")
	t.Setenv("GSD_WORKSTREAM", "")
	t.Setenv("GSD_LOCK_TIMEOUT", "")
	t.Setenv("NO_COLOR", "1")
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800")
}

// TestHostileCorpus runs every file of testdata/hostile through the commands that read it.
func TestHostileCorpus(t *testing.T) {
	hostileEnv(t)
	names, err := filepath.Glob(filepath.Join("..", "testdata", "hostile", "*"))
	if err != nil || len(names) < 40 {
		t.Fatalf("the hostile corpus has %d files, want at least 40 (%v)", len(names), err)
	}
	var transcript strings.Builder
	record := func(name, role string, args []string, code int, stdout, stderr string) {
		fmt.Fprintf(&transcript, "== %s as %s: gsd %s\nexit %d\n", name, role, strings.Join(args, " "), code)
		if code == 0 && (args[0] == "start" || args[0] == "progress" || args[0] == "brief") {
			// Successful output is tested elsewhere (and these reports are long).
		} else if code == 0 && stdout != "" {
			// The first line says enough here.
			fmt.Fprintf(&transcript, "stdout: %s\n", strings.SplitN(stdout, "\n", 2)[0])
		} else if stdout != "" {
			// A failed check's report.
			for _, l := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
				fmt.Fprintf(&transcript, "stdout: %s\n", l)
			}
		}
		for _, l := range strings.Split(strings.TrimSuffix(stderr, "\n"), "\n") {
			if l != "" {
				fmt.Fprintf(&transcript, "stderr: %s\n", l)
			}
		}
	}
	for _, path := range names {
		name := filepath.Base(path)
		bad, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasPrefix(name, "plan-"):
			root := hostileProject(t, nil)
			writeFile(t, filepath.Join(root, hostileNext), string(bad))
			before := snapshot(t, root)
			args := []string{"start", hostileNext}
			code, stdout, stderr := runGSD(t, root, args...)
			record(name, "plan", args, code, stdout, stderr)
			after := snapshot(t, root)
			if code != 0 {
				if d := diffSnapshots(before, after); len(d) > 0 {
					t.Errorf("%s: gsd start failed but changed %v", name, d)
				}
				continue
			}
			// A plan that could be started gives a session that is valid or reported, naming
			// the plan it came from and no other.
			s := planfile.Scan([]byte(after[hostileSession][len("-rw-r--r-- "):]))
			if s.Header.Plan != hostileNext {
				t.Errorf("%s: started session names plan %q", name, s.Header.Plan)
			}
		case strings.HasPrefix(name, "roadmap-"):
			root := hostileProject(t, validSession(t))
			writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), string(bad))
			before := snapshot(t, root)
			for _, args := range [][]string{{"check"}, {"hydrate", "--no-bootstrap", "--porcelain"}, {"progress"}, {"progress", "--check"}} {
				code, stdout, stderr := runGSD(t, root, args...)
				if args[0] == "progress" && code == 1 {
					stdout = "" // a failed --check's report is progress's own business
				}
				record(name, "roadmap", args, code, stdout, stderr)
			}
			if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 {
				t.Errorf("%s: read-only commands changed %v", name, d)
			}
		default:
			root := hostileProject(t, bad)
			before := snapshot(t, root)
			for _, args := range [][]string{{"check"}, {"tasks"}, {"hydrate", "--no-bootstrap", "--porcelain"}} {
				code, stdout, stderr := runGSD(t, root, args...)
				record(name, "session", args, code, stdout, stderr)
			}
			if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 {
				t.Errorf("%s: read-only commands changed %v", name, d)
			}
			// mark-complete 2 either fails and changes nothing, or changes that one status.
			args := []string{"mark-complete", "2"}
			code, stdout, stderr := runGSD(t, root, args...)
			record(name, "session", args, code, stdout, stderr)
			got, _ := os.ReadFile(filepath.Join(root, hostileSession))
			if code != 0 {
				if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 {
					t.Errorf("%s: failed mark changed %v", name, d)
				}
			} else if want, err := planfile.SetStatus(bad, 2, planfile.Complete); err == nil && !bytes.Equal(got, want) || err != nil && !bytes.Equal(got, bad) {
				t.Errorf("%s: mark-complete 2 wrote more than task 2's status:\n%s", name, got)
			}
			// hydrate may replace the session, but only after archiving it byte for byte.
			args = []string{"hydrate", "--porcelain"}
			code, stdout, stderr = runGSD(t, root, args...)
			record(name, "session", args, code, stdout, stderr)
			if !kept(t, root, got) {
				t.Errorf("%s: after gsd hydrate, the session's bytes are nowhere", name)
			}
			// brief, in a fresh copy, hydrates too (and reads the plan's blocks).
			root = hostileProject(t, bad)
			args = []string{"brief"}
			code, stdout, stderr = runGSD(t, root, args...)
			record(name, "session", args, code, "", stderr)
			if !kept(t, root, bad) {
				t.Errorf("%s: after gsd brief, the session's bytes are nowhere", name)
			}
		}
	}
	golden := filepath.Join("..", "testdata", "hostile.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(transcript.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := transcript.String(); got != string(want) {
		t.Errorf("transcript differs from %s (go test -run TestHostileCorpus -update, then review the diff):\n%s", golden, diff.Diff(golden, want, "got", []byte(got)))
	}
}

// kept reports whether some file in ann's session directory holds exactly data.
func kept(t *testing.T, root string, data []byte) bool {
	for p, v := range snapshot(t, root) {
		if strings.HasPrefix(p, filepath.FromSlash(".planning/sessions/ann/")) && strings.HasSuffix(v, " "+string(data)) {
			return true
		}
	}
	return false
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// cmdMain runs gsd in-process.
func cmdMain(args []string, stdout, stderr *bytes.Buffer) int {
	return cmd.Main(args, strings.NewReader(""), stdout, stderr)
}
