package cmd

import (
	"fmt"

	"github.com/spf13/cobra"
)

func (a *app) newTasksCmd() *cobra.Command {
	return &cobra.Command{
		Use:     "tasks",
		Short:   "List the session's tasks with their status",
		Example: "  gsd tasks\n  gsd tasks --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			s, err := env.Inspect()
			if err != nil {
				return err
			}
			if err := s.Unusable(); err != nil {
				return err
			}
			a.warnStale(s)
			if a.json {
				return a.printJSON(struct {
					SchemaVersion int        `json:"schemaVersion"`
					SessionFile   string     `json:"sessionFile"`
					Plan          string     `json:"plan"`
					ResumeTask    *int       `json:"resumeTask"`
					Tasks         []jsonTask `json:"tasks"`
					Counts        any        `json:"counts"`
				}{SchemaVersion, s.Path, s.Plan, optInt(s.ResumeTask), nonNil(jsonTasks(s.Tasks)), s.Counts})
			}
			a.printTasks(a.stdout, s.Tasks, s.ResumeTask)
			fmt.Fprintf(a.stdout, "\n%s\n", countsLine(s.Counts))
			return nil
		},
	}
}
