package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate/config"
)

func (a *app) newConfigCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "config",
		Short: "Show gsd's effective settings and where each came from",
		Long: `Config shows gsd's settings: the "gsd" section of .planning/config.json (GSD's own config file,
which gsd reads and never rewrites), the environment (GSD_LOCK_TIMEOUT), or the default.

  keepSnapshots  automatic snapshots kept per user (pre-restore, pre-compact, carried); default 10,
                 a whole number from 1 to 1,000,000
  lockTimeout    how long a write waits for another gsd process; default "10s"
  journal        record the session journal; default true
  idleAfter      when a session counts as idle; default "2h"

A duration is a Go duration ("500ms", "30s", "2h") or a number of seconds (30, "30", 1e2), from
1ms to some 292 years; every number is held to its range the same way whatever its spelling. A
bad value is an error naming the file and the key, quoting at most 120 characters of it.
That is an error here, and for every command that uses the setting (a write for lockTimeout,
journal and keepSnapshots; gsd sessions for idleAfter); the other commands use the default
and warn in one line.`,
		Example: `  gsd config
  gsd config --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			env, _, err := a.open()
			if err != nil {
				return err
			}
			if err := env.CheckSettings(config.Keys...); err != nil {
				return err
			}
			s := env.Settings()
			for _, w := range s.Warnings {
				a.warn("%s", w)
			}
			if a.json {
				return a.printJSON(report.ConfigOf(s))
			}
			for _, k := range config.Keys {
				printf(a.stdout, "%-14s %-6s %s\n", k, s.Value(k), s.Sources[k])
			}
			return nil
		},
	}
}
