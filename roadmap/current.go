package roadmap

import (
	"io/fs"
)

// Current is where work stands: the position gsd hydrate needs.
type Current struct {
	Phase      Phase      // the current phase, its Plans filled
	Active     *Plan      // its first plan without a SUMMARY; nil if all are done
	Roadmap    *Roadmap   // nil if there is no ROADMAP.md
	InProgress []PhaseNum // the phases ROADMAP.md marks in progress
}

// FindCurrent determines the current phase and its active plan under
// planningDir (see PlanningDir). It returns nil and no error when there is no
// current phase.
//
// When ROADMAP.md marks phases in progress, the current phase is the first of
// them, in numeric order, with an unfinished plan on disk; if none has one,
// it is the first marked phase, with no active plan (it still needs planning,
// or its SUMMARY-less state has not reached the roadmap yet).
//
// When ROADMAP.md marks none, or does not exist, the current phase is the
// first phase directory, in numeric order, with a plan lacking its SUMMARY.
// Phases the roadmap marks complete or deferred are skipped without listing
// their directories: a finished phase often keeps a plan that was folded into
// another or abandoned, and listing hundreds of finished phases on every
// agent turn would cost more than it tells.
//
// Only ROADMAP.md is read; phase directories are listed, never their files.
func FindCurrent(fsys fs.FS, planningDir string) (*Current, error) {
	rm, err := ReadRoadmap(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	dirs, err := PhaseDirs(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	cur := &Current{Roadmap: rm, InProgress: InProgress(rm)}

	if len(cur.InProgress) > 0 {
		var first *Phase
		for _, n := range cur.InProgress {
			cands := phasesNumbered(dirs, n)
			if len(cands) == 0 {
				cands = []Phase{{Num: n}} // marked in progress, no directory yet
			}
			for _, ph := range cands {
				if ph.Dir != "" {
					if ph.Plans, err = ScanPlans(fsys, ph.Dir); err != nil {
						return nil, err
					}
				}
				ph.Name = nameOf(rm, ph)
				if first == nil {
					first = &ph
				}
				if a := firstUndone(ph.Plans); a != nil {
					cur.Phase, cur.Active = ph, a
					return cur, nil
				}
			}
		}
		cur.Phase = *first
		return cur, nil
	}

	for _, ph := range dirs {
		if e, ok := rm.Lookup(ph.Num); ok && (e.Status == StatusComplete || e.Status == StatusDeferred) {
			continue
		}
		if ph.Plans, err = ScanPlans(fsys, ph.Dir); err != nil {
			return nil, err
		}
		if a := firstUndone(ph.Plans); a != nil {
			ph.Name = nameOf(rm, ph)
			cur.Phase, cur.Active = ph, a
			return cur, nil
		}
	}
	return nil, nil
}

// phasesNumbered returns the directories of phase n (usually one; two when
// both "03-x" and "3-y" exist).
func phasesNumbered(dirs []Phase, n PhaseNum) []Phase {
	var out []Phase
	for _, d := range dirs {
		if d.Num.Equal(n) {
			out = append(out, d)
		}
	}
	return out
}

// nameOf prefers the roadmap's name for a phase over its directory slug.
func nameOf(rm *Roadmap, ph Phase) string {
	if e, ok := rm.Lookup(ph.Num); ok && e.Name != "" {
		return e.Name
	}
	return ph.Name
}

func firstUndone(plans []Plan) *Plan {
	for _, p := range plans {
		if !p.Done() {
			return &p
		}
	}
	return nil
}
