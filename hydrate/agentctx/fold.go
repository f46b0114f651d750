package agentctx

import (
	"bytes"
	"path/filepath"
	"strings"
	"time"
)

// Options say how to read the paths a transcript names.
type Options struct {
	// Roots are the project root as the agent may spell it: the root gsd found, and its real
	// path when a symlink leads there. A file outside them is not the project's: left out.
	Roots []string
	// Dir is what a relative path in the transcript is relative to (the agent's cwd).
	Dir string
}

// Result says what a fold met besides what it captured.
type Result struct {
	Lines   int // lines decoded
	Skipped int // lines over MaxLine, skipped without being decoded
	// Refold: the transcript rewound to a message before the lines folded (Gemini CLI's
	// $rewindTo), so the capture may hold what was undone: fold the transcript's tail afresh.
	Refold bool
	// Foreign: the transcript is a subagent's; nothing in it is the session's.
	Foreign bool
}

// Fold folds the whole lines of data, a transcript of agent (Claude, Codex, Gemini), into c, the
// capture of what came before them: each kind keeps the newest. Lines that are not JSON, not a
// record of interest, or of the wrong shape are passed over; a line over MaxLine is skipped
// without being decoded. Fold never fails.
func Fold(c *Capture, agent string, data []byte, opt Options) Result {
	var r Result
	var g *geminiFold
	if agent == Gemini {
		g = &geminiFold{}
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimRight(line, "\r")
		if len(line) > MaxLine {
			r.Skipped++
			if agent == Codex {
				codexLongLine(c, line[:512])
			}
			continue
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		switch agent {
		case Claude:
			if claudeLine(c, line, opt) {
				r.Lines++
			}
		case Codex:
			if codexLine(c, line, opt) {
				r.Lines++
			}
		case Gemini:
			if g.line(line, opt) {
				r.Lines++
			}
		}
	}
	if g != nil {
		r.Foreign, r.Refold = g.foreign, g.refold
		if !g.foreign {
			g.apply(c)
		}
	}
	c.finish()
	return r
}

// Detect is the agent whose transcript path is, from its file name and, when that says
// nothing, its first line: Codex CLI's rollout-*.jsonl, Gemini CLI's chats/session-*.jsonl,
// else Claude Code's.
func Detect(path string, data []byte) string {
	base := filepath.Base(path)
	switch {
	case strings.HasPrefix(base, "rollout-"):
		return Codex
	case strings.HasPrefix(base, "session-") || filepath.Base(filepath.Dir(path)) == "chats":
		return Gemini
	}
	first := data
	if i := bytes.IndexByte(first, '\n'); i >= 0 {
		first = first[:i]
	}
	switch {
	case bytes.Contains(first, []byte(`"payload"`)):
		return Codex
	case bytes.Contains(first, []byte(`"projectHash"`)) || bytes.Contains(first, []byte(`"toolCalls"`)):
		return Gemini
	}
	return Claude
}

// has reports whether line holds s.
func has(line []byte, s string) bool { return bytes.Contains(line, []byte(s)) }

// timestamp reads an RFC 3339 time; zero when it is not one.
func timestamp(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t.UTC()
}

// projectFile is path relative to the project root, with "/", when it is inside the project;
// "" otherwise. A relative path is relative to opt.Dir.
func projectFile(path string, opt Options) string {
	path = strings.TrimSpace(path)
	if path == "" || len(path) > maxPath || strings.ContainsAny(path, "\x00\n\r") {
		return ""
	}
	if !filepath.IsAbs(path) {
		if opt.Dir == "" {
			return ""
		}
		path = filepath.Join(opt.Dir, path)
	}
	path = filepath.Clean(path)
	for _, root := range opt.Roots {
		if root == "" {
			continue
		}
		rel, err := filepath.Rel(root, path)
		if err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return ""
}
