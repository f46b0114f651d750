package roadmap

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap/statemd"
	"github.com/gsd-tools/gsd/roadmap/trace"
)

// Position is where a project stands: the one decision every gsd command asks for. Locate
// makes it from ROADMAP.md, STATE.md and the phase directories together, and records the
// evidence (file and line) each part of it rests on.
type Position struct {
	Scope       string     // "root", or "workstream:NAME"
	PlanningDir string     // ".planning" or ".planning/workstreams/NAME"
	Roadmap     *Roadmap   // nil without a ROADMAP.md
	Milestone   *Milestone // the current milestone; nil when the roadmap names none
	// Phases are the current milestone's phases in the roadmap's listed order (every phase the
	// roadmap lists when it names no milestone; the phase directories when there is no roadmap).
	Phases   []Entry
	Declared statemd.Declared // what STATE.md says
	// State is STATE.md as it was read for the decision (nil when there is none), so that a
	// command comparing it with the position does not read it again. Never written: Declared's
	// texts share its bytes.
	State []byte

	Phase         *Phase // the current phase with its plans; nil when the milestone is finished
	Active        *Plan  // the current phase's first plan without its SUMMARY
	NeedsPlanning bool   // the current phase has no plan file yet (not the same as done)
	Rule          Rule   // which rule chose the phase
	Evidence      []Evidence
	// Confidence says how sure the reading is, and Alternatives the other readings a person
	// could defend when the signals disagree (none when they agree).
	Confidence   Confidence
	Alternatives []Alternative
	// Handoff is GSD's newest pause file (HANDOFF.json, .continue-here.md), in force or history;
	// nil when there is none.
	Handoff *Handoff
	// Files is the reading of the planning files alone when the newest commit of work or a pause
	// file moved the position (Rule is RuleCommits or RuleHandoff); nil otherwise. A session is judged against it (staleness):
	// a judgement that needs no git agrees with every command's, those that read no git too.
	Files *Position
}

// Rule names the rule of the position model that chose the current phase.
type Rule string

// The rules, in the order they are tried.
const (
	RuleState         Rule = "state"          // STATE.md's phase, unfinished on disk
	RuleAfterFinished Rule = "after-finished" // the next unfinished phase after STATE.md's finished one, in listed order
	RuleLaterWork     Rule = "later-work"     // past STATE.md's phase, later phases have finished plans: where that work leads
	RuleInProgress    Rule = "in-progress"    // the first unfinished phase the roadmap marks in progress
	RuleFirstOpen     Rule = "first-open"     // the first unfinished phase of the milestone, in listed order
	RuleFinished      Rule = "finished"       // none: every phase of the milestone is finished
	// RuleCommits (commits.go) is weighed after the others: the plan the newest task commit
	// names, without its SUMMARY, is the plan being executed.
)

// Evidence is one fact a decision rests on, with where it was read.
type Evidence struct {
	Decision string `json:"decision"` // "scope", "milestone", "phase" or "plan"
	File     string `json:"file"`     // "" when no file says it (the scope from GSD_WORKSTREAM)
	Line     int    `json:"line"`     // 0 for a whole file or directory, as problems have it
	Says     string `json:"says"`
}

// String renders the evidence as "file:line: decision: says".
func (e Evidence) String() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if loc == "" {
		return e.Decision + ": " + e.Says
	}
	return loc + ": " + e.Decision + ": " + e.Says
}

// Locate decides where the project in planningDir stands. It reads ROADMAP.md and STATE.md,
// lists the phases directory once, and lists only the phase directories the decision needs
// (the current phase, and the phases it passes over), so it stays cheap on a project with
// hundreds of finished phases. Unreadable files are errors; files that do not add up are not.
func Locate(fsys fs.FS, planningDir string) (*Position, error) {
	return LocateWith(fsys, planningDir, nil)
}

// locateWith reads what the decision rests on and makes it, weighing commits too (newest first;
// nil: none); the index it returns has listed what the decision needed, for Load to complete.
func locateWith(fsys fs.FS, planningDir string, commits []trace.Commit) (*Position, *dirIndex, error) {
	rm, err := ReadRoadmap(fsys, planningDir)
	if err != nil {
		return nil, nil, err
	}
	state, decl, err := readState(fsys, planningDir)
	if err != nil {
		return nil, nil, err
	}
	idx, err := newDirIndex(fsys, planningDir)
	if err != nil {
		return nil, nil, err
	}
	pos, err := decide(rm, decl, idx, commits)
	if pos != nil {
		pos.State = state
	}
	return pos, idx, err
}

// ScopeOf names the scope of a planning directory: "root" or "workstream:NAME".
func ScopeOf(planningDir string) string {
	if ws, ok := strings.CutPrefix(planningDir, ".planning/workstreams/"); ok {
		return "workstream:" + ws
	}
	return "root"
}

// decide applies the position model's rules (design: "Where a project stands") to what the
// roadmap, STATE.md and the directories say, weighs GSD's newest pause file (weighHandoff) and,
// unless that is in force, the newest commit of work (followCommits) against it, then weighs
// how sure the choice is. It is the only place the current phase
// is decided.
func decide(rm *Roadmap, decl statemd.Declared, idx *dirIndex, commits []trace.Commit) (*Position, error) {
	p, err := choose(rm, decl, idx)
	if err != nil || p == nil {
		return p, err
	}
	files := *p // the reading of the planning files alone, kept when the commits move it
	files.Evidence, files.Alternatives, files.Phases = slices.Clip(p.Evidence), slices.Clip(p.Alternatives), slices.Clip(p.Phases)
	if p.Handoff, err = p.weighHandoff(idx, commits); err != nil {
		return nil, err
	}
	if p.Handoff == nil || !p.Handoff.InForce {
		if err := p.followCommits(idx, commits); err != nil {
			return nil, err
		}
	}
	if p.Rule == RuleCommits || p.Rule == RuleHandoff {
		if err := files.settle(idx); err != nil {
			return nil, err
		}
		p.Files = &files
	}
	return p, p.settle(idx)
}

// choose picks the milestone, the phase and the plan, by the first rule that applies: STATE.md's
// phase (rules a and b), else the roadmap's order (c and d), else the milestone is finished.
func choose(rm *Roadmap, decl statemd.Declared, idx *dirIndex) (*Position, error) {
	p := &Position{Scope: ScopeOf(idx.planningDir), PlanningDir: idx.planningDir, Roadmap: rm, Declared: decl}
	p.scopeEvidence(idx.fsys)

	m, byState := rm.currentMilestone(decl.Phase)
	// The index tells whose phase a number's directories are by the roadmap and its current
	// milestone (see dirIndex.scope), and which phases STATE.md closed (closedByState).
	idx.rm, idx.current, idx.stateComplete = rm, m, decl.Completed
	p.milestonePhases(idx, m, byState)
	if err := p.parkBacklog(idx); err != nil {
		return nil, err
	}

	decided, stateIgnored, err := p.stateRules(idx)
	if err == nil && !decided {
		decided, err = p.orderRules(idx, stateIgnored)
	}
	if err != nil {
		return nil, err
	}
	if !decided {
		p.Rule = RuleFinished
		p.evidence("phase", roadmapPath(rm, idx.planningDir), 0, "every phase of the milestone is finished")
		if stateIgnored {
			p.Confidence = ConfidenceMedium
		}
	}
	return p, nil
}

// scopeEvidence says why the position is a workstream's (GSD_WORKSTREAM, and the
// active-workstream pointer when it names the same one), and in the root, why the pointer
// naming a workstream was overruled: it was left behind (see staleWorkstream).
func (p *Position) scopeEvidence(fsys fs.FS) {
	if ws, ok := strings.CutPrefix(p.Scope, "workstream:"); ok {
		file, line := "", 0 // named by GSD_WORKSTREAM
		if named, err := activeWorkstream(fsys); err == nil && named == ws {
			file, line = activeWorkstreamFile, 1
		}
		p.evidence("scope", file, line, "workstream "+ws+" (its own ROADMAP.md and STATE.md)")
	} else if named, err := activeWorkstream(fsys); err == nil && named != "" {
		if why, stale, _ := staleWorkstream(fsys, named); stale {
			p.evidence("scope", activeWorkstreamFile, 1, why)
		}
	}
}

// milestonePhases takes milestone m of the roadmap (-1 for none) as the current one, and its
// phases in listed order; byState says STATE.md's phase chose it (see currentMilestone).
func (p *Position) milestonePhases(idx *dirIndex, m int, byState bool) {
	rm, decl := p.Roadmap, p.Declared
	if m >= 0 {
		p.Milestone = &rm.Milestones[m]
		if byState {
			p.evidence("milestone", path.Join(idx.planningDir, "STATE.md"), decl.PhaseLine,
				fmt.Sprintf("no milestone is marked in progress, and STATE.md's phase %s is one of %s", decl.Phase, p.Milestone.Name))
		} else {
			line := p.Milestone.StatusLine
			if line == 0 {
				line = p.Milestone.Line
			}
			says := fmt.Sprintf("%s (%s)", p.Milestone.Name, p.Milestone.Status)
			if p.Milestone.StatusText != "" {
				says = p.Milestone.StatusText
			}
			p.evidence("milestone", roadmapPath(rm, idx.planningDir), line, says)
		}
		p.Phases = rm.Listed(m)
		// Phases no milestone claims belong to the current one: a roadmap's milestone
		// structure is often only partly written down.
		for _, e := range rm.Listed(-1) {
			if e.Milestone < 0 {
				p.Phases = append(p.Phases, e)
			}
		}
	} else if rm != nil && len(rm.Phases) > 0 {
		p.Phases = rm.Listed(-1)
	} else {
		for _, d := range idx.phases() {
			p.Phases = append(p.Phases, Entry{Num: d.Num, Name: d.Name, Milestone: -1})
		}
	}
}

// currentMilestone picks the milestone work is in: the first one marked in progress; else the
// one not shipped that lists declared, STATE.md's phase (byState); else the first not shipped;
// else (every one shipped, work inserted afterwards) the last. Only milestones with phases
// count. -1 when the roadmap names none.
func (r *Roadmap) currentMilestone(declared string) (m int, byState bool) {
	if r == nil {
		return -1, false
	}
	for i := range r.Milestones {
		if len(r.Milestones[i].Phases) > 0 && r.Milestones[i].Status == StatusInProgress {
			return i, false
		}
	}
	if n, ok := ParsePhaseNum(declared); ok {
		for i := range r.Milestones {
			if !r.Milestones[i].Shipped() && slices.ContainsFunc(r.Milestones[i].Phases, n.Equal) {
				return i, true
			}
		}
	}
	last := -1
	for i := range r.Milestones {
		if len(r.Milestones[i].Phases) == 0 {
			continue
		}
		if !r.Milestones[i].Shipped() {
			return i, false
		}
		// Every one shipped: the newest, by version where both give one ("v2.0" listed above
		// "v1.0"), else the one listed last.
		if last < 0 {
			last = i
		} else if a, b := r.Milestones[i].key, r.Milestones[last].key; !versionKeys(a, b) || compareVersions(a, b) >= 0 {
			last = i
		}
	}
	return last, false
}

// versionKeys reports whether both milestone keys are versions ("v2.0", "v1.10").
func versionKeys(a, b string) bool {
	v := func(k string) bool { return len(k) > 1 && k[0] == 'v' && isDigit(k[1]) }
	return v(a) && v(b)
}

// parkBacklog leaves the backlog out of the milestone's phases. Backlog items (999.x) are
// parked ideas, not work of the milestone: never current, never counted, wherever the roadmap
// lists them; until someone executes one (executing reports STATE.md's), which is then the
// work in hand.
func (p *Position) parkBacklog(idx *dirIndex) error {
	executing, err := executingBacklog(p.Roadmap, p.Declared, idx)
	if err != nil {
		return err
	}
	backlog := func(e Entry) bool { return e.Num.Backlog() && !e.Num.Equal(executing.Num) }
	if slices.ContainsFunc(p.Phases, backlog) {
		p.Phases = slices.DeleteFunc(slices.Clone(p.Phases), backlog) // a copy: p.Phases may share the roadmap's array
	}
	if !executing.Num.IsZero() && !slices.ContainsFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(executing.Num) }) {
		p.Phases = append(slices.Clip(p.Phases), executing)
	}
	return nil
}

// executingBacklog is the backlog phase (999.x) STATE.md says is being executed, with an
// unfinished plan and work begun (a finished plan, or STATE.md's line saying it executes); the
// zero Entry when there is none. A backlog phase is parked only until someone executes it.
func executingBacklog(rm *Roadmap, decl statemd.Declared, idx *dirIndex) (Entry, error) {
	n, ok := declaredNum(decl)
	if !ok || !n.Backlog() {
		return Entry{}, nil
	}
	e := Entry{Num: n, Milestone: -1}
	if rm != nil {
		for _, r := range rm.Phases {
			if r.Num.Equal(n) {
				e = r
				break
			}
		}
	}
	ph, err := idx.phase(e)
	if err != nil {
		return Entry{}, err
	}
	begun, open := false, false
	for _, pl := range ph.Plans {
		if pl.Done() {
			begun = true
		} else {
			open = true
		}
	}
	text := strings.ToLower(decl.PhaseText)
	if strings.Contains(text, "execut") || strings.Contains(text, "in progress") {
		begun = true
	}
	if !begun || !open {
		return Entry{}, nil
	}
	return e, nil
}

// stateRules applies the rules on STATE.md's phase:
//
//	a. STATE.md's phase, when it is a phase of the milestone and unfinished on disk, unless
//	   later work contradicts it (followState);
//	b. after it, when it is finished, the next unfinished phase in listed order.
//
// A finished STATE.md phase with no unfinished phase after it decides only when STATE.md also
// calls the milestone finished. decided is false when the roadmap's order is to decide, and
// stateIgnored true when STATE.md names a phase the milestone does not have.
func (p *Position) stateRules(idx *dirIndex) (decided, stateIgnored bool, err error) {
	decl := p.Declared
	n, ok := declaredNum(decl)
	if !ok {
		return false, false, nil
	}
	statePath := path.Join(idx.planningDir, "STATE.md")
	i := slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(n) })
	if i < 0 {
		p.evidence("phase", statePath, decl.PhaseLine, fmt.Sprintf("names phase %s, which is not a phase of the current milestone; not followed", n))
		return false, true, nil
	}
	done, why, err := idx.finished(p.Phases[i])
	if err != nil {
		return false, false, err
	}
	if !done {
		closed, err := idx.closedByState(p.Phases[i])
		if err != nil {
			return false, false, err
		}
		if closed {
			done, why = true, fmt.Sprintf("STATE.md calls phase %s complete and it has no plan", n)
		}
	}
	if !done {
		return true, false, p.followState(idx, i, statePath)
	}
	j, err := idx.nextOpen(p.Phases, i)
	if err != nil {
		return false, false, err
	}
	if j >= 0 {
		p.evidence("phase", statePath, decl.PhaseLine, fmt.Sprintf("%s names phase %s, but %s", textfmt.Quote(decl.PhaseText), n, why))
		for _, e := range p.Phases[i+1 : j] {
			if closed, err := idx.closedByState(e); err == nil && closed {
				p.evidence("phase", statePath, 0, fmt.Sprintf("STATE.md calls phase %s complete and it has no plan: closed", e.Num))
			}
		}
		p.evidence("phase", roadmapPath(p.Roadmap, idx.planningDir), p.Phases[j].Line, fmt.Sprintf("phase %s is the next unfinished phase in the roadmap's order", p.Phases[j].Num))
		return true, false, p.pick(idx, j, RuleAfterFinished)
	}
	// STATE.md's phase is finished and no phase after it is open. When STATE.md also says the
	// milestone is finished, the latest work finished it: an unfinished phase before it is a
	// leftover, the other reading. Otherwise the rules of the roadmap's order find the phase
	// still open, and STATE.md's word is that reading's alternative.
	if !decl.MilestoneDone {
		return false, false, nil
	}
	p.Rule = RuleFinished
	p.evidence("phase", statePath, decl.PhaseLine, fmt.Sprintf("%s names phase %s, but %s, no phase after it is unfinished, and STATE.md calls the milestone finished", textfmt.Quote(decl.PhaseText), n, why))
	for k := 0; k < i; k++ {
		closed, err := idx.closed(p.Phases[k])
		if err != nil {
			return false, false, err
		}
		if !closed && !p.Phases[k].Num.Backlog() {
			if err := p.alternative(idx, reading{at: k, why: fmt.Sprintf("phase %s, before STATE.md's finished phase %s, is unfinished", p.Phases[k].Num, n)}); err != nil {
				return false, false, err
			}
			break
		}
	}
	return true, false, nil
}

// followState takes STATE.md's phase, phases[i], unfinished on disk, unless later work
// contradicts it: past it, a later phase has finished plans, and STATE.md does not date itself
// after that work. A plan executed but never summarised does not pin a project to the past.
func (p *Position) followState(idx *dirIndex, i int, statePath string) error {
	decl, n := p.Declared, p.Phases[i].Num
	stated := Evidence{Decision: "phase", File: statePath, Line: decl.PhaseLine, Says: fmt.Sprintf("%s names phase %s, unfinished on disk", textfmt.Quote(decl.PhaseText), n)}
	k, err := idx.laterWork(p.Phases, i)
	if err != nil {
		return err
	}
	if k < 0 {
		p.Evidence = append(p.Evidence, stated)
		if err := p.take(idx, i, RuleState); err != nil {
			return err
		}
		if decl.PhaseComplete {
			// STATE.md runs ahead of the disk: it calls the phase complete before the last
			// SUMMARY has landed.
			j, err := idx.nextOpen(p.Phases, i)
			if err != nil {
				return err
			}
			if err := p.alternative(idx, reading{at: j, why: fmt.Sprintf("STATE.md calls phase %s complete, but a plan of it has no SUMMARY yet", n),
				ev: []Evidence{{Decision: "phase", File: statePath, Line: decl.PhaseLine, Says: textfmt.Quote(decl.PhaseText)}}}); err != nil {
				return err
			}
		}
		return nil
	}
	later, err := idx.laterReading(p.Phases, k)
	if err != nil {
		return err
	}
	newer, dated, err := idx.stateNewer(decl, p.Phases[k], statePath)
	if err != nil {
		return err
	}
	moved := fmt.Sprintf("phase %s, after STATE.md's phase %s, has finished plans: the work moved on", p.Phases[k].Num, n)
	if newer {
		// STATE.md was written after that work: someone went back to its phase.
		p.Evidence = append(p.Evidence, stated)
		p.Evidence = append(p.Evidence, dated...)
		if err := p.take(idx, i, RuleState); err != nil {
			return err
		}
		p.Confidence = ConfidenceMedium
		return p.alternative(idx, reading{at: later, why: moved})
	}
	p.Evidence = append(p.Evidence, Evidence{Decision: "phase", File: statePath, Line: decl.PhaseLine,
		Says: fmt.Sprintf("%s names phase %s, but later work contradicts it", textfmt.Quote(decl.PhaseText), n)})
	p.Confidence = ConfidenceLow
	if s := stoppedAt(p.Phases, decl); s >= k {
		p.evidence("phase", statePath, decl.StoppedPlanLine, fmt.Sprintf("stopped_at names plan %s, after phase %s", decl.StoppedPlan, n))
		p.Confidence = ConfidenceMedium
	}
	p.Evidence = append(p.Evidence, dated...)
	if len(dated) > 0 {
		p.Confidence = ConfidenceMedium
	}
	if later < 0 {
		p.Rule = RuleFinished
		p.evidence("phase", idx.planningDir, 0, moved+"; every phase after it is finished")
	} else {
		p.evidence("phase", roadmapPath(p.Roadmap, idx.planningDir), p.Phases[later].Line, moved)
		if err := p.take(idx, later, RuleLaterWork); err != nil {
			return err
		}
	}
	return p.alternative(idx, reading{at: i, why: fmt.Sprintf("STATE.md names phase %s, which is unfinished on disk", n), ev: []Evidence{stated}})
}

// orderRules applies the rules on the roadmap's order: c. the first unfinished phase the roadmap
// marks in progress; d. the first unfinished one. decided is false when every phase of the
// milestone is finished. stateIgnored says STATE.md named a phase the milestone does not have.
func (p *Position) orderRules(idx *dirIndex, stateIgnored bool) (decided bool, err error) {
	for _, rule := range []Rule{RuleInProgress, RuleFirstOpen} {
		for i, e := range p.Phases {
			if rule == RuleInProgress && e.Status != StatusInProgress {
				continue
			}
			closed, err := idx.closed(e)
			if err != nil {
				return false, err
			}
			if closed {
				continue
			}
			says := fmt.Sprintf("phase %s is the first unfinished phase in the roadmap's order", e.Num)
			if rule == RuleInProgress {
				says = fmt.Sprintf("phase %s is marked in progress and is unfinished", e.Num)
			}
			if e.Line == 0 {
				p.evidence("phase", path.Join(idx.planningDir, "phases"), 0, says)
			} else {
				p.evidence("phase", roadmapPath(p.Roadmap, idx.planningDir), e.Line, says)
			}
			// Without STATE.md's word the order of the roadmap decides, and less surely when
			// STATE.md named another phase, or none and no phase is marked in progress.
			if stateIgnored {
				p.Confidence = ConfidenceLow
			} else if _, ok := declaredNum(p.Declared); !ok && rule == RuleFirstOpen {
				p.Confidence = ConfidenceMedium
			}
			return true, p.pick(idx, i, rule)
		}
	}
	return false, nil
}

// pick takes phases[j], which rule chose, unless the work has moved past it: a later phase
// has finished plans, and j was started (a plan of it has its SUMMARY) and left with plans
// open, which do not pin the project to the past. A j never started is work done out of order:
// it stays, and the later work is another reading.
func (p *Position) pick(idx *dirIndex, j int, rule Rule) error {
	k, err := idx.laterWork(p.Phases, j)
	if err != nil || k < 0 {
		if err != nil {
			return err
		}
		return p.take(idx, j, rule)
	}
	later, err := idx.laterReading(p.Phases, k)
	if err != nil {
		return err
	}
	ph, err := idx.phase(p.Phases[j])
	if err != nil {
		return err
	}
	started := slices.ContainsFunc(ph.Plans, Plan.Done)
	cur, last := p.Phases[j].Num, p.Phases[k].Num
	if !started {
		if err := p.take(idx, j, rule); err != nil {
			return err
		}
		return p.alternative(idx, reading{at: later, why: fmt.Sprintf("phase %s, after phase %s in the roadmap's order, has finished plans: the latest work may lead there", last, cur)})
	}
	moved := fmt.Sprintf("phase %s was left with plans open, and phase %s after it has finished plans: the work moved on", cur, last)
	rmPath := roadmapPath(p.Roadmap, idx.planningDir)
	if later < 0 {
		p.Rule = RuleFinished
		p.evidence("phase", rmPath, p.Phases[k].Line, moved+"; every phase after it is finished")
	} else {
		p.evidence("phase", rmPath, p.Phases[later].Line, moved)
		if err := p.take(idx, later, RuleLaterWork); err != nil {
			return err
		}
	}
	p.doubt()
	return p.alternative(idx, reading{at: j, why: fmt.Sprintf("phase %s, %s by rule %s, still has plans without their SUMMARY", cur, "chosen", rule)})
}

// take makes phases[i] the current phase, as rule chose it, and its first plan without a
// SUMMARY the active plan; with no plan file, the phase needs planning.
func (p *Position) take(idx *dirIndex, i int, rule Rule) error {
	e := p.Phases[i]
	ph, err := idx.phase(e)
	if err != nil {
		return err
	}
	if e.Name != "" {
		ph.Name = e.Name
	}
	p.Phase, p.Rule = &ph, rule
	for _, pl := range ph.Plans {
		if !pl.Done() {
			p.Active = &pl
			p.evidence("plan", pl.Path, 0, fmt.Sprintf("the first plan of phase %s without its SUMMARY", e.Num))
			return nil
		}
	}
	p.NeedsPlanning = true
	where, line := ph.Dir, 0
	if where == "" {
		where, line = roadmapPath(p.Roadmap, idx.planningDir), e.Line
	}
	p.evidence("plan", where, line, fmt.Sprintf("phase %s has no plan file yet: it needs planning", e.Num))
	return nil
}

// recentPhases is how many phases before the current one settle looks back at: the recent
// past, where a leftover says the reading may be wrong; older leftovers are history. One phase:
// on 52 projects read by a person, looking back three agreed with their confidence no more
// often, and read two more directories on every command.
const recentPhases = 1

// settle weighs how sure the position is. The rules set a confidence only where what they rest
// on is weaker than agreement (STATE.md contradicted by later work, or naming a phase the
// milestone does not have, or none); every other position is high, which settle lowers to
// medium when a person would see another reading: a phase was chosen with no roadmap (STATE.md
// and the disk alone); the active-workstream pointer was overruled; STATE.md's phase is
// finished on disk and STATE.md neither says so nor names the phase chosen next (it lags); a
// phase just before the current one is called complete by the roadmap while a plan of it has no
// SUMMARY (that plan is another reading); or the rule found other readings already.
func (p *Position) settle(idx *dirIndex) error {
	if p.Confidence == "" {
		p.Confidence = ConfidenceHigh
	}
	unsure := p.Roadmap == nil && p.Phase != nil
	for _, e := range p.Evidence {
		unsure = unsure || e.Decision == "scope" && e.File == activeWorkstreamFile && p.Scope == "root"
	}
	if p.Rule == RuleAfterFinished && !p.Declared.Complete && p.Phase != nil {
		next, ok := ParsePhaseNum(p.Declared.Next)
		unsure = unsure || !ok || !next.Equal(p.Phase.Num)
	}
	end := len(p.Phases)
	if p.Phase != nil {
		end = slices.IndexFunc(p.Phases, func(e Entry) bool { return e.Num.Equal(p.Phase.Num) })
	}
	for i, seen := end-1, 0; i >= 0 && seen < recentPhases; i-- {
		e := p.Phases[i]
		if e.Num.Backlog() {
			continue
		}
		seen++
		if e.Status != StatusComplete || e.Disputed {
			continue
		}
		ph, err := idx.phase(e)
		if err != nil {
			return err
		}
		for _, pl := range ph.Plans {
			if pl.Done() {
				continue
			}
			says := fmt.Sprintf("the roadmap calls phase %s complete, but %s has no SUMMARY", e.Num, path.Base(pl.Path))
			if err := p.alternative(idx, reading{at: i, why: says, ev: []Evidence{{Decision: "phase", File: roadmapPath(p.Roadmap, idx.planningDir), Line: e.Line, Says: says}}}); err != nil {
				return err
			}
			i = -1 // the most recent such phase is the reading; older ones add nothing to it
			break
		}
	}
	if unsure || len(p.Alternatives) > 0 {
		p.doubt()
	}
	return nil
}

// doubt lowers a high confidence to medium: a person could defend another reading. A confidence
// no rule has set yet is high (see settle); low stays low.
func (p *Position) doubt() {
	if p.Confidence == "" || p.Confidence == ConfidenceHigh {
		p.Confidence = ConfidenceMedium
	}
}

func (p *Position) evidence(decision, file string, line int, says string) {
	p.Evidence = append(p.Evidence, Evidence{Decision: decision, File: file, Line: line, Says: says})
}

// finished reports whether phase e is finished as progress counts it (derivedStatus): every
// plan has its SUMMARY (the disk beats any claim); or the roadmap defers it and none of its plans
// was done; or, with no plan on disk, the roadmap calls it complete or deferred. why says so.
func (d *dirIndex) finished(e Entry) (bool, string, error) {
	ph, err := d.phase(e)
	if err != nil {
		return false, "", err
	}
	switch derivedStatus(ph.Plans, e.Status) {
	case StatusComplete:
		if len(ph.Plans) > 0 {
			return true, fmt.Sprintf("every plan of phase %s has its SUMMARY", e.Num), nil
		}
		return true, fmt.Sprintf("the roadmap calls phase %s complete", e.Num), nil
	case StatusDeferred:
		return true, fmt.Sprintf("the roadmap defers phase %s", e.Num), nil
	}
	return false, "", nil
}

// closed reports whether phase e is out of the running for the current phase after STATE.md's
// own: the roadmap calls it complete or deferred (its directory is not even listed: a
// long-finished phase often keeps a plan that was folded into another, and progress --check
// reports that contradiction), or it is finished on disk. A roadmap whose marks disagree about
// the phase (Entry.Disputed) is no such evidence: the disk decides.
func (d *dirIndex) closed(e Entry) (bool, error) {
	if (e.Status == StatusComplete || e.Status == StatusDeferred) && !e.Disputed {
		return true, nil
	}
	done, _, err := d.finished(e)
	if err != nil || done {
		return done, err
	}
	return d.closedByState(e)
}

// closedByState reports whether phase e was closed without plans: it has no plan on disk and
// a Phase line of STATE.md calls it complete (a phase settled by a decision record or a
// disposition). Nothing on disk says otherwise, so STATE.md's word stands.
func (d *dirIndex) closedByState(e Entry) (bool, error) {
	if !d.stateCloses(e.Num) {
		return false, nil
	}
	ph, err := d.phase(e)
	return err == nil && len(ph.Plans) == 0, err
}

// stateCloses reports whether a Phase line of STATE.md calls phase n complete.
func (d *dirIndex) stateCloses(n PhaseNum) bool {
	return slices.ContainsFunc(d.stateComplete, func(tok string) bool {
		m, ok := ParsePhaseNum(tok)
		return ok && m.Equal(n)
	})
}

// PhaseOf is the N of STATE.md's "Phase: 3 of N": the current milestone's last whole-numbered
// phase (GSD counts neither decimal insertions nor lettered series); 0 when it has none, or when
// "of N" would mislead about the current phase (see ofMisleads).
func (p *Position) PhaseOf() int {
	if p.ofMisleads() {
		return 0
	}
	n := 0
	if p.Milestone != nil {
		if v, ok := p.Milestone.Last.Int(); ok {
			n = v
		}
	}
	for _, e := range p.Phases {
		if v, ok := e.Num.Int(); ok && v > n {
			n = v
		}
	}
	return n
}

// PhaseStatus is the current phase's status as Load derives it for the phase's row, from its
// plans and the roadmap's word; StatusUnknown when there is no current phase. Commands that do
// not load the whole project (hydrate's check of STATE.md) ask it, so that theirs is the same.
func (p *Position) PhaseStatus() Status {
	if p.Phase == nil {
		return StatusUnknown
	}
	roadmap := StatusUnknown
	for _, e := range p.Phases {
		if e.Num.Equal(p.Phase.Num) {
			roadmap = e.Status
			break
		}
	}
	return derivedStatus(p.Phase.Plans, roadmap)
}
