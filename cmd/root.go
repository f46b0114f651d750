// Package cmd is gsd's command line: cobra wiring only. Each command parses its flags into an
// options value, calls one use case of package hydrate, and renders the result as text or JSON.
// Main is the one place that turns errors into exit codes.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/user"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/identity"
)

// Exit codes, as documented in the README.
const (
	ExitOK         = 0
	ExitFailure    = 1 // an error, or a check that did not pass
	ExitUsage      = 2 // bad flags or arguments
	ExitNotProject = 3 // not inside a GSD project
)

// app is what every command shares: the streams, the environment and the global flags.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	lookupEnv      func(string) (string, bool)
	now            func() time.Time

	dir     string // -C
	user    string // --user
	userSet bool   // --user was given, even as --user ''
	json    bool
	noColor bool
}

// usageError marks an error as the user's misuse of the command line (exit 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

// exitError carries an exit code for a result that is not an error as such (a failed check),
// whose report has already been printed.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs gsd with args (without the program name) and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A bug must not become a stack dump in an agent's context: one line, exit 1.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gsd: internal error: %v (please report this)\n", r)
			code = ExitFailure
		}
	}()
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr, lookupEnv: os.LookupEnv}
	a.now = a.clock
	root := a.newRootCmd()
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintf(stderr, "gsd: %s\n", oneLine(printable(err.Error())))
	var ue usageError
	switch {
	case errors.Is(err, hydrate.ErrNotProject):
		return ExitNotProject
	case errors.As(err, &ue) || isCobraUsage(err) || errors.Is(err, identity.ErrUnusableUser):
		fmt.Fprintf(stderr, "Run 'gsd --help' for usage.\n")
		return ExitUsage
	}
	return ExitFailure
}

// isCobraUsage recognises the errors cobra itself returns for an unknown command or flag.
func isCobraUsage(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "unknown flag") ||
		strings.HasPrefix(s, "unknown shorthand flag") || strings.Contains(s, "flag needs an argument") ||
		strings.HasPrefix(s, "invalid argument")
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

func (a *app) newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "gsd",
		Short: "Hydrate a coding agent's working state from a GSD project",
		Long: `gsd reconstructs ("hydrates") a coding agent's working state from the files of a GSD
project, so that work survives context resets, /clear, compaction and terminal restarts.

Each person has a session file, .planning/sessions/<user>/current-plan.md: a copy of the plan
they are executing, with status="complete|in-progress|pending" on every task.`,
		Version:           version(),
		SilenceErrors:     true,
		SilenceUsage:      true,
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	root.PersistentPreRun = func(*cobra.Command, []string) { a.userSet = root.PersistentFlags().Changed("user") }
	root.SetVersionTemplate("gsd {{.Version}}\n")
	pf := root.PersistentFlags()
	pf.StringVarP(&a.dir, "directory", "C", "", "run as if gsd was started in `DIR`")
	pf.StringVar(&a.user, "user", "", "act as user `NAME` (default: GSD_USER, then git user.name)")
	pf.BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	pf.BoolVar(&a.noColor, "no-color", false, "never colour the output (also NO_COLOR)")
	root.AddCommand(
		a.newHydrateCmd(),
		a.newStartCmd(),
		a.newTasksCmd(),
		a.newMarkCmd("mark-complete", "complete"),
		a.newMarkCmd("mark-in-progress", "in-progress"),
		a.newMarkCmd("mark-pending", "pending"),
		a.newCheckCmd(),
		a.newArchiveCmd(),
		a.newWhoamiCmd(),
		a.newProgressCmd(),
		a.newStateCmd(),
		a.newBriefCmd(),
		a.newHookCmd(),
		a.newCompletionCmd(),
	)
	_ = root.MarkPersistentFlagDirname("directory")
	_ = root.RegisterFlagCompletionFunc("user", a.completeUsers)
	return root
}

// CommandTree is gsd's command tree, for documentation generators (cmd/gendocs); it is not
// meant to be executed.
func CommandTree() *cobra.Command {
	a := &app{stdin: os.Stdin, stdout: io.Discard, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }}
	a.now = a.clock
	root := a.newRootCmd()
	var reproducible func(*cobra.Command)
	reproducible = func(c *cobra.Command) {
		c.DisableAutoGenTag = true // no "Auto generated by spf13/cobra on <date>" line
		for _, sub := range c.Commands() {
			reproducible(sub)
		}
	}
	reproducible(root)
	return root
}

// getenv is the variable's value, "" when unset.
func (a *app) getenv(key string) string {
	v, _ := a.lookupEnv(key)
	return v
}

// workDir is -C or the working directory.
func (a *app) workDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if a.dir == "" {
		return wd, nil
	}
	if !filepath.IsAbs(a.dir) {
		a.dir = filepath.Join(wd, a.dir)
	}
	fi, err := os.Stat(a.dir)
	if err != nil {
		return "", usageError{fmt.Errorf("-C %s: %w", a.dir, errors.Unwrap(err))}
	}
	if !fi.IsDir() {
		return "", usageError{fmt.Errorf("-C %s: not a directory", a.dir)}
	}
	return a.dir, nil
}

// identityEnv gathers the identity sources from the process.
func (a *app) identityEnv(dir string) identity.Env {
	home, _ := os.UserHomeDir()
	return identity.Env{
		Flag:      a.user,
		FlagGiven: a.userSet,
		LookupEnv: a.lookupEnv,
		Home:      home,
		Dir:       dir,
		LoginName: func() (string, error) {
			u, err := user.Current()
			if err != nil {
				return "", err
			}
			return u.Username, nil
		},
		Hostname: os.Hostname,
	}
}

// open finds the project and the user.
func (a *app) open() (*hydrate.Env, string, error) {
	dir, err := a.workDir()
	if err != nil {
		return nil, "", err
	}
	timeout, err := a.lockTimeout()
	if err != nil {
		return nil, "", err
	}
	env, err := hydrate.Open(hydrate.Config{
		Dir:         dir,
		Identity:    a.identityEnv(dir),
		Workstream:  a.getenv("GSD_WORKSTREAM"),
		Now:         a.now,
		LockTimeout: timeout,
	})
	return env, dir, err
}

// lockTimeout is GSD_LOCK_TIMEOUT (a Go duration such as 500ms or 30s, or whole seconds), how
// long a write waits for another gsd process; 0 (unset) means hydrate.DefaultLockTimeout.
func (a *app) lockTimeout() (time.Duration, error) {
	s := a.getenv("GSD_LOCK_TIMEOUT")
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		n, nerr := strconv.ParseInt(s, 10, 64)
		if nerr != nil && !errors.Is(nerr, strconv.ErrRange) {
			return 0, usageError{fmt.Errorf("GSD_LOCK_TIMEOUT=%q: not a duration (such as 500ms or 30s)", s)}
		}
		if nerr != nil || n > int64(math.MaxInt64/time.Second) {
			return 0, usageError{fmt.Errorf("GSD_LOCK_TIMEOUT=%q: too large", s)}
		}
		d = time.Duration(n) * time.Second
	}
	if d <= 0 {
		return 0, usageError{fmt.Errorf("GSD_LOCK_TIMEOUT=%q: must be positive", s)}
	}
	return d, nil
}

// clock is the current time, or SOURCE_DATE_EPOCH when set (the reproducible-builds convention),
// which makes the Started header and archive names reproducible.
func (a *app) clock() time.Time {
	if s := a.getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Now()
}

// buildVersion is set by make build (-ldflags -X) from git describe, for builds whose build
// information has no version (a build in a checkout records "(devel)").
var buildVersion string

// version is the module version from build information (as go install ...@v1.2.3 records it),
// else the version make build stamped, else "(devel)" with the VCS revision when the build
// recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		if buildVersion != "" {
			return buildVersion
		}
		return "(unknown)"
	}
	v := bi.Main.Version
	if (v == "" || v == "(devel)") && buildVersion != "" {
		return buildVersion
	}
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 && v == "(devel)" {
			v += " " + s.Value[:12]
		}
	}
	return v
}
