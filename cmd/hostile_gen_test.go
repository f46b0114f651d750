//go:build unix

package cmd_test

// Hostile input that cannot be committed: huge files (generated here, never checked in), symlinks
// and their loops, FIFOs, directories and unreadable files where files are expected, names and
// paths that try to lead out of the project. Each case asserts the exact exit code and message,
// that nothing was modified, and that nothing outside the project was read or written.

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// TestHostileFilesystem covers inputs made at run time.
func TestHostileFilesystem(t *testing.T) {
	longTest(t)
	hostileEnv(t)
	valid := validSession(t)
	sessionAbs := func(root string) string { return filepath.Join(root, hostileSession) }
	type tc struct {
		name   string
		setup  func(t *testing.T, root string) // makes the hostile thing in a valid project
		args   []string
		code   int
		stderr string // a regexp for the whole of stderr; $ROOT stands for the project
		stdout string // a regexp stdout must match, when set
	}
	big := func(size int, line bool) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			unit := []byte("<task status=\"pending\"><name>x</name></task>\n")
			data := append([]byte(nil), valid...)
			if line {
				// One line: a <tasks> block holding every task.
				unit = unit[:len(unit)-1]
				data = append(data, "<tasks>"...)
			}
			data = append(data, bytes.Repeat(unit, size/len(unit))...)
			if err := os.WriteFile(sessionAbs(root), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	symlink := func(target, link string) func(t *testing.T, root string) {
		return func(t *testing.T, root string) {
			_ = os.Remove(filepath.Join(root, link))
			if err := os.Symlink(strings.ReplaceAll(target, "$ROOT", root), filepath.Join(root, link)); err != nil {
				t.Fatal(err)
			}
		}
	}
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), "<!-- Plan: x -->\n<tasks>\n<task status=\"pending\"><name>secret</name></task>\n</tasks>\n")
	writeFile(t, filepath.Join(outside, "ann", "current-plan.md"), string(valid))
	cases := []tc{
		{name: "50 MB session", setup: big(50<<20, false), args: []string{"tasks"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: larger than the 8 MiB gsd reads\n$`},
		{name: "10 MB single line", setup: big(10<<20, true), args: []string{"mark-complete", "2"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: larger than the 8 MiB gsd reads\n$`},
		{name: "7 MB single line of tasks (within the limit)", setup: big(7<<20, true), args: []string{"check"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md:14: too complex to scan: more than 10000 tasks\n$`},
		{name: "9 MB plan", setup: func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, hostileNext), strings.Repeat("x", 9<<20))
		}, args: []string{"start", hostileNext}, code: 1,
			stderr: `^gsd: \.planning/phases/01-x/01-02-PLAN\.md: larger than the 8 MiB gsd reads\n$`},
		{name: "plan is a directory", args: []string{"start", ".planning/phases"}, code: 1,
			stderr: `^gsd: \.planning/phases: is a directory\n$`},
		{name: "session is a directory", setup: func(t *testing.T, root string) {
			_ = os.Remove(sessionAbs(root))
			if err := os.Mkdir(sessionAbs(root), 0o755); err != nil {
				t.Fatal(err)
			}
		}, args: []string{"mark-complete", "2"}, code: 1, stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: is a directory\n$`},
		{name: "session is a FIFO", setup: func(t *testing.T, root string) {
			_ = os.Remove(sessionAbs(root))
			if err := syscall.Mkfifo(sessionAbs(root), 0o644); err != nil {
				t.Skip("mkfifo:", err)
			}
		}, args: []string{"hydrate"}, code: 1, stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: not a regular file \(p---------\)\n$`},
		{name: "session symlink loop", setup: symlink("current-plan.md", hostileSession), args: []string{"tasks"}, code: 1,
			stderr: `^gsd: .*current-plan\.md: too many levels of symbolic links\n$`},
		{name: "plan symlink loop", setup: func(t *testing.T, root string) {
			symlink("a.md", ".planning/phases/01-x/b.md")(t, root)
			symlink("b.md", ".planning/phases/01-x/a.md")(t, root)
		}, args: []string{"start", ".planning/phases/01-x/a.md"}, code: 1,
			stderr: `^gsd: .*a\.md: too many levels of symbolic links\n$`},
		{name: "session symlink to a file outside", setup: symlink(filepath.Join(outside, "secret.md"), hostileSession), args: []string{"tasks"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: leads outside the project \(through a symlink\); refusing to read it\n$`},
		{name: "plan symlink to /etc/passwd", setup: symlink("/etc/passwd", hostileNext), args: []string{"start", hostileNext}, code: 1,
			stderr: `^gsd: \.planning/phases/01-x/01-02-PLAN\.md: leads outside the project \(through a symlink\); refusing to read it\n$`},
		{name: "plan outside by path", args: []string{"start", "../../../etc/passwd"}, code: 2,
			stderr: `^gsd: path "\.\./\.\./\.\./etc/passwd" is outside the project\nRun 'gsd --help' for usage\.\n$|^gsd: .*outside the project.*\n`},
		{name: "sessions directory symlinked outside: mark", setup: func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, ".planning/sessions")); err != nil {
				t.Fatal(err)
			}
			symlink(outside, ".planning/sessions")(t, root)
		}, args: []string{"mark-complete", "2"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: leads outside the project \(through a symlink\); refusing to read it\n$`},
		{name: "sessions directory symlinked outside: hydrate", setup: func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, ".planning/sessions")); err != nil {
				t.Fatal(err)
			}
			symlink(filepath.Join(outside, "empty"), ".planning/sessions")(t, root)
			if err := os.MkdirAll(filepath.Join(outside, "empty"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, args: []string{"start", hostilePlan}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: leads outside the project \(through a symlink\); refusing to read it\n$`},
		{name: "user directory symlinked outside", setup: func(t *testing.T, root string) {
			if err := os.RemoveAll(filepath.Join(root, ".planning/sessions/ann")); err != nil {
				t.Fatal(err)
			}
			symlink(filepath.Join(outside, "ann"), ".planning/sessions/ann")(t, root)
		}, args: []string{"archive"}, code: 1,
			stderr: `^gsd: \.planning/sessions/ann/current-plan\.md: leads outside the project \(through a symlink\); refusing to read it\n$`},
		{name: "ROADMAP symlinked to /etc/passwd", setup: symlink("/etc/passwd", ".planning/ROADMAP.md"), args: []string{"check"}, code: 0,
			stdout: `valid\n.*warning: \.planning/ROADMAP\.md: leads outside the project \(through a symlink\); refusing to read it; the phase was not checked against it\n`},
		{name: "roadmap 50 MB", setup: func(t *testing.T, root string) {
			writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), strings.Repeat("| 1. X | 0/1 | In progress |\n", (50<<20)/30))
		}, args: []string{"check"}, code: 0, stdout: `valid\n.*warning: \.planning/ROADMAP\.md: larger than the 8 MiB gsd reads; the phase was not checked against it\n`},
	}
	if os.Geteuid() != 0 {
		cases = append(cases, tc{name: "unreadable session", setup: func(t *testing.T, root string) {
			if err := os.Chmod(sessionAbs(root), 0); err != nil {
				t.Fatal(err)
			}
		}, args: []string{"tasks"}, code: 1, stderr: `^gsd: .*current-plan\.md: permission denied\n$`})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := hostileProject(t, valid)
			if c.setup != nil {
				c.setup(t, root)
			}
			before, outBefore := snapshot(t, root), snapshot(t, outside)
			code, stdout, stderr := runGSD(t, root, c.args...)
			if code != c.code || !regexp.MustCompile(c.stderr).MatchString(stderr) || c.stderr == "" && stderr != "" {
				t.Errorf("gsd %s: exit %d, stderr %q\nwant exit %d, stderr matching %s", strings.Join(c.args, " "), code, stderr, c.code, c.stderr)
			}
			if c.stdout != "" && !regexp.MustCompile(c.stdout).MatchString(stdout) {
				t.Errorf("stdout %q does not match %s", stdout, c.stdout)
			}
			if d := diffSnapshots(before, snapshot(t, root)); len(d) > 0 && code != 0 {
				t.Errorf("failed, but changed %v", d)
			}
			if d := diffSnapshots(outBefore, snapshot(t, outside)); len(d) > 0 {
				t.Errorf("changed files outside the project: %v", d)
			}
		})
	}
}

// TestUserNamesStayInSessions: whatever the user name, the session is written inside
// .planning/sessions/<name>/ and nowhere else.
func TestUserNamesStayInSessions(t *testing.T) {
	longTest(t)
	hostileEnv(t)
	for _, user := range []string{"../../etc", "..", "/root", "a/../../b", "C:\\x", "-", ".git", "a\x00b", "ann\n../x", strings.Repeat("x", 5000)} {
		root := hostileProject(t, nil)
		before := snapshot(t, root)
		var out, errb bytes.Buffer
		code := cmdMain([]string{"-C", root, "--user", user, "start", hostilePlan}, &out, &errb)
		after := snapshot(t, root)
		for _, d := range diffSnapshots(before, after) {
			rel := strings.TrimPrefix(d, "added ")
			if !strings.HasPrefix(rel, filepath.FromSlash(".planning/sessions")) {
				t.Errorf("user %q: %s", user, d)
			}
			if strings.Count(rel, string(filepath.Separator)) > 3 || strings.Contains(rel, "..") {
				t.Errorf("user %q: wrote %s", user, rel)
			}
		}
		if code != 0 {
			t.Logf("user %.20q: exit %d %.100s", user, code, errb.String())
		}
	}
}

// TestPermissionsKept: a rewritten session keeps its mode, also an unusual one.
func TestPermissionsKept(t *testing.T) {
	longTest(t)
	hostileEnv(t)
	for _, mode := range []os.FileMode{0o600, 0o640, 0o664, 0o444} {
		root := hostileProject(t, validSession(t))
		path := filepath.Join(root, hostileSession)
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runGSD(t, root, "mark-in-progress", "2"); code != 0 {
			t.Fatalf("mode %v: exit %d %s", mode, code, stderr)
		}
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != mode {
			t.Errorf("mode %v became %v (%v)", mode, fi.Mode().Perm(), err)
		}
	}
}

// longTest skips t under -short: it makes huge files, FIFOs and symlink trees; go test without
// -short (make test) runs it.
func longTest(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("generates hostile files: go test without -short runs it")
	}
}
