package hydrate

import (
	"fmt"
	"strings"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// ActionCarried is a fresh session written with the statuses of the stale one carried over
// (Path the session, From the plan).
const ActionCarried ActionKind = "carried"

// CarryReport is how a stale session's statuses were carried into the fresh one.
type CarryReport struct {
	Snapshot string            `json:"snapshot"` // the old session, kept as a carried snapshot
	Tasks    []journal.Carried `json:"tasks"`    // every task of the fresh session
	Lost     []Task            `json:"lost"`     // tasks of the old session with progress that matched none
}

// carryable says whether the stale session s is stale only because its own plan was edited: it
// copies plan, which has no SUMMARY and is in the current phase.
func (e *Env) carryable(s *Session, plan string) bool {
	if s.State != StateStale || s.file == nil {
		return false
	}
	if cur, err := cleanRel(s.Plan); err != nil || cur != plan {
		return false
	}
	if e.hasSummary(plan) {
		return false
	}
	if num, ok := roadmap.PhaseOf(plan); ok {
		pos, err := e.Position()
		if err != nil || pos.Phase == nil || !pos.Phase.Num.Equal(num) {
			return false
		}
	}
	return true
}

// hasSummary says whether plan has its SUMMARY (paired by plan id).
func (e *Env) hasSummary(plan string) bool { return e.summaryOf(plan) != "" }

// summaryOf is the SUMMARY plan is paired with (by plan id), "" when it is not done or its
// phase directory cannot be listed.
func (e *Env) summaryOf(plan string) string {
	plans, err := e.phasePlans(plan)
	if err != nil {
		return ""
	}
	for _, pl := range plans {
		if pl.Path == plan && pl.Done() {
			return pl.Summary
		}
	}
	return ""
}

func matchName(name string) string {
	return strings.ToLower(strings.TrimSpace(dropTaskNumber(strings.TrimSpace(name))))
}

// dropTaskNumber removes the "Task 3:" many plans start a task name with, and the "Step 3:" or
// "3." of a Markdown step: renumbered when tasks are reordered, so it is not part of what matches
// a task. It matches `^(?i:task|step)?\s*\d+\s*[:.)-]\s*` (a matcher, not a regular expression
// compiled at every start).
func dropTaskNumber(s string) string {
	space := func(i int) int {
		for i < len(s) && strings.IndexByte(" \t\n\f\r", s[i]) >= 0 {
			i++
		}
		return i
	}
	i := 0
	if len(s) >= 4 && (strings.EqualFold(s[:4], "task") || strings.EqualFold(s[:4], "step")) {
		i = 4
	}
	i = space(i)
	j := i
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	if j == i {
		return s
	}
	j = space(j)
	if j >= len(s) || strings.IndexByte(":.)-", s[j]) < 0 {
		return s
	}
	return s[space(j+1):]
}

// pairTasks pairs each task of a new version of a session with the task of an old version it
// is: matched by id attribute, else by name (without a "Task N:" prefix); each old task is
// matched at most once. from[j] is the 1-based number of new task j+1's old task, 0 for none.
func pairTasks(old, fresh []planfile.Task) (from []int) {
	used := make([]bool, len(old))
	find := func(ok func(i int) bool) int {
		for i := range old {
			if !used[i] && ok(i) {
				used[i] = true
				return i + 1
			}
		}
		return 0
	}
	from = make([]int, len(fresh))
	// Ids first, across every task, so that a name match never takes a task an id claims.
	for j := range fresh {
		if id, ok := fresh[j].Attr("id"); ok && strings.TrimSpace(id.Value) != "" {
			from[j] = find(func(i int) bool {
				a, ok := old[i].Attr("id")
				return ok && strings.TrimSpace(a.Value) == strings.TrimSpace(id.Value)
			})
		}
	}
	for j := range fresh {
		if from[j] == 0 {
			name := matchName(fresh[j].Name())
			from[j] = find(func(i int) bool { return matchName(old[i].Name()) == name })
		}
	}
	return from
}

// carry returns data (a fresh session) with the status of every task of the old session s that
// is still there, paired as pairTasks pairs them.
func carry(s *Session, data []byte) ([]byte, *CarryReport, error) {
	fresh := planfile.Scan(data)
	if fresh.Err != nil {
		return nil, nil, fresh.Err
	}
	rep := &CarryReport{Lost: []Task{}}
	from := pairTasks(s.file.Tasks, fresh.Tasks)
	used := make([]bool, len(s.Tasks))
	for _, i := range from {
		if i > 0 {
			used[i-1] = true
		}
	}
	out := data
	for j := range fresh.Tasks {
		c := journal.Carried{Task: j + 1, Name: fresh.Tasks[j].Name(), From: from[j]}
		if from[j] != 0 {
			st := s.Tasks[from[j]-1].Status
			c.Status = string(st)
			next, err := planfile.SetStatus(out, j+1, st)
			switch {
			case err == planfile.ErrUnchanged:
			case err != nil:
				return nil, nil, fmt.Errorf("task %d: %w", j+1, err)
			default:
				out = next
			}
		}
		rep.Tasks = append(rep.Tasks, c)
	}
	for i, t := range s.Tasks {
		if !used[i] && t.Status != planfile.Pending {
			rep.Lost = append(rep.Lost, t)
		}
	}
	return out, rep, nil
}

// carryInto replaces the stale session in res, whose own plan was edited, with a fresh session
// from plan (data) that carries its statuses; the old one is kept as a carried snapshot.
func (e *Env) carryInto(res *Result, plan string, data []byte) error {
	old := res.Session
	out, rep, err := carry(old, data)
	if err != nil {
		return fmt.Errorf("%s: carrying statuses over: %w", plan, err)
	}
	to, err := e.replaceSession(old.src, true, KindCarried, old.Plan, out, func(snap string) journal.Event {
		rep.Snapshot = snap
		return journal.Event{Type: journal.Carry, Plan: plan, Snapshot: snap, Carried: rep.Tasks}
	})
	if err != nil {
		return err
	}
	e.prune()
	fresh, err := e.inspectBytes(e.SessionPath(), out)
	if err != nil {
		return err
	}
	fresh.StaleReasons = old.StaleReasons
	res.Session, res.Carry = fresh, rep
	res.Actions = []Action{{Kind: ActionArchived, Path: to, From: old.Path}, {Kind: ActionCarried, Path: old.Path, From: plan}}
	return nil
}
