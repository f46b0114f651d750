package hydrate

import (
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/roadmap/trace"
)

// gitBudget bounds how long git may take to say what it records of the work; past it git is
// stopped and the work is read without it. A healthy repository answers in milliseconds.
const gitBudget = 2 * time.Second

// Traces is what git records of the work (trace.LogArgs): its newest commits, read at most once
// per command through the user's git, the runner gsd sync uses. Their paths are relative to the
// project root, like every path gsd reports.
type Traces struct {
	// Read says that git answered. When it did not, Why says why in a few words: "turned off",
	// "not a git repository", "git is not installed", "git took longer than 2s", ...
	Read    bool
	Why     string
	Commits []trace.Commit // newest first, at most trace.MaxCommits
	prefix  string         // the project root's path in its repository ("" at the top)
}

// Available says in a few words which evidence of the work git gave: "the newest N commits",
// or why there was none.
func (t *Traces) Available() string {
	if !t.Read {
		return "no commits read: " + t.Why
	}
	return "commits read: the newest " + strconv.Itoa(len(t.Commits))
}

// Traces reads what git records of the work, once per command: nothing (Why says so) when the
// user turned it off, outside a repository, or when git is missing, fails or hangs.
func (e *Env) Traces() *Traces {
	if e.traces != nil {
		return e.traces
	}
	t := &Traces{}
	e.traces = t
	switch {
	case e.noTraces || e.settings != nil && !e.settings.GitEvidence:
		t.Why = "turned off"
		return t
	case e.git == nil:
		t.Why = "git is not available here"
		return t
	}
	repo, ok, err := identity.FindRepo(e.Root, e.lookupEnv)
	if err != nil || !ok || repo.WorkTree == "" {
		t.Why = "not a git repository"
		return t
	}
	t.prefix = repoPrefix(repo.WorkTree, e.Root)
	out, err := e.runGit(trace.LogArgs())
	if err != nil {
		t.Why = gitWhy(err)
		return t
	}
	t.Read = true
	t.Commits = trace.ParseLog(out)
	for i := range t.Commits {
		c := &t.Commits[i]
		for j := range c.Files {
			c.Files[j].Path = t.rel(c.Files[j].Path)
		}
	}
	return t
}

// Uncommitted are the files among paths (root-relative) that are changed and not committed,
// in paths' order; none when git cannot say (Traces' Why). git status runs only when one of
// paths was modified after the newest commit (its modification time, to the second, is later):
// a file edited and then committed is older than its commit, so the common case, nothing
// touched since the last commit, costs a few stats and no second process.
func (e *Env) Uncommitted(paths []string) []string {
	t := e.Traces()
	if !t.Read || len(paths) == 0 || len(t.Commits) > 0 && !e.touchedSince(paths, t.Commits[0].Time) {
		return nil
	}
	out, err := e.runGit(trace.StatusArgs(paths))
	if err != nil {
		return nil
	}
	changed := map[string]bool{}
	for _, c := range trace.ParseStatus(out) {
		changed[t.rel(c.Path)] = true
	}
	var names []string
	for _, p := range paths {
		if changed[p] || changedUnder(changed, p) {
			names = append(names, p)
		}
	}
	return names
}

// touchedSince says whether a file or directory among paths was modified in a second after t.
func (e *Env) touchedSince(paths []string, t time.Time) bool {
	for i, p := range paths {
		if i == trace.MaxStatusPaths {
			break
		}
		if fi, err := fs.Stat(e.FS, p); err == nil && fi.ModTime().Truncate(time.Second).After(t) {
			return true
		}
	}
	return false
}

// changedUnder says whether a file under the directory dir is among changed.
func changedUnder(changed map[string]bool, dir string) bool {
	for p := range changed {
		if strings.HasPrefix(p, dir+"/") {
			return true
		}
	}
	return false
}

// runGit runs git in the project root within gitBudget, with no optional locks (a status
// never refreshes the index behind a concurrent git's back).
func (e *Env) runGit(args []string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitBudget)
	defer cancel()
	return e.git.Run(ctx, nil, []string{"GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat"}, append([]string{"-C", e.Root}, args...)...)
}

// gitWhy says in a few words why git gave nothing.
func gitWhy(err error) string {
	var ge *teamsync.Error
	switch {
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist):
		return "git is not installed"
	case errors.As(err, &ge) && ge.TimedOut:
		return "git took longer than " + gitBudget.String()
	case errors.As(err, &ge) && (strings.Contains(ge.Stderr, "does not have any commits") || strings.Contains(ge.Stderr, "bad revision 'HEAD'")):
		return "no commits yet"
	case errors.As(err, &ge) && ge.Stderr != "":
		return "git failed: " + trace.Clip(teamsync.FirstLine(ge.Stderr), 120)
	}
	return "git failed: " + trace.Clip(err.Error(), 120)
}

// repoPrefix is root's path inside the working tree top, with '/': "" when they are one.
func repoPrefix(top, root string) string {
	real := func(p string) string {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
		return p
	}
	rel, err := filepath.Rel(real(top), real(root))
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// rel turns a path git gives (relative to the working tree's top) into one relative to the
// project root; a path outside the project begins with "../".
func (t *Traces) rel(p string) string {
	if t.prefix == "" {
		return p
	}
	if r, ok := strings.CutPrefix(p, t.prefix+"/"); ok {
		return r
	}
	return path.Join(strings.Repeat("../", strings.Count(t.prefix, "/")+1), p)
}
