package agentctx

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Claude Code's transcript (~/.claude/projects/<dir>/<session>.jsonl): one JSON object a line.
// What gsd reads of it:
//   - {"type":"user","message":{"content":"<the prompt>"|[{"type":"text","text":…}]}}, the user's
//     prompts; not those marked isMeta, isCompactSummary (a compaction's summary) or isSidechain
//     (a subagent's), nor the commands and notes Claude Code writes as user text (<command-name>,
//     [Request interrupted by user]);
//   - {"type":"last-prompt","lastPrompt":…} (or "prompt"), the last prompt, recorded by newer
//     versions;
//   - {"type":"assistant","message":{"content":[{"type":"tool_use","id","name","input"}]}}: the
//     tools used; TodoWrite's whole list (input.todos[{content,status,activeForm}], or
//     {content,status,priority,id} before 1.0.x gave way to activeForm); TaskCreate and
//     TaskUpdate (v2.1.16 on), folded into a list; the files of Edit, MultiEdit, Write and
//     NotebookEdit;
//   - a TaskCreate's result, {"type":"user",…,"toolUseResult":{"task":{"id":"7"}}} (or its text
//     "Task #7 created successfully"), which gives the task its id;
//   - {"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":…}}, a compaction.

// maxTaskResult bounds the line of a TaskCreate's result (a few hundred bytes).
const maxTaskResult = 8 << 10

// claudeHead is what gsd decodes of a line besides its message's content.
type claudeHead struct {
	Type             string          `json:"type"`
	Subtype          string          `json:"subtype"`
	Timestamp        string          `json:"timestamp"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	LastPrompt       json.RawMessage `json:"lastPrompt"`
	Prompt           json.RawMessage `json:"prompt"`
}

// claudeEntry is what gsd decodes of a line; the content stays raw until its kind is known.
type claudeEntry struct {
	claudeHead
	Message struct {
		// Content is decoded as blocks; a typed prompt, whose content is a string, is
		// decoded again for its text (claudeDecode).
		Content []claudeBlock `json:"content"`
	} `json:"message"`
	text          string
	isText        bool
	ToolUseResult json.RawMessage `json:"toolUseResult"`
}

type claudeBlock struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Text      string          `json:"text"`
	ToolUseID string          `json:"tool_use_id"`
	Input     json.RawMessage `json:"input"`
	Content   json.RawMessage `json:"content"`
}

// What a line may be, told from a few of its bytes: most of a transcript's bytes are tool
// results and the agent's prose and thinking, none of which a capture reads.
const (
	claudeDecodeIt  = iota // it may matter: decode it
	claudeSkip             // it does not
	claudeToolCalls        // the agent's tool calls: read them without decoding the line, if it can be
)

// claudeKindOf tells what a line may be from the bytes after its message's "content": (the
// first such member of an entry Claude Code writes), or, for the entries without one, whether
// it is a last-prompt record. A line of another shape is looked through for what may matter.
func claudeKindOf(line []byte) int {
	i := bytes.Index(line, []byte(`"content":`))
	if i < 0 {
		if has(line, `"last-prompt"`) {
			return claudeDecodeIt
		}
		return claudeSkip
	}
	rest := line[i+len(`"content":`):]
	switch {
	case bytes.HasPrefix(rest, []byte(`"`)):
		return claudeDecodeIt // a typed prompt; a note (a compaction's boundary)
	case bytes.HasPrefix(rest, []byte(`[{"tool_use_id"`)) || bytes.HasPrefix(rest, []byte(`[{"type":"tool_result"`)):
		// A tool's result: only a created task's (a short line) gives the capture anything.
		if len(line) > maxTaskResult || !has(line, "Task #") {
			return claudeSkip
		}
		return claudeDecodeIt
	case bytes.HasPrefix(rest, []byte(`[{"type":"tool_use"`)):
		return claudeToolCalls
	case bytes.HasSuffix(line[:i], []byte(`"role":"assistant",`)):
		// The agent's prose or thinking first: a call may follow in the same entry.
		if has(rest, `"tool_use"`) {
			return claudeDecodeIt
		}
		return claudeSkip
	}
	if has(line, `"tool_result"`) && (len(line) > maxTaskResult || !has(line, "Task #")) ||
		!has(line, `"user"`) && !has(line, `"tool_use"`) && !has(line, `"last-prompt"`) && !has(line, `"compact_boundary"`) {
		return claudeSkip
	}
	return claudeDecodeIt
}

// claudeLine folds one line into c.
func claudeLine(c *Capture, line []byte, opt Options) {
	switch claudeKindOf(line) {
	case claudeSkip:
		return
	case claudeToolCalls:
		if calls, ok := toolUses(line); ok {
			for i := range calls {
				claudeToolUse(c, calls[i].id, calls[i].name, &calls[i], opt)
			}
			return
		}
	}
	var e claudeEntry
	if !claudeDecode(line, &e) {
		return
	}
	if e.IsSidechain {
		return // a subagent's: not the session's
	}
	at := timestamp(e.Timestamp)
	switch e.Type {
	case "user":
		claudeUser(c, &e, at)
	case "assistant":
		for i := range e.Message.Content {
			if b := &e.Message.Content[i]; b.Type == "tool_use" {
				claudeToolUse(c, b.ID, b.Name, rawInput(b.Input), opt)
			}
		}
	case "last-prompt":
		for _, raw := range []json.RawMessage{e.LastPrompt, e.Prompt} {
			var s string
			if json.Unmarshal(raw, &s) != nil || !userText(s) {
				continue
			}
			// The record has no time of its own: the user entry it repeats has.
			prev := c.Prompt
			if c.rawSet {
				prev = shapePrompt(c.raw)
			}
			same := prev != "" && shapePrompt(s) == prev
			if !same {
				c.setPrompt(s, time.Time{})
			}
			break
		}
	case "system":
		if e.Subtype == "compact_boundary" && !at.IsZero() {
			c.CompactedAt = at
		}
	}
}

// claudeTyped is a user entry whose content is a string: a typed prompt.
type claudeTyped struct {
	claudeHead
	Message struct {
		Content string `json:"content"`
	} `json:"message"`
}

// claudeDecode decodes a line into e, in one pass over it for the usual line, whose content is
// blocks; a line whose content is a string (a typed prompt) is decoded again for it. It reports
// whether the line is an entry.
func claudeDecode(line []byte, e *claudeEntry) bool {
	var err error
	if has(line, `"content":"`) {
		// Likely a typed prompt: its content is a string (which the blocks are tried as too).
		var p claudeTyped
		if err = json.Unmarshal(line, &p); err == nil {
			*e = claudeEntry{claudeHead: p.claudeHead, text: p.Message.Content, isText: true}
			return true
		}
	}
	err = json.Unmarshal(line, e)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field == "message.content" && te.Value == "string" {
		var p struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &p) != nil {
			return false
		}
		e.text, e.isText, err = p.Message.Content, true, nil
	}
	return err == nil
}

// claudeUser folds a user line: a prompt, or the results of tools (a TaskCreate's id).
func claudeUser(c *Capture, e *claudeEntry, at time.Time) {
	text := e.text
	if !e.isText {
		var parts []string
		results := false
		blocks := e.Message.Content
		for i := range blocks {
			switch blocks[i].Type {
			case "text":
				parts = append(parts, blocks[i].Text)
			case "tool_result":
				results = true
				claudeTaskCreated(c, &blocks[i], e.ToolUseResult)
			}
		}
		if results {
			return
		}
		text = strings.Join(parts, "\n")
	}
	if e.IsMeta || e.IsCompactSummary || !userText(text) {
		return
	}
	c.setPrompt(text, at)
}

// userText reports whether a user entry's text is a prompt the user typed, not a command, its
// output, a hook's feedback or a note Claude Code writes as the user.
func userText(s string) bool {
	s = strings.TrimSpace(s)
	switch {
	case s == "", s[0] == '<', s[0] == '/':
		return false
	case strings.HasPrefix(s, "[Request interrupted"), strings.HasPrefix(s, "Caveat: "),
		strings.HasPrefix(s, "Stop hook feedback"), strings.HasPrefix(s, "This session is being continued from a previous conversation"):
		return false
	}
	return true
}

// claudeToolUse folds one tool call of the agent's: its id, its name, and its input, which is
// decoded only for the tools whose input is read.
func claudeToolUse(c *Capture, id, name string, in toolInput, opt Options) {
	input := in.decode
	c.addTool(name)
	switch name {
	case "TodoWrite":
		var in struct {
			Todos []struct {
				Content    string `json:"content"`
				Status     string `json:"status"`
				ActiveForm string `json:"activeForm"`
			} `json:"todos"`
		}
		if !input(&in) || in.Todos == nil {
			return
		}
		todos := make([]Todo, 0, min(len(in.Todos), MaxTodos))
		for _, t := range in.Todos {
			todos = addTodo(todos, t.Content, t.Status, t.ActiveForm)
		}
		c.setTodos(todos, SourceTodoWrite)
	case "TaskCreate":
		var in struct {
			Subject    string `json:"subject"`
			ActiveForm string `json:"activeForm"`
			Metadata   struct {
				Internal json.RawMessage `json:"_internal"`
			} `json:"metadata"`
		}
		content := ""
		if input(&in) {
			content = rawText(in.Subject)
		}
		if content == "" || id == "" {
			return
		}
		if c.TodoSource != SourceTask {
			c.Todos = nil // a list of another tool's gives way
		}
		c.TodoSource = SourceTask
		for _, t := range c.Todos {
			if t.Call == id {
				return // read before
			}
		}
		c.addTask(Todo{Content: content, Status: Pending, ActiveForm: rawText(in.ActiveForm), Call: id, Hidden: isTrue(in.Metadata.Internal)})
	case "TaskUpdate":
		var in struct {
			TaskID     json.RawMessage `json:"taskId"`
			Status     string          `json:"status"`
			Subject    string          `json:"subject"`
			ActiveForm string          `json:"activeForm"`
			Metadata   map[string]json.RawMessage
		}
		if !input(&in) || c.TodoSource != SourceTask {
			return
		}
		id := taskID(in.TaskID)
		i := c.taskIndex(id)
		if i < 0 {
			return
		}
		if in.Status == "deleted" {
			c.Todos = append(c.Todos[:i:i], c.Todos[i+1:]...)
			return
		}
		t := &c.Todos[i]
		if st := status(in.Status); st != "" {
			t.Status = st
		}
		if s := rawText(in.Subject); s != "" {
			t.Content = s
		}
		if s := rawText(in.ActiveForm); s != "" {
			t.ActiveForm = s
		}
		if raw, ok := in.Metadata["_internal"]; ok {
			t.Hidden = isTrue(raw)
		}
	case "Edit", "MultiEdit", "Write", "NotebookEdit":
		if p, ok := in.filePath(); ok {
			c.addFile(projectFile(p, opt))
			return
		}
		var in struct {
			FilePath     string `json:"file_path"`
			NotebookPath string `json:"notebook_path"`
		}
		if !input(&in) {
			return
		}
		p := in.FilePath
		if p == "" {
			p = in.NotebookPath
		}
		c.addFile(projectFile(p, opt))
	}
}

// claudeTaskCreated gives a TaskCreate's task its id, from the call's result: toolUseResult's
// task.id, else the result's text "Task #7 created successfully".
func claudeTaskCreated(c *Capture, b *claudeBlock, result json.RawMessage) {
	if c.TodoSource != SourceTask || b.ToolUseID == "" {
		return
	}
	i := -1
	for j, t := range c.Todos {
		if t.Call == b.ToolUseID && t.ID == "" {
			i = j
		}
	}
	if i < 0 {
		return
	}
	var r struct {
		Task struct {
			ID json.RawMessage `json:"id"`
		} `json:"task"`
	}
	id := ""
	if json.Unmarshal(result, &r) == nil {
		id = taskID(r.Task.ID)
	}
	if id == "" {
		var text string
		if json.Unmarshal(b.Content, &text) != nil {
			var parts []claudeBlock
			_ = json.Unmarshal(b.Content, &parts)
			for _, p := range parts {
				text += p.Text
			}
		}
		if m := taskCreatedText().FindStringSubmatch(text); m != nil {
			id = m[1]
		}
	}
	if id != "" {
		c.Todos[i].ID = id // the call stays: a line read again does not add the task twice
	}
}

var taskCreatedText = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*Task #([0-9]{1,9}) created`)
})

// taskID reads a Task tool's task id: a decimal string, or a number.
func taskID(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	var s string
	if json.Unmarshal(raw, &s) != nil {
		s = string(raw)
	}
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return strconv.FormatUint(n, 10)
	}
	return ""
}

// isTrue reports whether a JSON value is true.
func isTrue(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "true" }

// addTask adds a task to the folded list, the oldest finished one (else the oldest) making room
// when the list is full.
func (c *Capture) addTask(t Todo) {
	if len(c.Todos) >= MaxTodos {
		drop := 0
		for i, o := range c.Todos {
			if o.Status == Complete || o.Status == Cancelled {
				drop = i
				break
			}
		}
		c.Todos = append(c.Todos[:drop:drop], c.Todos[drop+1:]...)
	}
	c.Todos = append(c.Todos, t)
}

// taskIndex is the index of the task with id in the folded list; -1 when none.
func (c *Capture) taskIndex(id string) int {
	if id == "" {
		return -1
	}
	for i, t := range c.Todos {
		if t.ID == id {
			return i
		}
	}
	return -1
}
