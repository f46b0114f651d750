package cmd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/config"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newSessionsCmd() *cobra.Command {
	var states []string
	var idleAfter time.Duration
	var idleFlag string
	c := &cobra.Command{
		Use:   "sessions",
		Short: "Every user's session in the project, with its state",
		Long: `Sessions lists every user's session under .planning/sessions, one line each: user, state, plan,
progress, last activity, the agent instance attached (from the journal) and the snapshot count.

States: active (activity within the idle threshold), idle (no activity since; with a task in
progress, an orphaned agent that gsd resume USER can take over), taken-over (a teammate took it
over with gsd resume since its last change: "taken over by bob on HOST at TIME (origin)"), stale
(with its reasons), complete, corrupt, no-session (snapshots or a journal, no session). Two users
working on the same plan is a warning, fetched sessions included.

Teammates' sessions that gsd sync fetched follow those of this checkout, judged by the same
rules, each with its remote and when its user last published a change ("origin, synced ...
(3h ago)"): the information is as fresh as that. The idle threshold is --idle-after, else
GSD_IDLE_AFTER, else .planning/config.json's gsd.idleAfter, else 2h.`,
		Example: `  gsd sessions
  gsd sessions --state idle,stale
  gsd sessions --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			for _, s := range states {
				if !slices.Contains(hydrate.TeamStates, s) {
					return usageError{fmt.Errorf("--state %s: not one of %s", textfmt.Quote(s), strings.Join(hydrate.TeamStates, ", "))}
				}
			}
			if c.Flags().Changed("idle-after") {
				// The one rule of every duration gsd reads, as for gsd.idleAfter.
				d, err := config.ParseDuration(idleFlag)
				if err != nil {
					return usageError{fmt.Errorf("--idle-after: %w", err)}
				}
				idleAfter = d
			}
			env, _, err := a.open()
			if err != nil {
				return err
			}
			if !c.Flags().Changed("idle-after") {
				idleAfter = 0 // GSD_IDLE_AFTER, else .planning/config.json's gsd.idleAfter, else 2h
			}
			res, err := env.Team().Sessions(idleAfter)
			if err != nil {
				return err
			}
			list := res.InStates(states)
			for _, w := range res.Warnings {
				a.warn("%s", w)
			}
			if a.json {
				return a.printJSON(report.SessionsOf(res, states))
			}
			if len(list) == 0 {
				printf(a.stdout, "no sessions\n")
				return nil
			}
			for _, s := range list {
				a.printTeamSession(s)
			}
			return nil
		},
	}
	c.Flags().StringSliceVar(&states, "state", nil, "only sessions in `STATE` (repeatable, or comma separated): "+strings.Join(hydrate.TeamStates, ", "))
	c.Flags().StringVar(&idleFlag, "idle-after", textfmt.Duration(hydrate.DefaultIdleAfter), "a session without activity for `DURATION` is idle (1ms or more)")
	_ = c.RegisterFlagCompletionFunc("state", cobra.FixedCompletions(hydrate.TeamStates, cobra.ShellCompDirectiveNoFileComp))
	return c
}

func (a *app) printTeamSession(s hydrate.SessionSummary) {
	progress := "-"
	if s.Total > 0 {
		progress = fmt.Sprintf("%d/%d", s.Done, s.Total)
	}
	when := a.activity(s.LastActivity)
	from := ""
	if s.Remote != nil {
		from = "  " + *s.Remote
		if s.SyncedAt != nil {
			from += ", synced " + s.SyncedAt.Format(time.RFC3339) + " (" + ago(a.now().Sub(*s.SyncedAt)) + ")"
		}
	}
	printf(a.stdout, "%s %-10s %-5s %s  %s  instance=%s  snapshots=%d%s\n",
		pad(s.User, 16), s.State, progress, orDash(s.Plan), when, orDash(s.Instance), s.Snapshots, from)
	for _, r := range s.Reasons {
		printf(a.stdout, "    %s\n", r)
	}
	for _, t := range s.TakenOverBy {
		printf(a.stdout, "    taken over by %s\n", t)
	}
}
