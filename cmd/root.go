// Package cmd owns gsd's command line: its flags, its output (text, JSON, porcelain, Markdown)
// and its exit codes; every decision about a project is a domain package's. Each command parses
// its flags into an options value, calls one use case of package hydrate, and renders the result.
// Main is the one place that turns errors into exit codes.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/config"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
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
	// noGitEvidence turns off reading what git records of the work (--no-git-evidence).
	noGitEvidence bool
	// work says the command weighs what git records of the work (hydrate, brief, start,
	// progress, state, workstreams, the SessionStart hook, the MCP server); the others (mark-*,
	// tasks, check, ...) start no process.
	work bool

	env *hydrate.Env // the project opened by the command, for its history warnings

	// Who writes, for the journal: "cli" unless a hook or server says otherwise, and the
	// agent session when known (the hook's session_id, else GSD_INSTANCE).
	source, instance string
	lockDefault      time.Duration // the lock timeout over the config file's, under GSD_LOCK_TIMEOUT (0: none)

	topicErr error // arguments after a help topic (topics.go)
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
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return mainWith(args, stdin, stdout, stderr, invoked(args))
}

// mainWith is Main with a root command that has only the subcommand sc, or all of them when sc is
// nil.
func mainWith(args []string, stdin io.Reader, stdout, stderr io.Writer, sc *subcommand) (code int) {
	defer func() {
		// A bug must not become a stack dump in an agent's context: one line, exit 1.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gsd: internal error: %v (please report this)\n", r)
			code = ExitFailure
		}
	}()
	out := &errWriter{w: stdout}
	a := &app{stdin: stdin, stdout: out, stderr: stderr, lookupEnv: os.LookupEnv}
	a.now = a.clock
	root := a.newRootCmd(sc)
	root.SetArgs(args)
	c, err := root.ExecuteC()
	if err == nil && a.topicErr != nil {
		err = a.topicErr
	}
	if a.env != nil {
		for _, w := range a.env.History().HistoryWarnings() {
			a.warn("%s", w)
		}
		for _, w := range a.env.SettingsWarnings() {
			a.warn("%s", w)
		}
		for _, w := range a.env.ScopeWarnings() {
			a.warn("%s", w)
		}
		_ = a.env.Close()
	}
	if out.err != nil && (c == nil || c.Annotations[alwaysExitsZero] == "") {
		// What the user asked for is lost (a full disk, a closed pipe): that is a failure
		// whatever the command thought of its own run, as for git.
		fmt.Fprintf(stderr, "gsd: write stdout: %v\n", writeCause(out.err))
		return ExitFailure
	}
	if err == nil {
		return ExitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	var ue usageError
	var ae *hydrate.ArgError
	var ce *config.Error
	switch {
	case errors.Is(err, hydrate.ErrNotProject):
		fmt.Fprintf(stderr, "gsd: %s\n", oneLine(printable(err.Error())))
		return ExitNotProject
	case errors.As(err, &ue) || errors.As(err, &ae) || isCobraUsage(err) || errors.Is(err, identity.ErrUnusableUser) ||
		errors.As(err, &ce) && ce.FromEnvironment():
		// cobra appends its suggestions after a blank line: keep them on lines of their own.
		msg, suggest, _ := strings.Cut(err.Error(), "\n\nDid you mean this?\n")
		fmt.Fprintf(stderr, "gsd: %s\n", oneLine(printable(msg)))
		if names := strings.Fields(suggest); len(names) > 0 {
			fmt.Fprintf(stderr, "Did you mean this?\n\t%s\n", strings.Join(names, "\n\t"))
		}
		fmt.Fprintf(stderr, "Run '%s --help' for usage.\n", helpFor(c))
		return ExitUsage
	}
	fmt.Fprintf(stderr, "gsd: %s\n", oneLine(printable(err.Error())))
	return ExitFailure
}

// alwaysExitsZero, as an annotation key, marks a command whose contract is exit 0 whatever
// happens (a hook must never break the agent's session); it reports its own failures.
const alwaysExitsZero = "gsd/always-exits-zero"

// helpFor is the command whose --help a usage error points to: the one that was run, or gsd
// itself for an unknown command or help topic.
func helpFor(c *cobra.Command) string {
	if c == nil || c.Name() == "help" {
		return "gsd"
	}
	return c.CommandPath()
}

// errWriter passes writes through to w and records the first error, so that Main can fail when
// output was lost, whichever code path wrote it (cobra's help and completion scripts included).
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

// writeCause is the reason of a failed write without the file name (always stdout here):
// "no space left on device", "broken pipe".
func writeCause(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isCobraUsage recognises the errors cobra itself returns for an unknown command or flag.
func isCobraUsage(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "unknown flag") ||
		strings.HasPrefix(s, "unknown shorthand flag") || strings.Contains(s, "flag needs an argument") ||
		strings.HasPrefix(s, "invalid argument")
}

// oneLine joins the lines of a message into one, its runs of white space made single spaces.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}

// name is the command's path without the leading "gsd", for error messages that Main prefixes
// with "gsd: " already: "mark-pending", "hook install".
func name(c *cobra.Command) string {
	return strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
}

// noArgs refuses positional arguments.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError{fmt.Errorf("%s accepts no arguments, got %s", name(c), textfmt.Quote(args[0]))}
	}
	return nil
}

// maxArgs refuses more than n positional arguments.
func maxArgs(n int) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if len(args) > n {
			what := fmt.Sprintf("%d arguments", n)
			if n == 1 {
				what = "one argument"
			}
			return usageError{fmt.Errorf("%s takes at most %s, got %d", name(c), what, len(args))}
		}
		return nil
	}
}

// warn prints one warning line on stderr: chatter, never data.
func (a *app) warn(format string, args ...any) {
	printf(a.stderr, "gsd: warning: "+format+"\n", args...) // names and messages escaped
}

// warnStale says on stderr that a command worked on a stale session, and why.
func (a *app) warnStale(s *hydrate.Session) {
	if s.State == hydrate.StateStale {
		a.warn("%s is stale: %s", s.Path, strings.Join(s.StaleReasons, "; "))
	}
}

// newHelpCmd replaces cobra's help command, which prints "Unknown help topic" on stdout and
// exits 0: an unknown topic is a usage error, on stderr, exit 2.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command|topic]",
		Short: "Help about any command or topic",
		Long: `Help prints the help of any command: gsd help hydrate is gsd hydrate --help.
gsd help TOPIC prints a help topic; gsd help lists them under "Additional help topics".

The same text as man pages, one per command (gsd-hydrate(1)) and per topic (gsd-position(7)):
in a checkout of gsd, make install-man puts them in share/man beside the directory make install
puts gsd in, where man finds them (man gsd-hydrate; MANDIR=DIR for another place), and make
docs writes them to bin/docs/man (man -M bin/docs/man gsd-hydrate).`,
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
			var names []string
			if cmd, _, err := c.Root().Find(args); err == nil && cmd != nil {
				for _, sub := range cmd.Commands() {
					if sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
						names = append(names, sub.Name()+"\t"+sub.Short)
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil {
				return usageError{fmt.Errorf("help: %w", err)}
			}
			if len(rest) > 0 {
				return usageError{fmt.Errorf("help: unknown command %s for %q", textfmt.Quote(rest[0]), cmd.CommandPath())}
			}
			return cmd.Help()
		},
	}
}

// subcommand is one of gsd's commands and how to build it.
type subcommand struct {
	name  string
	group string // the group gsd --help lists it in (commandGroups); "": Additional Commands
	build func(*app) *cobra.Command
	// wholeTree: the command works on the whole tree (completion prints the script cobra
	// generates from the root), so naming it builds the whole tree.
	wholeTree bool
}

// commandGroups are the groups gsd --help lists the commands in, as gh groups its own, in
// their order; a command in none is listed under Additional Commands.
var commandGroups = []*cobra.Group{
	{ID: "session", Title: "Session Commands:"},
	{ID: "history", Title: "History Commands:"},
	{ID: "project", Title: "Project Commands:"},
	{ID: "team", Title: "Team Commands:"},
	{ID: "agent", Title: "Agent Commands:"},
}

// subcommands is the one list of gsd's commands, in the order they are added to the root.
var subcommands = []subcommand{
	{name: "hydrate", group: "session", build: (*app).newHydrateCmd},
	{name: "start", group: "session", build: (*app).newStartCmd},
	{name: "tasks", group: "session", build: (*app).newTasksCmd},
	{name: "mark-complete", group: "session", build: func(a *app) *cobra.Command { return a.newMarkCmd("mark-complete", planfile.Complete) }},
	{name: "mark-in-progress", group: "session", build: func(a *app) *cobra.Command { return a.newMarkCmd("mark-in-progress", planfile.InProgress) }},
	{name: "mark-pending", group: "session", build: func(a *app) *cobra.Command { return a.newMarkCmd("mark-pending", planfile.Pending) }},
	{name: "check", group: "session", build: (*app).newCheckCmd},
	{name: "archive", group: "session", build: (*app).newArchiveCmd},
	{name: "snapshot", group: "history", build: (*app).newSnapshotCmd},
	{name: "snapshots", group: "history", build: (*app).newSnapshotsCmd},
	{name: "restore", group: "history", build: (*app).newRestoreCmd},
	{name: "log", group: "history", build: (*app).newLogCmd},
	{name: "sessions", group: "team", build: (*app).newSessionsCmd},
	{name: "resume", group: "team", build: (*app).newResumeCmd},
	{name: "sync", group: "team", build: (*app).newSyncCmd},
	{name: "stats", group: "agent", build: (*app).newStatsCmd},
	{name: "mcp", group: "agent", build: (*app).newMCPCmd},
	{name: "config", build: (*app).newConfigCmd},
	{name: "whoami", group: "team", build: (*app).newWhoamiCmd},
	{name: "progress", group: "project", build: (*app).newProgressCmd},
	{name: "workstreams", group: "project", build: (*app).newWorkstreamsCmd},
	{name: "state", group: "project", build: (*app).newStateCmd},
	{name: "brief", group: "agent", build: (*app).newBriefCmd},
	{name: "hook", group: "agent", build: (*app).newHookCmd},
	{name: "version", build: (*app).newVersionCmd},
	{name: "completion", build: (*app).newCompletionCmd, wholeTree: true},
}

// command builds the subcommand's command, in its group.
func (sc *subcommand) command(a *app) *cobra.Command {
	c := sc.build(a)
	c.GroupID = sc.group
	return c
}

// invoked is the subcommand that args run, when they name one unambiguously, else nil: their
// first word after the root's persistent flags, as the user can write them (-C DIR, -CDIR,
// -C=DIR, --directory DIR, --directory=DIR, --user NAME, --user=NAME, --json, --json=BOOL,
// --no-color, --no-color=BOOL). Cobra finds the command to run from that same word, so a root
// built with that one command (whole, with its own subcommands) runs, helps and fails exactly
// as the whole tree does. Anything else before the word (--help, --version, --, an unknown
// flag, combined shorthands), a word that is not a command (help, __complete, a typo that gets
// a suggestion), no word at all, and a command that needs the whole tree are nil.
func invoked(args []string) *subcommand {
	for i := 0; i < len(args); i++ {
		switch s := args[i]; {
		case s == "-C" || s == "--directory" || s == "--user":
			i++ // the flag's value, whatever it looks like
		case strings.HasPrefix(s, "-C") || strings.HasPrefix(s, "--directory=") || strings.HasPrefix(s, "--user="),
			s == "--json" || strings.HasPrefix(s, "--json="),
			s == "--no-color" || strings.HasPrefix(s, "--no-color="):
			// a flag with its value in the same word
		default:
			for j := range subcommands {
				if sc := &subcommands[j]; sc.name == s && !sc.wholeTree {
					return sc
				}
			}
			return nil
		}
	}
	return nil
}

// newRootCmd builds gsd's root command with the subcommand only, or with all of them (the
// whole tree) when only is nil. A run executes one command, and building the others is wasted
// start-up time for a tool that runs on every turn of an agent: see invoked.
func (a *app) newRootCmd(only *subcommand) *cobra.Command {
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
	root.SetHelpCommand(newHelpCmd())
	seeAlsoInHelp(root)
	pf := root.PersistentFlags()
	pf.StringVarP(&a.dir, "directory", "C", "", "run as if gsd was started in `DIR`")
	pf.StringVar(&a.user, "user", "", "act as user `NAME` (default: GSD_USER, then git user.name)")
	pf.BoolVar(&a.json, "json", false, "print one JSON object instead of text")
	pf.BoolVar(&a.noColor, "no-color", false, "never colour the output (also NO_COLOR)")
	pf.BoolVar(&a.noGitEvidence, "no-git-evidence", false, "do not read the tasks' commits and changed files from git (also GSD_GIT_EVIDENCE=0)")
	root.AddGroup(commandGroups...) // a command's group must be the root's, even when it is built alone
	if only != nil {
		root.AddCommand(only.command(a))
	} else {
		for i := range subcommands {
			root.AddCommand(subcommands[i].command(a))
		}
		root.AddCommand(a.helpTopics()...)
	}
	_ = root.MarkPersistentFlagDirname("directory")
	_ = root.RegisterFlagCompletionFunc("user", a.completeUsers)
	return root
}

// CommandTree is gsd's command tree, for documentation generators (cmd/gendocs); it is not
// meant to be executed.
func CommandTree() *cobra.Command {
	a := &app{stdin: os.Stdin, stdout: io.Discard, stderr: io.Discard, lookupEnv: func(string) (string, bool) { return "", false }}
	a.now = a.clock
	root := a.newRootCmd(nil)
	var reproducible func(*cobra.Command)
	reproducible = func(c *cobra.Command) {
		c.DisableAutoGenTag = true // no "Auto generated by spf13/cobra on <date>" line
		withTopics(c)              // as its help prints it
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
	if a.dir == "" || !filepath.IsAbs(a.dir) {
		wd, err := os.Getwd() // two stats, for $PWD: only when needed (a hook's cwd is absolute)
		if err != nil {
			return "", err
		}
		if a.dir == "" {
			return wd, nil
		}
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
func (a *app) identityEnv(dir string) identity.Sources {
	home, _ := os.UserHomeDir()
	return identity.Sources{
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
			if runtime.GOOS == "windows" {
				return withoutDomain(u.Username), nil
			}
			return u.Username, nil
		},
		Hostname: os.Hostname,
	}
}

// withoutDomain is a Windows login name without its domain: user.Current gives DOMAIN\user
// there, where whoami in Git Bash, which runs GSD's own scripts on Windows, prints the user alone.
func withoutDomain(name string) string {
	return name[strings.LastIndexByte(name, '\\')+1:]
}

// open finds the project and the user.
func (a *app) open() (*hydrate.Env, string, error) { return a.openFor(true) }

// openAnyone is open for a command that acts for no one user (progress reads every user's
// session alike): who runs it is not resolved, so a GSD_USER it would refuse does not stop it.
func (a *app) openAnyone() (*hydrate.Env, string, error) { return a.openFor(false) }

// openWorkstreams is openAnyone at the project's root whatever workstream is selected, even one
// that cannot be used: gsd workstreams reports the selection rather than fail on it.
func (a *app) openWorkstreams() (*hydrate.Env, string, error) { return a.openWith(false, true) }

func (a *app) openFor(user bool) (*hydrate.Env, string, error) { return a.openWith(user, false) }

func (a *app) openWith(user, anyWorkstream bool) (*hydrate.Env, string, error) {
	dir, err := a.workDir()
	if err != nil {
		return nil, "", err
	}
	settings, err := config.ReadEnvironment(a.lookupEnv)
	if err != nil {
		return nil, "", err // a usage error, before the project is looked for
	}
	env, err := hydrate.Open(hydrate.Config{
		Dir:           dir,
		Identity:      a.identityEnv(dir),
		NoUser:        !user,
		Workstream:    a.getenv("GSD_WORKSTREAM"),
		AnyWorkstream: anyWorkstream,
		Now:           a.now,
		LockTimeout:   a.lockDefault,
		History:       a.history(),
		Environment:   settings,
		Git:           teamsync.ExecGit{Dir: dir}, // for sessions gsd sync fetched, and the tasks' commits
		NoGitEvidence: a.noGitEvidence || !a.work,
		StateDir:      a.stateDir(),
	})
	a.env = env
	return env, dir, err
}

// stateDir is gsd's directory in the user's state directory: $XDG_STATE_HOME/gsd, else
// ~/.local/state/gsd (on Windows, %LOCALAPPDATA%\gsd); "" when there is none.
func (a *app) stateDir() string {
	if d := a.getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "gsd")
	}
	if d := a.getenv("LOCALAPPDATA"); runtime.GOOS == "windows" && filepath.IsAbs(d) {
		return filepath.Join(d, "gsd")
	}
	if home := a.getenv("HOME"); filepath.IsAbs(home) {
		return filepath.Join(home, ".local", "state", "gsd")
	}
	return ""
}

// history says who writes, for the journal.
func (a *app) history() hydrate.History {
	h := hydrate.History{Source: a.source, Instance: a.instance}
	if h.Source == "" {
		h.Source = "cli"
	}
	if h.Instance == "" {
		h.Instance = a.getenv("GSD_INSTANCE")
	}
	return h
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
