package roadmap

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"unsafe"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// STATE.md both ways: what it declares, which the position weighs (readState; roadmap/statemd
// parses its text), and what it should say (StateValues), which statemd compares it with and
// rewrites it to.

// readState reads STATE.md beside the roadmap and what it declares (roadmap/statemd reads its
// text). A missing STATE.md declares nothing and gives nil bytes.
func readState(fsys fs.FS, planningDir string) ([]byte, statemd.Declared, error) {
	b, err := readText(fsys, path.Join(planningDir, "STATE.md"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, statemd.Declared{Percent: -1}, nil
	}
	if err != nil {
		return nil, statemd.Declared{}, err
	}
	// b is this function's own, handed on as Position.State and never written: the declared
	// values can share its bytes rather than copy the file.
	return b, statemd.Parse(unsafe.String(unsafe.SliceData(b), len(b))).Declared(), nil
}

// declaredNum parses the phase STATE.md declares.
func declaredNum(d statemd.Declared) (PhaseNum, bool) {
	f := strings.Fields(d.Phase)
	if len(f) > 1 && strings.EqualFold(f[0], "phase") {
		f = f[1:]
	}
	if len(f) == 0 {
		return PhaseNum{}, false
	}
	return ParsePhaseNum(strings.Trim(f[0], ",:;.*()\"'"))
}

// StateValues are what STATE.md's Current Position block and its frontmatter should say of the
// project: the position's current phase (when the milestone is finished, its last phase) with
// its plan numbers and status, and the milestone's counts as GSD scopes them. The percent and the
// counts are to be written only when the milestone has a plan: STATE.md's own percent ("67% (v1.0
// complete, v1.1 starting)") is better informed than a 0 from nothing.
func (p *Project) StateValues() statemd.Values {
	pr := p.Progress
	v := statemd.Values{
		Percent:     pr.Percent,
		TotalPhases: pr.PhasesTotal, CompletedPhases: pr.PhasesComplete,
		TotalPlans: pr.PlansTotal, CompletedPlans: pr.PlansComplete,
	}
	if pr.PlansTotal > 0 {
		v.PercentKnown, v.CountsKnown = true, true
	}
	if p.Position != nil {
		v.PhaseOf = p.Position.PhaseOf()
	}
	ph := p.CurrentPhase()
	last := false
	if ph == nil && p.Position != nil && len(p.Position.Phases) > 0 {
		n := p.Position.Phases[len(p.Position.Phases)-1].Num
		for i := range p.Phases {
			// Of this milestone: another may list a phase of the same number.
			if p.Phases[i].Num.Equal(n) && p.Phases[i].InMilestone {
				ph, last = &p.Phases[i], true
			}
		}
	}
	if ph == nil {
		v.Status = "Ready to plan"
		return v
	}
	phaseValues(&v, &ph.Phase, ph.Status)
	if last && pr.PhasesComplete == pr.PhasesTotal {
		// Complete only when every phase is: a phase the roadmap calls complete while a plan of
		// it has no SUMMARY (an error of progress --check) keeps its own status.
		v.Status = statemd.StatusFinished
	}
	return v
}

// StateValues are the Phase, Plan and Status values STATE.md should have for the current phase,
// from what the position read of it alone: the milestone's counts, which need every phase, are
// not known (hydrate's check on every turn). ok is false without a current phase.
func (p *Position) StateValues() (v statemd.Values, ok bool) {
	if p.Phase == nil {
		return v, false
	}
	v.PhaseOf = p.PhaseOf()
	phaseValues(&v, p.Phase, p.PhaseStatus())
	return v, true
}

// phaseValues sets v's phase, plan and status values from phase ph and its status (as the disk
// and the roadmap together say it): the plan worked on is the first without its SUMMARY, counted
// as GSD counts plans (FIX plans not), the last when every one is done.
func phaseValues(v *statemd.Values, ph *Phase, status Status) {
	v.Phase, v.PhaseName = ph.Num.String(), ph.Name
	k := 0
	for _, pl := range ph.Plans {
		if pl.Fix() {
			continue
		}
		k++
		v.PlanTotal++
		if pl.Done() {
			v.PlanDone++
		} else if v.PlanNumber == 0 {
			v.PlanNumber = k
		}
	}
	if v.PlanNumber == 0 {
		v.PlanNumber = v.PlanTotal
	}
	switch {
	case len(ph.Plans) == 0:
		v.Status = "Ready to plan"
	case v.PlanDone == 0 && status != StatusInProgress:
		v.Status = "Ready to execute"
	default:
		v.Status = "In progress"
	}
}
