// Package roadmap is gsd's model of a GSD project: what ROADMAP.md says about
// each phase, which phase directories exist, how PLAN and SUMMARY files pair up,
// and where work currently stands (the current phase and its active plan).
//
// It exists because the shell snippets it replaces compared phase numbers as
// strings ("03" != "3"), missed "In Progress" spelled with a capital P, and found
// a plan's SUMMARY by replacing the first "PLAN" anywhere in its path. Here phase
// numbers compare segment by segment as numbers, statuses are normalised from
// every spelling seen in real roadmaps, and plans pair with summaries by plan id.
//
// There are two ways in, and one decision behind both. [Locate] is the per-turn
// path: it reads ROADMAP.md and STATE.md, lists the phases directory once and
// only the phase directories the decision needs, so finding the [Position]
// stays cheap however many phases are finished. [Load] makes the same decision
// and builds the whole [Project] for reports (gsd progress, gsd state): every
// phase the roadmap names or the disk holds, plans paired with summaries,
// progress, and every [Problem] a team lead would want to hear about (drift
// between the roadmap and the disk, duplicate phase numbers, unreadable table
// rows).
//
// All I/O goes through an [fs.FS] rooted at the project root, and paths are
// slash-separated and relative to that root. The package never prints and
// never reads the environment or the clock; of files it reads ROADMAP.md,
// STATE.md and .planning/active-workstream, and otherwise directory listings:
// plan contents are the caller's business.
package roadmap
