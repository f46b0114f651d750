// Package agentctx captures what a coding agent was doing from its own transcript: the user's
// last prompt, the agent's todo list, the tools it used last and the project files it edited.
// It reads Claude Code's, Codex CLI's and Gemini CLI's transcripts (JSON lines) incrementally,
// from where the last read stopped, and folds what it reads into a small bounded Capture that
// survives the agent's compactions and /clear in gsd's hands.
//
// What it keeps is deliberately little: never a tool's input or output, a file's content, the
// agent's thinking or prose, an image, a path outside the project; the prompt has what the user
// marked <private> removed and anything shaped like a secret redacted. The transcript is read
// only where the caller points (Read); folding (Fold) is pure.
package agentctx

import (
	"slices"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Agents whose transcripts Fold reads.
const (
	Claude = "claude" // Claude Code
	Codex  = "codex"  // Codex CLI
	Gemini = "gemini" // Gemini CLI
)

// Bounds of a capture. Together they hold a stored capture to a few kilobytes (MaxFileSize).
const (
	MaxPromptRunes = 400 // the prompt: its first 300 runes, "…", its last 99
	promptHead     = 300
	MaxTools       = 8  // tool names, newest first
	maxToolName    = 64 // bytes; a longer name is not a tool's name
	MaxTodos       = 20
	MaxTodoRunes   = 160
	MaxFiles       = 15
	maxFileBytes   = 300 // a longer path is left out
	MaxFileSize    = 8 << 10
)

// Todo is one item of the agent's todo list. Status is in gsd's words: pending, in-progress,
// complete, or cancelled (Gemini CLI's).
type Todo struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm,omitempty"`
	// Claude Code's Task tools: the task's id, the call that created it (until its result gives
	// the id), and whether Claude Code hides it from the list (metadata._internal).
	ID     string `json:"id,omitempty"`
	Call   string `json:"call,omitempty"`
	Hidden bool   `json:"hidden,omitempty"`
}

// Todo statuses, in gsd's words.
const (
	Pending    = "pending"
	InProgress = "in-progress"
	Complete   = "complete"
	Cancelled  = "cancelled"
)

// Todo sources: the agent's tool that wrote the list.
const (
	SourceTodoWrite  = "TodoWrite"   // Claude Code, a whole list at a time
	SourceTask       = "Task"        // Claude Code's TaskCreate and TaskUpdate, one task at a time
	SourceUpdatePlan = "update_plan" // Codex CLI
	SourceWriteTodos = "write_todos" // Gemini CLI
)

// Capture is what a fold has gathered: the newest of each kind, bounded.
type Capture struct {
	Prompt   string    `json:"lastPrompt,omitempty"`
	PromptAt time.Time `json:"promptAt,omitzero"`
	// Tools are the newest distinct tool names, newest first.
	Tools      []string `json:"lastTools,omitempty"`
	Todos      []Todo   `json:"todos,omitempty"`
	TodoSource string   `json:"todoSource,omitempty"`
	// Files are the project files the agent edited, relative to the project root with "/",
	// newest first.
	Files []string `json:"files,omitempty"`
	// CompactedAt is when the transcript last recorded a compaction of the agent's context.
	CompactedAt time.Time `json:"compactedAt,omitzero"`

	raw    string // the newest prompt as read, shaped (shapePrompt) once the fold ends
	rawSet bool
}

// Empty reports whether c holds nothing an agent could be handed back.
func (c *Capture) Empty() bool {
	return c.Prompt == "" && !c.rawSet && len(c.Tools) == 0 && len(c.Todos) == 0 && len(c.Files) == 0
}

// Visible are the todos an agent sees: Claude Code's hidden tasks left out.
func (c *Capture) Visible() []Todo {
	var out []Todo
	for _, t := range c.Todos {
		if !t.Hidden {
			out = append(out, t)
		}
	}
	return out
}

// Clone is a copy of c that shares nothing with it.
func (c *Capture) Clone() Capture {
	d := *c
	d.Tools = append([]string(nil), c.Tools...)
	d.Todos = append([]Todo(nil), c.Todos...)
	d.Files = append([]string(nil), c.Files...)
	return d
}

// setPrompt records text as the newest prompt (shaped when the fold ends).
func (c *Capture) setPrompt(text string, at time.Time) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	c.raw, c.rawSet, c.PromptAt = text, true, at
}

// addTool records name as the newest tool used.
func (c *Capture) addTool(name string) {
	if !toolName(name) {
		return
	}
	c.Tools = pushFront(c.Tools, name, MaxTools)
}

// addFile records a project file (root-relative, "/") as the newest edited.
func (c *Capture) addFile(rel string) {
	if rel == "" || len(rel) > maxFileBytes {
		return
	}
	c.Files = pushFront(c.Files, rel, MaxFiles)
}

// setTodos replaces the todo list with a whole new one.
func (c *Capture) setTodos(todos []Todo, source string) {
	if len(todos) > MaxTodos {
		todos = todos[:MaxTodos]
	}
	c.Todos, c.TodoSource = todos, source
}

// addTodo appends an item of a whole list an agent's tool wrote (TodoWrite, update_plan,
// write_todos) to todos: when it has a text and a status gsd knows, and the list has room.
func addTodo(todos []Todo, content, st, activeForm string) []Todo {
	content, st = rawText(content), status(st)
	if content == "" || st == "" || len(todos) >= MaxTodos {
		return todos
	}
	return append(todos, Todo{Content: content, Status: st, ActiveForm: rawText(activeForm)})
}

// pushFront puts s first in list, each item once, keeping at most max. It moves the items
// in place (a fold calls it for every tool call it reads): the list must be its own.
func pushFront(list []string, s string, max int) []string {
	i := slices.Index(list, s)
	switch {
	case i < 0 && len(list) < max:
		list = append(list, "")
		i = len(list) - 1
	case i < 0:
		i = len(list) - 1
	}
	copy(list[1:i+1], list[:i])
	list[0] = s
	return list
}

// toolName reports whether s looks like a tool's name (Edit, mcp__github__create_issue,
// run_shell_command): printable ASCII without spaces or quotes, not too long.
func toolName(s string) bool {
	if s == "" || len(s) > maxToolName {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if b <= ' ' || b >= 0x7f || b == '"' || b == '`' || b == '\\' || b == '<' || b == '>' {
			return false
		}
	}
	return true
}

// status is an agent's todo status in gsd's words; "" for a value that is not one.
func status(s string) string {
	switch s {
	case "pending", "todo", "not_started":
		return Pending
	case "in_progress", "in-progress", "active":
		return InProgress
	case "completed", "complete", "done":
		return Complete
	case "cancelled", "canceled":
		return Cancelled
	}
	return ""
}

// todoText is an item's text as kept: one line, secrets redacted, at most MaxTodoRunes. It
// changes nothing in a text it made.
func todoText(s string) string {
	return textfmt.Clip(oneLine(redact(stripPrivate(s))), MaxTodoRunes)
}

// rawText is an item's text as read, until the fold ends (finish shapes it): the list an
// agent rewrites at every step is shaped once, not at every step.
func rawText(s string) string { return strings.TrimSpace(s) }

// finish shapes the newest prompt and the todo list read, once: no raw text leaves the fold.
func (c *Capture) finish() {
	if c.rawSet {
		c.Prompt = shapePrompt(c.raw)
		c.raw, c.rawSet = "", false
	}
	todos := make([]Todo, 0, len(c.Todos))
	for _, t := range c.Todos {
		t.Content, t.ActiveForm = todoText(t.Content), todoText(t.ActiveForm)
		if t.Content != "" {
			todos = append(todos, t)
		}
	}
	c.Todos = todos
}
