package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
)

func (a *app) newRestoreCmd() *cobra.Command {
	var dryRun bool
	c := &cobra.Command{
		Use:   "restore ID",
		Short: "Make a snapshot the session again",
		Long: `Restore makes snapshot ID (as gsd snapshots lists it) your session again. The session it replaces
is kept first as a pre-restore snapshot, so a restore is undone by restoring that one: the bytes
come back exactly. --dry-run says what would change and writes nothing.`,
		Example: `  gsd restore current-plan.20260203100000.stale
  gsd restore current-plan.20260203100000.manual --dry-run`,
		Args:              exactlyOneID,
		ValidArgsFunction: a.completeSnapshots,
		RunE: func(c *cobra.Command, args []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			res, err := env.History().Restore(args[0], dryRun)
			if err != nil {
				return err
			}
			a.warnStale(res.Session)
			if a.json {
				return a.printJSON(report.RestoreOf(res))
			}
			w := a.stdout
			switch {
			case res.Identical:
				printf(w, "the session already is %s: nothing to do\n", res.ID)
				return nil
			case res.DryRun:
				printf(w, "would restore %s (nothing written)\n", res.ID)
			default:
				printf(w, "restored %s\n", res.ID)
			}
			if res.HadSession && res.FromPlan != res.Plan {
				printf(w, "plan: %s -> %s\n", orDash(res.FromPlan), res.Plan)
			}
			for _, ch := range res.Changes {
				printf(w, "task %d %s -> %s: %s\n", ch.Number, orDash(ch.From), ch.To, ch.Name)
			}
			if res.Session.Counts.Total > 0 {
				printf(w, "%s\n", countsLine(res.Session.Counts))
			}
			if res.PreRestore != "" {
				printf(w, "undo with: gsd restore %s\n", res.PreRestore)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&dryRun, "dry-run", false, "say what would change, write nothing")
	return c
}

func exactlyOneID(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageError{fmt.Errorf("%s needs exactly one snapshot id (gsd snapshots lists them)", name(c))}
	}
	return nil
}

// completeSnapshots offers the user's snapshot ids, newest first.
func (a *app) completeSnapshots(c *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	env, _, err := a.open()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	list, err := env.History().Snapshots()
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for i := len(list) - 1; i >= 0; i-- {
		out = append(out, list[i].ID+"\t"+list[i].Kind+" "+list[i].Plan)
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
