package cmd

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// newMarkCmd builds mark-complete, mark-in-progress and mark-pending: one command shape, three
// statuses.
func (a *app) newMarkCmd(name string, st planfile.Status) *cobra.Command {
	use, short, args := name+" [N]", "", cobra.PositionalArgs(maxArgs(1))
	switch st {
	case planfile.Complete:
		short = "Mark task N complete (default: the task in progress)"
	case planfile.InProgress:
		short = "Mark task N in progress (default: the resume task)"
	case planfile.Pending:
		use, short, args = name+" N", "Mark task N pending", exactlyOneArg
	}
	return &cobra.Command{
		Use:     use,
		Short:   short,
		Long:    short + ".\n\nOnly the bytes of that task's status attribute change (in a Markdown task section, the status\nin its <!-- gsd:task status=\"...\" --> line); marking a task with the status it already has\nwrites nothing.",
		Example: fmt.Sprintf("  gsd %s 2", name),
		Args:    args,
		// Completion offers the tasks that do not have st yet, with their names.
		ValidArgsFunction: a.completeTasks(st),
		RunE: func(c *cobra.Command, args []string) error {
			n := 0
			if len(args) == 1 {
				v, err := strconv.Atoi(args[0])
				if err != nil || v < 1 {
					return usageError{fmt.Errorf("%s: task number must be a positive integer, got %s", name, textfmt.Quote(args[0]))}
				}
				n = v
			}
			env, _, err := a.open()
			if err != nil {
				return err
			}
			res, err := env.Mark(n, st)
			if err != nil {
				return err
			}
			a.warnStale(res.Session)
			for _, w := range res.Warnings {
				a.warn("%s", w)
			}
			if a.json {
				return a.printJSON(report.MarkOf(res))
			}
			verb := "marked"
			if !res.Changed {
				verb = "already"
			}
			printf(a.stdout, "task %d %s %s: %s\n", res.Task.Number, verb, a.statusWord(st, 0), res.Task.Name)
			if res.Session.Counts.Total > 0 {
				printf(a.stdout, "%s\n", countsLine(res.Session.Counts))
			}
			return nil
		},
	}
}

func exactlyOneArg(c *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usageError{fmt.Errorf("%s needs exactly one task number", name(c))}
	}
	return nil
}
