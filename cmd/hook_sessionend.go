package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/hook"
)

func (a *app) newHookSessionEndCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "session-end",
		Short: "Journal that the agent detached from the session (run by Claude Code's SessionEnd hook)",
		Long: `Session-end reads the hook's JSON from stdin (session_id, cwd, reason: clear, logout,
prompt_input_exit, other, ...) and, when you have a session, journals a detach event with the
agent's session_id and the reason: gsd sessions then shows no agent attached. With the gsd.sync
setting (or GSD_SYNC=1) it then starts gsd sync in the background, and returns at once.

It first captures the agent's own context from transcript_path, as gsd hook turn-end does
(/clear ends a session: the next one's SessionStart hands it back).

It prints nothing on success and never breaks a session: on any input or error it exits 0, with
at most a one-line note on stderr.`,
		Example:     `  echo '{"session_id": "abc", "cwd": ".", "hook_event_name": "SessionEnd", "reason": "logout"}' | gsd hook session-end`,
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			a.runLifecycleHook("session-end", recording(func(env *hydrate.Env, in hook.Input) error {
				a.captureAgentContext("session-end", env, in)
				_, err := env.Agents().Detach(in.Reason)
				a.hookSyncPublish(env)
				return err
			}))
			return nil
		},
	}
}
