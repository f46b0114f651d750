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
(or with -C /path/to/project when the client does not start it in the project).

Limits: a message read is at most 4 MiB; a string argument at most 256 bytes (a reason 4,096); a
task number from 1 to 10,000; fromTimestamp from 0 to 253402300799999 (the end of the year
9999); a request id a string or number of at most 128 bytes. Past a limit the answer is -32602
invalid params, and a message that is not a JSON-RPC request ({}, null) gets -32600 with id
null. A tool's text is at most 64 KiB (else a tool error says so), every message written at
most 256 KiB; session_rehydrate lists the latest 100 events after fromTimestamp. Messages quote
an input as at most 120 characters.`,
		Example: "  claude mcp add gsd -- gsd mcp\n  gsd mcp -C ~/src/myproject --user ann",
		Args:    noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			flagUser := a.user
			srv := &mcp.Server{Name: "gsd", Version: version(), CLI: mcpCLI, Open: func(user, instance string) (*hydrate.Env, error) {
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

// mcpCLI is the JSON of the commands, which the MCP tools answer in: the same functions print
// them with --json.
var mcpCLI = mcp.CLI{
	Hydrate:  mcp.ViewOf(func(h mcp.Hydrated) hydrateReport { return hydrateJSON(h.Env, h.Result) }),
	Progress: mcp.ViewOf(func(p mcp.Progressed) progressReportJSON { return progressJSON(p.Report, p.All) }),
	Mark:     mcp.ViewOf(markJSON),
	Snapshot: mcp.ViewOf(snapshotJSON),
	Resume:   mcp.ViewOf(resumeJSON),
	Sessions: mcp.ViewOf(func(l mcp.Listed) sessionsReport { return sessionsJSON(l.Result, l.States) }),
}
