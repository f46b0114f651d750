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
