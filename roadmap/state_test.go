package roadmap

import (
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// stateProject is a project of roadmap rm (.planning/ROADMAP.md) with a plan at each of done,
// with its SUMMARY, and at each of open, without (paths under .planning).
func stateProject(rm string, done, open []string) map[string]string {
	const plan = "<tasks>\n<task type=\"auto\"><name>T</name></task>\n</tasks>\n"
	files := map[string]string{".planning/ROADMAP.md": rm}
	for _, p := range done {
		files[".planning/"+p] = plan
		files[".planning/"+strings.TrimSuffix(p, "-PLAN.md")+"-SUMMARY.md"] = "done"
	}
	for _, p := range open {
		files[".planning/"+p] = plan
	}
	return files
}

// StateValues are what STATE.md should say: the current phase with its plan numbers and status,
// the milestone's counts; Position.StateValues, hydrate's cheap check, says the same of the
// phase without loading every phase.
func TestStateValues(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  statemd.Values
	}{
		{
			name: "a phase in progress: its second plan is worked on",
			files: stateProject("| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n"+
				"| 1. One | 1/1 | Complete | 2026-01-01 |\n| 3. Three | 1/2 | In Progress | - |\n",
				[]string{"phases/01-one/01-01-PLAN.md", "phases/03-three/03-01-PLAN.md"},
				[]string{"phases/03-three/03-02-PLAN.md", "phases/03-three/03-03-FIX.md"}), // FIX plans are not counted
			want: statemd.Values{Phase: "3", PhaseOf: 3, PhaseName: "Three", PlanNumber: 2, PlanDone: 1, PlanTotal: 2, Status: "In progress",
				Percent: 50, PercentKnown: true, TotalPhases: 2, CompletedPhases: 1, TotalPlans: 3, CompletedPlans: 2, CountsKnown: true},
		},
		{
			// Every plan done, but phase 4 has none yet: it is next, and the phases cap the percent.
			name: "the next phase is to plan",
			files: stateProject("- [x] **Phase 1: One**\n- [x] **Phase 3: Three**\n- [ ] **Phase 4: Four**\n",
				[]string{"phases/01-one/01-01-PLAN.md", "phases/03-three/03-01-PLAN.md"}, nil),
			want: statemd.Values{Phase: "4", PhaseOf: 4, PhaseName: "Four", Status: "Ready to plan",
				Percent: 67, PercentKnown: true, TotalPhases: 3, CompletedPhases: 2, TotalPlans: 2, CompletedPlans: 2, CountsKnown: true},
		},
		{
			// A finished milestone that reset the phase numbers, the shipped one listed after it:
			// its last phase is its own phase 2, not the shipped milestone's.
			name: "a finished milestone: its last phase, complete",
			files: stateProject("### 🚧 v2.0 Rewrite (In Progress)\n\n- [x] **Phase 1: New core**\n- [x] **Phase 2: Sync**\n\n"+
				"<details>\n<summary>✅ v1.0 MVP (Phases 1-2) — SHIPPED</summary>\n\n- [x] Phase 1: Foundation\n- [x] Phase 2: Auth\n\n</details>\n",
				[]string{"phases/01-new-core/01-01-PLAN.md", "phases/02-sync/02-01-PLAN.md",
					"milestones/v1.0-phases/02-auth/02-01-PLAN.md", "milestones/v1.0-phases/02-auth/02-02-PLAN.md"}, nil),
			want: statemd.Values{Phase: "2", PhaseOf: 2, PhaseName: "Sync", PlanNumber: 1, PlanDone: 1, PlanTotal: 1, Status: statemd.StatusFinished,
				Percent: 100, PercentKnown: true, TotalPhases: 2, CompletedPhases: 2, TotalPlans: 2, CompletedPlans: 2, CountsKnown: true},
		},
		{
			// No plan in the milestone: no percent or counts to write, STATE.md's own stay.
			name:  "nothing planned yet",
			files: stateProject("- [ ] **Phase 1: One**\n- [ ] **Phase 2: Two**\n", nil, nil),
			want:  statemd.Values{Phase: "1", PhaseOf: 2, PhaseName: "One", Status: "Ready to plan", TotalPhases: 2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := projectOf(tt.files)
			got := mustLoad(t, fsys, ".planning").StateValues()
			if got != tt.want {
				t.Errorf("StateValues\n got %+v\nwant %+v", got, tt.want)
			}
			pos, err := Locate(fsys, ".planning")
			if err != nil {
				t.Fatal(err)
			}
			cheap, ok := pos.StateValues()
			if !ok {
				if tt.want.Status != statemd.StatusFinished {
					t.Fatalf("Position.StateValues: no current phase")
				}
				return
			}
			phaseOnly := statemd.Values{Phase: got.Phase, PhaseOf: got.PhaseOf, PhaseName: got.PhaseName,
				PlanNumber: got.PlanNumber, PlanDone: got.PlanDone, PlanTotal: got.PlanTotal, Status: got.Status}
			if cheap != phaseOnly {
				t.Errorf("Position.StateValues\n got %+v\nwant %+v", cheap, phaseOnly)
			}
		})
	}
}
