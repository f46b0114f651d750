package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
)

func (a *app) newArchiveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "archive",
		Short: "Archive the session file as stale",
		Long: `Archive moves your session file aside as current-plan.<UTC yyyymmddHHMMSS>.stale, never
overwriting an earlier archive. The next gsd hydrate starts a fresh session.`,
		Example: "  gsd archive",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			res, err := env.Archive()
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.ArchiveOf(res))
			}
			printf(a.stdout, "archived %s -> %s\n", res.Path, res.Archived())
			return nil
		},
	}
}
