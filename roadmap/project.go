package roadmap

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// Project is the whole picture: every phase ROADMAP.md names or the disk
// holds, each with its plans paired with their SUMMARYs, the current phase,
// the overall progress and every problem found on the way. Load builds it;
// it lists every phase directory, so it is for reports (gsd progress, gsd
// state), not for the per-turn hydrate path, which uses FindCurrent.
type Project struct {
	PlanningDir string
	Roadmap     *Roadmap // nil without a ROADMAP.md
	Milestone   string
	Phases      []PhaseInfo // in numeric order
	Quick       []QuickTask // quick tasks, counted apart from phases
	Current     int         // index into Phases of the current phase, -1 if none
	Active      *Plan       // the current phase's first plan without a SUMMARY
	Progress    Progress
	Problems    []Problem
}

// PhaseInfo is one phase as the roadmap and the disk together describe it.
type PhaseInfo struct {
	Phase
	Dirs          []string // every directory with this number; more than one is a problem
	RoadmapStatus Status   // what ROADMAP.md says; StatusUnknown when it does not mention the phase
	Status        Status   // what the disk says, the roadmap filling in where the disk is silent
	Line          int      // the phase's first line in ROADMAP.md, 0 when not there
	InRoadmap     bool
	Shipped       bool   // only mentioned inside a collapsed <details> milestone
	PhaseSummary  string // a phase-level SUMMARY ("03-SUMMARY.md") no phase-level plan claims
	Entry         Entry
}

// PlanDone reports whether a plan counts as done: its own SUMMARY exists, or
// the phase was summarised as a whole (a phase-level SUMMARY, which real
// projects write instead of one per plan).
func (p *PhaseInfo) PlanDone(pl Plan) bool { return pl.Done() || p.PhaseSummary != "" }

// Counted returns the plans that count towards progress: every plan but FIX
// plans, which GSD's own counters and progress tables leave out.
func (p *PhaseInfo) Counted() (done, total int) {
	for _, pl := range p.Plans {
		if pl.Fix() {
			continue
		}
		total++
		if p.PlanDone(pl) {
			done++
		}
	}
	return done, total
}

// QuickTask is one directory under quick/: an ad-hoc task outside the phases.
type QuickTask struct {
	Dir  string
	Plan string // its PLAN file, "" if it has none
	Done bool   // a SUMMARY exists
}

// Progress is the project's overall completion.
type Progress struct {
	PhasesComplete int `json:"phasesComplete"`
	PhasesTotal    int `json:"phasesTotal"`
	PlansComplete  int `json:"plansComplete"`
	PlansTotal     int `json:"plansTotal"`
	Percent        int `json:"percent"` // plans complete over plans total, rounded as GSD does, never 100 with work left
}

// Fix reports whether the plan is a FIX plan ("10-01-FIX.md").
func (p Plan) Fix() bool { return strings.HasSuffix(p.ID, "-FIX") }

// Load reads ROADMAP.md, lists every phase directory and its plans, merges
// the two, and collects the problems a team lead would want to hear about.
// Only unreadable files (binary, huge, permission) are errors; everything
// the files say that does not add up is a Problem.
func Load(fsys fs.FS, planningDir string) (*Project, error) {
	rm, err := ReadRoadmap(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	dirs, err := PhaseDirs(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	p := &Project{PlanningDir: planningDir, Roadmap: rm, Current: -1}
	rmPath := path.Join(planningDir, "ROADMAP.md")
	if rm == nil {
		p.problem(SeverityWarning, rmPath, 0, "no ROADMAP.md; phases are taken from the phase directories alone")
	} else {
		p.Milestone = rm.Milestone
		p.Problems = append(p.Problems, rm.Problems...)
		if len(rm.Phases) == 0 {
			p.problem(SeverityWarning, rmPath, 0, "ROADMAP.md names no phases")
		}
		for _, e := range rm.Phases {
			p.Phases = append(p.Phases, PhaseInfo{
				Phase:         Phase{Num: e.Num, Name: e.Name},
				RoadmapStatus: e.Status,
				Line:          e.Line,
				InRoadmap:     true,
				Shipped:       e.Collapsed,
				Entry:         e,
			})
		}
	}

	for _, d := range dirs {
		i, found := slices.BinarySearchFunc(p.Phases, d.Num, func(ph PhaseInfo, n PhaseNum) int { return ph.Num.Compare(n) })
		if !found {
			p.Phases = slices.Insert(p.Phases, i, PhaseInfo{Phase: Phase{Num: d.Num, Name: d.Name}})
			if rm != nil && len(rm.Phases) > 0 {
				p.problem(SeverityWarning, d.Dir, 0, fmt.Sprintf("phase %s has a directory but is not in ROADMAP.md", d.Num))
			}
		}
		ph := &p.Phases[i]
		plans, phaseSummary, err := scanPlans(fsys, d.Dir)
		if err != nil {
			return nil, err
		}
		if ph.PhaseSummary == "" {
			ph.PhaseSummary = phaseSummary
		}
		ph.Dirs = append(ph.Dirs, d.Dir)
		if ph.Dir == "" {
			ph.Dir = d.Dir
		}
		ph.Plans = append(ph.Plans, plans...)
		if ph.Name == "" {
			ph.Name = d.Name
		}
	}

	quick, err := scanQuick(fsys, planningDir)
	if err != nil {
		return nil, err
	}
	p.Quick = quick

	for i := range p.Phases {
		ph := &p.Phases[i]
		ph.Status = derivedStatus(ph)
		p.check(ph, rmPath)
		done, total := ph.Counted()
		p.Progress.PlansComplete += done
		p.Progress.PlansTotal += total
		p.Progress.PhasesTotal++
		if ph.Status == StatusComplete {
			p.Progress.PhasesComplete++
		}
	}
	p.Progress.Percent = percent(p.Progress.PlansComplete, p.Progress.PlansTotal)

	var marked []*PhaseInfo
	for i := range p.Phases {
		if p.Phases[i].RoadmapStatus == StatusInProgress {
			marked = append(marked, &p.Phases[i])
		}
	}
	if len(marked) > 1 {
		nums := make([]string, len(marked))
		for i, ph := range marked {
			nums[i] = ph.Num.String()
		}
		p.problem(SeverityWarning, rmPath, marked[1].Line,
			fmt.Sprintf("%d phases are marked in progress (%s); GSD works one phase at a time", len(marked), strings.Join(nums, ", ")))
	}
	p.Current, p.Active = p.current()
	slices.SortStableFunc(p.Problems, func(a, b Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmpInt(a.Line, b.Line)
	})
	return p, nil
}

// percent is done over total, rounded to the nearest whole percent as GSD's
// tools round it, but never 100 while a plan is left.
func percent(done, total int) int {
	if total <= 0 {
		return 0
	}
	pc := (done*200 + total) / (2 * total)
	if pc == 100 && done < total {
		pc = 99
	}
	return pc
}

func (p *Project) problem(sev Severity, file string, line int, msg string) {
	p.Problems = append(p.Problems, Problem{Severity: sev, File: file, Line: line, Message: msg})
}

// derivedStatus is the phase's status as the disk shows it. A phase with
// plans is complete when every plan has its SUMMARY, in progress when some
// have (or the roadmap says so), planned otherwise. Without plans the disk
// says nothing and the roadmap's word stands: a shipped phase archived out
// of phases/ is complete, a deferred one deferred.
func derivedStatus(ph *PhaseInfo) Status {
	if len(ph.Plans) == 0 {
		switch ph.RoadmapStatus {
		case StatusUnknown, StatusInserted:
			return StatusNotStarted
		case StatusPlanned:
			return StatusNotStarted
		}
		return ph.RoadmapStatus
	}
	done := 0
	for _, pl := range ph.Plans {
		if ph.PlanDone(pl) {
			done++
		}
	}
	switch {
	case done == len(ph.Plans):
		return StatusComplete
	case done > 0 || ph.RoadmapStatus == StatusInProgress:
		return StatusInProgress
	case ph.RoadmapStatus == StatusDeferred:
		return StatusDeferred
	}
	return StatusPlanned
}

// check records what is wrong with one phase.
func (p *Project) check(ph *PhaseInfo, rmPath string) {
	if len(ph.Dirs) > 1 {
		p.problem(SeverityError, ph.Dirs[1], 0,
			fmt.Sprintf("phase %s has %d directories (%s); plans may be counted twice and the current plan is ambiguous", ph.Num, len(ph.Dirs), strings.Join(ph.Dirs, ", ")))
	}
	if !ph.InRoadmap {
		return
	}
	var missing, covered []string
	for _, pl := range ph.Plans {
		switch {
		case pl.Done():
		case ph.PlanDone(pl):
			covered = append(covered, path.Base(pl.Path))
		default:
			missing = append(missing, path.Base(pl.Path))
		}
	}
	if len(covered) > 0 {
		p.problem(SeverityInfo, ph.PhaseSummary, 0,
			fmt.Sprintf("phase %s is summarised as a whole: %s %s no SUMMARY of %s own", ph.Num, listNames(covered), hasHave(len(covered)), itsTheir(len(covered))))
	}
	if ph.RoadmapStatus == StatusComplete && len(missing) > 0 {
		p.problem(SeverityError, rmPath, ph.Line,
			fmt.Sprintf("phase %s is marked complete, but %s %s no SUMMARY", ph.Num, listNames(missing), hasHave(len(missing))))
	}
	if len(ph.Plans) > 0 && len(missing) == 0 && ph.RoadmapStatus != StatusComplete && ph.RoadmapStatus != StatusUnknown {
		p.problem(SeverityInfo, rmPath, ph.Line,
			fmt.Sprintf("every plan of phase %s has a SUMMARY, but it is marked %s", ph.Num, ph.RoadmapStatus))
	}
	if e := ph.Entry; e.TableLine > 0 && ph.Dir != "" {
		done, total := ph.Counted()
		if e.PlansDone != done || e.PlansTotal >= 0 && e.PlansTotal != total {
			cell := fmt.Sprintf("%d/%d", e.PlansDone, e.PlansTotal)
			if e.PlansTotal < 0 {
				cell = fmt.Sprintf("%d/?", e.PlansDone)
			}
			p.problem(SeverityWarning, rmPath, e.TableLine,
				fmt.Sprintf("phase %s: progress table says %s plans complete, the disk has %d/%d", ph.Num, cell, done, total))
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

// current applies FindCurrent's rules to the loaded phases.
func (p *Project) current() (int, *Plan) {
	first := -1
	for i := range p.Phases {
		ph := &p.Phases[i]
		if ph.RoadmapStatus != StatusInProgress {
			continue
		}
		if first < 0 {
			first = i
		}
		if a := ph.firstUndone(); a != nil {
			return i, a
		}
	}
	if first >= 0 {
		return first, nil
	}
	for i := range p.Phases {
		ph := &p.Phases[i]
		if ph.Dir == "" || ph.RoadmapStatus == StatusComplete || ph.RoadmapStatus == StatusDeferred {
			continue
		}
		if a := ph.firstUndone(); a != nil {
			return i, a
		}
	}
	return -1, nil
}

func (p *PhaseInfo) firstUndone() *Plan {
	for _, pl := range p.Plans {
		if !p.PlanDone(pl) {
			return &pl
		}
	}
	return nil
}

// CurrentPhase returns the current phase, or nil.
func (p *Project) CurrentPhase() *PhaseInfo {
	if p.Current < 0 || p.Current >= len(p.Phases) {
		return nil
	}
	return &p.Phases[p.Current]
}

// scanQuick lists <planningDir>/quick: one task per subdirectory.
func scanQuick(fsys fs.FS, planningDir string) ([]QuickTask, error) {
	dir := path.Join(planningDir, "quick")
	ents, err := fs.ReadDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []QuickTask
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := path.Join(dir, e.Name())
		files, err := fs.ReadDir(fsys, d)
		if err != nil {
			return nil, err
		}
		q := QuickTask{Dir: d}
		for _, f := range files {
			n := f.Name()
			switch {
			case f.IsDir():
			case strings.HasSuffix(n, "SUMMARY.md"):
				q.Done = true
			case strings.HasSuffix(n, "PLAN.md") && q.Plan == "":
				q.Plan = path.Join(d, n)
			}
		}
		out = append(out, q)
	}
	return out, nil
}
