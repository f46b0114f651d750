package hydrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/roadmap"
	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// CurrentPosition is what STATE.md's Current Position block should say, derived from ROADMAP.md
// and the disk: the spec's hydration step 7. It is named after that block. It is not the
// decision of where the project stands, which is roadmap.Position (Env.Position): it is that
// decision's current phase written out as the block records it, with plan numbers, a status
// and the milestone's counts. statemd.Values is the same content as STATE.md's text takes it.
type CurrentPosition struct {
	Phase       string `json:"phase"`      // the phase number, canonical ("3", "4.1"); "" without phases
	PhaseName   string `json:"phaseName"`  // its name
	PhaseOf     int    `json:"phaseOf"`    // the last whole-numbered phase (decimal insertions are not counted, as GSD does not)
	PlanNumber  int    `json:"plan"`       // the plan being worked on: the first without a SUMMARY, 1-based; PlanTotal when all are done
	PlanDone    int    `json:"planDone"`   // plans of the phase complete
	PlanTotal   int    `json:"planTotal"`  // plans of the phase (FIX plans not counted)
	Status      string `json:"status"`     // "Ready to plan", "Ready to execute", "In progress", "Phase complete", "Complete"
	Percent     int    `json:"percent"`    // the milestone's percent complete (roadmap.Progress.Percent)
	ActivePlan  string `json:"activePlan"` // the plan to work on next, "" if none
	PhasesDone  int    `json:"phasesComplete"`
	PhasesTotal int    `json:"phasesTotal"`
	PlansDone   int    `json:"plansComplete"`
	PlansTotal  int    `json:"plansTotal"`
}

// values are the position as STATE.md's text values; full says whether the milestone-wide
// numbers (percent, frontmatter counts) are known, which the cheap check of hydrate does not load.
func (p CurrentPosition) values(full bool) statemd.Values {
	v := statemd.Values{
		Phase: p.Phase, PhaseOf: p.PhaseOf, PhaseName: p.PhaseName,
		PlanNumber: p.PlanNumber, PlanDone: p.PlanDone, PlanTotal: p.PlanTotal, Status: p.Status,
	}
	// A milestone with no plan yet has no percent: STATE.md's own (often "67% (v1.0 complete,
	// v1.1 starting)") is better informed than a 0 from nothing.
	if full && p.PlansTotal > 0 {
		v.Percent, v.PercentKnown = p.Percent, true
		pr := roadmap.Progress{PhasesComplete: p.PhasesDone, PhasesTotal: p.PhasesTotal, PlansComplete: p.PlansDone, PlansTotal: p.PlansTotal, Percent: p.Percent}
		v.PercentAgrees = pr.Agrees // the percent GSD writes for these counts is not rewritten
		v.TotalPhases, v.CompletedPhases, v.TotalPlans, v.CompletedPlans = p.PhasesTotal, p.PhasesDone, p.PlansTotal, p.PlansDone
		v.CountsKnown = true
	}
	return v
}

// Lines renders the position as the Current Position block's lines, without line endings,
// exactly as STATE.md gets them.
func (p CurrentPosition) Lines() (phase, plan, status, progress string) {
	v := p.values(true)
	return statemd.PhaseText(v), statemd.PlanText(v), statemd.StatusText(v), statemd.ProgressText(v)
}

// ProgressBar draws percent as "[████░░░░░░]", width cells wide.
func ProgressBar(percent, width int) string { return statemd.Bar(percent, width) }

// Difference is one field where STATE.md disagrees with the derived position.
type Difference struct {
	Field   string  `json:"field"` // "phase", "plan" or "progress"
	Line    int     `json:"line"`  // STATE.md line replaced, or the line a missing one would go before
	Says    *string `json:"says"`  // the line as it is, trimmed; null when STATE.md has no such line
	Derived string  `json:"derived"`
}

// StateReport is the derived CurrentPosition and how STATE.md stands against it: what gsd state
// reports, rewrites (--write) and previews (--dry-run), and gsd progress carries as its state.
type StateReport struct {
	Path        string          `json:"stateFile"` // STATE.md, root-relative
	Exists      bool            `json:"exists"`
	Position    CurrentPosition `json:"position"`
	Agrees      bool            `json:"agrees"`
	Differences []Difference    `json:"differences"`
	// Unsummarised are the plans STATE.md says were completed that have no SUMMARY
	// (roadmap.Project.Unsummarised): while there are any, STATE.md does not agree, and --write
	// cannot fix it.
	Unsummarised []roadmap.StateClaim `json:"unsummarised"`
}

// DeriveCurrentPosition works out the position STATE.md records from a loaded project: the
// current phase of the position model (roadmap.Locate's decision) with the current milestone's
// counts, as GSD scopes them. When the milestone is finished, its last phase, complete.
func DeriveCurrentPosition(proj *roadmap.Project) CurrentPosition {
	pos := CurrentPosition{
		Percent:     proj.Progress.Percent,
		PhasesDone:  proj.Progress.PhasesComplete,
		PhasesTotal: proj.Progress.PhasesTotal,
		PlansDone:   proj.Progress.PlansComplete,
		PlansTotal:  proj.Progress.PlansTotal,
	}
	if proj.Position != nil {
		pos.PhaseOf = proj.Position.PhaseOf()
	}
	ph := proj.CurrentPhase()
	allDone := false
	if ph == nil && proj.Position != nil && len(proj.Position.Phases) > 0 {
		last := proj.Position.Phases[len(proj.Position.Phases)-1].Num
		for i := range proj.Phases {
			// Of this milestone: another may list a phase of the same number.
			if proj.Phases[i].Num.Equal(last) && proj.Phases[i].InMilestone {
				ph, allDone = &proj.Phases[i], true
			}
		}
	}
	if ph == nil {
		pos.Status = "Ready to plan"
		return pos
	}
	phasePosition(&pos, &ph.Phase, ph.Status, proj.Active)
	if allDone && proj.Progress.PhasesComplete == proj.Progress.PhasesTotal {
		// Complete only when every phase is: a phase the roadmap calls complete while a plan of
		// it has no SUMMARY (an error of progress --check) keeps its own status.
		pos.Status = statemd.StatusFinished
	}
	return pos
}

// phasePosition fills in the phase, plan and status fields of pos from phase ph, its status
// (as the disk and the roadmap together say it) and its active plan.
func phasePosition(pos *CurrentPosition, ph *roadmap.Phase, status roadmap.Status, active *roadmap.Plan) {
	pos.Phase, pos.PhaseName = ph.Num.String(), ph.Name
	k := 0
	for _, pl := range ph.Plans {
		if pl.Fix() {
			continue
		}
		k++
		pos.PlanTotal++
		if pl.Done() {
			pos.PlanDone++
		} else if pos.PlanNumber == 0 {
			pos.PlanNumber = k
		}
	}
	if pos.PlanNumber == 0 {
		pos.PlanNumber = pos.PlanTotal
	}
	if active != nil {
		pos.ActivePlan = active.Path
	}
	switch {
	case len(ph.Plans) == 0:
		pos.Status = "Ready to plan"
	case pos.PlanDone == 0 && status != roadmap.StatusInProgress:
		pos.Status = "Ready to execute"
	default:
		pos.Status = "In progress"
	}
}

// readState reads STATE.md, refusing a binary file: rewriting one would destroy it.
func (e *Env) readState() ([]byte, error) {
	src, err := e.readFile(e.statePath())
	if err != nil {
		return nil, err
	}
	if roadmap.Binary(src) {
		return nil, fmt.Errorf("%s: %w", e.statePath(), roadmap.ErrBinary)
	}
	return src, nil
}

// statePath is STATE.md beside the roadmap (a workstream has its own).
func (e *Env) statePath() string { return path.Join(e.PlanningDir, "STATE.md") }

// stateReport derives the position and compares STATE.md's text src (nil when there is no
// STATE.md) with it.
func (e *Env) stateReport(proj *roadmap.Project, src []byte) *StateReport {
	sp := &StateReport{Path: e.statePath(), Position: DeriveCurrentPosition(proj), Differences: []Difference{}, Unsummarised: []roadmap.StateClaim{}}
	if src == nil {
		return sp
	}
	sp.Exists = true
	sp.Differences = compareState(src, sp.Position, true)
	if proj.Unsummarised != nil {
		sp.Unsummarised = proj.Unsummarised
	}
	sp.Agrees = len(sp.Differences) == 0 && len(sp.Unsummarised) == 0
	return sp
}

// StateReport derives the position and says whether STATE.md agrees with it. It writes nothing.
// STATE.md is compared as the position read it for its decision, not read again.
func (p Project) StateReport() (*StateReport, error) {
	e := p.e
	proj, err := roadmap.Load(e.FS, e.PlanningDir)
	if err != nil {
		return nil, err
	}
	return e.stateReport(proj, proj.Position.State), nil
}

// WriteState rewrites STATE.md's Current Position block (Phase, Plan, Status and Progress
// lines) and the progress fields of its frontmatter to the derived position, leaving every other
// byte as it was; a missing STATE.md is created in GSD's template shape. It holds STATE.md.lock
// the way GSD's own tooling does while it reads and writes. It reports whether the file changed.
func (p Project) WriteState() (*StateReport, bool, error) {
	e := p.e
	proj, err := roadmap.Load(e.FS, e.PlanningDir)
	if err != nil {
		return nil, false, err
	}
	return e.writeState(proj)
}

func (e *Env) writeState(proj *roadmap.Project) (*StateReport, bool, error) {
	var sp *StateReport
	changed := false
	err := e.withStateLock(func() error {
		// Read again under the lock: the position read STATE.md before another writer could
		// have changed it.
		src, err := e.readState()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			src = nil
		case err != nil:
			return err
		}
		sp = e.stateReport(proj, src)
		out := e.stateOutput(sp, src)
		if sp.Exists && bytes.Equal(src, out) {
			return nil
		}
		perm := fs.FileMode(0o644)
		if fi, err := os.Stat(e.abs(sp.Path)); err == nil {
			perm = fi.Mode().Perm()
		}
		if err := atomicfile.WriteFile(e.abs(sp.Path), out, perm); err != nil {
			return fmt.Errorf("%s: %w", sp.Path, err)
		}
		changed = true
		e.pos = nil // the position read STATE.md (and what it declares) before this write
		sp.Exists, sp.Agrees, sp.Differences = true, len(sp.Unsummarised) == 0, []Difference{}
		return nil
	})
	return sp, changed, err
}

// stateOutput is STATE.md as a write would leave it, from its text src (nil when missing).
func (e *Env) stateOutput(sp *StateReport, src []byte) []byte {
	if src == nil {
		return statemd.New(sp.Position.values(true), e.now())
	}
	return rewriteState(src, sp.Position)
}

// StateDiff is what WriteState would do, as a unified diff of STATE.md (nil when it already
// agrees). It writes nothing and takes no lock.
func (p Project) StateDiff() (*StateReport, []byte, error) {
	e := p.e
	proj, err := roadmap.Load(e.FS, e.PlanningDir)
	if err != nil {
		return nil, nil, err
	}
	src := proj.Position.State
	sp := e.stateReport(proj, src)
	return sp, diff.Diff(sp.Path, src, sp.Path, e.stateOutput(sp, src)), nil
}

// StateLockStale is the age after which a STATE.md.lock is taken to be left behind by a crashed
// process and removed. Holders keep it for the few milliseconds of one read-modify-write, so ten
// seconds is far beyond any live holder. (The value is gsd's choice: GSD's own threshold is not
// written down anywhere we could check.)
const StateLockStale = 10 * time.Second

// withStateLock runs fn holding STATE.md.lock, as GSD's own tooling does (see
// atomicfile.CreateLockFile: abandoned locks are reclaimed atomically, and at once when their
// holder is dead).
func (e *Env) withStateLock(fn func() error) error {
	if err := e.CheckSettings(writingSettings...); err != nil {
		return err
	}
	l, err := atomicfile.CreateLockFile(e.abs(e.statePath()+".lock"), e.lockTimeout, StateLockStale)
	if err != nil {
		return err
	}
	defer l.Release()
	atomicfile.RemoveTemps(filepath.Dir(e.abs(e.statePath())), path.Base(e.statePath()))
	return fn()
}

// SaysText is what STATE.md says, for a message: the line, or "no <field> line".
func (d Difference) SaysText() string {
	if d.Says == nil {
		return "no " + d.Field + " line"
	}
	return *d.Says
}

// compareState lists where STATE.md disagrees with pos: exactly the lines that rewriteState
// would change, so that a check and a write can never disagree. Without full, the project-wide
// numbers (the percent and the frontmatter counts) are not compared.
func compareState(src []byte, pos CurrentPosition, full bool) []Difference {
	changes := statemd.Changes(src, pos.values(full))
	diffs := make([]Difference, 0, len(changes))
	for _, c := range changes {
		d := Difference{Field: c.Field, Line: c.Line, Derived: strings.TrimSpace(c.New)}
		if c.Old != "" {
			says := strings.TrimSpace(c.Old)
			d.Says = &says
		}
		if n := len(diffs); c.Field == "frontmatter" && n > 0 && diffs[n-1].Field == "frontmatter" {
			// The frontmatter's numbers are one fact, reported once at its first line.
			says := diffs[n-1].SaysText() + ", " + d.SaysText()
			diffs[n-1].Says = &says
			diffs[n-1].Derived += ", " + d.Derived
			continue
		}
		diffs = append(diffs, d)
	}
	return diffs
}

// rewriteState is src with every line that disagrees with pos rewritten (see statemd.Rewrite).
func rewriteState(src []byte, pos CurrentPosition) []byte {
	out, _ := statemd.Rewrite(src, pos.values(true))
	return out
}

// syncState compares STATE.md with the current phase. Without write it does so cheaply, as
// every agent turn's hydrate does: only ROADMAP.md and the current phase's directory are read,
// so the Phase, Plan and Status lines are checked and the milestone's counts (Progress, the
// frontmatter's numbers), which need every phase, are not. With write it is gsd state --write:
// the whole project is loaded, and every line that disagrees is rewritten.
func (e *Env) syncState(res *Result, write bool) error {
	if write {
		_, changed, err := e.Project().WriteState()
		if err != nil {
			return err
		}
		res.StateSynced = changed
		return nil
	}
	// The position read STATE.md for its decision; its bytes are compared here, not read again.
	// An unreadable STATE.md (or roadmap) fails the position: it must not stop hydrate, and
	// gsd state and gsd progress report it.
	p, err := e.Position()
	if err != nil || p.State == nil || p.Phase == nil {
		return nil
	}
	var pos CurrentPosition
	phasePosition(&pos, p.Phase, p.PhaseStatus(), p.Active)
	pos.PhaseOf = p.PhaseOf()
	res.StateDrift = compareState(p.State, pos, false)
	return nil
}
