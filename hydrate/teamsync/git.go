// Package teamsync keeps gsd sessions in git refs outside the branches, as git-bug keeps bugs:
// each user's session directory is published as a commit on refs/gsd/sessions/<user> and
// teammates' refs are fetched into refs/gsd/remotes/<remote>/sessions/<user>. It only ever runs
// the user's own git (credential helpers, ssh and every protocol work as they do for git push),
// through the Git interface so that tests can put a fake in its place, and it never touches the
// index, the working tree, HEAD, a branch or any ref but those.
//
// The package knows git plumbing and how two journals of one user merge; what a session means
// (states, idle, staleness) is package hydrate's.
package teamsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Git runs git in a repository. stdin may be nil; env adds variables to the process's.
type Git interface {
	Run(ctx context.Context, stdin []byte, env []string, args ...string) ([]byte, error)
}

// ExecGit is the user's git binary, run in Dir.
type ExecGit struct {
	Dir  string
	Path string // the git binary; "" looks git up on PATH
}

// Error is a git command that failed: what was run, its exit status and its first line of
// complaint.
type Error struct {
	Args     []string
	Stderr   string // what git said, trimmed
	Code     int    // exit status, -1 when git did not exit on its own (not found, killed)
	TimedOut bool
	Err      error
}

func (e *Error) Error() string {
	what := "git " + strings.Join(e.Args, " ")
	if len(what) > 80 {
		what = what[:77] + "..."
	}
	switch {
	case e.TimedOut:
		return fmt.Sprintf("%s: gave up after the time limit", what)
	case e.Stderr != "":
		return fmt.Sprintf("%s: %s", what, FirstLine(e.Stderr))
	}
	return fmt.Sprintf("%s: %v", what, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// FirstLine is the line of git's output that says what went wrong: the first fatal:, error:,
// rejected (! [) or remote: line, else the first line.
func FirstLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, p := range []string{"fatal:", "error:", "! [", "remote:"} {
		for _, l := range lines {
			if l = strings.TrimSpace(l); strings.HasPrefix(l, p) {
				return l
			}
		}
	}
	return strings.TrimSpace(lines[0])
}

// Run runs git with args in g.Dir. Prompts are off (GIT_TERMINAL_PROMPT=0): a sync never waits
// for a password nobody will type; credential helpers and ssh agents still work. When ctx ends,
// git and every process it started are killed at once.
func (g ExecGit) Run(ctx context.Context, stdin []byte, env []string, args ...string) ([]byte, error) {
	bin := g.Path
	if bin == "" {
		bin = "git"
	}
	c := exec.CommandContext(ctx, bin, args...)
	c.Dir = g.Dir
	c.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GCM_INTERACTIVE=never", "LC_ALL=C"), env...)
	if stdin != nil {
		c.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	ownGroup(c)
	// Past the time limit, git and its helpers are killed (ownGroup); a helper that got out of
	// the group and still holds the pipes is waited for no longer than this.
	c.WaitDelay = 250 * time.Millisecond
	err := c.Run()
	if err == nil {
		return out.Bytes(), nil
	}
	ge := &Error{Args: args, Stderr: errb.String(), Code: -1, Err: err}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		ge.Code = ee.ExitCode()
	}
	if ctx.Err() != nil {
		ge.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		ge.Err = ctx.Err()
	}
	return out.Bytes(), ge
}

// Available says whether a git binary is on PATH.
func Available() bool {
	_, err := exec.LookPath("git")
	return err == nil
}
