package cmd

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newStatsCmd() *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "stats",
		Short: "Rehydration metrics from the journal",
		Long: `Stats reads your journal (--all: every user's) and counts the rehydrations (SessionStart hooks,
MCP session_rehydrate calls) by source and by agent instance, the last one, the sizes of the
briefs given (in bytes) against the 8,192 bytes gsd gives at most from a hook (under the 10,000
characters Claude Code takes), pre-compact snapshots, detaches (SessionEnd) and hook failures.`,
		Example: "  gsd stats\n  gsd stats --all --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			st, err := env.History().Stats(all)
			if err != nil {
				return err
			}
			for _, p := range st.Problems {
				a.warn("%s", p)
			}
			if a.json {
				return a.printJSON(report.StatsOf(st))
			}
			w := a.stdout
			printf(w, "rehydrations:  %d%s\n", st.Rehydrations, counts(st.BySource))
			printf(w, "instances:     %d%s\n", len(st.ByInstance), counts(st.ByInstance))
			if l := st.Last; l != nil {
				printf(w, "last:          %s  %s  %s  instance %s\n", l.Time.Format(time.RFC3339), l.User, orDash(l.Source), orDash(l.Instance))
			}
			b := st.Briefs
			printf(w, "brief sizes:   %d given, mean %d, max %d bytes; cap %d bytes: %d within a fifth of it, %d over\n", b.Count, b.Mean, b.Max, b.Limit, b.Over80pct, b.OverLimit)
			printf(w, "pre-compact:   %s\n", textfmt.Plural(st.PreCompacts, "snapshot"))
			printf(w, "detaches:      %d\n", st.Detaches)
			printf(w, "hook failures: %d\n", st.HookFailures)
			if f := st.LastFailure; f != nil {
				printf(w, "last failure:  %s  %s  %s\n", f.Time.Format(time.RFC3339), f.User, f.Source)
			}
			return nil
		},
	}
	c.Flags().BoolVar(&all, "all", false, "every user's journal, not just yours")
	return c
}

// counts renders a map of counts as " (a 2, b 1)", largest first.
func counts(m map[string]int) string {
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}
