package agentctx

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Codex CLI's rollout (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl): one
// {"timestamp","type","payload"} a line. What gsd reads of it:
//   - event_msg {"type":"user_message","message":…}: the user's prompt (the response_item copy of
//     it also carries the instructions Codex injects, so it is not read);
//   - response_item {"type":"function_call","name","arguments":"<JSON>"} and
//     {"type":"custom_tool_call","name","input"}: the tools used; update_plan's plan
//     ({"plan":[{"step","status"}]}, the whole list); the files apply_patch adds, updates, deletes
//     or moves to (its "*** Add File: <path>" lines);
//   - compacted (which can be megabytes: read from its first bytes only) and event_msg
//     context_compacted: a compaction.

type codexEntry struct {
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Payload   json.RawMessage `json:"payload"`
}

type codexPayload struct {
	Type      string          `json:"type"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	Message   json.RawMessage `json:"message"`
}

// codexLine folds one line into c.
func codexLine(c *Capture, line []byte, opt Options) {
	if !has(line, `"function_call"`) && !has(line, `"custom_tool_call"`) && !has(line, `"user_message"`) &&
		!has(line, `"compacted"`) && !has(line, `"context_compacted"`) {
		return
	}
	var e codexEntry
	if json.Unmarshal(line, &e) != nil {
		return
	}
	at := timestamp(e.Timestamp)
	if e.Type == "compacted" {
		if !at.IsZero() {
			c.CompactedAt = at
		}
		return
	}
	var p codexPayload
	if json.Unmarshal(e.Payload, &p) != nil {
		return
	}
	switch {
	case e.Type == "event_msg" && p.Type == "user_message":
		var text string
		if json.Unmarshal(p.Message, &text) == nil {
			c.setPrompt(text, at)
		}
	case e.Type == "event_msg" && p.Type == "context_compacted":
		if !at.IsZero() {
			c.CompactedAt = at
		}
	case e.Type == "response_item" && (p.Type == "function_call" || p.Type == "custom_tool_call"):
		c.addTool(p.Name)
		// A function's arguments are a JSON object written as a string; a custom tool's input
		// is text.
		var args string
		if p.Type == "function_call" {
			if json.Unmarshal(p.Arguments, &args) != nil {
				return
			}
		} else if json.Unmarshal(p.Input, &args) != nil {
			return
		}
		codexCall(c, p.Name, p.Type == "custom_tool_call", args, opt)
	}
}

// codexCall folds a tool call's arguments: update_plan's plan, the files of a patch.
func codexCall(c *Capture, name string, custom bool, args string, opt Options) {
	if name == "update_plan" && !custom {
		var in struct {
			Plan []struct {
				Step   string `json:"step"`
				Status string `json:"status"`
			} `json:"plan"`
		}
		if json.Unmarshal([]byte(args), &in) != nil || in.Plan == nil {
			return
		}
		todos := make([]Todo, 0, min(len(in.Plan), MaxTodos))
		for _, s := range in.Plan {
			todos = addTodo(todos, s.Step, s.Status, "")
		}
		c.setTodos(todos, SourceUpdatePlan)
		return
	}
	if !strings.Contains(args, "*** Begin Patch") {
		return
	}
	patch := args
	if !custom {
		// apply_patch as a function ({"input": …}), or the patch given to a shell command.
		var in map[string]json.RawMessage
		if json.Unmarshal([]byte(args), &in) == nil {
			patch = ""
			for _, raw := range in {
				patch += "\n" + stringsOf(raw)
			}
		}
	}
	for _, f := range patchFiles(patch) {
		c.addFile(projectFile(f, opt))
	}
}

// stringsOf is the strings a JSON value holds (a string, or a list of them), joined by newlines.
func stringsOf(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(raw, &list) == nil {
		return strings.Join(list, "\n")
	}
	return ""
}

// patchFiles are the files an apply_patch patch touches, in order.
func patchFiles(patch string) []string {
	var files []string
	for line := range strings.SplitSeq(patch, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, h := range []string{"*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "} {
			if f, ok := strings.CutPrefix(line, h); ok {
				files = append(files, strings.TrimSpace(f))
			}
		}
	}
	return files
}

// codexLongLine folds what the first bytes of a line too long to decode say: a compacted record
// (its replacement history can be megabytes) is a compaction, at the time it starts with.
func codexLongLine(c *Capture, prefix []byte) {
	if !has(prefix, `"type":"compacted"`) {
		return
	}
	_, rest, ok := bytes.Cut(prefix, []byte(`"timestamp":"`))
	if !ok {
		return
	}
	ts, _, ok := bytes.Cut(rest, []byte(`"`))
	if at := timestamp(string(ts)); ok && !at.IsZero() {
		c.CompactedAt = at
	}
}
