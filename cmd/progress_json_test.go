package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/internal/testcorpus"
	"github.com/gsd-tools/gsd/roadmap"
)

// encodingJSON is what printJSON writes for v.
func encodingJSON(t *testing.T, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	a := &app{stdout: &buf}
	if err := a.printJSON(v); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestProgressJSONWriter holds progress --json's writer to encoding/json's output for the same
// report, the struct tags being the format's definition: on every corpus tree (the current
// milestone and --all; GSD_CORPUS), and on a report with every optional field set, nil and empty
// lists, and text encoding/json escapes.
func TestProgressJSONWriter(t *testing.T) {
	t.Run("corpus", testProgressJSONWriterCorpus)
	testProgressJSONWriterOdd(t)
}

func testProgressJSONWriterCorpus(t *testing.T) {
	corpusDir := testcorpus.Dir(t)
	ents, err := os.ReadDir(corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	trees := 0
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		dir, err := filepath.Abs(filepath.Join(corpusDir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		env, err := hydrate.Open(hydrate.Config{Dir: dir, Identity: identity.Sources{Flag: "probe", FlagGiven: true}})
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		r, err := env.Progress()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		trees++
		for _, all := range []bool{false, true} {
			rep := progressJSON(r, all)
			if got, want := rep.appendJSON(nil), encodingJSON(t, rep); !bytes.Equal(got, want) {
				t.Errorf("%s (all %v): the writer gives\n%s\nencoding/json\n%s", e.Name(), all, got, want)
			}
		}
	}
	if trees < 6 {
		t.Fatalf("the corpus has %d trees", trees)
	}
}

func testProgressJSONWriterOdd(t *testing.T) {
	odd := "<b>&amp;</b> \"q\" \\ tab\t nl\n \x01 \xff bad \u2028 日本"
	yes, no := true, false
	n := 3
	says := odd
	num, _ := roadmap.ParsePhaseNum("12.3A")
	full := progressReportJSON{
		SchemaVersion: SchemaVersion, PlanningDir: ".planning/workstreams/" + odd, Scope: "workstream:x",
		Milestone: &odd, CurrentPhase: &odd, ActivePlan: &odd, NeedsPlanning: true, Trackable: &no,
		Rule:     roadmap.RuleState,
		Evidence: []roadmap.Evidence{{Decision: "phase", File: odd, Line: 7, Says: odd}, {}},
		Progress: roadmap.Progress{PhasesComplete: 1, PhasesTotal: 2, PlansComplete: 3, PlansTotal: 4, Percent: 75},
		Quick:    progressQuickJSON{Done: 1, Total: 2},
		Phases: []progressPhaseJSON{
			{Number: num, Name: odd, Dir: &odd, RoadmapStatus: roadmap.StatusInProgress, Status: roadmap.StatusComplete,
				Current: true, InMilestone: true, PlansDone: 1, PlansTotal: 2,
				Plans: []progressPlanJSON{{ID: odd, Path: odd, Done: true}, {}}},
			{Plans: nil},
		},
		Sessions: []progressSessionJSON{
			{User: odd, SessionFile: odd, Plan: &odd, State: hydrate.StateStale, TasksDone: 1, TasksTotal: -2,
				ResumeTask: &n, Changed: time.Unix(0, 0).UTC().Format(time.RFC3339), Reasons: []string{odd, ""}, Error: &odd},
			{},
		},
		State: &hydrate.StatePosition{Path: odd, Exists: true, Agrees: false,
			Position: hydrate.Position{Phase: "12.3A", PhaseName: odd, PhaseOf: 12, PlanNumber: 2, PlanDone: 1, PlanTotal: 3,
				Status: odd, Percent: 99, ActivePlan: odd, PhasesDone: 1, PhasesTotal: 2, PlansDone: 3, PlansTotal: 4},
			Differences: []hydrate.Difference{{Field: "phase", Line: 3, Says: &says, Derived: odd}, {Field: "plan"}}},
		Problems: []roadmap.Problem{{Severity: roadmap.SeverityError, File: odd, Line: 1, Message: odd}},
	}
	empty := progressReportJSON{Trackable: &yes, State: &hydrate.StatePosition{Differences: []hydrate.Difference{}},
		Evidence: []roadmap.Evidence{}, Phases: []progressPhaseJSON{}}
	for name, rep := range map[string]progressReportJSON{"full": full, "empty lists": empty, "zero": {}} {
		if got, want := rep.appendJSON(nil), encodingJSON(t, rep); !bytes.Equal(got, want) {
			t.Errorf("%s: the writer gives\n%s\nencoding/json\n%s", name, got, want)
		}
	}
}
