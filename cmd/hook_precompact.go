package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/hook"
)

func (a *app) newHookPreCompactCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "pre-compact",
		Short: "Keep a pre-compact snapshot of the session (run by Claude Code's PreCompact hook)",
		Long: `Pre-compact reads the hook's JSON from stdin (session_id, cwd, trigger: manual or auto; Claude
Code's PreCompact or Gemini CLI's PreCompress) and, when
you have a session, copies it to a pre-compact snapshot (current-plan.<UTC>.pre-compact) and
journals it with the agent's session_id. Pre-compact snapshots are pruned to the newest
keepSnapshots. Without a session it does nothing (it never starts one).

It also captures the agent's own context from transcript_path, as gsd hook turn-end does, for
SessionStart to hand back after the compaction (for Gemini CLI, whose SessionStart does not
follow one, gsd hook turn-start hands it back on the next turn).

It prints nothing on success and never breaks a session: on any input or error it exits 0, with
at most a one-line note on stderr.`,
		Example:     `  echo '{"session_id": "abc", "cwd": ".", "hook_event_name": "PreCompact", "trigger": "auto"}' | gsd hook pre-compact`,
		Args:        cobra.ArbitraryArgs,
		Annotations: map[string]string{alwaysExitsZero: "yes"},
		RunE: func(c *cobra.Command, _ []string) error {
			a.runLifecycleHook("pre-compact", recording(func(env *hydrate.Env, in hook.Input) error {
				a.captureAgentContext("pre-compact", env, in)
				_, err := env.Agents().PreCompact(in.Trigger)
				return err
			}))
			return nil
		},
	}
}
