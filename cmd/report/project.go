package report

import (
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/roadmap"
)

// Progress is gsd progress --json (and MCP's project_progress, which may leave out or page its
// phases).
type Progress struct {
	SchemaVersion int    `json:"schemaVersion"`
	PlanningDir   string `json:"planningDir"`
	Scope         string `json:"scope"`
	Position
	Trackable    *bool                    `json:"trackable"`
	Rule         roadmap.Rule             `json:"rule"`
	Evidence     []roadmap.Evidence       `json:"evidence"`
	Confidence   roadmap.Confidence       `json:"confidence"`
	Alternatives []Alternative            `json:"alternatives"`
	Git          string                   `json:"git"`     // which evidence of the work git gave
	Handoff      *roadmap.Handoff         `json:"handoff"` // GSD's newest pause file, in force or history
	PlanFiles    int                      `json:"planFiles"`
	PlansDone    int                      `json:"plansDone"`
	Progress     roadmap.Progress         `json:"progress"`
	AllProgress  roadmap.Progress         `json:"allProgress"`
	Quick        ProgressQuick            `json:"quick"`
	Phases       []ProgressPhase          `json:"phases"`
	Sessions     []hydrate.SessionSummary `json:"sessions"` // as gsd sessions --json has them
	State        *StateFile               `json:"state"`    // null without a STATE.md
	Problems     []roadmap.Problem        `json:"problems"`
}

// ProgressPhase is a phase of a progress report.
type ProgressPhase struct {
	Number        roadmap.PhaseNum `json:"number"`
	Name          string           `json:"name"`
	Dir           *string          `json:"dir"`           // its directory; null when it has none yet
	RoadmapStatus roadmap.Status   `json:"roadmapStatus"` // as ROADMAP.md marks it
	Status        roadmap.Status   `json:"status"`        // as the disk and the roadmap together say it
	Current       bool             `json:"current"`
	InMilestone   bool             `json:"inMilestone"`
	PlansDone     int              `json:"plansDone"`  // plans with their SUMMARY (FIX plans not counted)
	PlansTotal    int              `json:"plansTotal"` // plans (FIX plans not counted)
	Plans         []ProgressPlan   `json:"plans"`
}

// ProgressPlan is a plan of a phase of a progress report.
type ProgressPlan struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Done bool   `json:"done"`
}

// ProgressQuick counts the quick tasks, which progress does not count.
type ProgressQuick struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// Position is where a project stands, as progress --json and each of workstreams --json's
// workstreams give it: null for what is unknown.
type Position struct {
	Milestone     *string `json:"milestone"`
	CurrentPhase  *string `json:"currentPhase"`
	ActivePlan    *string `json:"activePlan"`
	NeedsPlanning bool    `json:"needsPlanning"`
}

func positionOf(p *roadmap.Project) Position {
	out := Position{Milestone: optString(p.Milestone), NeedsPlanning: p.Position.NeedsPlanning}
	if cur := p.CurrentPhase(); cur != nil {
		out.CurrentPhase = optString(cur.Num.String())
	}
	if p.Active != nil {
		out.ActivePlan = optString(p.Active.Path)
	}
	return out
}

// Alternative is a roadmap.Alternative with null for no phase or no plan.
type Alternative struct {
	Phase    *string            `json:"phase"`
	Plan     *string            `json:"plan"`
	Why      string             `json:"why"`
	Evidence []roadmap.Evidence `json:"evidence"`
}

func alternativesOf(alts []roadmap.Alternative) []Alternative {
	out := []Alternative{}
	for _, a := range alts {
		out = append(out, Alternative{Phase: optString(a.Phase), Plan: optString(a.Plan), Why: a.Why, Evidence: nonNil(a.Evidence)})
	}
	return out
}

// ProgressOf is the report of progress r: the current milestone's phases, every phase with all
// (--all).
func ProgressOf(r *hydrate.ProgressReport, all bool) Progress {
	pos := r.Position
	out := Progress{
		SchemaVersion: SchemaVersion,
		PlanningDir:   r.PlanningDir,
		Scope:         pos.Scope,
		Position:      positionOf(r.Project),
		Trackable:     r.Trackable,
		Rule:          pos.Rule,
		Evidence:      nonNil(pos.Evidence),
		Confidence:    pos.Confidence,
		Alternatives:  alternativesOf(pos.Alternatives),
		Git:           r.Git,
		Handoff:       pos.Handoff,
		PlanFiles:     r.PlanFiles,
		PlansDone:     r.PlansDone,
		Progress:      r.Progress,
		AllProgress:   r.AllProgress,
		Phases:        []ProgressPhase{},
		Sessions:      nonNil(r.Sessions),
		State:         stateFileOf(r.StateFile),
		Problems:      nonNil(r.Problems),
	}
	out.Quick = ProgressQuick{Done: r.QuickDone(), Total: len(r.Quick)}
	shown, _ := r.Listed(all)
	for _, i := range shown {
		ph := &r.Phases[i]
		pj := ProgressPhase{
			Number: ph.Num, Name: ph.Name, Dir: optString(ph.Dir),
			RoadmapStatus: ph.RoadmapStatus, Status: ph.Status, Current: i == r.Current, InMilestone: ph.InMilestone,
			Plans: []ProgressPlan{},
		}
		pj.PlansDone, pj.PlansTotal = ph.Counted()
		for _, pl := range ph.Plans {
			pj.Plans = append(pj.Plans, ProgressPlan{ID: pl.ID, Path: pl.Path, Done: pl.Done()})
		}
		out.Phases = append(out.Phases, pj)
	}
	return out
}

// Workstreams is gsd workstreams --json.
type Workstreams struct {
	SchemaVersion int          `json:"schemaVersion"`
	Active        *string      `json:"active"`
	SelectedBy    *string      `json:"selectedBy"`
	Pointer       *string      `json:"pointer"`
	Overruled     *string      `json:"overruled"`
	Error         *string      `json:"error"`
	Workstreams   []Workstream `json:"workstreams"`
}

// Workstream is one workstream of gsd workstreams --json: null for what is unknown.
type Workstream struct {
	Name        string `json:"name"`
	PlanningDir string `json:"planningDir"`
	Active      bool   `json:"active"`
	Position
	Rule       *roadmap.Rule       `json:"rule"`
	Confidence *roadmap.Confidence `json:"confidence"`
	Progress   *roadmap.Progress   `json:"progress"`
	Error      *string             `json:"error"`
}

// WorkstreamsOf is the report of every workstream and which one is active.
func WorkstreamsOf(r *hydrate.WorkstreamsReport) Workstreams {
	sel := r.Selection
	out := Workstreams{
		SchemaVersion: SchemaVersion,
		SelectedBy:    optString(sel.By),
		Pointer:       optString(sel.Pointer),
		Overruled:     optString(sel.Overruled),
		Workstreams:   []Workstream{},
	}
	if r.SelectErr != nil {
		out.Error = optString(r.SelectErr.Error())
	} else {
		out.Active = optString(sel.Workstream)
	}
	for _, ws := range r.Workstreams {
		wj := Workstream{Name: ws.Name, PlanningDir: ws.PlanningDir, Active: ws.Active}
		if ws.Err != nil {
			wj.Error = optString(ws.Err.Error())
			out.Workstreams = append(out.Workstreams, wj)
			continue
		}
		p := ws.Project
		wj.Position = positionOf(p)
		wj.Rule, wj.Confidence, wj.Progress = &p.Position.Rule, &p.Position.Confidence, &p.Progress
		out.Workstreams = append(out.Workstreams, wj)
	}
	return out
}

// State is gsd state --json.
type State struct {
	SchemaVersion int `json:"schemaVersion"`
	StateFile
	Written bool    `json:"written"`
	Diff    *string `json:"diff"` // --dry-run's diff; null otherwise, or when nothing would change
}

// StateOf is the report of STATE.md against what it should say: written by --write, diff of
// --dry-run.
func StateOf(sp *hydrate.StateReport, written bool, diff []byte) State {
	return State{SchemaVersion, *stateFileOf(sp), written, optString(string(diff))}
}

// StateFile is STATE.md against what it should say, as gsd state --json and progress --json's
// state have it.
type StateFile struct {
	Path         string               `json:"stateFile"`
	Exists       bool                 `json:"exists"`
	Position     StatePosition        `json:"position"`
	Agrees       bool                 `json:"agrees"`
	Differences  []hydrate.Difference `json:"differences"`
	Unsummarised []roadmap.StateClaim `json:"unsummarised"`
}

// StatePosition is what STATE.md's Current Position block and its frontmatter's progress should
// say (roadmap.Project.StateValues), and the plan to work on next.
type StatePosition struct {
	Phase       string `json:"phase"`      // the phase number, canonical ("3", "4.1"); "" without phases
	PhaseName   string `json:"phaseName"`  // its name
	PhaseOf     int    `json:"phaseOf"`    // the last whole-numbered phase (decimal insertions are not counted, as GSD does not)
	PlanNumber  int    `json:"plan"`       // the plan being worked on: the first without a SUMMARY, 1-based; PlanTotal when all are done
	PlanDone    int    `json:"planDone"`   // plans of the phase complete
	PlanTotal   int    `json:"planTotal"`  // plans of the phase (FIX plans not counted)
	Status      string `json:"status"`     // "Ready to plan", "Ready to execute", "In progress", "Complete"
	Percent     int    `json:"percent"`    // the milestone's percent complete (progress's)
	ActivePlan  string `json:"activePlan"` // the plan to work on next, "" if none
	PhasesDone  int    `json:"phasesComplete"`
	PhasesTotal int    `json:"phasesTotal"`
	PlansDone   int    `json:"plansComplete"`
	PlansTotal  int    `json:"plansTotal"`
}

// stateFileOf is the report of sp, nil for none.
func stateFileOf(sp *hydrate.StateReport) *StateFile {
	if sp == nil {
		return nil
	}
	v := sp.Values
	return &StateFile{
		Path:   sp.Path,
		Exists: sp.Exists,
		Position: StatePosition{
			Phase: v.Phase, PhaseName: v.PhaseName, PhaseOf: v.PhaseOf,
			PlanNumber: v.PlanNumber, PlanDone: v.PlanDone, PlanTotal: v.PlanTotal, Status: v.Status,
			Percent: v.Percent, ActivePlan: sp.ActivePlan,
			PhasesDone: v.CompletedPhases, PhasesTotal: v.TotalPhases, PlansDone: v.CompletedPlans, PlansTotal: v.TotalPlans,
		},
		Agrees:       sp.Agrees,
		Differences:  sp.Differences,
		Unsummarised: sp.Unsummarised,
	}
}
