package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
)

func (a *app) newSnapshotCmd() *cobra.Command {
	var reason string
	c := &cobra.Command{
		Use:   "snapshot",
		Short: "Keep a copy of the session that gsd never deletes",
		Long: `Snapshot copies your session file to current-plan.<UTC yyyymmddHHMMSS>.manual beside it. Manual
snapshots are never deleted by gsd; gsd restore ID brings one back. The reason is recorded in the
journal (gsd log).`,
		Example: `  gsd snapshot
  gsd snapshot --reason "before refactoring task 3"`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			res, err := env.History().Snapshot(reason)
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.SnapshotOf(res))
			}
			printf(a.stdout, "snapshot %s\nrestore it with: gsd restore %s\n", res.ID, res.ID)
			return nil
		},
	}
	c.Flags().StringVar(&reason, "reason", "", "why, recorded in the journal")
	return c
}
