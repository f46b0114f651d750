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
// archives) and, only when asked (--sync-state), STATE.md's Current Position.
//
// The front doors, cmd (the command line) and cmd/mcp (the MCP server), parse and render; every
// use case is a method of [Env], which [Open] makes once per command. Env has many methods, so
// this is where to find them: by the command they serve, the file that serves it.
//
// # The session
//
//   - env.go: [Open], [Env] and its [Config]; [Env.Position], where the project stands
//     (roadmap.Locate), worked out once per command; paths and reads inside the project root.
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
//     completion's candidates ([Env.SessionUsers], [Env.Plans]).
//   - errors.go: [FileError] and [ArgError], errors about a file of the project and about an
//     argument.
//
// # The project
//
//   - progress.go: gsd progress ([Env.Progress]).
//   - state.go: gsd state and hydrate --sync-state ([Env.StateReport], [Env.WriteState],
//     [Env.StateDiff]): STATE.md's Current Position against the [CurrentPosition] derived from
//     the roadmap and the disk.
//   - workstreams.go: gsd workstreams ([Env.Workstreams]).
//   - settings.go: gsd config and the settings warnings every command prints ([Env.Settings],
//     [Env.CheckSettings], [Env.SettingsWarnings]); package config reads them.
//
// # The session's history
//
//   - history.go: the user's journal, where it is and how an event is recorded
//     ([Env.JournalPath], [Env.HistoryWarnings]); package journal is its file format.
//   - log.go: gsd log ([Env.LogStream]) and gsd tasks --at ([Env.At]).
//   - snapshot.go: gsd snapshot, gsd snapshots, gsd restore ([Env.Snapshot], [Env.Snapshots],
//     [Env.Restore]).
//   - stats.go: gsd stats ([Env.Stats]).
//
// # Agents
//
//   - agents.go: what the hooks record: an agent taking the session up ([Env.Attach]), ending
//     ([Env.Detach]), compacting ([Env.PreCompact]), a hook failing ([Env.HookFailed]); package
//     hook is what a hook exchanges with the agent.
//   - rehydrate.go: the MCP session_rehydrate ([Env.Rehydrate]).
//
// # The team
//
//   - sessions.go: gsd sessions and hydrate's same-plan warning ([Env.Sessions],
//     [Env.OthersOnPlan], [Env.SamePlanWarning]).
//   - resume.go: gsd resume, taking a teammate's session over ([Env.TakeOver]).
//   - sync.go: gsd sync and the hooks' sync ([Env.Sync]); package teamsync keeps the sessions in
//     git refs, and fetched.go reads the ones it fetched for sessions and resume.
package hydrate
