package cmd

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/roadmap"
)

func (a *app) newWorkstreamsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "workstreams",
		Short: "List the workstreams: where each stands, and which one is active and why",
		Long: `Workstreams lists the project's workstreams, the directories under .planning/workstreams (each
with its own ROADMAP.md, STATE.md and phases/; hidden directories and Finder copies such as
"track-a 2" are not workstreams), with where each stands, by the same rules as gsd progress: its
milestone, current phase, active plan and how sure the reading is, and its progress (plans
complete over plans written, as GSD counts them).

It says which workstream is active and why: GSD_WORKSTREAM names it, or the first line of
.planning/active-workstream does; or none is, and the root's .planning is in force, also when
the pointer is left behind (it names a workstream without a ROADMAP.md or STATE.md of its own,
or a finished one the root's newer STATE.md has overtaken: gsd help position). A selection that
names a workstream that does not exist is said, not an error: every other command fails on it.

Select a workstream for one command with GSD_WORKSTREAM=NAME, or for the checkout with its name
in .planning/active-workstream.`,
		Example: `  gsd workstreams
  gsd workstreams --json
  GSD_WORKSTREAM=track-a gsd progress`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			a.work = true
			env, _, err := a.openWorkstreams()
			if err != nil {
				return err
			}
			r, err := env.Project().Workstreams()
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.WorkstreamsOf(r))
			}
			a.printWorkstreams(a.stdout, r)
			return nil
		},
	}
}

// printWorkstreams prints one line per workstream, the active one marked, then which is active
// and why.
func (a *app) printWorkstreams(w io.Writer, r *hydrate.WorkstreamsReport) {
	if len(r.Workstreams) == 0 {
		fmt.Fprintln(w, "no workstreams (.planning/workstreams holds none)")
		if sel := r.Selection; r.SelectErr == nil && sel.Pointer == "" && sel.Workstream == "" {
			return // nothing selects one either: nothing more to say
		}
	} else {
		rows := [][]string{{"  workstream", "milestone", "phase", "active plan", "plans", "percent", "confidence"}}
		for _, ws := range r.Workstreams {
			mark := "  "
			if ws.Active {
				mark = "> "
			}
			if ws.Err != nil {
				rows = append(rows, []string{mark + ws.Name, "error: " + oneLine(ws.Err.Error())})
				continue
			}
			p := ws.Project
			pos := p.Position
			phase, plan := "-", "-"
			if cur := p.CurrentPhase(); cur != nil {
				phase = cur.Num.String()
			}
			switch {
			case p.Active != nil:
				plan = p.Active.ID
			case pos.NeedsPlanning:
				plan = "(needs planning)"
			case p.Finished():
				plan = "(finished)"
			}
			pr := p.Progress
			rows = append(rows, []string{mark + ws.Name, clip(orDash(p.Milestone), 30), phase, plan,
				fmt.Sprintf("%d/%d", pr.PlansComplete, pr.PlansTotal), fmt.Sprintf("%d%%", pr.Percent), string(pos.Confidence)})
		}
		printTable(w, rows)
		fmt.Fprintln(w)
	}
	a.field(w, "Active", activeLine(r))
}

// activeLine says which workstream is active and why.
func activeLine(r *hydrate.WorkstreamsReport) string {
	sel := r.Selection
	select1 := "GSD_WORKSTREAM=NAME or .planning/active-workstream selects one"
	switch {
	case r.SelectErr != nil:
		return "none usable: " + r.SelectErr.Error()
	case sel.By == roadmap.ByVariable && sel.Pointer != "" && sel.Pointer != sel.Workstream:
		return fmt.Sprintf("%s (GSD_WORKSTREAM; .planning/active-workstream names %s)", sel.Workstream, sel.Pointer)
	case sel.Workstream != "":
		return fmt.Sprintf("%s (%s)", sel.Workstream, sel.By)
	case sel.Overruled != "":
		return "none, the root's .planning is in force; .planning/active-workstream is overruled: " + sel.Overruled
	}
	return "none, the root's .planning is in force (" + select1 + ")"
}
