package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/hookconfig"
)

func (a *app) newHookCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Hydrate the agent by itself: Claude Code's SessionStart hook",
		Long: `Claude Code runs SessionStart hooks at each of the spec's hydration triggers: a new conversation
(startup), a resumed one (resume), /clear (clear) and after the context was compacted (compact).
gsd hook install adds "gsd hook session-start" there, and the agent then starts every
conversation with the resume brief (gsd brief) in its context.`,
		Example: `  gsd hook install              # .claude/settings.json of this project
  gsd hook install --global     # ~/.claude/settings.json
  gsd hook install --dry-run    # show the change, write nothing
  gsd hook uninstall`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %q for %q", args[0], c.CommandPath())}
			}
			return c.Help()
		},
	}
	c.AddCommand(a.newHookSessionStartCmd(), a.newHookEditCmd(true), a.newHookEditCmd(false))
	return c
}

// hookInput is what Claude Code writes to a hook's stdin; gsd needs only these fields.
type hookInput struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	Source        string `json:"source"`
}

// hookStdinLimit bounds what is read from stdin: the hook's JSON is a few hundred bytes.
const hookStdinLimit = 1 << 20

// hookStdinWait bounds how long to wait for stdin to close: a hook must never hang a session.
// (A variable for tests.)
var hookStdinWait = 2 * time.Second

func (a *app) newHookSessionStartCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "session-start",
		Short: "Print the resume brief as SessionStart hook output (run by Claude Code)",
		Long: `Session-start reads the hook's JSON from stdin (session_id, cwd, source, ...), hydrates
read-only (it never bootstraps a session, takes no lock and writes nothing) and prints
{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "<the brief>"}}.

It never breaks a session: outside a GSD project it prints nothing; on empty or malformed input
or any error it exits 0, with at most a one-line note. (By hand: gsd brief --no-bootstrap.)`,
		Example: `  echo '{"cwd": ".", "source": "clear"}' | gsd hook session-start`,
		Args:    cobra.ArbitraryArgs, // a hook must not fail on an argument a later version adds
		// Not even when its output cannot be written: it says so in its own note.
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) (err error) {
			defer func() {
				if r := recover(); r != nil {
					fmt.Fprintf(a.stderr, "gsd: hook session-start: internal error: %v\n", r)
					err = nil
				}
			}()
			a.hookSessionStart()
			return nil
		},
	}
}

// hookSessionStart does the work of gsd hook session-start; every failure is a note, never an
// error.
func (a *app) hookSessionStart() {
	note := func(format string, args ...any) {
		fmt.Fprintf(a.stderr, "gsd: hook session-start: %s\n", printable(fmt.Sprintf(format, args...)))
	}
	in, err := a.readHookInput()
	if err != nil {
		note("%v; nothing to do", err)
		return
	}
	if in.HookEventName != "" && in.HookEventName != hookconfig.Event {
		note("called for %s, not %s; nothing to do", in.HookEventName, hookconfig.Event)
		return
	}
	if a.dir == "" && in.Cwd != "" {
		a.dir = in.Cwd
	}
	context := func() string {
		env, _, err := a.open()
		if errors.Is(err, hydrate.ErrNotProject) {
			return "" // not a GSD project: this hook has nothing to say
		}
		if err != nil {
			var ue usageError
			if errors.As(err, &ue) { // a cwd that does not exist
				note("%s", oneLine(err.Error()))
				return ""
			}
			return "gsd could not hydrate this GSD project: " + oneLine(err.Error()) + " (run gsd check)"
		}
		res, err := env.Hydrate(hydrate.Options{Bootstrap: false})
		if err != nil {
			return "gsd could not hydrate this GSD project: " + oneLine(err.Error()) + " (run gsd check)"
		}
		return renderBrief(env.Brief(res), in.Source)
	}()
	if context == "" {
		return
	}
	type specific struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	}
	out := struct {
		HookSpecificOutput specific `json:"hookSpecificOutput"`
	}{specific{hookconfig.Event, context}}
	enc := json.NewEncoder(a.stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		note("%v", err)
	}
}

// errNoHookInput is a hook run without its JSON: by hand, from a terminal, or by a runner that
// never closes stdin.
var errNoHookInput = errors.New("no hook input on stdin (gsd brief --no-bootstrap prints the brief by hand)")

// readHookInput reads the hook's JSON from stdin, without hanging on a terminal or on a stdin
// that never closes.
func (a *app) readHookInput() (hookInput, error) {
	var in hookInput
	if f, ok := a.stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return in, errNoHookInput
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(a.stdin, hookStdinLimit))
		done <- result{data, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(hookStdinWait):
		return in, errNoHookInput
	}
	if r.err != nil {
		return in, fmt.Errorf("reading stdin: %v", r.err)
	}
	if len(bytes.TrimSpace(r.data)) == 0 {
		return in, errNoHookInput
	}
	if err := json.Unmarshal(r.data, &in); err != nil {
		return in, fmt.Errorf("stdin is not the hook's JSON (%v)", oneLine(err.Error()))
	}
	return in, nil
}

type hookEditOptions struct {
	global, local, dryRun bool
	command               string
}

// newHookEditCmd builds gsd hook install and gsd hook uninstall.
func (a *app) newHookEditCmd(install bool) *cobra.Command {
	var o hookEditOptions
	c := &cobra.Command{
		Use:   "install",
		Short: "Add gsd's SessionStart hook to Claude Code's settings",
		Long: `Install adds a SessionStart hook running "gsd hook session-start" for the sources
startup|resume|clear|compact to .claude/settings.json at the project root (--local:
.claude/settings.local.json; --global: ~/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json).

The file is edited in place, atomically: its other settings and hooks, their order and layout
stay as they are. Installing twice changes nothing.`,
		Example: "  gsd hook install\n  gsd hook install --global --dry-run",
		Args:    noArgs,
	}
	if !install {
		c.Use = "uninstall"
		c.Short = "Remove gsd's SessionStart hook from Claude Code's settings"
		c.Long = `Uninstall removes every SessionStart hook whose command is gsd's (gsd hook session-start,
under whatever path), and the matcher group, SessionStart list and "hooks" object that this leaves
empty. Everything else in the file stays as it is.`
		c.Example = "  gsd hook uninstall\n  gsd hook uninstall --global"
	}
	c.RunE = func(c *cobra.Command, _ []string) error {
		if o.global && o.local {
			return usageError{errors.New("--global and --local cannot be used together")}
		}
		t, err := a.settingsTarget(o)
		if err != nil {
			return err
		}
		var ch *hookconfig.Change
		if install {
			if strings.TrimSpace(o.command) == "" {
				return usageError{errors.New("--command: empty")}
			}
			ch, err = hookconfig.InstallFile(t.path, o.command, o.dryRun)
		} else {
			ch, err = hookconfig.UninstallFile(t.path, o.dryRun)
		}
		if err != nil {
			return err
		}
		return a.printHookChange(ch, t, install, o.dryRun)
	}
	f := c.Flags()
	f.BoolVar(&o.global, "global", false, "edit the user's settings (~/.claude/settings.json)")
	f.BoolVar(&o.local, "local", false, "edit the project's .claude/settings.local.json (not committed)")
	f.BoolVar(&o.dryRun, "dry-run", false, "show the change; write nothing")
	if install {
		f.StringVar(&o.command, "command", hookconfig.Command, "the hook `COMMAND` (to give gsd's full path)")
	}
	return c
}

// settingsTarget is the settings file a hook edit targets: its absolute path, the path reports
// show (root-relative for the project's files; ~/... for the user's under the home directory)
// and its scope: "project", "local" or "global".
type settingsTarget struct {
	path, shown, scope string
}

func (a *app) settingsTarget(o hookEditOptions) (settingsTarget, error) {
	if o.global {
		home, err := os.UserHomeDir()
		if err != nil && a.getenv("CLAUDE_CONFIG_DIR") == "" {
			return settingsTarget{}, fmt.Errorf("no home directory for --global: %w", err)
		}
		p := hookconfig.UserSettings(home, a.getenv("CLAUDE_CONFIG_DIR"))
		shown := p
		if rel, err := filepath.Rel(home, p); home != "" && err == nil && filepath.IsLocal(rel) {
			shown = "~/" + filepath.ToSlash(rel)
		}
		return settingsTarget{p, shown, "global"}, nil
	}
	dir, err := a.workDir()
	if err != nil {
		return settingsTarget{}, err
	}
	root, err := hydrate.FindRoot(dir)
	if err != nil {
		return settingsTarget{}, err
	}
	t := settingsTarget{hookconfig.ProjectSettings(root), "", "project"}
	if o.local {
		t = settingsTarget{filepath.Join(root, ".claude", "settings.local.json"), "", "local"}
	}
	rel, _ := filepath.Rel(root, t.path)
	t.shown = filepath.ToSlash(rel)
	return t, nil
}

func (a *app) printHookChange(ch *hookconfig.Change, t settingsTarget, install, dryRun bool) error {
	if a.json {
		return a.printJSON(struct {
			SchemaVersion int    `json:"schemaVersion"`
			SettingsFile  string `json:"settingsFile"`
			Scope         string `json:"scope"`
			Changed       bool   `json:"changed"`
			DryRun        bool   `json:"dryRun"`
		}{SchemaVersion, t.shown, t.scope, ch.Changed, dryRun})
	}
	if dryRun && ch.Changed {
		// The change itself is the report.
		old := t.shown
		if ch.Before == nil {
			old = "/dev/null"
		}
		_, err := a.stdout.Write(diff.Diff(old, ch.Before, t.shown, ch.After))
		return err
	}
	var msg string
	switch {
	case install && ch.Changed:
		msg = "installed the SessionStart hook in " + t.shown
	case install:
		msg = "already installed in " + t.shown + "; nothing changed"
	case ch.Changed:
		msg = "removed the SessionStart hook from " + t.shown
	default:
		msg = "no gsd hook in " + t.shown + "; nothing changed"
	}
	_, err := fmt.Fprintln(a.stdout, printable(msg))
	return err
}
