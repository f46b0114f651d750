package agentctx

import (
	"bytes"
	"encoding/json"
)

// The agent's tool calls are most of what a Claude Code transcript gives a capture to decode:
// an assistant entry per call, whose envelope and usage figures are most of its bytes, and
// whose input is mostly irrelevant (a command, a pattern, a file's new content). Claude Code
// writes an assistant entry compactly, its members in one order:
//
//	{"parentUuid":…,"isSidechain":false,…,"message":{"model":…,"id":…,"type":"message",
//	"role":"assistant","content":[{"type":"tool_use","id":"<id>","name":"<name>","input":{…}},…]…
//
// and bytes such as `"message":` or `{"type":"tool_use"` can only be a member's name or a
// block's start there (inside a JSON string the quotation marks would be escaped). toolUses reads
// the ids and names of such a line, and leaves an input to be decoded, from where it starts,
// only for the tools whose input a capture reads (todo lists, files). A line in any other shape
// (a progress entry that nests a subagent's message, an escape in an id or name) is decoded
// whole, as every other line is: that decoding is this file's test oracle (tooluse_test.go).

var (
	assistantContent = []byte(`"type":"message","role":"assistant","content":[`)
	toolUseStart     = []byte(`{"type":"tool_use","id":"`)
	toolUseName      = []byte(`","name":"`)
	toolUseInput     = []byte(`","input":`)
)

// toolCall is a tool_use block as toolUses reads it.
type toolCall struct {
	id, name string
	input    []byte // from the input's first byte to the end of the line
}

// toolInput is a tool call's input, to decode when a capture reads it.
type toolInput interface {
	decode(v any) bool
	// filePath is the input's file_path when it is the input's first member and has no escape
	// sequence (as Claude Code writes Edit's and Write's): ok false when it is not so.
	filePath() (path string, ok bool)
}

// rawInput is an input decoded with its line.
type rawInput json.RawMessage

func (r rawInput) decode(v any) bool      { return json.Unmarshal(r, v) == nil }
func (rawInput) filePath() (string, bool) { return "", false }
func (t *toolCall) decode(v any) bool {
	return json.NewDecoder(bytes.NewReader(t.input)).Decode(v) == nil
}
func (t *toolCall) filePath() (string, bool) { return leadingFilePath(t.input) }

var filePathStart = []byte(`{"file_path":"`)

// leadingFilePath reads {"file_path":"<path>", or "<path>"}: the path, when it has no escape
// sequence.
func leadingFilePath(input []byte) (string, bool) {
	rest, ok := bytes.CutPrefix(input, filePathStart)
	if !ok {
		return "", false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 || end+1 >= len(rest) || rest[end+1] != ',' && rest[end+1] != '}' {
		return "", false
	}
	return string(rest[:end]), true
}

// toolUses are the tool_use blocks of a line, and whether the line was read this way: false
// for a line without such blocks first in its message, a subagent's (isSidechain true, or not
// said before them), or one in another shape, which is then decoded whole.
func toolUses(line []byte) ([]toolCall, bool) {
	i := bytes.Index(line, toolUseStart)
	if i < 0 {
		return nil, false
	}
	head := line[:i]
	_, side, ok := bytes.Cut(head, []byte(`"isSidechain":`))
	if !ok || !bytes.HasPrefix(side, []byte("false")) || !bytes.HasPrefix(line, []byte(`{"parentUuid":`)) ||
		!bytes.HasSuffix(head, assistantContent) || bytes.Count(head, []byte(`"message":`)) != 1 ||
		bytes.Count(head, []byte(`{"`)) != 2 {
		return nil, false
	}
	var calls []toolCall
	for rest := line[i:]; ; {
		rest = rest[len(toolUseStart):]
		id, after, ok := plainString(rest, toolUseName)
		if !ok {
			return nil, false
		}
		name, after, ok := plainString(after, toolUseInput)
		if !ok {
			return nil, false
		}
		calls = append(calls, toolCall{id, name, after})
		if i = bytes.Index(after, toolUseStart); i < 0 {
			return calls, true
		}
		rest = after[i:]
	}
}

// plainString reads a JSON string's content up to its closing quote, which sep must start,
// when it has no escape sequence: the content, and what follows sep.
func plainString(b, sep []byte) (string, []byte, bool) {
	end := bytes.IndexByte(b, '"')
	if end < 0 || bytes.IndexByte(b[:end], '\\') >= 0 || !bytes.HasPrefix(b[end:], sep) {
		return "", nil, false
	}
	return string(b[:end]), b[end+len(sep):], true
}
