package identity

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fixture is a throw-away file tree holding a home directory, config
// files and repositories, plus the environment both gsd and real git see.
type fixture struct {
	t    testing.TB
	root string
	env  map[string]string
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	// Resolve the temp dir itself (macOS: /var -> /private/var) so that
	// expected paths compare equal to what git reports.
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, env: map[string]string{
		"HOME":              filepath.Join(root, "home"),
		"GIT_CONFIG_SYSTEM": filepath.Join(root, "etc", "gitconfig"),
		// Keep discovery inside the fixture even if the temp directory
		// lives in some checkout.
		"GIT_CEILING_DIRECTORIES": filepath.Dir(root),
	}}
	f.mkdir("home")
	return f
}

// path maps a slash-separated fixture path to an absolute one.
func (f *fixture) path(rel string) string {
	return filepath.Join(f.root, filepath.FromSlash(rel))
}

// expand replaces $ROOT and $HOME in fixture text.
func (f *fixture) expand(s string) string {
	s = strings.ReplaceAll(s, "$ROOT", f.root)
	return strings.ReplaceAll(s, "$HOME", f.env["HOME"])
}

func (f *fixture) mkdir(rel string) {
	f.t.Helper()
	if err := os.MkdirAll(f.path(rel), 0o755); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := f.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(f.expand(content)), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// repo makes a minimal git directory by hand (HEAD, objects/, refs/), which
// real git accepts as a repository, at <rel>/.git with HEAD on branch.
func (f *fixture) repo(rel, branch string) {
	f.gitDir(filepath.ToSlash(filepath.Join(rel, ".git")), branch)
}

func (f *fixture) gitDir(rel, branch string) {
	f.mkdir(rel + "/objects")
	f.mkdir(rel + "/refs/heads")
	head := "ref: refs/heads/" + branch + "\n"
	if len(branch) == 40 { // a detached HEAD
		head = branch + "\n"
	}
	f.write(rel+"/HEAD", head)
}

// worktree makes a linked worktree by hand, laid out as `git worktree add`
// does: <wt>/.git names <main>/.git/worktrees/<name>, whose commondir
// points back at the main git directory.
func (f *fixture) worktree(main, wt, name, branch string) {
	adm := main + "/.git/worktrees/" + name
	f.mkdir(adm)
	f.write(adm+"/HEAD", "ref: refs/heads/"+branch+"\n")
	f.write(adm+"/commondir", "../..\n")
	f.write(adm+"/gitdir", f.path(wt)+"/.git\n")
	f.write(wt+"/.git", "gitdir: "+f.path(adm)+"\n")
}

func (f *fixture) lookup(key string) (string, bool) {
	v, ok := f.env[key]
	return v, ok
}

// identityEnv is the Env gsd would build in dir (slash-separated,
// relative to the fixture root; absolute paths are taken as they are).
func (f *fixture) identityEnv(dir string) Sources {
	if !filepath.IsAbs(dir) {
		dir = f.path(dir)
	}
	return Sources{
		LookupEnv:    f.lookup,
		Home:         f.env["HOME"],
		Dir:          dir,
		SystemConfig: f.path("etc/not-used"),
	}
}

// gitResult is what real `git config --show-origin user.name` said.
type gitResult struct {
	value  string
	origin string // a file path as git prints it, or "command line:"
	ok     bool
	err    string // stderr when git failed (exit status other than 0 and 1)
}

func requireGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not on PATH: cannot compare with real git")
	}
}

// gitEnviron is the fixture environment alone: nothing inherited but
// PATH, so the machine's own git settings cannot leak in.
func (f *fixture) gitEnviron(dir string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "PWD=" + dir}
	for k, v := range f.env {
		env = append(env, k+"="+v)
	}
	return env
}

// git runs real git in dir with the fixture environment.
func (f *fixture) git(dir string, args ...string) (stdout string, exit int, stderr string) {
	f.t.Helper()
	if !filepath.IsAbs(dir) {
		dir = f.path(dir)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = f.gitEnviron(dir)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		exit = ee.ExitCode()
	default:
		f.t.Fatalf("running git: %v", err)
	}
	return out.String(), exit, errb.String()
}

func (f *fixture) gitUserName(dir string) gitResult {
	f.t.Helper()
	out, exit, stderr := f.git(dir, "config", "--show-origin", "user.name")
	switch exit {
	case 0:
		origin, value, _ := strings.Cut(strings.TrimSuffix(out, "\n"), "\t")
		return gitResult{value: value, origin: strings.TrimPrefix(origin, "file:"), ok: true}
	case 1:
		return gitResult{}
	}
	return gitResult{err: strings.TrimSpace(stderr)}
}
