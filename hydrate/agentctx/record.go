package agentctx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// SchemaVersion is the version of the stored record's format.
const SchemaVersion = 1

// Record is what gsd keeps of an agent's context for one user of one project: the capture, who
// and what it was captured from (the agent, its session, the project root, the branch), when
// and at which event, and where the transcript's last read stopped. Encoded, it is at most
// MaxFileSize bytes.
type Record struct {
	SchemaVersion int       `json:"schemaVersion"`
	Agent         string    `json:"agent"`
	SessionID     string    `json:"sessionId"`
	Root          string    `json:"root"`
	Branch        string    `json:"branch,omitempty"`
	CapturedAt    time.Time `json:"capturedAt"`
	Event         string    `json:"event"`
	Capture
	// Reinject: hand the capture back once, on the agent's next turn (Gemini CLI, whose
	// SessionStart does not follow a compression).
	Reinject bool   `json:"reinject,omitempty"`
	Cursor   Cursor `json:"cursor"`
}

// Decode reads a stored record. A record over twice MaxFileSize, of another schema version, or
// not a record at all is an error; what it holds is held to the capture's bounds again (it may
// have been edited by hand).
func Decode(data []byte) (*Record, error) {
	if len(data) > 2*MaxFileSize {
		return nil, fmt.Errorf("%d bytes, more than a record can be", len(data))
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("not a record: %w", err)
	}
	if r.SchemaVersion != SchemaVersion {
		return nil, fmt.Errorf("schema version %d, not %d", r.SchemaVersion, SchemaVersion)
	}
	if r.Agent != Claude && r.Agent != Codex && r.Agent != Gemini {
		return nil, errors.New("no agent")
	}
	r.bound()
	return &r, nil
}

// Where is what a turn's end needs of a stored record to tell that nothing was appended since:
// the session it is of, its project, and where the transcript's read stopped. Decoding only
// that costs less than the whole record.
type Where struct {
	SessionID string `json:"sessionId"`
	Root      string `json:"root"`
	Cursor    Cursor `json:"cursor"`
}

// DecodeWhere reads a stored record's Where; ok is false when it is not a record of this
// version.
func DecodeWhere(data []byte) (w Where, ok bool) {
	var r struct {
		SchemaVersion int `json:"schemaVersion"`
		Where
	}
	if len(data) > 2*MaxFileSize || json.Unmarshal(data, &r) != nil || r.SchemaVersion != SchemaVersion {
		return Where{}, false
	}
	return r.Where, true
}

// bound holds r's capture to its bounds.
func (r *Record) bound() {
	c := &r.Capture
	// What a capture stored was shaped and redacted then: here only its bounds are checked
	// again, without the cost of the patterns.
	c.Prompt = textfmt.Clip(oneLine(c.Prompt), MaxPromptRunes)
	var tools []string
	for _, t := range c.Tools {
		if toolName(t) && len(tools) < MaxTools {
			tools = append(tools, t)
		}
	}
	c.Tools = tools
	var todos []Todo
	for _, t := range c.Todos {
		if st := status(t.Status); st != "" && len(todos) < MaxTodos {
			t := Todo{Content: textfmt.Clip(oneLine(t.Content), MaxTodoRunes), Status: st, ActiveForm: textfmt.Clip(oneLine(t.ActiveForm), MaxTodoRunes),
				ID: t.ID, Call: t.Call, Hidden: t.Hidden}
			if !digits(t.ID) {
				t.ID = ""
			}
			if !toolName(t.Call) {
				t.Call = ""
			}
			if t.Content != "" {
				todos = append(todos, t)
			}
		}
	}
	c.Todos = todos
	var files []string
	for _, f := range c.Files {
		if f != "" && len(f) <= maxFileBytes && len(files) < MaxFiles {
			files = append(files, f)
		}
	}
	c.Files = files
}

// Encode writes r as stored, at most MaxFileSize bytes: when its texts in wide characters make
// it longer, the todos' active forms go first, then todos (finished ones first), then files,
// then tools.
func (r *Record) Encode() ([]byte, error) {
	r.SchemaVersion = SchemaVersion
	c := &r.Capture
	for {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return nil, err
		}
		if b.Len() <= MaxFileSize {
			return b.Bytes(), nil
		}
		switch {
		case clearActiveForms(c.Todos):
		case len(c.Todos) > 0:
			drop := len(c.Todos) - 1
			for i, t := range c.Todos {
				if t.Status == Complete || t.Status == Cancelled {
					drop = i
				}
			}
			c.Todos = append(c.Todos[:drop:drop], c.Todos[drop+1:]...)
		case len(c.Files) > 0:
			c.Files = c.Files[:len(c.Files)-1]
		case len(c.Tools) > 0:
			c.Tools = c.Tools[:len(c.Tools)-1]
		default:
			return nil, fmt.Errorf("a record of %d bytes, over %d", b.Len(), MaxFileSize)
		}
	}
}

// digits reports whether s is a task id: 1 to 9 decimal digits.
func digits(s string) bool {
	if s == "" || len(s) > 9 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// clearActiveForms clears every todo's active form, and reports whether there was one.
func clearActiveForms(todos []Todo) bool {
	any := false
	for i := range todos {
		if todos[i].ActiveForm != "" {
			todos[i].ActiveForm, any = "", true
		}
	}
	return any
}
