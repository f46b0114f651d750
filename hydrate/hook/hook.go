// Package hook owns what gsd's agent hooks exchange with the agent: the event input an agent
// (Claude Code, Gemini CLI, Codex) writes to a hook's stdin and the output a SessionStart hook
// prints. Installing the hooks in an agent's settings is its subpackage settings.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gsd-tools/gsd/planfile/jsonlite"
)

// InputLimit bounds what a hook reads from stdin: an event's JSON is a few hundred bytes.
const InputLimit = 1 << 20

// ErrNoInput is a hook run without its JSON: by hand, from a terminal, or by a runner that
// never closes stdin.
var ErrNoInput = errors.New("no hook input on stdin (gsd brief --no-bootstrap prints the brief by hand)")

// Input is what an agent writes to a hook's stdin; gsd needs only these fields.
type Input struct {
	SessionID     string `json:"session_id"`
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	Source        string `json:"source"`  // SessionStart: startup, resume, clear, compact, fork
	Trigger       string `json:"trigger"` // PreCompact: manual, auto
	Reason        string `json:"reason"`  // SessionEnd: clear, logout, prompt_input_exit, other, ...
}

// ParseInput reads an event's JSON. Empty input is ErrNoInput; anything that is not a JSON
// object is an error saying so in one line.
func ParseInput(data []byte) (Input, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Input{}, ErrNoInput
	}
	if in, ok := parseFlat(data); ok {
		return in, nil
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("stdin is not the hook's JSON (%s)", firstLine(err.Error()))
	}
	return in, nil
}

// parseFlat reads the input as encoding/json would when it is what agents write: one object
// whose values are strings or, for keys gsd does not read, other literals (Codex's
// "transcript_path": null). Anything else (nesting, a key that only matches a field's name when
// case is folded, as encoding/json matches) is ok false, for encoding/json to read.
func parseFlat(data []byte) (in Input, ok bool) {
	p := jsonlite.Space(data)
	if len(p) == 0 || p[0] != '{' {
		return in, false
	}
	p = jsonlite.Space(p[1:])
	if len(p) > 0 && p[0] == '}' {
		return in, len(jsonlite.Space(p[1:])) == 0
	}
	for {
		key, rest, ok := jsonlite.String(p, nil)
		if !ok {
			return in, false
		}
		p = jsonlite.Space(rest)
		if len(p) == 0 || p[0] != ':' {
			return in, false
		}
		p = jsonlite.Space(p[1:])
		field := in.field(key)
		if field == nil && foldsToField(key) {
			return in, false
		}
		if len(p) > 0 && p[0] == '"' {
			v, rest, ok := jsonlite.String(p, nil)
			if !ok {
				return in, false
			}
			if field != nil {
				*field = v
			}
			p = rest
		} else {
			if field != nil { // null leaves a field as it is, anything else is an error
				return in, false
			}
			if p, ok = jsonlite.Scalar(p); !ok {
				return in, false
			}
		}
		p = jsonlite.Space(p)
		switch {
		case len(p) == 0:
			return in, false
		case p[0] == ',':
			p = jsonlite.Space(p[1:])
		case p[0] == '}':
			return in, len(jsonlite.Space(p[1:])) == 0
		default:
			return in, false
		}
	}
}

// field is the field of in that key names exactly, nil for none.
func (in *Input) field(key string) *string {
	switch key {
	case "session_id":
		return &in.SessionID
	case "cwd":
		return &in.Cwd
	case "hook_event_name":
		return &in.HookEventName
	case "source":
		return &in.Source
	case "trigger":
		return &in.Trigger
	case "reason":
		return &in.Reason
	}
	return nil
}

// foldsToField reports whether key names one of Input's fields when case is folded.
func foldsToField(key string) bool {
	for _, name := range [...]string{"session_id", "cwd", "hook_event_name", "source", "trigger", "reason"} {
		if strings.EqualFold(key, name) {
			return true
		}
	}
	return false
}

// SessionStartOutput is what a SessionStart hook prints: the brief as additional context.
type SessionStartOutput struct {
	HookSpecificOutput SessionStartSpecific `json:"hookSpecificOutput"`
}

// SessionStartSpecific is SessionStartOutput's event-specific part.
type SessionStartSpecific struct {
	HookEventName     string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext"`
}

// NewSessionStartOutput wraps context for event (SessionStart).
func NewSessionStartOutput(event, context string) SessionStartOutput {
	return SessionStartOutput{SessionStartSpecific{HookEventName: event, AdditionalContext: context}}
}

// AppendJSON appends o as one line of JSON, as encoding/json writes it without HTML escaping
// (SessionStart runs on every agent start; encoding/json's first use in a process is slower than
// the rest of the write).
func (o SessionStartOutput) AppendJSON(b []byte) []byte {
	b = append(b, `{"hookSpecificOutput":{"hookEventName":`...)
	b = jsonlite.AppendString(b, o.HookSpecificOutput.HookEventName, false)
	b = append(b, `,"additionalContext":`...)
	b = jsonlite.AppendString(b, o.HookSpecificOutput.AdditionalContext, false)
	return append(b, "}}\n"...)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
