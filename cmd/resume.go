package cmd

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newResumeCmd() *cobra.Command {
	var force bool
	c := &cobra.Command{
		Use:   "resume USER",
		Short: "Take a teammate's session over: copy it into yours",
		Long: `Resume copies USER's session (as gsd sessions names them) into yours, so that work moves between
people and machines without retyping statuses. Your own session, if any, is kept first as a
pre-resume snapshot (gsd restore brings it back). Both journals record it: a resume in yours, a
handed-over in theirs. Their session is left as it is.

USER may be a teammate on another machine, as gsd sync fetched them (USER, or USER@REMOTE when
two remotes have one): your journal records the resume "from USER@REMOTE", which your next gsd
sync publishes, and they see "taken over by" you after theirs. A fetched session that is still
active is refused, with why, unless --force.`,
		Example: "  gsd sessions --state idle\n  gsd resume bob\n  gsd sync && gsd resume ann@origin",
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("resume takes one argument, the user whose session to take over (gsd sessions lists them)")}
			}
			return nil
		},
		ValidArgsFunction: a.completeUsers,
		RunE: func(c *cobra.Command, args []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			host, _ := os.Hostname()
			res, err := env.Team().TakeOver(args[0], hydrate.TakeOverOptions{Force: force, Host: host})
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.ResumeOf(res))
			}
			if res.Identical {
				printf(a.stdout, "your session already is %s's; nothing changed\n", res.From)
				return nil
			}
			if res.Archived != "" {
				printf(a.stdout, "kept your session as %s (gsd restore %s brings it back)\n", res.Archived, res.Archived)
			}
			printf(a.stdout, "took over %s's session: %s, %s\n", res.From, res.Plan, countsLine(res.Session.Counts))
			a.printTasks(a.stdout, res.Session.Tasks, res.Session.ResumeTask)
			a.warnStale(res.Session)
			return nil
		},
	}
	c.Flags().BoolVar(&force, "force", false, "take over a fetched session even when it is active")
	return c
}
