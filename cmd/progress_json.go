package cmd

import (
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
	w.IntField("schemaVersion", r.SchemaVersion)
	w.StringField("planningDir", r.PlanningDir)
	w.StringField("scope", r.Scope)
	w.StringOrNullField("milestone", r.Milestone)
	w.StringOrNullField("currentPhase", r.CurrentPhase)
	w.StringOrNullField("activePlan", r.ActivePlan)
	w.BoolField("needsPlanning", r.NeedsPlanning)
	w.Key("trackable")
	if r.Trackable == nil {
		w.Null()
	} else {
		w.Bool(*r.Trackable)
	}
	w.StringField("rule", string(r.Rule))
	w.Key("evidence")
	array(w, r.Evidence, writeEvidence(w))
	w.StringField("confidence", string(r.Confidence))
	w.Key("alternatives")
	array(w, r.Alternatives, func(a alternativeJSON) {
		w.Open('{')
		w.StringOrNullField("phase", a.Phase)
		w.StringOrNullField("plan", a.Plan)
		w.StringField("why", a.Why)
		w.Key("evidence")
		array(w, a.Evidence, writeEvidence(w))
		w.Close('}')
	})
	w.IntField("planFiles", r.PlanFiles)
	w.IntField("plansDone", r.PlansDone)
	w.Key("progress")
	writeProgress(w, r.Progress)
	w.Key("allProgress")
	writeProgress(w, r.AllProgress)
	w.Key("quick")
	w.Open('{')
	w.IntField("done", r.Quick.Done)
	w.IntField("total", r.Quick.Total)
	w.Close('}')
	w.Key("phases")
	array(w, r.Phases, func(ph progressPhaseJSON) {
		w.Open('{')
		w.StringField("number", ph.Number.String())
		w.StringField("name", ph.Name)
		w.StringOrNullField("dir", ph.Dir)
		w.StringField("roadmapStatus", ph.RoadmapStatus.String())
		w.StringField("status", ph.Status.String())
		w.BoolField("current", ph.Current)
		w.BoolField("inMilestone", ph.InMilestone)
		w.IntField("plansDone", ph.PlansDone)
		w.IntField("plansTotal", ph.PlansTotal)
		w.Key("plans")
		array(w, ph.Plans, func(pl progressPlanJSON) {
			w.Open('{')
			w.StringField("id", pl.ID)
			w.StringField("path", pl.Path)
			w.BoolField("done", pl.Done)
			w.Close('}')
		})
		w.Close('}')
	})
	w.Key("sessions")
	array(w, r.Sessions, func(s progressSessionJSON) {
		w.Open('{')
		w.StringField("user", s.User)
		w.StringField("sessionFile", s.SessionFile)
		w.StringOrNullField("plan", s.Plan)
		w.StringField("state", string(s.State))
		w.IntField("tasksDone", s.TasksDone)
		w.IntField("tasksTotal", s.TasksTotal)
		w.Key("resumeTask")
		if s.ResumeTask == nil {
			w.Null()
		} else {
			w.Int(*s.ResumeTask)
		}
		w.StringField("changed", s.Changed)
		w.Key("reasons")
		array(w, s.Reasons, w.String)
		w.StringOrNullField("error", s.Error)
		w.Close('}')
	})
	w.Key("state")
	writeStatePosition(w, r.State)
	w.Key("problems")
	array(w, r.Problems, func(p roadmap.Problem) {
		w.Open('{')
		w.StringField("severity", string(p.Severity))
		w.StringField("file", p.File)
		w.IntField("line", p.Line)
		w.StringField("message", p.Message)
		w.Close('}')
	})
	w.Close('}')
	return w.Bytes()
}

// writeEvidence returns the writer of one piece of evidence.
func writeEvidence(w *jsonlite.Indented) func(roadmap.Evidence) {
	return func(e roadmap.Evidence) {
		w.Open('{')
		w.StringField("decision", e.Decision)
		w.StringField("file", e.File)
		w.IntField("line", e.Line)
		w.StringField("says", e.Says)
		w.Close('}')
	}
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
	w.IntField("phasesComplete", p.PhasesComplete)
	w.IntField("phasesTotal", p.PhasesTotal)
	w.IntField("plansComplete", p.PlansComplete)
	w.IntField("plansTotal", p.PlansTotal)
	w.IntField("percent", p.Percent)
	w.Close('}')
}

func writeStatePosition(w *jsonlite.Indented, sp *hydrate.StatePosition) {
	if sp == nil {
		w.Null()
		return
	}
	w.Open('{')
	w.StringField("stateFile", sp.Path)
	w.BoolField("exists", sp.Exists)
	w.Key("position")
	p := sp.Position
	w.Open('{')
	w.StringField("phase", p.Phase)
	w.StringField("phaseName", p.PhaseName)
	w.IntField("phaseOf", p.PhaseOf)
	w.IntField("plan", p.PlanNumber)
	w.IntField("planDone", p.PlanDone)
	w.IntField("planTotal", p.PlanTotal)
	w.StringField("status", p.Status)
	w.IntField("percent", p.Percent)
	w.StringField("activePlan", p.ActivePlan)
	w.IntField("phasesComplete", p.PhasesDone)
	w.IntField("phasesTotal", p.PhasesTotal)
	w.IntField("plansComplete", p.PlansDone)
	w.IntField("plansTotal", p.PlansTotal)
	w.Close('}')
	w.BoolField("agrees", sp.Agrees)
	w.Key("differences")
	array(w, sp.Differences, func(d hydrate.Difference) {
		w.Open('{')
		w.StringField("field", d.Field)
		w.IntField("line", d.Line)
		w.StringOrNullField("says", d.Says)
		w.StringField("derived", d.Derived)
		w.Close('}')
	})
	w.Close('}')
}
