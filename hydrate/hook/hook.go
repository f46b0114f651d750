// Package hook owns what gsd's agent hooks exchange with the agent: the event input an agent
// (Claude Code, Gemini CLI, Codex) writes to a hook's stdin and the output a SessionStart hook
// prints. Installing the hooks in an agent's settings is its subpackage settings.
package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
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
	// TranscriptPath is the agent's transcript of the session (null in Codex for a session
	// without one): where the turn-end, pre-compact and session-end hooks capture the agent's
	// own context from.
	TranscriptPath string `json:"transcript_path"`
}

// Detail is what the event gave besides its name: PreCompact's trigger, SessionEnd's reason.
func (in Input) Detail() string {
	if in.Trigger != "" {
		return in.Trigger
	}
	return in.Reason
}

// ParseInput reads an event's JSON. Empty input is ErrNoInput; anything that is not a JSON
// object is an error saying so in one line.
func ParseInput(data []byte) (Input, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Input{}, ErrNoInput
	}
	var in Input
	if err := json.Unmarshal(data, &in); err != nil {
		return in, fmt.Errorf("stdin is not the hook's JSON (%s)", firstLine(err.Error()))
	}
	return in, nil
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

// NewSessionStartOutput wraps context for event (SessionStart, or Gemini CLI's BeforeAgent,
// which takes the same output), cut to MaxContext.
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

// Write writes o to w as one line of JSON, without HTML escaping: the brief's "<" and "&" stay
// as they are for the agent to read.
func (o SessionStartOutput) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(o)
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
