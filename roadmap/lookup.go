package roadmap

import (
	"io/fs"
	"path"
	"slices"
	"strings"
)

// The plans of a project as gsd progress counts them, for the commands that look a plan up
// (gsd start PLAN, a session's staleness): one rule for "this plan exists" and "this plan is
// done", the dirIndex's, wherever the plan's directory is.

// PhasePlans lists the plans of the phase directory dir (as PhaseDirOf gives it) in plan order,
// each paired with its SUMMARY as progress pairs it: beside it, or in a sibling directory whose
// name differs only in the number's zero padding ("96-compiler/" beside "096-compiler/"). A
// directory under no phases/ or milestones/*-phases/ (a quick task's) is listed alone.
func PhasePlans(fsys fs.FS, dir string) ([]Plan, error) {
	planningDir, ok := planningDirOf(dir)
	if !ok {
		return ScanPlans(fsys, dir)
	}
	idx, err := newDirIndex(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	sc, err := idx.scan(dir)
	if err != nil {
		return nil, err
	}
	return sc.plans, nil
}

// planningDirOf is the planning directory a phase directory is under: the parent of its
// phases/, or of the milestones/ that holds its <version>-phases/.
func planningDirOf(dir string) (string, bool) {
	parent := path.Dir(dir)
	switch base := path.Base(parent); {
	case base == "phases":
		return path.Dir(parent), true
	case strings.HasSuffix(base, "-phases") && path.Base(path.Dir(parent)) == "milestones":
		return path.Dir(path.Dir(parent)), true
	}
	return "", false
}

// AllPlans lists every plan of planningDir's phase directories, as progress lists them: those
// under phases/ first, then those under milestones/*-phases/ (where GSD archives a milestone's
// phases, and some projects keep the current one's), each in phase and plan order and paired
// with its SUMMARY as progress pairs it.
func AllPlans(fsys fs.FS, planningDir string) ([]Plan, error) {
	idx, err := newDirIndex(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	return idx.allPlans()
}

// Archived reports whether the plan at planPath is in a milestone's archive
// (milestones/<version>-phases/), not under phases/.
func Archived(planPath string) bool {
	parent := path.Base(path.Dir(PhaseDirOf(planPath)))
	return parent != "phases" && strings.HasSuffix(parent, "-phases")
}

// Ahead reports whether phase n comes after the current phase in the order the work is done:
// the milestone's listed order when both are listed, else the numbers'. False when there is no
// current phase (the milestone is finished: nothing is ahead of it).
func (p *Position) Ahead(n PhaseNum) bool {
	if p.Phase == nil {
		return false
	}
	cur := p.Phase.Num
	i := slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(cur) })
	j := slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(n) })
	if i >= 0 && j >= 0 {
		return j > i
	}
	return n.Compare(cur) > 0
}

// ofMisleads reports whether "Phase: N of M" would mislead about the current phase: it is a
// backlog item (999.17 is no 999.17th of 999), or a phase listed after it in the order the work
// is done has a smaller number (65 executed before 57 to 64 is not the last of 65). STATE.md
// then names the phase without a count.
func (p *Position) ofMisleads() bool {
	if p.Phase == nil {
		return false
	}
	cur := p.Phase.Num
	if cur.Backlog() {
		return true
	}
	i := slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(cur) })
	return i >= 0 && slices.ContainsFunc(p.Phases[i+1:], func(e Entry) bool { return e.Num.Compare(cur) < 0 })
}
