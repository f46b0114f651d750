package planfile

import (
	"fmt"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Status is a task's progress in a session file.
type Status string

// The three statuses a session task can have.
const (
	Pending    Status = "pending"
	InProgress Status = "in-progress"
	Complete   Status = "complete"
)

// AllowedStatuses lists the valid values, for messages.
const AllowedStatuses = `"complete", "in-progress" or "pending"`

// ParseStatus accepts exactly the three values the session format defines.
func ParseStatus(s string) (Status, bool) {
	switch Status(s) {
	case Pending, InProgress, Complete:
		return Status(s), true
	}
	return "", false
}

// Status is a task's status as the session means it: a task without a status attribute is
// pending (bootstrap adds one to every task, but a hand edit may have dropped one), or complete
// when it is a checked checklist item without a marker ("- [x]", see list.go).
func (t *Task) Status() (Status, error) {
	if t.Section != nil && t.Section.Bad {
		return "", fmt.Errorf("task %d has a gsd:task marker gsd cannot read (want <!-- gsd:task status=\"pending\" -->)", t.Number)
	}
	n := 0
	var val string
	for _, a := range t.Attrs {
		if a.Name == "status" {
			n++
			val = a.Value
		}
	}
	switch {
	case n == 0 && t.Section != nil && t.Section.Checked:
		return Complete, nil
	case n == 0:
		return Pending, nil
	case n > 1:
		return "", fmt.Errorf("task %d has %d status attributes", t.Number, n)
	}
	st, ok := ParseStatus(val)
	if !ok {
		return "", fmt.Errorf("task %d has unknown status %s (want %s)", t.Number, textfmt.Quote(val), AllowedStatuses)
	}
	return st, nil
}

// LineError is an error about one line of a file.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("%d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

// Statuses returns every task's status, or the first task whose status is invalid, with its line.
func (p *File) Statuses() ([]Status, error) {
	out := make([]Status, len(p.Tasks))
	for i := range p.Tasks {
		st, err := p.Tasks[i].Status()
		if err != nil {
			return nil, &LineError{Line: p.Tasks[i].statusLine(), Err: err}
		}
		out[i] = st
	}
	return out, nil
}

// CorruptReasons says why a file cannot be a session file at all: no Plan header, no tasks, or
// no status anywhere, attribute or marker (it was never bootstrapped). Nil means it is structurally sound.
func (p *File) CorruptReasons() []string {
	var why []string
	switch {
	case p.Header.PlanLine == 0:
		why = append(why, "no <!-- Plan: ... --> header")
	case p.Header.Plan == "":
		why = append(why, fmt.Sprintf("line %d: the Plan header names no path", p.Header.PlanLine))
	}
	if len(p.Tasks) == 0 {
		why = append(why, noTasks)
	} else {
		has := false
		for i := range p.Tasks {
			if _, ok := p.Tasks[i].StatusText(); ok || p.Tasks[i].Section != nil && p.Tasks[i].Section.Bad {
				has = true
				break
			}
		}
		switch {
		case has:
		case p.Tasks[0].Section != nil:
			why = append(why, "no task section has a gsd:task status marker")
		default:
			why = append(why, "no task has a status attribute")
		}
	}
	return why
}

// Counts tallies statuses.
type Counts struct {
	Complete   int `json:"complete"`
	InProgress int `json:"inProgress"`
	Pending    int `json:"pending"`
	Total      int `json:"total"`
}

// Count tallies sts.
func Count(sts []Status) Counts {
	c := Counts{Total: len(sts)}
	for _, s := range sts {
		switch s {
		case Complete:
			c.Complete++
		case InProgress:
			c.InProgress++
		default:
			c.Pending++
		}
	}
	return c
}

// validPlanPath reports whether a path can be written into a header comment safely.
func validPlanPath(path string) bool {
	return path != "" && !strings.ContainsAny(path, "\r\n") && !strings.Contains(path, "-->")
}
