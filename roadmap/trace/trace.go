// Package trace reads what the execution of a GSD plan leaves besides the plan's own files: the
// commits git records (GSD's executor commits each task as "type(PHASE-PLAN): description"),
// and the pause files /gsd:pause-work writes (.planning/HANDOFF.json, .continue-here.md).
//
// It parses bytes it is given, the output of the one git log command [LogArgs] names and the
// files' contents; it runs no process and opens no file. Every input is untrusted and every
// output bounded: a hostile history or handoff file yields less, never more, and never a panic.
// What the traces mean for a plan and its tasks is package roadmap's.
package trace

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Bounds of what a log yields.
const (
	// MaxCommits is the window of history read: the newest commits of HEAD (and of the agents'
	// worktree branches), never the whole history, so a repository of 18,000 commits costs
	// what one of 100 does. A plan's task commits are among its newest commits while it runs.
	MaxCommits = 100
	// MaxFiles bounds the changed files kept of one commit (a vendored tree, a formatter run).
	MaxFiles = 200
	// MaxSubject bounds a subject kept, in bytes (cut at a rune boundary).
	MaxSubject = 300
	// MaxOutput bounds the bytes of git's output read: beyond it the rest is discarded.
	MaxOutput = 4 << 20
)

// Commit is one commit of the project's history, as git log lists it.
type Commit struct {
	Hash    string    // full hexadecimal name
	Time    time.Time // committer time (UTC)
	Merge   bool      // more than one parent (a merge lists no files)
	Subject string    // the message's first line, at most MaxSubject bytes
	Files   []Change  // what it changed against its parent, at most MaxFiles
	// FilesCut says that the commit changed more files than Files holds.
	FilesCut bool
}

// Change is one file a commit changed.
type Change struct {
	Status byte   // git's letter: 'A' added, 'M' modified, 'D' deleted, 'R' renamed, 'C' copied, 'T', ...
	Path   string // the path after the change (a rename's new name), root-relative with '/'
}

// Short is the commit's abbreviated name, as GSD's SUMMARYs quote them (7 digits).
func (c Commit) Short() string {
	if len(c.Hash) > 7 {
		return c.Hash[:7]
	}
	return c.Hash
}

// PlanningOnly reports whether every file the commit changed is under .planning/: a commit of
// plans, summaries or state (GSD's "docs(...)" commits), not of the work itself. A commit that
// changed nothing (a merge, an empty commit) is not.
func (c Commit) PlanningOnly() bool {
	if len(c.Files) == 0 {
		return false
	}
	for _, f := range c.Files {
		if !strings.HasPrefix(f.Path, ".planning/") {
			return false
		}
	}
	return true
}

// Added reports whether the commit added the file at p.
func (c Commit) Added(p string) bool {
	for _, f := range c.Files {
		if f.Status == 'A' && f.Path == p {
			return true
		}
	}
	return false
}

// Touched reports whether the commit changed the file at p.
func (c Commit) Touched(p string) bool {
	for _, f := range c.Files {
		if f.Path == p {
			return true
		}
	}
	return false
}

// The record separators of LogFormat: each commit starts with recordStart, and its header ends
// at the first NUL (git log -z ends the formatted part with one).
const (
	recordStart = '\x1e'
	fieldSep    = '\x1f'
)

// LogArgs are the arguments of the one git log command whose output ParseLog reads: the newest
// MaxCommits commits of HEAD and of the branches GSD's parallel executors commit on (Claude
// Code's worktree-agent-* branches), newest first, with the files each changed. Text is
// NUL-separated (-z), so no path is quoted or cut at a newline; no pager, no colour, no
// signature checks, no external diff or text conversion.
func LogArgs() []string {
	return []string{
		"-c", "core.quotePath=false", "-c", "log.showSignature=false",
		"log", "-n", strconv.Itoa(MaxCommits), "-z", "--no-color", "--no-ext-diff", "--no-textconv",
		"--format=tformat:%x1e%H %ct %P%x1f%s", "--name-status",
		"HEAD", "--branches=worktree-agent-*", "--",
	}
}

// ParseLog reads LogArgs' output (at most MaxOutput bytes of it; a record cut short at the end
// is dropped). Records that do not parse are skipped.
func ParseLog(out []byte) []Commit {
	if len(out) > MaxOutput {
		out = out[:MaxOutput]
	}
	var commits []Commit
	for len(out) > 0 && len(commits) < MaxCommits {
		i := bytes.IndexByte(out, recordStart)
		if i < 0 {
			break
		}
		out = out[i+1:]
		end := bytes.IndexByte(out, 0)
		if end < 0 {
			break // cut short: the header has no end
		}
		c, ok := parseHeader(out[:end])
		out = out[end+1:]
		out, c.Files, c.FilesCut = parseFiles(out)
		if ok {
			commits = append(commits, c)
		}
	}
	return commits
}

// parseHeader reads "<hash> <committer time> <parents...>\x1f<subject>".
func parseHeader(h []byte) (Commit, bool) {
	sep := bytes.IndexByte(h, fieldSep)
	if sep < 0 {
		return Commit{}, false
	}
	fields := strings.Fields(string(h[:sep]))
	if len(fields) < 2 || !isHex(fields[0]) {
		return Commit{}, false
	}
	ct, err := strconv.ParseInt(fields[1], 10, 64)
	if err != nil || ct < 0 || ct > 1<<40 {
		return Commit{}, false
	}
	return Commit{
		Hash:    fields[0],
		Time:    time.Unix(ct, 0).UTC(),
		Merge:   len(fields) > 3,
		Subject: Clip(string(h[sep+1:]), MaxSubject),
	}, true
}

// parseFiles reads the name-status part of a record: after a newline, NUL-separated
// "<status>\0<path>\0" (a rename or copy has two paths), until the next record. It returns the
// rest of out.
func parseFiles(out []byte) ([]byte, []Change, bool) {
	var files []Change
	cut := false
	if len(out) > 0 && out[0] == '\n' {
		out = out[1:]
	}
	for len(out) > 0 && out[0] != recordStart {
		st, rest, ok := cutNUL(out)
		if !ok || len(st) == 0 || !isStatus(st) {
			// Not a status where one belongs: skip to the next record.
			i := bytes.IndexByte(out, recordStart)
			if i < 0 {
				return nil, files, cut
			}
			return out[i:], files, cut
		}
		paths := 1
		if st[0] == 'R' || st[0] == 'C' {
			paths = 2
		}
		var p []byte
		for range paths {
			if p, rest, ok = cutNUL(rest); !ok {
				return nil, files, cut
			}
		}
		out = rest
		if len(files) == MaxFiles {
			cut = true
			continue
		}
		files = append(files, Change{Status: st[0], Path: string(p)})
	}
	return out, files, cut
}

func cutNUL(b []byte) (before, after []byte, ok bool) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return nil, nil, false
	}
	return b[:i], b[i+1:], true
}

// isStatus says whether s is a name-status letter with an optional score ("M", "R100").
func isStatus(s []byte) bool {
	if len(s) > 4 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for _, c := range s[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isHex(s string) bool {
	if len(s) < 7 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Clip replaces control characters (a terminal escape in a hostile subject) and invalid UTF-8
// in s with U+FFFD, then cuts it to at most n bytes at a rune boundary.
func Clip(s string, n int) string {
	if len(s) > 4*n {
		s = s[:4*n] // what is cut below anyway, before the work of mapping it
	}
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
			return '\uFFFD'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > n {
		cut := n
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut]
	}
	return s
}

// MaxStatusPaths bounds the paths one git status asks about.
const MaxStatusPaths = 64

// StatusArgs are the arguments of the git status that says which of paths (root-relative, at
// most MaxStatusPaths) are changed and not committed: modified, added, deleted or new files,
// ignored ones left out. Paths are literal (no pattern).
func StatusArgs(paths []string) []string {
	args := []string{"-c", "core.quotePath=false", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--"}
	for i, p := range paths {
		if i == MaxStatusPaths {
			break
		}
		args = append(args, ":(literal)"+p)
	}
	return args
}

// ParseStatus reads StatusArgs' output: "XY path\0" records (porcelain v1, -z). The paths are the
// repository's (relative to the top of its working tree). At most MaxStatusPaths are kept.
func ParseStatus(out []byte) []Change {
	if len(out) > MaxOutput {
		out = out[:MaxOutput]
	}
	var changes []Change
	for len(out) > 0 && len(changes) < MaxStatusPaths {
		rec, rest, ok := cutNUL(out)
		if !ok {
			break
		}
		out = rest
		if len(rec) < 4 || rec[2] != ' ' {
			continue
		}
		st := rec[1] // the work tree's letter
		if st == ' ' {
			st = rec[0] // staged only
		}
		if rec[0] == '?' {
			st = 'A' // new, untracked
		}
		changes = append(changes, Change{Status: st, Path: string(rec[3:])})
	}
	return changes
}
