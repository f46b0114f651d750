package roadmap

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
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
	Shipped       bool   // part of a shipped milestone: history
	InMilestone   bool   // one of the current milestone's phases
	PhaseSummary  string // a phase-level SUMMARY ("03-SUMMARY.md") no phase-level plan claims
	Entry         Entry
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
	Percent        int `json:"percent"` // plans complete over plans total, rounded as GSD rounds it
}

func (pr *Progress) add(ph *PhaseInfo) {
	done, total := ph.Counted()
	pr.PlansComplete += done
	pr.PlansTotal += total
	pr.PhasesTotal++
	if ph.Status == StatusComplete || ph.Status == StatusDeferred {
		pr.PhasesComplete++
	}
	pr.Percent = percent(pr.PlansComplete, pr.PlansTotal)
}

// Load reads ROADMAP.md and STATE.md, lists every phase directory and its
// plans, decides the position exactly as Locate does, and collects the problems
// a team lead would want to hear about. Only unreadable files (binary, huge,
// permission) are errors; everything the files say that does not add up is a
// Problem.
func Load(fsys fs.FS, planningDir string) (*Project, error) {
	pos, idx, err := locate(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	if err := idx.listArchived(); err != nil {
		return nil, err
	}
	rm := pos.Roadmap
	p := &Project{PlanningDir: planningDir, Roadmap: rm, Position: pos, Current: -1, idx: idx}
	rmPath := path.Join(planningDir, "ROADMAP.md")
	if rm == nil {
		p.problem(SeverityWarning, rmPath, 0, "no ROADMAP.md; phases are taken from the phase directories alone")
	} else {
		p.Milestone = rm.Title
		if pos.Milestone != nil {
			p.Milestone = pos.Milestone.Name
		}
		p.Problems = append(p.Problems, rm.Problems...)
		if len(rm.Phases) == 0 {
			p.problem(SeverityWarning, rmPath, 0, "ROADMAP.md names no phases")
		}
		p.Phases = make([]PhaseInfo, 0, len(rm.Phases)+len(idx.names)) // directories the roadmap does not list included
		for _, e := range rm.Phases {
			shipped := e.Collapsed || e.Milestone >= 0 && rm.Milestones[e.Milestone].Shipped() && (pos.Milestone == nil || &rm.Milestones[e.Milestone] != pos.Milestone)
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
				// dirIndex.scope), and the loop below leaves the number alone.
				de, err := idx.entry(e.Num, idx.scope(e))
				if err != nil {
					return nil, err
				}
				if len(de.dirs) > 0 {
					p.Phases[len(p.Phases)-1].withDirs(de)
				}
			}
		}
	}

	for _, d := range append(slices.Clip(idx.phases()), idx.archived...) {
		i, found := slices.BinarySearchFunc(p.Phases, d.Num, func(ph PhaseInfo, n PhaseNum) int { return ph.Num.Compare(n) })
		if found && (len(p.Phases[i].Dirs) > 0 || p.Phases[i].Entry.shared) {
			continue // every directory of that number is already in
		}
		e, err := idx.entry(d.Num, dirScope{})
		if err != nil {
			return nil, err
		}
		if len(e.dirs) == 0 {
			continue // a file named like a phase
		}
		if !found {
			p.Phases = slices.Insert(p.Phases, i, PhaseInfo{Phase: Phase{Num: d.Num, Name: e.Name}})
		}
		p.Phases[i].withDirs(e)
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
	for i := range p.Phases {
		ph := &p.Phases[i]
		ph.Status = derivedStatus(ph.Plans, ph.RoadmapStatus)
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
		}
	}
	p.checkMarks(rmPath)
	SortProblems(p.Problems)
	return p, nil
}

// withDirs fills in ph's directories and plans from e, what the index found of them.
func (ph *PhaseInfo) withDirs(e *phaseEntry) {
	ph.Dirs, ph.Dir, ph.Plans = e.dirs, e.Dir, e.Plans
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

// percent is done over total, rounded to the nearest whole percent (halves up) and at most 100,
// exactly as GSD's tools compute the percent they write into STATE.md: another value would have
// gsd and GSD rewrite each other's. So 199 of 200 plans is 100%, and so is a milestone whose
// plans are all done while a phase is still to plan; the Plan and Status lines say what is left.
func percent(done, total int) int {
	if total <= 0 {
		return 0
	}
	return min(100, (done*200+total)/(2*total))
}

func (p *Project) problem(sev Severity, file string, line int, msg string) {
	p.Problems = append(p.Problems, Problem{Severity: sev, File: file, Line: line, Message: msg})
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
		if pl.Done() {
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
	if e := p.idx.byNum[scopeKey(ph.Num, p.idx.scope(ph.Entry))]; e != nil && len(e.withPlans) > 1 {
		withPlans := e.withPlans
		p.problem(SeverityError, withPlans[1], 0,
			fmt.Sprintf("phase %s has plans in %d directories (%s): merge them into one", num, len(withPlans), strings.Join(withPlans, ", ")))
	}
	if !ph.InRoadmap {
		if p.Roadmap != nil && len(p.Roadmap.Phases) > 0 && ph.Dir != "" {
			p.problem(SeverityWarning, ph.Dir, 0,
				fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md, so it is never the current phase: add it to the roadmap or archive it", ph.Num))
		}
		return
	}
	var missing []string
	for _, pl := range ph.Plans {
		if !pl.Done() {
			missing = append(missing, path.Base(pl.Path))
		}
	}
	if ph.PhaseSummary != "" && len(missing) > 0 {
		p.problem(SeverityInfo, ph.PhaseSummary, 0,
			fmt.Sprintf("phase %s has a phase-level SUMMARY, which completes no numbered plan: %s %s no SUMMARY of %s own", num, listNames(missing), hasHave(len(missing)), itsTheir(len(missing))))
	}
	if ph.RoadmapStatus == StatusComplete && len(missing) > 0 {
		sev, what, line := SeverityError, "write the missing SUMMARY or uncheck the phase", ph.Line
		if e := ph.Entry; e.ClaimLine > 0 {
			// One mark says complete, another does not: the one that says complete is wrong.
			what, line = "write the missing SUMMARY or remove the mark that calls it complete", e.ClaimLine
			if e.ClaimTable {
				what = "write the missing SUMMARY or update the progress table's row"
			}
		}
		if !ph.InMilestone {
			sev, what = SeverityInfo, "a leftover of a past milestone"
		}
		p.problem(sev, rmPath, line,
			fmt.Sprintf("phase %s is marked complete, but %s %s no SUMMARY (%s)", num, listNames(missing), hasHave(len(missing)), what))
	}
	if len(ph.Plans) > 0 && len(missing) == 0 && ph.RoadmapStatus != StatusComplete && ph.RoadmapStatus != StatusUnknown {
		p.problem(SeverityInfo, rmPath, ph.Line,
			fmt.Sprintf("every plan of phase %s has a SUMMARY, but it is marked %s: mark it complete", num, ph.RoadmapStatus))
	}
	if e := ph.Entry; e.TableLine > 0 && ph.Dir != "" {
		done, total := ph.Counted()
		if e.PlansDone != done || e.PlansTotal >= 0 && e.PlansTotal != total {
			cell := fmt.Sprintf("%d/%d", e.PlansDone, e.PlansTotal)
			if e.PlansTotal < 0 {
				cell = fmt.Sprintf("%d/?", e.PlansDone)
			}
			sev, what := SeverityWarning, ": update the row"
			if ph.Shipped {
				sev, what = SeverityInfo, " (a row of a shipped milestone: history)"
			}
			p.problem(sev, rmPath, e.TableLine,
				fmt.Sprintf("phase %s: progress table says %s plans complete, the disk has %d/%d%s", num, cell, done, total, what))
		}
	}
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
		case ha:
			return cmp.Compare(pa.Line, pb.Line)
		}
		return 0
	})
	return order
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
