package cmd

import (
	"slices"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/jsonlite"
	"github.com/gsd-tools/gsd/roadmap"
)

// appendJSON appends the report as printJSON writes it, without encoding/json: `gsd progress
// --json` is what CI and dashboards poll, and on a fresh process encoding/json first builds its
// codecs by reflection, then indents its output in a second pass (together a tenth of the
// command on the largest corpus tree). The struct tags stay the definition of the format:
// TestProgressJSONWriter holds this writer to encoding/json's output on every corpus tree.
func (r *progressReportJSON) appendJSON(dst []byte) []byte {
	w := jsonlite.NewIndented(dst)
	w.Open('{')
	w.Key("schemaVersion")
	w.Int(r.SchemaVersion)
	w.Key("planningDir")
	w.String(r.PlanningDir)
	w.Key("scope")
	w.String(r.Scope)
	w.Key("milestone")
	w.StringOrNull(r.Milestone)
	w.Key("currentPhase")
	w.StringOrNull(r.CurrentPhase)
	w.Key("activePlan")
	w.StringOrNull(r.ActivePlan)
	w.Key("needsPlanning")
	w.Bool(r.NeedsPlanning)
	w.Key("trackable")
	if r.Trackable == nil {
		w.Null()
	} else {
		w.Bool(*r.Trackable)
	}
	w.Key("rule")
	w.String(string(r.Rule))
	w.Key("evidence")
	array(w, r.Evidence, func(e roadmap.Evidence) {
		w.Open('{')
		w.Key("decision")
		w.String(e.Decision)
		w.Key("file")
		w.String(e.File)
		w.Key("line")
		w.Int(e.Line)
		w.Key("says")
		w.String(e.Says)
		w.Close('}')
	})
	w.Key("planFiles")
	w.Int(r.PlanFiles)
	w.Key("plansDone")
	w.Int(r.PlansDone)
	w.Key("progress")
	writeProgress(w, r.Progress)
	w.Key("allProgress")
	writeProgress(w, r.AllProgress)
	w.Key("quick")
	writeQuick(w, r.Quick)
	w.Key("phases")
	array(w, r.Phases, func(ph progressPhaseJSON) {
		w.Open('{')
		w.Key("number")
		w.String(ph.Number.String())
		w.Key("name")
		w.String(ph.Name)
		w.Key("dir")
		w.StringOrNull(ph.Dir)
		w.Key("roadmapStatus")
		w.String(ph.RoadmapStatus.String())
		w.Key("status")
		w.String(ph.Status.String())
		w.Key("current")
		w.Bool(ph.Current)
		w.Key("inMilestone")
		w.Bool(ph.InMilestone)
		w.Key("plansDone")
		w.Int(ph.PlansDone)
		w.Key("plansTotal")
		w.Int(ph.PlansTotal)
		w.Key("plans")
		array(w, ph.Plans, func(pl progressPlanJSON) {
			w.Open('{')
			w.Key("id")
			w.String(pl.ID)
			w.Key("path")
			w.String(pl.Path)
			w.Key("done")
			w.Bool(pl.Done)
			w.Close('}')
		})
		w.Close('}')
	})
	w.Key("sessions")
	array(w, r.Sessions, func(s progressSessionJSON) {
		w.Open('{')
		w.Key("user")
		w.String(s.User)
		w.Key("sessionFile")
		w.String(s.SessionFile)
		w.Key("plan")
		w.StringOrNull(s.Plan)
		w.Key("state")
		w.String(string(s.State))
		w.Key("tasksDone")
		w.Int(s.TasksDone)
		w.Key("tasksTotal")
		w.Int(s.TasksTotal)
		w.Key("resumeTask")
		if s.ResumeTask == nil {
			w.Null()
		} else {
			w.Int(*s.ResumeTask)
		}
		w.Key("changed")
		w.String(s.Changed)
		w.Key("reasons")
		array(w, s.Reasons, w.String)
		w.Key("error")
		w.StringOrNull(s.Error)
		w.Close('}')
	})
	w.Key("state")
	writeStatePosition(w, r.State)
	w.Key("problems")
	array(w, r.Problems, func(p roadmap.Problem) {
		w.Open('{')
		w.Key("severity")
		w.String(string(p.Severity))
		w.Key("file")
		w.String(p.File)
		w.Key("line")
		w.Int(p.Line)
		w.Key("message")
		w.String(p.Message)
		w.Close('}')
	})
	w.Close('}')
	return w.Bytes()
}

// array writes s with each, or null for a nil slice, as encoding/json does.
func array[T any](w *jsonlite.Indented, s []T, each func(T)) {
	if s == nil {
		w.Null()
		return
	}
	w.Open('[')
	for _, v := range s {
		each(v)
	}
	w.Close(']')
}

func writeProgress(w *jsonlite.Indented, p roadmap.Progress) {
	w.Open('{')
	w.Key("phasesComplete")
	w.Int(p.PhasesComplete)
	w.Key("phasesTotal")
	w.Int(p.PhasesTotal)
	w.Key("plansComplete")
	w.Int(p.PlansComplete)
	w.Key("plansTotal")
	w.Int(p.PlansTotal)
	w.Key("percent")
	w.Int(p.Percent)
	w.Close('}')
}

// writeQuick writes the quick-task counts with their keys in order, as encoding/json writes a map.
func writeQuick(w *jsonlite.Indented, q map[string]int) {
	if q == nil {
		w.Null()
		return
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	w.Open('{')
	for _, k := range keys {
		w.Key(k)
		w.Int(q[k])
	}
	w.Close('}')
}

func writeStatePosition(w *jsonlite.Indented, sp *hydrate.StatePosition) {
	if sp == nil {
		w.Null()
		return
	}
	w.Open('{')
	w.Key("stateFile")
	w.String(sp.Path)
	w.Key("exists")
	w.Bool(sp.Exists)
	w.Key("position")
	p := sp.Position
	w.Open('{')
	w.Key("phase")
	w.String(p.Phase)
	w.Key("phaseName")
	w.String(p.PhaseName)
	w.Key("phaseOf")
	w.Int(p.PhaseOf)
	w.Key("plan")
	w.Int(p.PlanNumber)
	w.Key("planDone")
	w.Int(p.PlanDone)
	w.Key("planTotal")
	w.Int(p.PlanTotal)
	w.Key("status")
	w.String(p.Status)
	w.Key("percent")
	w.Int(p.Percent)
	w.Key("activePlan")
	w.String(p.ActivePlan)
	w.Key("phasesComplete")
	w.Int(p.PhasesDone)
	w.Key("phasesTotal")
	w.Int(p.PhasesTotal)
	w.Key("plansComplete")
	w.Int(p.PlansDone)
	w.Key("plansTotal")
	w.Int(p.PlansTotal)
	w.Close('}')
	w.Key("agrees")
	w.Bool(sp.Agrees)
	w.Key("differences")
	array(w, sp.Differences, func(d hydrate.Difference) {
		w.Open('{')
		w.Key("field")
		w.String(d.Field)
		w.Key("line")
		w.Int(d.Line)
		w.Key("says")
		w.StringOrNull(d.Says)
		w.Key("derived")
		w.String(d.Derived)
		w.Close('}')
	})
	w.Close('}')
}
