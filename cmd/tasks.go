package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newTasksCmd() *cobra.Command {
	var at string
	c := &cobra.Command{
		Use:   "tasks",
		Short: "List the session's tasks with their status",
		Long: `List the session's tasks with their status.

--at TIME|SEQ shows the session as it was at a point of its history (gsd log): the nearest event
before it that records the whole session, plus the status changes after it, each checked against
the hash the journal recorded; never a guess. SEQ is a number from 1 to 99,999,999; in a history
merged from two branches it is the last event, in gsd log's order, at or before it, replayed
along its own branch.`,
		Example: "  gsd tasks\n  gsd tasks --json\n  gsd tasks --at 12\n  gsd tasks --at 2026-02-03T10:00:00Z",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var seq int64
			var t time.Time
			if at != "" {
				var err error
				if seq, t, err = hydrate.ParseWhen(at); err != nil {
					return usageError{fmt.Errorf("--at: %w", err)}
				}
			}
			env, _, err := a.open()
			if err != nil {
				return err
			}
			var s *hydrate.Session
			if at != "" {
				res, err := env.History().At(seq, t)
				if err != nil {
					return err
				}
				for _, p := range res.Journal.Problems {
					a.warn("%s", p)
				}
				s = res.Session
				if !a.json {
					printf(a.stdout, "as of seq %d (%s): the %s of seq %d, then %d status change(s)\n", res.Seq, res.Time.UTC().Format(time.RFC3339), res.Base.Type, res.Base.Seq, res.Applied)
				}
				if s.State == hydrate.StateNoSession {
					return fmt.Errorf("no session at seq %d (archived)", res.Seq)
				}
			} else if s, err = env.Inspect(); err != nil {
				return err
			}
			if err := s.Unusable(); err != nil {
				return err
			}
			a.warnStale(s)
			if a.json {
				return a.printJSON(report.TasksOf(s))
			}
			a.printTasks(a.stdout, s.Tasks, s.ResumeTask)
			printf(a.stdout, "\n%s\n", countsLine(s.Counts))
			return nil
		},
	}
	c.Flags().StringVar(&at, "at", "", "the session as it was at `TIME|SEQ` (see gsd log)")
	return c
}
