package cmd

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/hook"
	"github.com/gsd-tools/gsd/hydrate/hook/settings"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newHookCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "hook",
		Short: "Hydrate the agent by itself: Claude Code's lifecycle hooks",
		Long: `Claude Code runs SessionStart hooks at each of the spec's hydration triggers: a new conversation
(startup), a resumed one (resume), /clear (clear) and after the context was compacted
(compact). gsd hook install adds "gsd hook session-start" there, and the agent then starts
every conversation with the resume brief (gsd brief) in its context; the rehydration is
journaled with the agent's session_id. It also adds "gsd hook pre-compact" to PreCompact (a
pre-compact snapshot of the session) and "gsd hook session-end" to SessionEnd (the agent's
detach, journaled). gsd sessions and gsd stats read what they record. "gsd hook turn-end" on
Stop, and the pre-compact and session-end hooks, capture what the agent itself was doing from
its transcript (its user's last request, its todo list, its last tools and files), which the
brief hands back after /clear, a compaction or a resume. Codex CLI and Gemini CLI: --agent
codex, --agent gemini (gsd help hooks says what is kept, where, and how to turn it off).`,
		Example: `  gsd hook install              # .claude/settings.json of this project (shared, guarded)
  gsd hook install --local      # .claude/settings.local.json (yours alone)
  gsd hook install --global     # ~/.claude/settings.json
  gsd hook install --dry-run    # show the change, write nothing
  gsd hook uninstall`,
		Args: cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError{fmt.Errorf("unknown command %s for %q", textfmt.Quote(args[0]), c.CommandPath())}
			}
			return c.Help()
		},
	}
	c.AddCommand(a.newHookSessionStartCmd(), a.newHookPreCompactCmd(), a.newHookSessionEndCmd(), a.newHookTurnEndCmd(), a.newHookTurnStartCmd(),
		a.newHookEditCmd(true), a.newHookEditCmd(false))
	return c
}

// hookLockWait is how long a hook waits for another gsd's write (unless GSD_LOCK_TIMEOUT says
// otherwise): a hook must not hold up the agent; when it gives up it says so in one line.
const hookLockWait = time.Second

// hookStdinWait bounds how long to wait for stdin to close: a hook must never hang a session.
// (A variable for tests.)
var hookStdinWait = 2 * time.Second

func (a *app) newHookSessionStartCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "session-start",
		Short: "Print the resume brief as SessionStart hook output (run by Claude Code)",
		Long: `Session-start reads the hook's JSON from stdin (session_id, cwd, source, ...), hydrates
read-only (it never bootstraps a session or changes one; when you have a session, it journals
the rehydration with the agent's session_id, or a failure, under the session's lock) and prints
{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "<the brief>"}}.

With the gsd.sync setting (or GSD_SYNC=1) it first fetches the teammates' sessions (gsd sync
--fetch-only), giving the network 2 seconds at most.

It never breaks a session: outside a GSD project it prints nothing; on empty or malformed input
or any error it exits 0, with at most a one-line note. (By hand: gsd brief --no-bootstrap.)

Limits: additionalContext is at most 8,192 bytes whatever produced it (Claude Code takes 10,000
characters from a hook); a longer brief or message is cut with a line saying so. A note on
stderr is one line of at most 1,000 characters; a message quotes a value from a file as at most
120 characters. The hook reads at most 1 MiB of input and waits at most 2 s for it.`,
		Example: `  echo '{"cwd": ".", "source": "clear"}' | gsd hook session-start`,
		Args:    cobra.ArbitraryArgs, // a hook must not fail on an argument a later version adds
		// Not even when its output cannot be written: it says so in its own note.
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			a.runLifecycleHook("session-start", a.hookSessionStart)
			return nil
		},
	}
}

// hookSessionStart is gsd hook session-start's own part of the run: the brief as the agent's
// additional context (or, when the project cannot be hydrated, one line saying so), and the
// rehydration journaled.
func (a *app) hookSessionStart(env *hydrate.Env, err error, in hook.Input) error {
	var context string
	if err == nil {
		a.hookSyncFetch(env) // when gsd.sync asks for it, within 2 s
	}
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) { // a cwd that does not exist
			return err
		}
		context = hydrateFailed(err)
	} else if res, err := env.Hydrate(hydrate.Options{Bootstrap: false}); err != nil {
		env.Agents().HookFailed(settings.Event + ": " + oneLine(err.Error()))
		context = hydrateFailed(err)
	} else {
		b := env.Brief(res)
		if hydrate.HandsBack(in.Source) { // after /clear, a compaction, a resume: what the agent was doing
			resumed := ""
			if in.Source == "resume" {
				resumed = in.SessionID
			}
			b.AgentContext = env.Agents().AgentContext(hydrate.AgentContextOptions{Resumed: resumed, Consume: true})
		}
		context = hook.ClipContext(renderBrief(b, in.Source))
		if res.Exists { // a session exists: the rehydration is journaled
			if _, err := env.Agents().Attach(in.Source, len(context)); err != nil {
				a.hookNote("session-start", "the rehydration was not journaled: %s", oneLine(err.Error()))
			}
		}
	}
	if err := hook.NewSessionStartOutput(settings.Event, context).Write(a.stdout); err != nil {
		a.hookNote("session-start", "%v", err)
	}
	return nil
}

// hydrateFailed is SessionStart's context when the project cannot be hydrated.
func hydrateFailed(err error) string {
	return "gsd could not hydrate this GSD project: " + oneLine(err.Error()) + " (run gsd check)"
}

// hookWork is a hook's own part of its run: in the project opened at the input's cwd (env), or,
// when it could not be opened, with why (env nil; never hydrate.ErrNotProject: outside a GSD
// project a hook is silent). The error it returns is noted on stderr and, where the project
// opened, journaled as a hook failure.
type hookWork func(env *hydrate.Env, openErr error, in hook.Input) error

// recording is the work of a hook that only records (PreCompact, SessionEnd): do, in the
// project.
func recording(do func(*hydrate.Env, hook.Input) error) hookWork {
	return func(env *hydrate.Env, err error, in hook.Input) error {
		if err != nil {
			return err
		}
		return do(env, in)
	}
}

// runLifecycleHook is the frame of gsd's hooks (gsd hook sub): read the input, check that it is
// for one of the events the agents run sub for (settings.Events), open the project at its cwd,
// run work. Every failure is a one-line note on stderr (and, where there is a session directory,
// a hook-failure event), never an error: the agent's session must not break.
func (a *app) runLifecycleHook(sub string, work hookWork) {
	defer func() {
		if r := recover(); r != nil {
			a.hookNote(sub, "internal error: %v", r)
		}
	}()
	in, err := a.readHookInput()
	if err != nil {
		a.hookNote(sub, "%v; nothing to do", err)
		return
	}
	if in.HookEventName != "" && !settings.Serves(sub, in.HookEventName) {
		a.hookNote(sub, "called for %s, not %s; nothing to do", in.HookEventName, strings.Join(settings.Events(sub), " or "))
		return
	}
	if a.dir == "" && in.Cwd != "" {
		a.dir = in.Cwd
	}
	a.source, a.instance, a.lockDefault = "hook", in.SessionID, hookLockWait
	a.work = sub == "session-start" // the brief weighs the commits; the other hooks start no git
	env, _, err := a.open()
	if errors.Is(err, hydrate.ErrNotProject) {
		return
	}
	if err := work(env, err, in); err != nil {
		a.hookNote(sub, "%s", oneLine(err.Error()))
		if env != nil {
			event := in.HookEventName
			if event == "" {
				event = settings.Events(sub)[0]
			}
			env.Agents().HookFailed(event + ": " + oneLine(err.Error()))
		}
	}
}

// maxHookNote bounds a hook's note on stderr, in runes (after escaping).
const maxHookNote = 1000

// hookNote writes gsd hook sub's one-line note on stderr, at most maxHookNote runes of it.
func (a *app) hookNote(sub, format string, args ...any) {
	fmt.Fprintf(a.stderr, "gsd: hook %s: %s\n", sub, textfmt.Clip(printable(fmt.Sprintf(format, args...)), maxHookNote))
}

// readHookInput reads the hook's JSON from stdin, without hanging on a terminal or on a stdin
// that never closes.
func (a *app) readHookInput() (hook.Input, error) {
	var in hook.Input
	data, ok, err := readWithin(a.stdin, hook.InputLimit, hookStdinWait)
	switch {
	case err != nil:
		return in, fmt.Errorf("reading stdin: %v", err)
	case !ok:
		return in, hook.ErrNoInput
	}
	return hook.ParseInput(data)
}

// hookFiles are the settings files gsd hook install and uninstall edit, by agent and scope
// (settings.Agents; hook_test.go holds the two together).
const hookFiles = `  claude   .claude/settings.json; --local: .claude/settings.local.json;
           --global: ~/.claude/settings.json (or $CLAUDE_CONFIG_DIR/settings.json)
  codex    .codex/hooks.json; --global: ~/.codex/hooks.json (or $CODEX_HOME/hooks.json)
  gemini   .gemini/settings.json; --global: ~/.gemini/settings.json`

type hookEditOptions struct {
	global, local, dryRun bool
	command, agent        string
}

// newHookEditCmd builds gsd hook install and gsd hook uninstall.
func (a *app) newHookEditCmd(install bool) *cobra.Command {
	var o hookEditOptions
	c := &cobra.Command{
		Use:   "install",
		Short: "Add gsd's lifecycle hooks to Claude Code's settings",
		Long: `Install adds a SessionStart hook running "gsd hook session-start" for the sources
startup|resume|clear|compact, a PreCompact hook running "gsd hook pre-compact", a SessionEnd
hook running "gsd hook session-end" and a Stop hook running "gsd hook turn-end" to
.claude/settings.json at the project root (--local: .claude/settings.local.json; --global:
~/.claude/settings.json, or $CLAUDE_CONFIG_DIR/settings.json). With --command, the other hooks
run the same program. Codex CLI's hooks (--agent codex) and Gemini CLI's (--agent gemini;
PreCompress for PreCompact, AfterAgent and BeforeAgent for a turn's end and start) go to their
own files:

` + hookFiles + `

The project's file is shared with the team, so there each command is guarded:
"command -v gsd >/dev/null 2>&1 && gsd hook session-start || true" runs gsd where it is on the
PATH and, for a teammate without gsd, exits 0 without a word. The guard is POSIX shell, which
Claude Code uses on every system (Git Bash on Windows); Codex and Gemini CLI on Windows run
hooks through cmd.exe or PowerShell, where it does not parse: there, install with --global. The
files that are yours alone (--local, --global) get the bare command; --command is used exactly
as given.

Codex runs a new or changed hook only after you trust it in its /hooks view.

The file is edited in place, atomically: its other settings and hooks, their order and layout
stay as they are. Installing twice changes nothing.`,
		Example: "  gsd hook install\n  gsd hook install --global --dry-run",
		Args:    noArgs,
	}
	if !install {
		c.Use = "uninstall"
		c.Short = "Remove gsd's lifecycle hooks from Claude Code's settings"
		c.Long = `Uninstall removes every hook whose command is gsd's (gsd hook session-start, pre-compact,
session-end, turn-end or turn-start, under whatever path), and the matcher groups, event lists
and "hooks" object that this leaves empty. Everything else in the file stays as it is, byte for
byte. With nothing to remove it writes nothing and creates no file or directory. The files, by
--agent:

` + hookFiles

		c.Example = "  gsd hook uninstall\n  gsd hook uninstall --global"
	}
	c.RunE = func(c *cobra.Command, _ []string) error {
		if o.global && o.local {
			return usageError{errors.New("--global and --local cannot be used together")}
		}
		ag, ok := settings.AgentNamed(o.agent)
		if !ok {
			return usageError{fmt.Errorf("--agent %s: want %s", textfmt.Quote(o.agent), agentNames())}
		}
		if o.local && ag.Local == nil {
			return usageError{fmt.Errorf("--local: %s has no local %s (use the project's or --global)", ag.Title, ag.File)}
		}
		t, err := a.settingsTarget(o, ag)
		if err != nil {
			return err
		}
		var ch *settings.Change
		if install {
			if strings.TrimSpace(o.command) == "" {
				return usageError{errors.New("--command: empty")}
			}
			command := o.command
			if t.scope == "project" && !c.Flags().Changed("command") {
				command = settings.Guard(command)
			}
			ch, err = settings.InstallFileFor(t.path, command, ag.Specs, o.dryRun)
		} else {
			ch, err = settings.UninstallFileFor(t.path, ag.Specs, o.dryRun)
		}
		if err != nil {
			return err
		}
		return a.printHookChange(ch, t, install, o.dryRun, ag, c.Flags().Changed("command"))
	}
	f := c.Flags()
	f.BoolVar(&o.global, "global", false, "edit your own settings file, for every project: ~/.claude/settings.json, ~/.codex/hooks.json or ~/.gemini/settings.json, by --agent")
	f.BoolVar(&o.local, "local", false, "edit the project's .claude/settings.local.json (not committed)")
	f.BoolVar(&o.dryRun, "dry-run", false, "show the change; write nothing")
	f.StringVar(&o.agent, "agent", "claude", "the agent whose settings to edit: claude (Claude Code), codex (Codex CLI: .codex/hooks.json, SessionStart, PreCompact, SessionEnd, Stop) or gemini (Gemini CLI: .gemini/settings.json, SessionStart, PreCompress, SessionEnd, AfterAgent, BeforeAgent)")
	if install {
		f.StringVar(&o.command, "command", settings.Command, "the hook `COMMAND` (to give gsd's full path)")
	}
	_ = c.RegisterFlagCompletionFunc("agent", func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		var out []cobra.Completion
		for _, ag := range settings.Agents {
			if strings.HasPrefix(ag.Name, toComplete) {
				out = append(out, cobra.CompletionWithDesc(ag.Name, ag.Title))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	})
	return c
}

// settingsTarget is the settings file a hook edit targets: its absolute path, the path reports
// show (root-relative for the project's files; ~/... for the user's under the home directory)
// and its scope: "project", "local" or "global".
type settingsTarget struct {
	path, shown, scope string
}

func (a *app) settingsTarget(o hookEditOptions, ag *settings.Agent) (settingsTarget, error) {
	if o.global {
		home, err := os.UserHomeDir()
		var dir string // where the agent's variable moves the user's settings
		if ag.UserEnv != "" {
			dir = a.getenv(ag.UserEnv)
		}
		if err != nil && dir == "" {
			return settingsTarget{}, fmt.Errorf("no home directory for --global: %w", err)
		}
		p := ag.User(home, dir)
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
	t := settingsTarget{ag.Project(root), "", "project"}
	if o.local {
		t = settingsTarget{ag.Local(root), "", "local"}
	}
	rel, _ := filepath.Rel(root, t.path)
	t.shown = filepath.ToSlash(rel)
	return t, nil
}

// agentNames lists the agents --agent takes: "claude, codex or gemini".
func agentNames() string {
	var names []string
	for _, ag := range settings.Agents {
		names = append(names, ag.Name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

func (a *app) printHookChange(ch *settings.Change, t settingsTarget, install, dryRun bool, ag *settings.Agent, ownCommand bool) error {
	events := make([]string, len(ag.Specs))
	for i, sp := range ag.Specs {
		events[i] = sp.Event
	}
	if a.json {
		return a.printJSON(report.HookOf(t.shown, t.scope, ch.Changed, dryRun))
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
		msg = "installed gsd's hooks (" + strings.Join(events, ", ") + ") in " + t.shown
	case install:
		msg = "already installed in " + t.shown + "; nothing changed"
	case ch.Changed:
		msg = "removed gsd's hooks from " + t.shown
	default:
		msg = "no gsd hook in " + t.shown + "; nothing changed"
	}
	msg = printable(msg)
	if install && ch.Changed {
		msg += "\n" + hookScopeNote(t.scope, ag, ownCommand)
		if ag.Name == "codex" {
			msg += "\nCodex runs a new or changed hook only after you trust it: open /hooks in Codex and trust gsd's."
		}
	}
	_, err := fmt.Fprintln(a.stdout, msg)
	return err
}

// hookScopeNote says, after an install, whose the settings file is, what that means for the
// team, and how to install for the other audience instead.
func hookScopeNote(scope string, ag *settings.Agent, ownCommand bool) string {
	personal := "--global"
	if ag.Local != nil {
		personal = "--local"
	}
	switch {
	case scope == "project" && ownCommand:
		return "The file is shared with the team and runs your --command as given: a teammate without it gets a failing hook."
	case scope == "project":
		return "The file is shared with the team: each hook runs gsd where it is on the PATH and is silent elsewhere. For you alone: gsd hook uninstall, then gsd hook install " + personal + "."
	case scope == "local":
		return "The file is yours alone (not committed). For the whole team: gsd hook install without --local."
	}
	return "The file is yours, for every project."
}
