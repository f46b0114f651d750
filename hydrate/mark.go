package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

// MarkResult is what Mark did.
type MarkResult struct {
	Session *Session // the session after the change
	Task    Task     // the task, with its new status
	From    string   // its status before ("" when it had no attribute, or the invalid value)
	Changed bool     // false when it already had the status: nothing was written
	// Warnings are what the session now says that is probably a mistake, though marked as
	// asked (markWarnings).
	Warnings []string
}

// Mark sets task n's status (1-based). With n == 0 it picks the task: for Complete, the one task
// in progress; for InProgress, the resume task. Only that attribute's bytes change.
func (e *Env) Mark(n int, st planfile.Status) (*MarkResult, error) {
	var res *MarkResult
	err := e.withLock(func() error {
		rel := e.SessionPath()
		src, err := e.readFile(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no session; start one with gsd hydrate or gsd start", rel)
		}
		if err != nil {
			return err
		}
		p := planfile.Scan(src)
		if p.Err != nil {
			return fileError(rel, p.Err)
		}
		if why := p.CorruptReasons(); len(why) > 0 {
			return fmt.Errorf("%s: not a valid session (%s); run gsd hydrate to archive it and start afresh", rel, strings.Join(why, "; "))
		}
		if n == 0 {
			if n, err = pick(p, st); err != nil {
				return fmt.Errorf("%s: %w", rel, err)
			}
		}
		if n < 1 || n > len(p.Tasks) {
			return fmt.Errorf("%s: no task %d (the session has %d)", rel, n, len(p.Tasks))
		}
		from, _ := p.Tasks[n-1].StatusText()
		out, err := planfile.SetStatus(src, n, st)
		changed, onDisk := true, out
		switch {
		case errors.Is(err, planfile.ErrUnchanged):
			changed, onDisk = false, src
		case err != nil:
			return fileError(rel, lineErr(p.Tasks[n-1].Line, err))
		}
		// The session the mark leaves is read as every command reads one, before it is written:
		// marking a task whose status gsd does not know repairs it, but marking another would
		// leave a session gsd check and gsd tasks call corrupt. Its counts, resume point and
		// staleness are what the caller reports: a stale session is still marked (the mark is
		// what the user asked for), but marking tasks of a plan that is done or superseded is
		// usually a mistake.
		s, err := e.inspectBytes(rel, onDisk)
		if err != nil {
			return fmt.Errorf("%w; mark that task first, or repair it by hand", err)
		}
		if changed {
			if err := e.writeSession(out); err != nil {
				return err
			}
			e.record(src, true, journal.Event{Type: journal.Mark, Task: n, Name: p.Tasks[n-1].Name(),
				Old: from, New: string(st), Plan: p.Header.Plan, SHA256: journal.Hash(out, true)})
		} else {
			// Nothing to write; but a write killed between the session and its event (this
			// very mark, a moment ago) left the journal behind the session: it catches up.
			e.reconcile(src, true, reconcileNote)
		}
		t := &p.Tasks[n-1] // names and lines are the same before and after
		res = &MarkResult{Session: s, From: from, Changed: changed, Warnings: markWarnings(p, n, st),
			Task: Task{Number: n, Name: t.Name(), Type: t.Type(), Status: st, Line: t.Line}}
		return nil
	})
	return res, err
}

// markWarnings says what is probably a mistake in setting task n of p to st, which is still
// done (the user may know better, and exit status stays 0): a checkpoint marked complete while
// tasks before it are not (a checkpoint is answered after the work it checks), and a task
// marked in progress while another one is (an agent works on one task at a time).
func markWarnings(p *planfile.File, n int, st planfile.Status) []string {
	var others []int
	for i := range p.Tasks {
		s, err := p.Tasks[i].Status()
		if i+1 == n || err != nil {
			continue
		}
		switch {
		case st == planfile.Complete && i+1 < n && s != planfile.Complete,
			st == planfile.InProgress && s == planfile.InProgress:
			others = append(others, i+1)
		}
	}
	if len(others) == 0 {
		return nil
	}
	// A warning names a few; a session of hundreds of tasks would make it a page.
	named, verb := taskNums(others[:min(len(others), maxNamed)]), "is"
	if len(others) > maxNamed {
		named += fmt.Sprintf(" and %d more", len(others)-maxNamed)
	}
	if len(others) > 1 {
		verb = "are"
	}
	switch {
	case st == planfile.InProgress:
		return []string{fmt.Sprintf("%s %s in progress too: work on one task at a time (gsd mark-complete or gsd mark-pending the one you are not on)", named, verb)}
	case p.Tasks[n-1].IsCheckpoint():
		return []string{fmt.Sprintf("task %d, a checkpoint (%s), is marked complete while %s before it %s not: a checkpoint is answered after the work it checks",
			n, p.Tasks[n-1].Type(), named, verb)}
	}
	return nil
}

// maxNamed is how many task numbers a mark's warning names.
const maxNamed = 5

// lineErr attaches a line to an error that has none.
func lineErr(line int, err error) error {
	var le *planfile.LineError
	if errors.As(err, &le) {
		return err
	}
	return &planfile.LineError{Line: line, Err: err}
}

// pick chooses the task for a mark command given without a number.
func pick(p *planfile.File, st planfile.Status) (int, error) {
	var inProgress []int
	first := 0
	for i := range p.Tasks {
		s, err := p.Tasks[i].Status()
		if err != nil {
			continue
		}
		if s == planfile.InProgress {
			inProgress = append(inProgress, i+1)
		}
		if s != planfile.Complete && first == 0 {
			first = i + 1
		}
	}
	switch st {
	case planfile.Complete:
		switch len(inProgress) {
		case 0:
			return 0, errors.New("no task is in progress; say which: gsd mark-complete N")
		case 1:
			return inProgress[0], nil
		}
		return 0, fmt.Errorf("tasks %s are in progress; say which: gsd mark-complete N", joinInts(inProgress))
	case planfile.InProgress:
		if first == 0 {
			return 0, errors.New("every task is complete; nothing to start")
		}
		if len(inProgress) > 1 || len(inProgress) == 1 && inProgress[0] != first {
			return 0, fmt.Errorf("task %d is next but %s in progress; say which: gsd mark-in-progress N", first, isAre(inProgress))
		}
		return first, nil
	}
	return 0, errors.New("say which task")
}

func joinInts(ns []int) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = fmt.Sprint(n)
	}
	if len(parts) == 2 {
		return parts[0] + " and " + parts[1]
	}
	return strings.Join(parts, ", ")
}

func isAre(ns []int) string {
	if len(ns) == 1 {
		return taskNums(ns) + " is"
	}
	return taskNums(ns) + " are"
}

// taskNums names tasks by number: "task 2", "tasks 1 and 2".
func taskNums(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("task %d", ns[0])
	}
	return "tasks " + joinInts(ns)
}
