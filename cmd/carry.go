package cmd

import (
	"fmt"
	"io"

	"github.com/gsd-tools/gsd/hydrate"
)

// printCarry says which tasks a carry-over carried and which it could not.
func (a *app) printCarry(w io.Writer, rep *hydrate.CarryReport) {
	if rep == nil {
		return
	}
	for _, t := range rep.Tasks {
		switch {
		case t.From == 0:
			a.field(w, "New", hydrate.TaskLabel(t.Task, t.Name)+" (pending: no task of the old session matches it)")
		case t.From == t.Task:
			a.field(w, "Carried", fmt.Sprintf("task %d %s: %s", t.Task, t.Status, t.Name))
		default:
			a.field(w, "Carried", fmt.Sprintf("task %d %s: %s (was task %d)", t.Task, t.Status, t.Name, t.From))
		}
	}
	for _, t := range rep.Lost {
		a.field(w, "Dropped", fmt.Sprintf("old task %d (%s): %s: no task of the plan matches it", t.Number, t.Status, t.Name))
	}
}
