package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
)

func (a *app) newSnapshotsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "snapshots",
		Short: "List the session's snapshots",
		Long: `Snapshots lists the copies of your session kept beside it, oldest first: their id (the file name,
which gsd restore takes), UTC time, kind, plan and progress. Kinds: manual (gsd snapshot), stale
and corrupt (sessions hydrate or start replaced), pre-restore (the session a restore replaced),
carried (a session whose statuses were carried to a fresh one), pre-compact. The automatic ones
(pre-restore, carried, pre-compact) are pruned to the newest keepSnapshots; the others are never
deleted by gsd.`,
		Example: "  gsd snapshots\n  gsd snapshots --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			list, err := env.History().Snapshots()
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.SnapshotsOf(list))
			}
			if len(list) == 0 {
				printf(a.stdout, "no snapshots\n")
				return nil
			}
			rows := make([][]string, 0, len(list))
			for _, s := range list {
				progress := fmt.Sprintf("%d/%d complete", s.Counts.Complete, s.Counts.Total)
				if s.Problem != nil {
					progress = *s.Problem
				}
				rows = append(rows, []string{s.ID, s.Time.Format(time.RFC3339), s.Kind, orDash(s.Plan), progress})
			}
			printTable(a.stdout, rows)
			return nil
		},
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
