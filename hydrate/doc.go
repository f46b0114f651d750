// Package hydrate owns gsd's use cases on a user's session and the project around it: hydrate
// (find the session, validate it, check it for staleness, find the resume point, bootstrap a
// fresh one), start, mark, check, archive, brief, progress and state; the session's history
// (log, snapshots, restore, stats); the agent lifecycle the hooks and the MCP server record;
// and the team's sessions (sessions, resume, sync).
//
// Everything a use case depends on is an input: the directory it starts from, the user's
// identity sources, the clock and the lock timeout. It reads the project through an fs.FS rooted
// at the project root (so a path in a file cannot lead outside it). It writes, atomically and
// under the project's session lock, the user's session directory (the session file and its
// archives) and, only when asked (gsd state --write), STATE.md's Current Position.
//
// The front doors, cmd (the command line) and cmd/mcp (the MCP server), parse and render; [Open]
// makes one [Env] per command. Env is the shared context (the project, the user, the settings,
// the lock) and serves the session's own use cases; the others are grouped by what they serve,
// each asked of the Env:
//
//   - [Env]: gsd hydrate, start, archive, brief, check, tasks, mark, config.
//   - env.Project(), a [Project]: gsd progress, state, workstreams.
//   - env.History(), a [SessionHistory]: gsd log, tasks --at, snapshot, snapshots, restore, stats.
//   - env.Agents(), an [Agents]: what the hooks record, and the MCP session_rehydrate.
//   - env.Team(), a [Team]: gsd sessions, resume, sync, and hydrate's same-plan warning.
//
// Below, by the command they serve, the file that serves it.
//
// # The session (Env)
//
//   - env.go: [Open], [Env] and its [Config], the types above; [Env.Position], where the project
//     stands (roadmap.Locate), worked out once per command; paths and reads inside the project
//     root.
//   - write.go: the session lock and the few writes every change of the session directory goes
//     through (atomic replace, archive, archive-then-replace).
//   - hydrate.go: gsd hydrate, gsd brief, gsd start, gsd archive ([Env.Hydrate], [Env.StartWith],
//     [Env.Archive]); carry.go carries a stale session's task statuses into the fresh one when
//     only its plan was edited.
//   - session.go: reading and judging the session file ([Env.Inspect]): gsd check, gsd tasks.
//   - brief.go: the brief an agent gets ([Env.Brief], [FitBrief]): gsd brief, hydrate --format
//     brief, the SessionStart hook's context.
//   - mark.go: gsd mark-STATUS ([Env.Mark]).
//   - resolve.go, candidates.go: a plan named on the command line ([Env.ResolvePlan]) and shell
//     completion's candidates ([Env.SessionUsers], [Env.Plans], [Env.PlanCandidates]).
//   - settings.go: gsd config and the settings warnings every command prints ([Env.Settings],
//     [Env.CheckSettings], [Env.SettingsWarnings]); package config reads them.
//   - errors.go: [FileError] and [ArgError], errors about a file of the project and about an
//     argument.
//
// # The project (env.Project())
//
//   - progress.go: gsd progress ([Project.Progress]).
//   - state.go: gsd state, and hydrate's STATE.md line ([Project.StateReport], [Project.WriteState],
//     [Project.StateDiff]): STATE.md against the values roadmap derives for it from the
//     roadmap and the disk (roadmap.Project.StateValues), written under GSD's STATE.md.lock.
//   - workstreams.go: gsd workstreams ([Project.Workstreams]).
//
// # The session's history (env.History())
//
//   - history.go: the user's journal, where it is and how an event is recorded
//     ([SessionHistory.JournalPath], [SessionHistory.HistoryWarnings]); package journal is its
//     file format.
//   - log.go: gsd log ([SessionHistory.LogStream]) and gsd tasks --at ([SessionHistory.At]).
//   - snapshot.go: gsd snapshot, gsd snapshots, gsd restore ([SessionHistory.Snapshot],
//     [SessionHistory.Snapshots], [SessionHistory.Restore]).
//   - stats.go: gsd stats ([SessionHistory.Stats]).
//
// # Agents (env.Agents())
//
//   - agents.go: what the hooks record: an agent taking the session up ([Agents.Attach]), ending
//     ([Agents.Detach]), compacting ([Agents.PreCompact]), a hook failing ([Agents.HookFailed]);
//     package hook is what a hook exchanges with the agent.
//   - rehydrate.go: the MCP session_rehydrate ([Agents.Rehydrate]).
//   - agentcontext.go: the agent's own context (its last prompt, todo list, tools, edited
//     files), captured from its transcript by the hooks ([Agents.Capture]) and handed back
//     after a reset ([Agents.AgentContext], [Agents.TakeReinject]); package agentctx reads the
//     transcripts and keeps the record's format.
//
// # The team (env.Team())
//
//   - sessions.go: gsd sessions and hydrate's same-plan warning ([Team.Sessions],
//     [Team.OthersOnPlan], [Team.SamePlan]); takeover.go, whether a teammate took a session over
//     since its last change.
//   - resume.go: gsd resume, taking a teammate's session over ([Team.TakeOver]).
//   - sync.go: gsd sync and the hooks' sync ([Team.Sync]); package teamsync keeps the sessions in
//     git refs, and fetched.go reads the ones it fetched for sessions and resume.
package hydrate
