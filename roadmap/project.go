package roadmap

import (
	"github.com/gsd-tools/gsd/roadmap/trace"

	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// Project is the whole picture: every phase ROADMAP.md names or the disk
// holds, each with its plans paired with their SUMMARYs, the position (the same
// decision Locate makes), the progress and every problem found on the way. Load
// builds it; it lists every phase directory, so it is for reports (gsd
// progress, gsd state), not for the per-turn hydrate path, which uses Locate.
type Project struct {
	PlanningDir string
	Roadmap     *Roadmap    // nil without a ROADMAP.md
	Milestone   string      // the current milestone's name, else the roadmap's title
	Position    *Position   // where the project stands
	Phases      []PhaseInfo // every phase, in numeric order
	Quick       []QuickTask // quick tasks, counted apart from phases
	Current     int         // index into Phases of the current phase, -1 if none
	Active      *Plan       // the current phase's first plan without a SUMMARY
	Progress    Progress    // the current milestone's, as GSD counts it
	AllProgress Progress    // every phase's
	Problems    []Problem
	// Unsummarised are the plans of the current milestone STATE.md says were completed
	// (stopped_at, a Last activity line) that have no SUMMARY: STATE.md cannot agree with the
	// disk while it says so, and gsd state --write, which never rewrites those lines, cannot
	// make it.
	Unsummarised []StateClaim

	idx *dirIndex
}

// PhaseInfo is one phase as the roadmap and the disk together describe it.
type PhaseInfo struct {
	Phase
	Dirs          []string // every directory with this number (its milestone's, where two list it)
	RoadmapStatus Status   // what ROADMAP.md says; StatusUnknown when it does not mention the phase
	Status        Status   // what the disk says, the roadmap filling in where the disk is silent
	Line          int      // the phase's first line in ROADMAP.md, 0 when not there
	InRoadmap     bool
	Shipped       bool   // part of a shipped milestone (the current one too, once shipped): history
	InMilestone   bool   // one of the current milestone's phases
	PhaseSummary  string // a phase-level SUMMARY ("03-SUMMARY.md") no phase-level plan claims
	Entry         Entry

	dirs *phaseEntry // what its directories hold (see withDirs); nil for an archive's phase
}

// closed reports whether phase ph is out of the running, as the position judges it
// (dirIndex.closed): finished on disk, complete or deferred by the roadmap's undisputed word, or
// closed by STATE.md without plans (closedByState).
func (p *Project) closed(ph *PhaseInfo) bool {
	if ph.Status == StatusComplete || ph.Status == StatusDeferred || p.closedByState(ph) {
		return true
	}
	return (ph.RoadmapStatus == StatusComplete || ph.RoadmapStatus == StatusDeferred) && !ph.Entry.Disputed
}

// closedByState reports whether phase ph has no plan and a Phase line of STATE.md calls it
// complete: closed, as the position takes it (dirIndex.closedByState), though its row says what
// the roadmap and the disk say.
func (p *Project) closedByState(ph *PhaseInfo) bool {
	return len(ph.Plans) == 0 && p.idx != nil && p.idx.stateCloses(ph.Num)
}

// Counted returns the plans that count towards progress: every plan but FIX
// plans, which GSD's own counters and progress tables leave out.
func (p *PhaseInfo) Counted() (done, total int) {
	for _, pl := range p.Plans {
		if pl.Fix() {
			continue
		}
		total++
		if pl.Done() {
			done++
		}
	}
	return done, total
}

// QuickTask is one directory under quick/: an ad-hoc task outside the phases.
type QuickTask struct {
	Dir  string
	Done bool // a SUMMARY exists
}

// Progress is completion over a set of phases.
type Progress struct {
	PhasesComplete int `json:"phasesComplete"`
	PhasesTotal    int `json:"phasesTotal"`
	PlansComplete  int `json:"plansComplete"`
	PlansTotal     int `json:"plansTotal"`
	// Percent is the lesser of plans complete over plans and phases complete over phases, as
	// GSD's tools compute it (see percentOf), so that phases not yet planned cap it: never 100
	// while one is still to plan, and 100 once every phase is finished.
	Percent int `json:"percent"`
	// PhasesUnplanned counts the phases not finished that have no plan file yet.
	PhasesUnplanned int `json:"phasesUnplanned"`
}

func (pr *Progress) add(ph *PhaseInfo) {
	done, total := ph.Counted()
	pr.PlansComplete += done
	pr.PlansTotal += total
	pr.PhasesTotal++
	if ph.Status == StatusComplete || ph.Status == StatusDeferred {
		pr.PhasesComplete++
	} else if len(ph.Plans) == 0 {
		pr.PhasesUnplanned++
	}
	pr.Percent = pr.percentOf()
}

// percentOf is Percent: GSD's min(plans done / plans, phases done / phases), rounded as GSD
// rounds; 100 when every phase is finished (a shipped milestone's leftover plan does not make
// it 97%), and at most 99 while a phase is still to plan (rounding never makes it look done).
func (pr *Progress) percentOf() int {
	if pr.PhasesComplete == pr.PhasesTotal && pr.PhasesTotal > 0 {
		return 100
	}
	n := min(percent(pr.PlansComplete, pr.PlansTotal), percent(pr.PhasesComplete, pr.PhasesTotal))
	if pr.PhasesUnplanned > 0 {
		n = min(n, 99)
	}
	return n
}

// Load reads ROADMAP.md and STATE.md, lists every phase directory and its
// plans, decides the position exactly as Locate does, and collects the problems
// a team lead would want to hear about. Only unreadable files (binary, huge,
// permission) are errors; everything the files say that does not add up is a
// Problem.
func Load(fsys fs.FS, planningDir string) (*Project, error) { return load(fsys, planningDir, nil) }

func load(fsys fs.FS, planningDir string, commits []trace.Commit) (*Project, error) {
	pos, idx, err := locateWith(fsys, planningDir, commits)
	if err != nil {
		return nil, err
	}
	if err := idx.listArchived(); err != nil {
		return nil, err
	}
	rm := pos.Roadmap
	p := &Project{PlanningDir: planningDir, Roadmap: rm, Position: pos, Current: -1, idx: idx}
	rmPath := roadmapPath(rm, planningDir)
	if rm == nil {
		p.problem(SeverityWarning, rmPath, 0, "no ROADMAP.md; phases are taken from the phase directories alone")
	} else if err := p.roadmapRows(rmPath); err != nil {
		return nil, err
	}
	if err := p.directoryRows(); err != nil {
		return nil, err
	}

	quick, err := scanQuick(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	p.Quick = quick

	// p.Phases is in numeric order, then listed order: the milestone's phases are found by
	// search, not by going through the milestone for each phase (a thousand phases would be a
	// million).
	for _, e := range pos.Phases {
		i, found := slices.BinarySearchFunc(p.Phases, e.Num, func(ph PhaseInfo, n PhaseNum) int { return ph.Num.Compare(n) })
		for found && e.shared && p.Phases[i].Entry.Order != e.Order {
			i++ // another milestone's phase of the number
			found = i < len(p.Phases) && p.Phases[i].Num.Equal(e.Num)
		}
		if found {
			p.Phases[i].InMilestone = true
		}
	}
	closed := true // every phase of the milestone is closed (Project.closed)
	for i := range p.Phases {
		ph := &p.Phases[i]
		ph.Status = derivedStatus(ph.Plans, ph.RoadmapStatus)
		if ph.Shipped && ph.Status == StatusInProgress {
			// The milestone shipped with it: a plan left without a SUMMARY is a leftover (a note
			// of check's), not work in progress.
			ph.Status = StatusComplete
		}
		if pos.Phase != nil && ph.Num.Equal(pos.Phase.Num) && ph.InMilestone {
			p.Current, p.Active = i, pos.Active
		}
		p.check(ph, rmPath)
		if ph.Num.Backlog() {
			continue // listed, but counted in no progress, as GSD's own tools count
		}
		p.AllProgress.add(ph)
		if ph.InMilestone {
			p.Progress.add(ph)
			closed = closed && p.closed(ph)
		}
	}
	if closed && p.Progress.PhasesTotal > 0 {
		// Every phase is finished on disk, by the roadmap's own word (a plan it no longer lists
		// left without a SUMMARY, which check reports) or by STATE.md's for a phase without plans:
		// the milestone is done, as the position says, and its phases are, none still to plan;
		// 100% is not lowered to 97% for that plan, whose count stays in the plans.
		p.Progress.PhasesComplete, p.Progress.Percent, p.Progress.PhasesUnplanned = p.Progress.PhasesTotal, 100, 0
	}
	p.checkOutside()
	p.checkMarks(rmPath)
	p.checkStateClaims()
	SortProblems(p.Problems)
	return p, nil
}

// roadmapRows names the current milestone and makes a row of every phase the roadmap lists; a
// number two milestones list gets each one's own directories here (see dirIndex.scope).
func (p *Project) roadmapRows(rmPath string) error {
	rm, pos, idx := p.Roadmap, p.Position, p.idx
	// The milestone the roadmap says is current, else the roadmap's title when it names the
	// version STATE.md's frontmatter gives ("Foglet BBS v2.1 Hardening"), else that
	// milestone (GSD's tools keep it), else the title.
	p.Milestone = rm.Title
	if pos.Milestone != nil {
		p.Milestone = pos.Milestone.Name
	} else if v, _, _ := strings.Cut(pos.Declared.Milestone, " "); v != "" && !strings.Contains(strings.ToLower(rm.Title), strings.ToLower(v)) {
		p.Milestone = pos.Declared.Milestone
	}
	p.Problems = append(p.Problems, rm.Problems...)
	if len(rm.Phases) == 0 {
		p.problem(SeverityWarning, rmPath, 0, "ROADMAP.md names no phases")
	}
	p.Phases = make([]PhaseInfo, 0, len(rm.Phases)+len(idx.names)) // directories the roadmap does not list included
	for _, e := range rm.Phases {
		shipped := e.Collapsed || e.Milestone >= 0 && rm.Milestones[e.Milestone].Shipped()
		p.Phases = append(p.Phases, PhaseInfo{
			Phase:         Phase{Num: e.Num, Name: e.Name},
			RoadmapStatus: e.Status,
			Line:          e.Line,
			InRoadmap:     true,
			Shipped:       shipped,
			Entry:         e,
		})
		if e.shared {
			// Two milestones list the number: each phase has only its own directories (see
			// dirIndex.scope), and directoryRows leaves the number alone.
			de, err := idx.entry(e.Num, idx.scope(e), e)
			if err != nil {
				return err
			}
			if len(de.dirs) > 0 {
				p.Phases[len(p.Phases)-1].withDirs(de)
			}
			if de.others != nil {
				p.Phases = append(p.Phases, PhaseInfo{Phase: Phase{Num: e.Num}})
				p.Phases[len(p.Phases)-1].withDirs(de.others)
			}
		}
	}
	return nil
}

// directoryRows gives each row the directories of its number, those under phases/ and then the
// archived ones, and makes a row for a number the roadmap does not list.
func (p *Project) directoryRows() error {
	idx := p.idx
	live := len(idx.phases())
	for k, d := range append(slices.Clip(idx.phases()), idx.archived...) {
		i, found := slices.BinarySearchFunc(p.Phases, d.Num, func(ph PhaseInfo, n PhaseNum) int { return ph.Num.Compare(n) })
		if k >= live && (!found || !p.Phases[i].InRoadmap || path.Dir(p.Phases[i].Dir) == path.Join(p.PlanningDir, "phases")) {
			// An archived directory whose number the roadmap does not list, or lists with its
			// directory under phases/: each milestone's archive holds its own phase of the
			// number (the numbers restart), one row each.
			if err := p.addArchived(d); err != nil {
				return err
			}
			continue
		}
		if found && (len(p.Phases[i].Dirs) > 0 || p.Phases[i].Entry.shared) {
			continue // every directory of that number is already in
		}
		owner := Entry{Milestone: -1}
		if found && p.Phases[i].InRoadmap {
			owner = p.Phases[i].Entry
		}
		e, err := idx.entry(d.Num, dirScope{}, owner)
		if err != nil {
			return err
		}
		if len(e.dirs) == 0 {
			continue // a file named like a phase
		}
		if !found {
			p.Phases = slices.Insert(p.Phases, i, PhaseInfo{Phase: Phase{Num: d.Num, Name: e.Name}})
		}
		p.Phases[i].withDirs(e)
		if e.others != nil {
			// Another phase of the number, outside the roadmap: after the roadmap's, so that a
			// search by number finds that first.
			other := PhaseInfo{Phase: Phase{Num: d.Num}}
			other.withDirs(e.others)
			p.Phases = slices.Insert(p.Phases, i+1, other)
		}
	}
	return nil
}

// StateClaim is a plan STATE.md says was completed.
type StateClaim struct {
	statemd.PlanClaim
	Path string `json:"path"` // the plan file
}

// checkStateClaims finds the plans STATE.md says were completed that have no SUMMARY
// (Unsummarised), each a warning at its line. Only the current milestone's plans are looked
// up: another milestone may have a plan of the same id.
func (p *Project) checkStateClaims() {
	statePath := path.Join(p.PlanningDir, "STATE.md")
	for _, c := range p.Position.Declared.CompletedPlans {
		for i := range p.Phases {
			ph := &p.Phases[i]
			if !ph.InMilestone {
				continue
			}
			for _, pl := range ph.Plans {
				if !strings.EqualFold(pl.ID, c.Plan) || pl.Settled() {
					continue
				}
				p.Unsummarised = append(p.Unsummarised, StateClaim{PlanClaim: c, Path: pl.Path})
				p.problem(SeverityWarning, statePath, c.Line,
					fmt.Sprintf("says %s was completed, but it has no SUMMARY: write its SUMMARY, or correct STATE.md", path.Base(pl.Path)))
			}
		}
	}
}

// addArchived adds the phase of archived directory d's number in d's archive
// (milestones/<version>-phases/), unless a directory of the archive added it already: history,
// after any phase of the number the roadmap lists, so that a search by number finds that first.
func (p *Project) addArchived(d Phase) error {
	parent := path.Dir(d.Dir)
	lo, _ := slices.BinarySearchFunc(p.Phases, d.Num, func(ph PhaseInfo, n PhaseNum) int { return ph.Num.Compare(n) })
	hi := lo
	for ; hi < len(p.Phases) && p.Phases[hi].Num.Equal(d.Num); hi++ {
		if slices.ContainsFunc(p.Phases[hi].Dirs, func(o string) bool { return path.Dir(o) == parent }) {
			return nil
		}
	}
	ph := PhaseInfo{Phase: Phase{Num: d.Num, Name: d.Name}, Shipped: true}
	for _, o := range numbered(p.idx.archived, d.Num) {
		if path.Dir(o.Dir) != parent {
			continue
		}
		sc, err := p.idx.scan(o.Dir)
		if err != nil {
			return err
		}
		if !sc.isDir {
			continue
		}
		ph.Dirs = append(ph.Dirs, o.Dir)
		if ph.Dir == "" || len(ph.Plans) == 0 && len(sc.plans) > 0 {
			ph.Dir, ph.Name = o.Dir, o.Name
		}
		if ph.PhaseSummary == "" {
			ph.PhaseSummary = sc.summary
		}
		ph.Plans = append(ph.Plans, sc.plans...)
	}
	if len(ph.Dirs) > 0 {
		p.Phases = slices.Insert(p.Phases, hi, ph)
	}
	return nil
}

// withDirs fills in ph's directories and plans from e, what the index found of them.
func (ph *PhaseInfo) withDirs(e *phaseEntry) {
	ph.dirs = e
	ph.Dirs, ph.Dir, ph.Plans, ph.Unplanned = e.dirs, e.Dir, e.Plans, e.Unplanned
	if ph.Name == "" {
		ph.Name = e.Name
	}
	ph.PhaseSummary = e.summary
}

// checkMarks warns when the roadmap marks several phases of the milestone in progress.
func (p *Project) checkMarks(rmPath string) {
	var marked []*PhaseInfo
	for i := range p.Phases {
		if ph := &p.Phases[i]; ph.InMilestone && ph.RoadmapStatus == StatusInProgress {
			marked = append(marked, ph)
		}
	}
	if len(marked) < 2 {
		return
	}
	nums := make([]string, len(marked))
	for i, ph := range marked {
		nums[i] = ph.Num.String()
	}
	cur := "none"
	if ph := p.CurrentPhase(); ph != nil {
		cur = ph.Num.String()
	}
	p.problem(SeverityWarning, rmPath, marked[1].Line,
		fmt.Sprintf("%d phases are marked in progress (%s); the current phase is %s (gsd progress --explain says why): mark the others as they stand", len(marked), strings.Join(nums, ", "), cur))
}

// percent is done over total as GSD's tools round it (statemd.Percent).
func percent(done, total int) int { return statemd.Percent(done, total) }

func (p *Project) problem(sev Severity, file string, line int, msg string) {
	p.Problems = append(p.Problems, Problem{Severity: sev, File: file, Line: line, Message: msg})
}

// dirProblem is a problem about a directory.
func (p *Project) dirProblem(sev Severity, dir string, msg string) {
	p.Problems = append(p.Problems, Problem{Severity: sev, File: dir, Message: msg, Dir: true})
}

// derivedStatus is a phase's status as the disk shows it, given its plans and what the roadmap
// says. A phase with plans is complete when every plan has its SUMMARY, in progress when some
// have (or the roadmap says so), deferred when the roadmap defers it and none has, planned
// otherwise. Without plans the disk says nothing and the roadmap's word stands: a shipped
// phase archived out of phases/ is complete, a deferred one deferred. The position's
// "finished" (dirIndex.finished) and progress's counts both read it.
func derivedStatus(plans []Plan, roadmap Status) Status {
	if len(plans) == 0 {
		switch roadmap {
		case StatusUnknown, StatusInserted:
			return StatusNotStarted
		case StatusPlanned:
			return StatusNotStarted
		}
		return roadmap
	}
	done := 0
	for _, pl := range plans {
		if pl.Settled() {
			done++
		}
	}
	switch {
	case done == len(plans):
		return StatusComplete
	case done > 0 || roadmap == StatusInProgress:
		return StatusInProgress
	case roadmap == StatusDeferred:
		return StatusDeferred
	}
	return StatusPlanned
}

// check records what is wrong with one phase, and what to do about it. Only a contradiction
// in current work is an error; a shipped milestone's leftovers are history.
func (p *Project) check(ph *PhaseInfo, rmPath string) {
	num := ph.Num.String()
	if e := ph.Entry; e.shared && e.Milestone >= 0 {
		num += " of " + p.Roadmap.Milestones[e.Milestone].Name // "phase 2" alone would say neither
	}
	e := ph.dirs
	if e == nil {
		e = p.idx.byNum[scopeKey(ph.Num, p.idx.scope(ph.Entry))]
	}
	if e != nil && len(e.withPlans) > 1 {
		// Finished work the roadmap no longer lists, and a shipped milestone's leftovers, are
		// history, however they were laid out.
		history := ph.Shipped || !ph.InRoadmap && !slices.ContainsFunc(ph.Plans, func(pl Plan) bool { return !pl.Settled() })
		p.checkSplit(num, e.withPlans, history, ph)
	}
	if !ph.InRoadmap {
		return // see checkOutside
	}
	// missing: the plans without their SUMMARY; of them, the FIX plans (fixes), which progress
	// does not count, and the others (open).
	var missing, open, fixes []string
	for _, pl := range ph.Plans {
		if pl.Settled() {
			continue
		}
		missing = append(missing, path.Base(pl.Path))
		if pl.Fix() {
			fixes = append(fixes, path.Base(pl.Path))
		} else {
			open = append(open, path.Base(pl.Path))
		}
	}
	if ph.PhaseSummary != "" && len(missing) > 0 {
		p.problem(SeverityInfo, ph.PhaseSummary, 0,
			fmt.Sprintf("phase %s has a phase-level SUMMARY, which completes no numbered plan: %s %s no SUMMARY of %s own", num, listNames(missing), hasHave(len(missing)), itsTheir(len(missing))))
	}
	// Any mark that calls the phase complete claims it, whatever the others say: a checked box
	// beside a progress table row "In Progress" is as wrong as one beside a row "Complete".
	claimed := ph.RoadmapStatus == StatusComplete || ph.Entry.ClaimLine > 0
	if claimed && len(fixes) > 0 {
		p.checkFixes(ph, num, fixes, rmPath)
	}
	if claimed && len(open) > 0 {
		sev, what, line := SeverityError, "write the missing SUMMARY or uncheck the phase", ph.Line
		if e := ph.Entry; e.ClaimLine > 0 {
			// One mark says complete, another does not: the one that says complete is wrong.
			what, line = "write the missing SUMMARY or remove the mark that calls it complete", e.ClaimLine
			switch {
			case e.ClaimTable:
				what = "write the missing SUMMARY or update the progress table's row"
			case e.ClaimBox:
				what = "write the missing SUMMARY or uncheck the phase"
			}
		}
		if why, ok := leftover(ph); ok {
			sev, what = SeverityInfo, why
		}
		p.problem(sev, rmPath, line,
			fmt.Sprintf("phase %s is marked complete, but %s %s no SUMMARY (%s)", num, listNames(open), hasHave(len(open)), what))
	}
	if len(ph.Plans) > 0 && len(missing) == 0 && ph.RoadmapStatus != StatusComplete && ph.RoadmapStatus != StatusUnknown {
		p.problem(SeverityInfo, rmPath, ph.Line,
			fmt.Sprintf("every plan of phase %s has a SUMMARY, but it is marked %s: mark it complete", num, ph.RoadmapStatus))
	}
	cell := fmt.Sprintf("%d/%d", ph.Entry.PlansDone, ph.Entry.PlansTotal)
	if ph.Entry.PlansTotal < 0 {
		cell = fmt.Sprintf("%d/?", ph.Entry.PlansDone)
	}
	if e := ph.Entry; e.TableLine > 0 && ph.Dir != "" && len(ph.Unplanned) > 0 {
		// SUMMARYs whose plan files were never kept: the disk knows how many plans were done,
		// not how many there are, and a row may count those SUMMARYs or not (gap closures
		// summarised without a plan are often left out): any count between is the disk's.
		done, _ := ph.Counted()
		if all := done + len(ph.Unplanned); e.PlansDone < done || e.PlansDone > all {
			sev, what := SeverityWarning, "update the row"
			if ph.Shipped {
				sev, what = SeverityInfo, "a row of a shipped milestone: history"
			}
			p.problem(sev, rmPath, e.TableLine,
				fmt.Sprintf("phase %s: progress table says %s plans complete, the disk has %d done, or %d counting %s (%s without %s plan): %s",
					num, cell, done, all, listNames(baseNames(ph.Unplanned)), aSummaryOrSummaries(len(ph.Unplanned)), itsTheir(len(ph.Unplanned)), what))
		}
	} else if e := ph.Entry; e.TableLine > 0 && ph.Dir != "" {
		done, total := ph.Counted()
		if e.PlansDone != done || e.PlansTotal >= 0 && e.PlansTotal != total {
			sev, what := SeverityWarning, ": update the row"
			if ph.Shipped {
				sev, what = SeverityInfo, " (a row of a shipped milestone: history)"
			}
			p.problem(sev, rmPath, e.TableLine,
				fmt.Sprintf("phase %s: progress table says %s plans complete, the disk has %d/%d%s", num, cell, done, total, what))
		}
	}
}

// outsideOrShipped says why a phase split in directories is history.
func outsideOrShipped(ph *PhaseInfo) string {
	if ph.Shipped {
		return "of a shipped milestone"
	}
	return "finished and outside the roadmap"
}

// baseNames is the file names of paths.
func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Base(p)
	}
	return out
}

// aSummaryOrSummaries is "a SUMMARY" for one, "SUMMARYs" for more.
func aSummaryOrSummaries(n int) string {
	if n == 1 {
		return "a SUMMARY"
	}
	return "SUMMARYs"
}

// OpenPhases are the numbers of the current milestone's phases that are neither complete nor
// deferred, nor closed by STATE.md without plans (backlog items left out): what stands between
// the project and a finished milestone.
func (p *Project) OpenPhases() []string {
	var open []string
	for i := range p.Phases {
		ph := &p.Phases[i]
		if ph.InMilestone && !ph.Num.Backlog() && ph.Status != StatusComplete && ph.Status != StatusDeferred && !p.closedByState(ph) {
			open = append(open, ph.Num.String())
		}
	}
	return open
}

// Finished reports whether the current milestone is finished in every view: no current phase,
// and no phase of it left open.
func (p *Project) Finished() bool {
	return p.Position.Phase == nil && len(p.OpenPhases()) == 0
}

// leftover says whether phase ph is history, whose open plans are notes, not work: a phase of
// a shipped milestone, or of a past one; and says which.
func leftover(ph *PhaseInfo) (string, bool) {
	switch {
	case ph.Shipped:
		return "a leftover of a shipped milestone", true
	case !ph.InMilestone:
		return "a leftover of a past milestone", true
	}
	return "", false
}

// checkFixes reports the FIX plans without their SUMMARY (fixes) of phase ph, which the roadmap
// marks complete. Progress leaves FIX plans out of its counts, as GSD does, so an open one does
// not contradict the mark as an open numbered plan does: a warning in current work (a fix still
// to make, or its SUMMARY to write), a note in a past or shipped milestone.
func (p *Project) checkFixes(ph *PhaseInfo, num string, fixes []string, rmPath string) {
	sev, what := SeverityWarning, "FIX plans are not counted in progress; write the SUMMARY once the fix is made"
	if why, ok := leftover(ph); ok {
		sev, what = SeverityInfo, why
	}
	line := ph.Line
	if ph.Entry.ClaimLine > 0 {
		line = ph.Entry.ClaimLine // the mark that calls it complete
	}
	p.problem(sev, rmPath, line,
		fmt.Sprintf("phase %s is marked complete, but its FIX plan %s %s no SUMMARY (%s)", num, listNames(fixes), hasHave(len(fixes)), what))
}

// checkSplit reports a phase whose plans are in several directories (withPlans). Directories
// of one phase that differ only in the zero padding of its number ("096-x", "96-x") are one
// directory; directories in different places are different phases of one number (each shipped
// milestone archives its own under milestones/<version>-phases/ when the numbers restart), not
// one phase split. Two directories of one number in one place are an error under phases/, and
// history (a note) in a milestone's archive or when the phase is finished work the roadmap no
// longer lists or a shipped milestone's (history).
func (p *Project) checkSplit(num string, withPlans []string, history bool, ph *PhaseInfo) {
	type place struct {
		parent string
		dirs   []string
		slugs  []string
	}
	var places []*place
	for _, d := range withPlans {
		parent, base := path.Dir(d), path.Base(d)
		_, slug, _ := phaseDirName(base)
		i := slices.IndexFunc(places, func(pl *place) bool { return pl.parent == parent })
		if i < 0 {
			places = append(places, &place{parent: parent})
			i = len(places) - 1
		}
		pl := places[i]
		pl.dirs = append(pl.dirs, d)
		if !slices.Contains(pl.slugs, slug) {
			pl.slugs = append(pl.slugs, slug)
		}
	}
	for _, pl := range places {
		if len(pl.slugs) < 2 {
			continue
		}
		if pl.parent != path.Join(p.PlanningDir, "phases") {
			p.dirProblem(SeverityInfo, pl.dirs[1],
				fmt.Sprintf("phase %s has plans in %d directories of one archive (%s): history", num, len(pl.dirs), strings.Join(pl.dirs, ", ")))
			continue
		}
		if history {
			p.dirProblem(SeverityInfo, pl.dirs[1],
				fmt.Sprintf("phase %s has plans in %d directories (%s), %s: history", num, len(pl.dirs), strings.Join(pl.dirs, ", "), outsideOrShipped(ph)))
			continue
		}
		p.dirProblem(SeverityError, pl.dirs[1],
			fmt.Sprintf("phase %s has plans in %d directories (%s): merge them into one", num, len(pl.dirs), strings.Join(pl.dirs, ", ")))
	}
}

// minRun is how many phase directories outside the roadmap, side by side, checkOutside reports
// in one line rather than one line each.
const minRun = 3

// checkOutside reports the phase directories under phases/ that ROADMAP.md does not list. Such
// a directory is never the current phase: with a plan not done, that is a warning (work nobody
// will be sent to); finished, or holding no plan, it is history the roadmap no longer lists (a
// note), as after a milestone's roadmap was folded into MILESTONES.md without archiving its
// directories. A run of them, side by side in numeric order, is one line. A milestone's archive
// (milestones/<version>-phases/) is history, recorded by its own milestone roadmap: nothing is
// said of it.
func (p *Project) checkOutside() {
	if p.Roadmap == nil || len(p.Roadmap.Phases) == 0 {
		return
	}
	live := path.Join(p.PlanningDir, "phases")
	var run []outsideDir
	for i := range p.Phases {
		ph := &p.Phases[i]
		for _, d := range ph.Dirs {
			if path.Dir(d) != live {
				continue
			}
			if ph.InRoadmap {
				p.outside(live, run) // a listed phase's directory ends the run
				run = run[:0]
				continue
			}
			raw := ph.Num.String()
			if n, _, ok := phaseDirName(path.Base(d)); ok {
				raw = n.Raw()
			}
			open := slices.ContainsFunc(ph.Plans, func(pl Plan) bool { return !pl.Done() && PhaseDirOf(pl.Path) == d })
			run = append(run, outsideDir{d, ph.Num.String(), raw, open, p.shippedWith(ph.Num)})
		}
	}
	p.outside(live, run)
}

// outsideDir is a phase directory outside the roadmap: its path, its number (num, and raw as
// its name writes it, for a run's span: "01–50"), and whether it holds a plan without its
// SUMMARY.
type outsideDir struct {
	path, num, raw string
	open           bool
	shipped        string // the shipped milestone whose phase range holds it, "" for none
}

// shippedWith is the shipped milestone whose phase range ("Phases 16-21") holds phase n: a
// directory of it that the roadmap no longer lists (its details collapsed or dropped) is that
// milestone's history. "" when none does.
func (p *Project) shippedWith(n PhaseNum) string {
	name := ""
	for i := range p.Roadmap.Milestones {
		m := &p.Roadmap.Milestones[i]
		switch {
		case m.Shipped() && m.Contains(n) && name == "":
			name = m.Name
		case !m.Shipped() && !m.First.IsZero() && m.First.Compare(n) <= 0:
			// A milestone still open whose numbers reach down to n (they may have restarted):
			// the directory can be its new work.
			return ""
		}
	}
	return name
}

// outside reports one run of directories of phases/ (live) outside the roadmap.
func (p *Project) outside(live string, ds []outsideDir) {
	if len(ds) < minRun {
		for _, d := range ds {
			switch {
			case d.open && d.shipped != "":
				p.dirProblem(SeverityInfo, d.path, fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md, and plans not done: a leftover of %s, which shipped (archive it to say so)", d.num, d.shipped))
			case d.open && p.Position.Rule == RuleCommits && p.Position.Phase != nil && p.Position.Phase.Dir == d.path:
				p.dirProblem(SeverityWarning, d.path, fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md, though its plans are being committed: add it to the roadmap", d.num))
			case d.open:
				p.dirProblem(SeverityWarning, d.path, fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md, so it is never the current phase: add it to the roadmap or archive it", d.num))
			default:
				p.dirProblem(SeverityInfo, d.path, fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md: finished work the roadmap no longer lists (archive it to say so)", d.num))
			}
		}
		return
	}
	var open, leftover []string
	for _, d := range ds {
		switch {
		case d.open && d.shipped != "":
			leftover = append(leftover, d.num)
		case d.open:
			open = append(open, d.num)
		}
	}
	msg := fmt.Sprintf("%d phase directories outside the roadmap: %s–%s (gsd progress --all lists them)", len(ds), ds[0].raw, ds[len(ds)-1].raw)
	if len(open) == 0 {
		if len(leftover) > 0 {
			p.dirProblem(SeverityInfo, live, fmt.Sprintf("%s; %s %s plans not done, left over from shipped milestones", msg, listNames(leftover), hasHave(len(leftover))))
			return
		}
		p.dirProblem(SeverityInfo, live, msg+"; every plan in them has its SUMMARY")
		return
	}
	p.dirProblem(SeverityWarning, live, fmt.Sprintf("%s; %s %s plans not done and %s never the current phase: add %s to the roadmap or archive %s",
		msg, listNames(open), hasHave(len(open)), isAre(len(open)), itThem(len(open)), itThem(len(open))))
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func itThem(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

func hasHave(n int) string {
	if n == 1 {
		return "has"
	}
	return "have"
}

func itsTheir(n int) string {
	if n == 1 {
		return "its"
	}
	return "their"
}

// listNames joins up to three names and says how many more there are.
func listNames(names []string) string {
	const show = 3
	if len(names) <= show {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

// CurrentPhase returns the current phase, or nil.
func (p *Project) CurrentPhase() *PhaseInfo {
	if p.Current < 0 || p.Current >= len(p.Phases) {
		return nil
	}
	return &p.Phases[p.Current]
}

// Listed returns the indexes of the phases a list of them shows, in ListOrder: the current
// milestone's, or with all every phase; and how many it leaves out. Every list of phases (gsd
// progress, its --json, the CI job summary) shows these.
func (p *Project) Listed(all bool) (shown []int, hidden int) {
	for _, i := range p.ListOrder() {
		if all || p.Phases[i].InMilestone {
			shown = append(shown, i)
		} else {
			hidden++
		}
	}
	return shown, hidden
}

// ListOrder returns the indexes of Phases in the order a list of every phase shows them
// (gsd progress --all): numeric, as Phases is, unless a milestone started its numbers again
// (--reset-phase-numbers) so that two phases share a number. Then the phases of shipped
// milestones come first, in the roadmap's order (each milestone's together), and the others
// follow in numeric order: no milestone's phases are interleaved with another's.
func (p *Project) ListOrder() []int {
	order := make([]int, len(p.Phases))
	for i := range order {
		order[i] = i
	}
	restarted := false
	for i := 1; i < len(p.Phases); i++ {
		if p.Phases[i].Num.Compare(p.Phases[i-1].Num) == 0 {
			restarted = true
			break
		}
	}
	if !restarted {
		return order
	}
	history := func(ph *PhaseInfo) bool { return ph.Shipped && !ph.InMilestone }
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := &p.Phases[a], &p.Phases[b]
		switch ha, hb := history(pa), history(pb); {
		case ha != hb:
			if ha {
				return -1
			}
			return 1
		case ha && pa.Line > 0 && pb.Line > 0:
			return cmp.Compare(pa.Line, pb.Line)
		case ha && pa.Line == 0 && pb.Line == 0:
			// Two archived phases the roadmap does not list: by their archive's version.
			return compareVersions(path.Base(path.Dir(pa.Dir)), path.Base(path.Dir(pb.Dir)))
		case ha:
			return cmp.Compare(pa.Line, pb.Line) // the archives' phases the roadmap does not list first
		}
		return 0
	})
	return order
}

// compareVersions orders archive names by the numbers in them, as numbers ("v2.0-phases"
// before "v10.0-phases").
func compareVersions(a, b string) int {
	for a != "" && b != "" {
		if isDigit(a[0]) && isDigit(b[0]) {
			i, j := 0, 0
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			na, _ := strconv.Atoi(a[:i])
			nb, _ := strconv.Atoi(b[:j])
			if c := cmp.Compare(na, nb); c != 0 {
				return c
			}
			a, b = a[i:], b[j:]
			continue
		}
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		a, b = a[1:], b[1:]
	}
	return cmp.Compare(len(a), len(b))
}

// scanQuick lists <planningDir>/quick: one task per subdirectory, done when it holds a file
// whose name ends in SUMMARY.md.
func scanQuick(fsys fs.FS, planningDir string) ([]QuickTask, error) {
	dir := path.Join(planningDir, "quick")
	names, err := listDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.Sort(names)
	out := make([]QuickTask, 0, len(names))
	for _, name := range names {
		d := dir + "/" + name
		files, err := listDir(fsys, d)
		if errors.Is(err, errNotDir) {
			continue // a file beside the task directories
		}
		if err != nil {
			return nil, err
		}
		q := QuickTask{Dir: d}
		for _, n := range files {
			if strings.HasSuffix(n, "SUMMARY.md") {
				q.Done = true
				break
			}
		}
		out = append(out, q)
	}
	return out, nil
}
