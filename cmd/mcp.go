package cmd

import (
	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/mcp"
	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the Model Context Protocol over stdio (session tools for agents)",
		Long: `Mcp serves gsd's session tools to an MCP client (Claude Code, Claude Desktop, ...) over stdio:
JSON-RPC 2.0, one message per line. An agent can work through it alone. Tools (arguments;
what they answer):

  session_hydrate (user, plan)              gsd hydrate [--plan PLAN] --json
  session_start (user, plan, force)         gsd start [PLAN] [--force] --json
  session_state_get (user)                  gsd hydrate --no-bootstrap --json
  project_progress (all, compact, phasesFrom)  gsd progress [--all] --json, in pages when
                                            over 64 KiB; compact leaves out phases,
                                            sessions, state and problems
  task_status_set (task, status, user)      gsd mark-STATUS N --json
  session_snapshot_create (user, reason)    gsd snapshot --json
  list_sessions (state: a list)             gsd sessions [--state ...] --json
  session_resume (from, user, force)        gsd resume FROM [--force] --json
  session_rehydrate (sessionId, instanceId, snapshotId, fromTimestamp)
      the seed's session.rehydrate: {sessionId, instanceId, rehydrated, snapshot{id, timestamp,
      eventCount}, context{plan, state, lastTasks[{id, text, status}], activeTodos, resumeTask,
      interrupted, staleReasons, recentEvents, recentEventsOmitted, lastPrompt, lastTools,
      todoSource, agentContext}}; times in Unix ms, a task's id its number as a string,
      statuses as gsd writes them (in-progress); lastPrompt, lastTools and activeTodos are the
      agent's own as the hooks captured them (activeTodos the plan's tasks when the agent kept
      no list: todoSource "plan")

Every other tool answers with the object its command prints with --json, field for field (gsd
help json): null for unknowns, RFC 3339 times, durations as "2h". Each declares its inputSchema,
outputSchema and annotations (readOnlyHint, destructiveHint: it replaces your session,
idempotentHint), and answers with structuredContent and the same JSON as text. user is the gsd
user acting (a directory under .planning/sessions; "user" in the results), never the agent's
conversation (the hooks' session_id, session_rehydrate's instanceId); its old name, sessionId,
still works (session_rehydrate's own name for it, as the seed's). Without one a tool acts for
the user gsd resolves (--user, GSD_USER, git user.name, ...). A plan is a path relative to the
project root or a plan id such as 03-02. Every call reads the project from disk afresh: the
server keeps no state, and what it writes is journaled with source "mcp".

A project_progress report over 64 KiB comes in pages of whole phases: each page is the report
with some of its phases and page {from, count, total, next}; ask again with phasesFrom set to
page.next until next is null.

Register it with Claude Code:  claude mcp add gsd -- gsd mcp
(or with -C /path/to/project when the client does not start it in the project).

Errors: arguments that do not fit a tool's inputSchema answer -32602 "Invalid params: " and why
(also in error.data.validation); what gsd refuses (no such teammate, task, snapshot or plan) is
a tool result with isError: true. Limits: a message read is at most 4 MiB; a string argument at
most 256 bytes (a reason or a plan 4,096); a task number from 1 to 10,000; fromTimestamp from 0
to 253402300799999 (the end of the year 9999); a request id a string or number of at most 128
bytes. A message that is not a JSON-RPC request ({}, null) gets -32600 with id null. A tool's
text is at most 64 KiB (else a page, or a tool error saying so), every message written at most
256 KiB; session_rehydrate lists the latest 100 events after fromTimestamp. Messages quote an
input as at most 120 characters. gsd help hooks has the details.`,
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
				a.work = true
				env, _, err := a.open()
				// Each call's project is the call's: its warnings go to the agent with the
				// call's result (mcp.Server), and the tool closes it; none is left for the
				// end of gsd mcp to report or close again.
				a.env = nil
				return env, err
			}}
			return srv.Serve(a.stdin, a.stdout)
		},
	}
}
