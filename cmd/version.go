package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
)

// newVersionCmd is gsd version, gsd --version as a command (as gh and go have it).
func (a *app) newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print gsd's version (as gsd --version does)",
		Long: `Version prints gsd's version, as gsd --version does: the module version go install recorded,
else the one make build stamped from git describe, else "(devel)" and the commit.`,
		Example: "  gsd version\n  gsd version --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			v := version()
			if a.json {
				return a.printJSON(report.VersionOf(v))
			}
			printf(a.stdout, "gsd %s\n", v)
			return nil
		},
	}
}
