package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/mcp"
)

func (a *app) newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol over stdio (session tools for agents)",
		Long: `Mcp serves gsd's session tools to an MCP client (Claude Code, Claude Desktop, ...) over stdio:
JSON-RPC 2.0, one message per line. Tools: session_rehydrate, session_state_get,
session_snapshot_create, list_sessions, session_resume and task_status_set. A sessionId is a gsd
user (a directory under .planning/sessions); without one a tool acts for the user gsd resolves
(--user, GSD_USER, git user.name, ...). Every call reads the project from disk afresh: the
server keeps no state, and what it writes is journaled with source "mcp".

Register it with Claude Code:  claude mcp add gsd -- gsd mcp
(or with -C /path/to/project when the client does not start it in the project).`,
		Example: "  claude mcp add gsd -- gsd mcp\n  gsd mcp -C ~/src/myproject --user ann",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			flagUser := a.user
			srv := &mcp.Server{Name: "gsd", Version: version(), Open: func(user, instance string) (*hydrate.Env, error) {
				a.user = flagUser
				if user != "" {
					a.user = user
				}
				a.source, a.instance = "mcp", instance
				env, _, err := a.open()
				return env, err
			}}
			return srv.Serve(a.stdin, a.stdout)
		},
	}
}
