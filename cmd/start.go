package cmd

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newStartCmd() *cobra.Command {
	var plan string
	var force bool
	c := &cobra.Command{
		Use:   "start [PLAN]",
		Short: "Start a fresh session from a plan (default: the active plan)",
		Long: `Start bootstraps a fresh session file from PLAN: three header comments, then the plan's bytes
with status="pending" added to every task. An existing session is archived first, never lost.

A plan's tasks are its <task> elements. A plan with none whose tasks are Markdown headings is
tracked too, one task per section:
  - "### Task N: ..." or "### Step N: ..." headings (any level: the shallowest one they use), else
  - "## Plan NN-MM: ..." headings, two or more at one level (a phase-level plan of plans), else
  - numbered steps, "### N." "### N)" or "### N:", at level 3 or deeper ("## 1. Goal" numbers
    the document, not its steps).
A section runs to the next heading of its level or above; deeper headings belong to it, and
headings in fenced code or HTML comments do not count. The session records a section's status
in one line inserted under its heading, and changes nothing else:

  ### Task 2: Resume from a paused step
  <!-- gsd:task status="pending" -->

Removing those lines gives the plan back byte for byte; gsd mark-* rewrites only the status
value in them. A plan with neither tasks nor sections has nothing to track.

PLAN is a path, or a plan id such as 03-02 (the plan file 03-02-PLAN.md of its phase). A PLAN
that names no plan (outside the project, no such file, no plan with that id) is a usage error,
exit 2; a plan that cannot be bootstrapped (nothing to track, an invalid status) exits 1. A plan
that already has its SUMMARY is refused unless --force.

Naming a plan the position would not start (one planned ahead, an old one left open) is a
decision, recorded in the session's header (<!-- Chosen: ... -->): the session is not stale
because its phase is not the current one, so hydrate keeps it, saying it is not the position's
plan, until the plan has its SUMMARY or is edited. A forced start (<!-- Forced: ... -->) is kept
whatever its SUMMARY says too, until you start another plan (an edit still counts). Starting
the plan your session already follows writes nothing and says so ("Kept:"), progress kept.

When the session is stale only because its own plan was edited (tasks renamed, added, removed or
reordered), the fresh session carries over the status of every task still there, matched by its
id attribute or its name, and start says which tasks carried and which did not. Whatever start
replaces is kept as a snapshot, and start prints the gsd restore line that brings it back.`,
		Example: `  gsd start
  gsd start 03-02
  gsd start .planning/phases/03-api/03-02-PLAN.md`,
		Args:              maxArgs(1),
		ValidArgsFunction: a.completePlans,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 1 {
				if plan != "" {
					return usageError{fmt.Errorf("give the plan either as an argument or with --plan, not both")}
				}
				plan = args[0]
			}
			a.work = true
			env, dir, err := a.open()
			if err != nil {
				return err
			}
			rel := ""
			if plan != "" {
				if rel, err = env.ResolvePlan(dir, plan); err != nil {
					return err
				}
			}
			res, err := env.StartWith(rel, hydrate.StartOptions{Force: force})
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.HydrateOf(env, res))
			}
			a.printHydrate(a.stdout, env, res)
			return nil
		},
	}
	c.Flags().StringVar(&plan, "plan", "", "the plan to start from (same as the argument)")
	c.Flags().BoolVar(&force, "force", false, "start a plan that already has its SUMMARY")
	_ = c.RegisterFlagCompletionFunc("plan", a.completePlans)
	return c
}
