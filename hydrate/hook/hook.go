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
	"unicode/utf8"

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
	Source        string `json:"source"`  // SessionStart: startup, resume, clear, compact
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
	rest, ok := jsonlite.Object(jsonlite.Space(data), nil, func(key string, p []byte) ([]byte, bool) {
		field, folded := in.field(key)
		switch {
		case folded:
			return nil, false
		case len(p) > 0 && p[0] == '"':
			v, rest, ok := jsonlite.String(p, nil)
			if ok && field != nil {
				*field = v
			}
			return rest, ok
		case field != nil: // null leaves a field as it is, anything else is an error
			return nil, false
		}
		return jsonlite.Scalar(p)
	})
	return in, ok && len(jsonlite.Space(rest)) == 0
}

// field is the field of in that key names exactly (nil for none), and whether key names one only
// when case is folded, as encoding/json also matches keys. The names are Input's JSON tags;
// FuzzParseInput holds the two to the same reading.
func (in *Input) field(key string) (_ *string, folded bool) {
	for _, f := range [...]struct {
		name string
		p    *string
	}{
		{"session_id", &in.SessionID}, {"cwd", &in.Cwd}, {"hook_event_name", &in.HookEventName},
		{"source", &in.Source}, {"trigger", &in.Trigger}, {"reason", &in.Reason},
	} {
		if key == f.name {
			return f.p, false
		}
		folded = folded || strings.EqualFold(key, f.name)
	}
	return nil, folded
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

// MaxContext bounds the additionalContext a SessionStart hook gives the agent, whatever
// produced it (a brief, a failure's message): 8,192 bytes, under the 10,000 characters Claude
// Code takes from a hook.
const MaxContext = 8 << 10

// contextCut ends a context cut to MaxContext.
const contextCut = "\n… (cut at 8192 bytes: gsd brief --no-bootstrap prints the rest)"

// NewSessionStartOutput wraps context for event (SessionStart), cut to MaxContext.
func NewSessionStartOutput(event, context string) SessionStartOutput {
	return SessionStartOutput{SessionStartSpecific{HookEventName: event, AdditionalContext: ClipContext(context)}}
}

// ClipContext is s when it fits MaxContext bytes, else its start, cut at a character boundary,
// and a line saying so: MaxContext bytes at most either way.
func ClipContext(s string) string {
	if len(s) <= MaxContext {
		return s
	}
	end := MaxContext - len(contextCut)
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + contextCut
}

// AppendJSON appends o as one line of JSON, as encoding/json writes it without HTML escaping
// (SessionStart runs on every agent start, in a fresh process, where encoding/json would first
// build the type's codec by reflection).
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
