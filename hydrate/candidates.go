package hydrate

import (
	"errors"
	"io/fs"
	"sort"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// MarkCandidates lists the tasks that gsd mark-* could set to st, for shell completion: every
// task that does not have st already, in order.
func (s *Session) MarkCandidates(st planfile.Status) []Task {
	var out []Task
	for _, t := range s.Tasks {
		if t.Status != st {
			out = append(out, t)
		}
	}
	return out
}

// SessionUsers lists the users that have a session directory, sorted.
func (e *Env) SessionUsers() ([]string, error) {
	ents, err := fs.ReadDir(e.FS, SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var users []string
	for _, d := range ents {
		if d.IsDir() {
			users = append(users, d.Name())
		}
	}
	sort.Strings(users)
	return users, nil
}

// Plans lists every plan of every phase directory, phases/ then milestones/*-phases/, in phase
// and plan order, each paired with its SUMMARY as gsd progress pairs it (roadmap.AllPlans).
func (e *Env) Plans() ([]roadmap.Plan, error) { return roadmap.AllPlans(e.FS, e.PlanningDir) }

// PlanCandidate is a plan that gsd start could be given, for shell completion.
type PlanCandidate struct {
	roadmap.Plan
	Current bool // a plan of the current phase
	Active  bool // the active plan: the current phase's first without its SUMMARY
}

// PlanCandidates lists the plans gsd start could be given, for shell completion: the current
// phase's first (the active plan, then its other unfinished plans, then its finished ones),
// then every other plan in phase and plan order. A project whose position cannot be worked out
// still has its plans listed.
func (e *Env) PlanCandidates() ([]PlanCandidate, error) {
	var out []PlanCandidate
	seen := map[string]bool{}
	if pos, err := e.Position(); err == nil && pos.Phase != nil {
		for _, p := range pos.Phase.Plans {
			active := pos.Active != nil && p.Path == pos.Active.Path
			out = append(out, PlanCandidate{Plan: p, Current: true, Active: active})
			seen[p.Path] = true
		}
		rank := func(c PlanCandidate) int {
			switch {
			case c.Active:
				return 0
			case !c.Done():
				return 1
			}
			return 2
		}
		sort.SliceStable(out, func(i, j int) bool { return rank(out[i]) < rank(out[j]) })
	}
	plans, err := e.Plans()
	if err != nil {
		return nil, err
	}
	for _, p := range plans {
		if !seen[p.Path] {
			out = append(out, PlanCandidate{Plan: p})
		}
	}
	return out, nil
}
