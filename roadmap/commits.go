package roadmap

import (
	"fmt"
	"io/fs"
	"path"
	"slices"

	"github.com/gsd-tools/gsd/roadmap/trace"
)

// RuleCommits is the rule of the newest task commit: the plan it names, without its SUMMARY, is
// the plan being executed.
const RuleCommits Rule = "commits"

// LocateWith is Locate weighing also git's newest commits (newest first, as trace.ParseLog gives
// them; nil when git was not read): see followCommits.
func LocateWith(fsys fs.FS, planningDir string, commits []trace.Commit) (*Position, error) {
	pos, _, err := locateWith(fsys, planningDir, commits)
	return pos, err
}

// LoadWith is Load weighing also git's newest commits, as LocateWith does.
func LoadWith(fsys fs.FS, planningDir string, commits []trace.Commit) (*Project, error) {
	return load(fsys, planningDir, commits)
}

// followCommits weighs the newest commit of work (GSD's executor commits each task of a plan as
// "type(PHASE-PLAN): ...") against the position the files gave. The plan it names (naming a
// phase alone, the phase's first plan without a SUMMARY), when it is a plan of the milestone's
// phases without its SUMMARY, is the plan being executed: in a parallel
// wave, a sibling of the first plan without a SUMMARY; a phase the roadmap has not marked yet.
// It is the newest dated evidence there is, unless STATE.md was committed or a SUMMARY added
// after it (the work was summarised or moved on since): then it is the other reading.
func (p *Position) followCommits(idx *dirIndex, commits []trace.Commit) error {
	for i, c := range commits {
		if !WorkCommit(c) {
			continue
		}
		s, ok := ParseScope(c.Subject)
		if !ok {
			continue
		}
		k, err := p.committedPhase(idx, s.Phase)
		if err != nil || k < 0 {
			return err // no phase of the milestone, nor one it can be: it says nothing of where work stands
		}
		ph, err := idx.phase(p.Phases[k])
		if err != nil {
			return err
		}
		pl := s.PlanIn(ph.Plans)
		if pl == nil || pl.Done() {
			return nil // its plan is done (or not on disk): the files' reading stands
		}
		says := fmt.Sprintf("%s %s, the newest commit of work, names plan %s, which has no SUMMARY: it is being executed", c.Short(), trace.Clip(c.Subject, 120), pl.ID)
		if s.PhaseOnly {
			says = fmt.Sprintf("%s %s, the newest commit of work, names phase %s, whose first plan without a SUMMARY is %s: it is being executed", c.Short(), trace.Clip(c.Subject, 120), s.Phase, pl.ID)
		}
		if p.Active != nil && p.Active.Path == pl.Path {
			p.evidence("plan", pl.Path, 0, says)
			return nil
		}
		if after := overtaken(commits[:i], idx.planningDir); after != "" {
			p.Alternatives = append(p.Alternatives, Alternative{Phase: p.Phases[k].Num.String(), Plan: pl.Path, PlanID: pl.ID,
				Why:      fmt.Sprintf("the newest commit of work names plan %s, which has no SUMMARY, but %s after it", pl.ID, after),
				Evidence: []Evidence{{Decision: "plan", File: pl.Path, Says: says}}})
			return nil
		}
		return p.takeCommitted(idx, k, ph, *pl, says)
	}
	return nil
}

// committedPhase is the index in p.Phases of phase n, which the newest commit of work names.
// A phase the milestone does not list can still be where work stands: a phase inserted under
// one of the milestone's (11.1 under 11) that has a directory but is not in the roadmap yet is
// the milestone's; a phase of another milestone that has not shipped (a roadmap whose
// milestone marks lag the work: v1.0 still "in progress" while v1.1's phases are executed)
// makes that milestone the current one. -1 when n is neither.
func (p *Position) committedPhase(idx *dirIndex, n PhaseNum) (int, error) {
	find := func() int {
		return slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(n) })
	}
	if k := find(); k >= 0 {
		return k, nil
	}
	if rm := p.Roadmap; rm != nil {
		for _, e := range rm.Phases {
			if !e.Num.Equal(n) || e.Milestone < 0 || rm.Milestones[e.Milestone].Shipped() || p.Milestone == &rm.Milestones[e.Milestone] {
				continue
			}
			p.milestonePhases(idx, e.Milestone, false)
			if err := p.parkBacklog(idx); err != nil {
				return -1, err
			}
			return find(), nil
		}
	}
	parent := -1
	for j, e := range p.Phases {
		if n.Inserted(e.Num) {
			parent = j
		}
	}
	if parent < 0 {
		return -1, nil
	}
	e := Entry{Num: n, Milestone: p.Phases[parent].Milestone, Inserted: true}
	ph, err := idx.phase(e)
	if err != nil || ph.Dir == "" {
		return -1, err
	}
	at := parent + 1
	for at < len(p.Phases) && p.Phases[at].Num.Inserted(p.Phases[parent].Num) && p.Phases[at].Num.Compare(n) < 0 {
		at++
	}
	p.Phases = slices.Insert(slices.Clip(p.Phases), at, e)
	return at, nil
}

// takeCommitted makes plan pl of phases[k] (ph) the active plan, as the newest commit of work
// says (says); the reading the files gave becomes the alternative.
func (p *Position) takeCommitted(idx *dirIndex, k int, ph Phase, pl Plan, says string) error {
	samePhase := p.Phase != nil && p.Phase.Num.Equal(ph.Num)
	if err := p.overrule(idx, k, ph, &pl, RuleCommits, "the newest commit of work is another plan's"); err != nil {
		return err
	}
	p.evidence("plan", pl.Path, 0, says)
	if !samePhase {
		p.doubt() // another phase than the files say: the commits lead, a person would check
	}
	return nil
}

// overrule makes phase p.Phases[k] (ph) and its plan pl the position, by rule, a reading newer
// than the files' (why says what it found); pl nil takes the phase's first open plan. What the
// files said becomes the first alternative.
func (p *Position) overrule(idx *dirIndex, k int, ph Phase, pl *Plan, rule Rule, why string) error {
	alt := Alternative{Why: "what the files say (" + string(p.Rule) + "), though " + why}
	if p.Phase != nil {
		alt.Phase = p.Phase.Num.String()
	}
	if p.Active != nil {
		alt.Plan, alt.PlanID = p.Active.Path, p.Active.ID
	}
	if pl == nil {
		p.NeedsPlanning = false
		if err := p.take(idx, k, rule); err != nil {
			return err
		}
	} else {
		if p.Phases[k].Name != "" {
			ph.Name = p.Phases[k].Name
		}
		p.Phase, p.Active, p.NeedsPlanning, p.Rule = &ph, pl, false, rule
	}
	if alt.Plan != "" || alt.Phase != "" {
		p.Alternatives = append([]Alternative{alt}, p.Alternatives...)
	}
	return nil
}

// overtaken says what in newer (commits after the one weighed, newest first) the planning files
// record after it: STATE.md committed, or a SUMMARY added; "" when nothing.
func overtaken(newer []trace.Commit, planningDir string) string {
	state := path.Join(planningDir, "STATE.md")
	for _, c := range newer {
		if c.Touched(state) {
			return "STATE.md was committed (" + c.Short() + ")"
		}
		if added := summaryAdded(c, planningDir); added != "" {
			return added + " was added (" + c.Short() + ")"
		}
	}
	return ""
}

// CommittedScope is the planning directory (the root's, or a workstream's) holding the open plan
// the newest commit of work names, when it is not current: where work stands while the scope
// selected (an active-workstream pointer left behind, or the root) has nothing to execute. A
// commit naming a phase alone counts when one scope alone has that phase with a plan open. ""
// when the commits name no such plan, or only one of current's.
func CommittedScope(fsys fs.FS, current string, commits []trace.Commit) (string, error) {
	for _, c := range commits {
		if !WorkCommit(c) {
			continue
		}
		s, ok := ParseScope(c.Subject)
		if !ok {
			continue
		}
		scopes := []string{".planning"}
		wss, err := Workstreams(fsys)
		if err != nil {
			return "", err
		}
		for _, ws := range wss {
			scopes = append(scopes, WorkstreamDir(ws))
		}
		var found []string
		for _, dir := range scopes {
			open, err := openPlanIn(fsys, dir, s)
			if err != nil {
				return "", err
			}
			if open {
				found = append(found, dir)
			}
		}
		if len(found) != 1 || found[0] == current {
			return "", nil
		}
		return found[0], nil
	}
	return "", nil
}

// openPlanIn says whether the scope planningDir has a plan without its SUMMARY that s names: the
// plan itself, or for a phase alone, any plan of the phase.
func openPlanIn(fsys fs.FS, planningDir string, s Scope) (bool, error) {
	dirs, err := PhaseDirs(fsys, planningDir)
	if err != nil {
		return false, err
	}
	for _, d := range dirs {
		if !d.Num.Equal(s.Phase) {
			continue
		}
		plans, err := ScanPlans(fsys, d.Dir)
		if err != nil {
			return false, err
		}
		if pl := s.PlanIn(plans); pl != nil && !pl.Done() {
			return true, nil
		}
	}
	return false, nil
}
