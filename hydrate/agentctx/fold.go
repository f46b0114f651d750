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
	f := newFolder(c, agent, opt)
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > MaxLine {
			f.long(line[:longPrefix])
			continue
		}
		f.line(line)
	}
	return f.finish()
}

// longPrefix is how much of a line over MaxLine a fold is shown: its start, where a record's
// type is.
const longPrefix = 512

// folder folds a transcript's lines into a capture, one at a time.
type folder struct {
	c     *Capture
	agent string
	opt   Options
	g     *geminiFold
	r     Result
}

func newFolder(c *Capture, agent string, opt Options) *folder {
	f := &folder{c: c, agent: agent, opt: opt}
	if agent == Gemini {
		f.g = &geminiFold{}
	}
	return f
}

// line folds one whole line (without its newline), at most MaxLine bytes.
func (f *folder) line(line []byte) {
	line = bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	switch f.agent {
	case Claude:
		claudeLine(f.c, line, f.opt)
	case Codex:
		codexLine(f.c, line, f.opt)
	case Gemini:
		f.g.line(line, f.opt)
	}
}

// wants reports, from its first bytes, whether a long line may matter: a tool's result or
// output (most of a transcript's long lines) never does to Claude Code's or Codex's fold, but
// for a task's id, which is in a short line.
func (f *folder) wants(prefix []byte) bool {
	switch f.agent {
	case Claude:
		return !has(prefix, `"tool_result"`)
	case Codex:
		head := prefix[:min(len(prefix), 256)]
		return !has(head, `"function_call_output"`) && !has(head, `"custom_tool_call_output"`)
	}
	return true
}

// long takes note of a line over MaxLine, skipped: only its first bytes are looked at.
func (f *folder) long(prefix []byte) {
	f.r.Skipped++
	if f.agent == Codex {
		codexLongLine(f.c, prefix)
	}
}

// finish ends the fold: the window's messages applied (Gemini), the texts shaped.
func (f *folder) finish() Result {
	if g := f.g; g != nil {
		f.r.Foreign, f.r.Refold = g.foreign, g.refold
		if !g.foreign {
			g.apply(f.c)
		}
	}
	f.c.finish()
	return f.r
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
