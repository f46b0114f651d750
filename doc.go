// Command gsd hydrates a coding agent's working state from the files of a GSD project.
//
// This comment is the map of the code, for whoever works on it next (go doc . prints it; the
// README is the users' front door, gsd help their reference).
//
// # The six rooms
//
// Every package nests under the top-level directory it serves, and the arrows point one way:
// cmd -> hydrate -> {planfile, roadmap, identity}, and roadmap -> planfile.
//
//   - cmd: the front doors. One file per command: flags, an options struct, one call into
//     hydrate, the rendering; root.go turns errors into exit codes; cmd/help holds the help topics.
//   - hydrate: the use cases on a user's session and the project around it (hydrate, start, mark,
//     brief, progress, state, snapshots, sessions, resume, sync, the hooks' events).
//   - planfile: GSD's plan and session files, byte-exact: the tolerant scanner, status edits.
//   - roadmap: the project: ROADMAP.md, STATE.md, phase directories, plans and their SUMMARYs, and
//     the one decision of where work stands (Position).
//   - identity: who the user is, and so which session directory is theirs.
//   - testdata: the end-to-end stories, their fixtures, the demo project and the benchmarks.
//
// # Homes that may surprise
//
//   - planfile/atomicfile: atomic replaces, no-overwrite moves and locks, for every writer
//     (sessions, journals, STATE.md, agents' settings), not only for plans.
//   - planfile/rootfs: the project opened as a read-only fs.FS no path can lead out of; every
//     read of a project file goes through it.
//   - planfile/textfmt: the text shaping all messages share (quoting, widths, plurals, durations).
//   - roadmap/statemd: STATE.md's text, read and rewritten byte-exactly. What it declares and
//     what it should say (Project.StateValues) are both in roadmap/state.go.
//   - roadmap/trace: the traces of execution (the tasks' commits, GSD's pause files), parsed from
//     what git printed: roadmap runs no process.
//   - hydrate/teamsync: the one git runner (ExecGit), for gsd sync's refs and for the git log the
//     traces are read from (hydrate/traces.go).
//   - hydrate/agentctx: the agent's own context (last prompt, todos, tools), captured from its
//     transcript by the hooks; hydrate/hook and hydrate/hook/settings: the hooks' input and
//     output, and the agents' settings files gsd hook install edits.
//   - hydrate/journal and hydrate/config: the session journal's format; .planning/config.json.
//   - cmd/mcp: the MCP server, a front door beside the command line.
//   - cmd/report: the --json contract: every object a command prints, which the MCP tools answer
//     in too (cmd/report/testdata/contract.txt lists every field).
//   - roadmap/phasenum and roadmap/lazyre: the one grammar of phase numbers; regular expressions
//     compiled on first use, so that no command pays for another's at start.
//
// # The way of gsd hydrate
//
//  1. main.go: main exits with cmd.Main(args, stdin, stdout, stderr), the one place that maps
//     errors to exit codes (cmd/root.go).
//  2. cmd/root.go: Main builds the root command with only the subcommand invoked (invoked, and
//     the table subcommands) and runs it.
//  3. cmd/hydrate.go: the flags become hydrateOptions; runHydrate opens the project (app.open
//     in root.go: -C or the working directory, the settings the environment gives, then
//     hydrate.Open, which finds the root and the user, identity.FindUser) and makes the one
//     domain call, Env.Hydrate.
//  4. hydrate/hydrate.go: Env.Hydrate reads and judges the session (session.go, with planfile's
//     scanner) against the position (env.go: Env.Position, roadmap.LocateWith, given the tasks'
//     commits of traces.go); a missing, stale or corrupt one is archived and a fresh one
//     bootstrapped from the active plan under the session's lock (write.go: atomicfile, the
//     journal); statuses follow the tasks' commits (work.go); STATE.md is compared (state.go).
//  5. cmd/hydrate.go again: the Result printed as text (printHydrate), JSON (report.HydrateOf),
//     one porcelain token (Result.Token) or the Markdown brief (brief.go).
//
// # Where tests go
//
//   - A story a user would tell, commands and their output and the files after:
//     testdata/script/NAME.txtar, run by main_test.go with testscript (script_cmds_test.go
//     has its own commands); go test -run TestScripts -update . rewrites the expected output.
//   - A function's behaviour: NAME_test.go beside it, in its package, in-process (time, user
//     and root passed in).
//   - A rewrite's bytes: golden files with -update: planfile/testdata (go test ./planfile
//     -update), roadmap/statemd/testdata, testdata/hostile.golden and testdata/escape.golden
//     (go test ./cmd -run 'Hostile|Escaped' -update), cmd/report/testdata/contract.txt.
//   - A parser's properties: Fuzz functions beside it (make fuzz runs them longer).
//   - Real projects: the tests that read GSD_CORPUS (cmd, roadmap, planfile), skipped without it.
//   - Processes, concurrency and sync through git: the root package's *_test.go.
//   - Timings: testdata/bench, as ratios taken in one run; never a threshold in a test.
package main
