package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newCheckCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Check the session: valid, or every staleness and corruption reason",
		Long: `Check validates your session file and lists every reason it is stale or corrupt. It writes
nothing. Exit status 0 when the session is valid, 1 when it is not (or there is none).`,
		Example: "  gsd check && echo ok",
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
			valid := s.Valid()
			if a.json {
				err = a.printJSON(report.CheckOf(s))
			} else {
				switch {
				case s.State == hydrate.StateNoSession:
					printf(a.stdout, "%s: no session\n", s.Path)
				case valid:
					printf(a.stdout, "%s: %s\n", s.Path, a.paint("green", "valid"))
				default:
					printf(a.stdout, "%s: %s\n", s.Path, a.paint("red", string(s.State)))
				}
				for _, why := range s.CorruptReasons {
					printf(a.stdout, "  corrupt: %s\n", why)
				}
				for _, why := range s.StaleReasons {
					printf(a.stdout, "  stale: %s\n", why)
				}
				for _, w := range s.Warnings {
					printf(a.stdout, "  warning: %s\n", w)
				}
			}
			if err == nil && !valid {
				return exitError{ExitFailure}
			}
			return err
		},
	}
}
