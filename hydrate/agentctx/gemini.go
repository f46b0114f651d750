package agentctx

import (
	"encoding/json"
	"strings"
	"time"
)

// Gemini CLI's session (~/.gemini/tmp/<project hash>/chats/session-<time>-<id>.jsonl): a first
// line of metadata ({sessionId, projectHash, …, kind: "main" or "subagent"}), then one message
// record a line ({id, timestamp, type: "user"|"gemini"|…, content, toolCalls}), metadata updates
// ({"$set":{…}}) and rewinds ({"$rewindTo":"<id>"}, which undo that message and all after it).
// What gsd reads of it:
//   - a user record's content (text, or parts with text): the prompt;
//   - a gemini record's toolCalls[{name, args, status}]: the tools used; write_todos's whole list
//     (args.todos[{description, status}], status also "cancelled"); the files of write_file and
//     replace (args.file_path), when the call did not fail;
//   - a rewind, which takes back what the messages it undoes gave;
//   - kind "subagent": a subagent's chat, none of it the session's.

type geminiRecord struct {
	RewindTo  json.RawMessage `json:"$rewindTo"`
	Set       json.RawMessage `json:"$set"`
	Kind      string          `json:"kind"`
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Timestamp string          `json:"timestamp"`
	Content   json.RawMessage `json:"content"`
	ToolCalls json.RawMessage `json:"toolCalls"`
}

type geminiCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args"`
	Status string          `json:"status"`
}

// geminiMsg is what one message record gives, kept until the window's rewinds are known.
type geminiMsg struct {
	id        string
	prompt    string
	at        time.Time
	tools     []string
	todos     []Todo
	todosSet  bool
	files     []string
	hasPrompt bool
}

type geminiFold struct {
	msgs    []geminiMsg
	foreign bool
	refold  bool
}

func (g *geminiFold) line(line []byte, opt Options) {
	if !has(line, `"user"`) && !has(line, `"toolCalls"`) && !has(line, `"$rewindTo"`) && !has(line, `"kind"`) {
		return
	}
	var r geminiRecord
	if json.Unmarshal(line, &r) != nil {
		return
	}
	if r.Kind == "subagent" {
		g.foreign = true
	}
	if r.Set != nil {
		var set struct {
			Kind string `json:"kind"`
		}
		if json.Unmarshal(r.Set, &set) == nil && set.Kind == "subagent" {
			g.foreign = true
		}
	}
	if r.RewindTo != nil {
		var id string
		if json.Unmarshal(r.RewindTo, &id) != nil {
			return
		}
		i := len(g.msgs) - 1
		for i >= 0 && g.msgs[i].id != id {
			i--
		}
		if i < 0 {
			// Back to a message before this window: all of the window's messages so far are
			// undone, and so may be some of what the capture held.
			g.refold = true
			i = 0
		}
		g.msgs = g.msgs[:i]
		return
	}
	m := geminiMsg{id: r.ID, at: timestamp(r.Timestamp)}
	switch r.Type {
	case "user":
		if text := geminiText(r.Content); userText(text) {
			m.prompt, m.hasPrompt = text, true
		}
	case "gemini":
		var calls []geminiCall
		if json.Unmarshal(r.ToolCalls, &calls) != nil {
			break
		}
		for _, call := range calls {
			m.call(&call, opt)
		}
	default:
		return
	}
	g.msgs = append(g.msgs, m)
}

// call folds one tool call of a gemini record.
func (m *geminiMsg) call(call *geminiCall, opt Options) {
	if !toolName(call.Name) {
		return
	}
	m.tools = append(m.tools, call.Name)
	if call.Status == "error" || call.Status == "cancelled" {
		return
	}
	switch call.Name {
	case "write_todos":
		var in struct {
			Todos []struct {
				Description string `json:"description"`
				Status      string `json:"status"`
			} `json:"todos"`
		}
		if json.Unmarshal(call.Args, &in) != nil || in.Todos == nil {
			return
		}
		m.todos, m.todosSet = make([]Todo, 0, min(len(in.Todos), MaxTodos)), true
		for _, t := range in.Todos {
			m.todos = addTodo(m.todos, t.Description, t.Status, "")
		}
	case "write_file", "replace", "edit":
		var in struct {
			FilePath string `json:"file_path"`
		}
		if json.Unmarshal(call.Args, &in) == nil {
			if f := projectFile(in.FilePath, opt); f != "" {
				m.files = append(m.files, f)
			}
		}
	}
}

// apply folds the window's messages, what its rewinds left of them, into c.
func (g *geminiFold) apply(c *Capture) {
	for _, m := range g.msgs {
		if m.hasPrompt {
			c.setPrompt(m.prompt, m.at)
		}
		for _, t := range m.tools {
			c.addTool(t)
		}
		if m.todosSet {
			c.setTodos(m.todos, SourceWriteTodos)
		}
		for _, f := range m.files {
			c.addFile(f)
		}
	}
}

// geminiText is a user record's text: its content as a string, or its parts' texts.
func geminiText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	type part struct {
		Text string `json:"text"`
	}
	var parts []part
	if json.Unmarshal(raw, &parts) != nil {
		var one part
		if json.Unmarshal(raw, &one) != nil {
			return ""
		}
		return one.Text
	}
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}
