// Package report is gsd's --json contract: every object a command prints with --json is a type
// of this package, built from the domain's result by one function of it. The MCP server's tools
// answer in the same objects (session_rehydrate alone keeps the seed's shape,
// hydrate.RehydrateResult), built by the same functions, so the command line and the server
// cannot drift apart, and neither needs the other: both import this package.
//
// What the contract promises (gsd help json) is kept here: schemaVersion in every object, a
// field a command has always present and null when unknown, lists as [] rather than null,
// times in RFC 3339 to the second.
//
// The values a report carries whole (hydrate.Work, roadmap.Handoff, roadmap.Evidence,
// roadmap.Problem, hydrate.SessionSummary, ...) keep their json tags beside their fields in the
// domain packages: each is one fact with one shape wherever it appears, and a copy of it here
// would be a second shape to keep in step. testdata/contract.txt lists every field of every
// report, theirs included, so that a change to any of them shows in one place.
package report
