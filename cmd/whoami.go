package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/identity"
)

func (a *app) newWhoamiCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "whoami",
		Short: "Show the session user, the raw name and where it came from",
		Long: `Whoami shows the user name gsd files your session under, the name as found, and its source:
--user, GSD_USER, git user.name (and which config file), the OS login name (on Windows without
its domain) or the host name.`,
		Example: "  gsd whoami\n  gsd whoami --json",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			dir, err := a.workDir()
			if err != nil {
				return err
			}
			id, err := identity.FindUser(a.identityEnv(dir))
			if err != nil {
				return err
			}
			if a.json {
				return a.printJSON(report.WhoamiOf(id))
			}
			printf(a.stdout, "%s\n", id.User)
			printf(a.stdout, "raw:    %q\n", id.Raw)
			src := id.Source.Kind
			if id.Source.File != "" {
				src += " (" + id.Source.File + ")"
			}
			printf(a.stdout, "source: %s\n", src)
			return nil
		},
	}
}
