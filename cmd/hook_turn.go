package cmd

import (
	"errors"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/hook"
	"github.com/gsd-tools/gsd/hydrate/hook/settings"
)

func (a *app) newHookTurnEndCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "turn-end",
		Short: "Capture the agent's own context at a turn's end (run by Stop, or Gemini CLI's AfterAgent)",
		Long: `Turn-end reads the hook's JSON from stdin (session_id, cwd, transcript_path; Claude Code's and
Codex's Stop, Gemini CLI's AfterAgent) and captures what the agent was doing from the lines its
transcript gained since the last capture: the user's last prompt, the agent's own todo list, the
tools it used last and the project files it edited. After /clear, a compaction or a restart,
SessionStart hands that back in the brief (gsd help hooks says what is kept, and where).

It reads only what was appended since the last read (at most 2 MiB; 1 MiB from the end of a
transcript it has not read before), writes nothing when nothing was appended, and does nothing
when the agentContext setting (or GSD_AGENT_CONTEXT) is off.

It prints nothing and never breaks a session: on any input or error it exits 0, with at most a
one-line note on stderr.`,
		Example:     `  echo '{"session_id": "abc", "cwd": ".", "hook_event_name": "Stop", "transcript_path": "/home/ann/.claude/projects/-home-ann-app/abc.jsonl"}' | gsd hook turn-end`,
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			a.runLifecycleHook("turn-end", recording(func(env *hydrate.Env, in hook.Input) error {
				a.captureAgentContext("turn-end", env, in)
				return nil
			}))
			return nil
		},
	}
}

func (a *app) newHookTurnStartCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "turn-start",
		Short: "Hand the agent's context back on the turn after a compression (run by Gemini CLI's BeforeAgent)",
		Long: `Turn-start reads the hook's JSON from stdin (Gemini CLI's BeforeAgent) and, on the first turn
after a compression of the agent's context (gsd hook pre-compact on PreCompress asks for it),
prints the agent's captured context as the turn's additional context, once:
{"hookSpecificOutput": {"hookEventName": "BeforeAgent", "additionalContext": "..."}}. On every
other turn it prints nothing. (Gemini CLI's SessionStart does not follow a compression, as
Claude Code's and Codex's do.)

It never breaks a session: on any input or error it exits 0, with at most a one-line note on
stderr.`,
		Example:     `  echo '{"session_id": "abc", "cwd": ".", "hook_event_name": "BeforeAgent", "prompt": "go on"}' | gsd hook turn-start`,
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			a.runLifecycleHook("turn-start", recording(func(env *hydrate.Env, in hook.Input) error {
				ac := env.Agents().TakeReinject()
				if ac == nil {
					return nil
				}
				text := agentContextPart(ac) + "(gsd brief --no-bootstrap prints the GSD resume brief: the plan and the task to resume.)\n"
				if err := hook.NewSessionStartOutput("BeforeAgent", text).Write(a.stdout); err != nil {
					a.hookNote("turn-start", "%v", err)
				}
				return nil
			}))
			return nil
		},
	}
}

// captureAgentContext captures the agent's own context from the hook input's transcript. It is
// best effort: a failure is a note on stderr, never a hook failure journaled (a transcript gsd
// cannot read is no fault of the session's); a transcript that does not exist is no failure.
func (a *app) captureAgentContext(sub string, env *hydrate.Env, in hook.Input) {
	event := in.HookEventName
	if event == "" {
		event = settings.Events(sub)[0] // run by hand
	}
	_, err := env.Agents().Capture(hydrate.CaptureInput{
		// a.dir is the input's cwd, made absolute when the project was opened there.
		Event: event, Detail: in.Detail(), SessionID: in.SessionID, Transcript: in.TranscriptPath, Cwd: a.dir,
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) { // no transcript (yet): nothing to capture
		a.hookNote(sub, "%s", oneLine(err.Error()))
	}
}
