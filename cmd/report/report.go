package report

import (
	"encoding/json"
	"io"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
)

// SchemaVersion is the version of every JSON object gsd prints.
const SchemaVersion = 1

// Write writes v as gsd writes every JSON object: indented by two spaces, HTML characters as
// they are, one final newline.
func Write(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// Task is a task of a session.
type Task struct {
	Number int             `json:"number"`
	Name   string          `json:"name"`
	Type   string          `json:"type"`
	Status planfile.Status `json:"status"`
}

func taskOf(t hydrate.Task) Task { return Task{t.Number, t.Name, t.Type, t.Status} }

func tasksOf(ts []hydrate.Task) []Task {
	out := make([]Task, len(ts))
	for i, t := range ts {
		out[i] = taskOf(t)
	}
	return out
}

// nonNil keeps empty lists as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// optInt is n, null when 0.
func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// optTime is a timestamp as RFC 3339 in UTC to the second, null when s is empty or not a time.
func optTime(s string) *string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	v := t.UTC().Format(time.RFC3339)
	return &v
}

// optString is s, null when empty.
func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
