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
// All I/O goes through an [fs.FS] rooted at the project root, and paths are
// slash-separated and relative to that root. The package never prints, never
// reads the environment or the clock, and reads only ROADMAP.md and directory
// listings: plan contents are the caller's business, and the directories of
// phases the roadmap marks complete are never listed, so finding the current
// position stays cheap on every agent turn.
package roadmap
