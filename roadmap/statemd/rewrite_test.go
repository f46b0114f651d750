package statemd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/diff"
)

// TestRewriteRules: each rule of "only a better-informed value", on lines as real STATE.md
// files write them.
func TestRewriteRules(t *testing.T) {
	const cp = "## Current Position\n\n"
	counts := Values{TotalPhases: 5, CompletedPhases: 4, TotalPlans: 10, CompletedPlans: 8, CountsKnown: true}
	withCounts := func(v Values) Values {
		v.TotalPhases, v.CompletedPhases, v.TotalPlans, v.CompletedPlans, v.CountsKnown = counts.TotalPhases, counts.CompletedPhases, counts.TotalPlans, counts.CompletedPlans, true
		return v
	}
	tests := []struct {
		name   string
		in     string
		v      Values
		want   string // "" when nothing may change
		fields []string
	}{
		{
			name: "phase without plans, Phase line agrees: the Plan line stays (never 0 of 0)",
			in:   cp + "Phase: 15 of 17 (Link Sharing + Search)\nPlan: Not started\nStatus: Ready to plan\n",
			v:    Values{Phase: "15", PhaseOf: 17, PlanTotal: 0, Status: "Ready to plan"},
		},
		{
			name:   "phase moved to one without plans: a needs-planning wording, never 0 of 0",
			in:     cp + "Phase: 14 (User-to-User Sharing)\nPlan: 6 of 6\nStatus: Phase complete\nLast activity: 2026-02-21 -- Completed 14-06-PLAN.md\n",
			v:      Values{Phase: "15", PhaseName: "Link Sharing + Search", Status: "Ready to plan"},
			want:   cp + "Phase: 15 (Link Sharing + Search)\nPlan: Not started (phase needs planning)\nStatus: Ready to plan\nLast activity: 2026-02-21 -- Completed 14-06-PLAN.md\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name: "07 is 7: the richer human line stays whole, PAUSED and all",
			in:   cp + "Phase: 07 of 12 (Sync Engine) — PAUSED at Plan 01 Task 4\nPlan: 1 of 3 in current phase\nStatus: Paused — waiting for API keys\n",
			v:    Values{Phase: "7", PhaseOf: 12, PhaseName: "Sync", PlanNumber: 1, PlanTotal: 3, Status: "In progress"},
		},
		{
			name: "paused at a phase boundary, a follow-up required: the person's word stays, the phase does not move",
			in: "---\ncurrent_phase: 5\ncurrent_plan: 3\nprogress:\n  percent: 50\n---\n" + cp +
				"Phase: 5 of 6 (Payments) — COMPLETE\nPlan: 3 of 3\nStatus: Paused at the phase boundary — follow-up required before Phase 6 (rotate the keys)\n\nProgress: [█████░░░░░] 50%\n",
			v: withCounts(Values{Phase: "6", PhaseOf: 6, PhaseName: "Payouts", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute", Percent: 80, PercentKnown: true}),
			want: "---\ncurrent_phase: 5\ncurrent_plan: 3\nprogress:\n  percent: 80\n---\n" + cp +
				"Phase: 5 of 6 (Payments) — COMPLETE\nPlan: 3 of 3\nStatus: Paused at the phase boundary — follow-up required before Phase 6 (rotate the keys)\n\nProgress: [████████░░] 80%\n",
			fields: []string{"frontmatter", "progress"},
		},
		{
			name: "blocked in another phase, said on the Phase line: kept",
			in:   cp + "Phase: 3 (Sync) — BLOCKED on the vendor\nPlan: 2 of 4\nStatus: In progress\n",
			v:    Values{Phase: "4", PhaseName: "Search", PlanNumber: 1, PlanTotal: 1, Status: "Ready to execute"},
		},
		{
			name:   "a status without such a word moves with the phase",
			in:     cp + "Phase: 5 of 6 (Payments)\nPlan: 3 of 3\nStatus: Phase complete\n",
			v:      Values{Phase: "6", PhaseOf: 6, PhaseName: "Payouts", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute"},
			want:   cp + "Phase: 6 of 6 (Payouts)\nPlan: 1 of 2 in current phase\nStatus: Ready to execute\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name: "a phase line without 'of N' agrees with any count",
			in:   cp + "Phase: 14 (User-to-User Sharing)\n",
			v:    Values{Phase: "14", PhaseOf: 17},
		},
		{
			name: "a larger count than the roadmap's is STATE.md knowing more: kept",
			in:   cp + "Phase: 07 of 09 (Billing) — PAUSED at Plan 01 Task 4\n",
			v:    Values{Phase: "7", PhaseOf: 7},
		},
		{
			name:   "a count the roadmap has outgrown: only N is corrected, the rest of the line kept",
			in:     cp + "Phase: 54 of 58 (Exports) — PAUSED at Plan 01 Task 4\nStatus: Blocked on review\n",
			v:      Values{Phase: "54", PhaseOf: 59, Status: "In progress"},
			want:   cp + "Phase: 54 of 59 (Exports) — PAUSED at Plan 01 Task 4\nStatus: Blocked on review\n",
			fields: []string{"phase"},
		},
		{
			name:   "3.1 is not 3",
			in:     cp + "Phase: 3 of 8 (Import)\nPlan: 2 of 2 in current phase\nStatus: Phase complete\n",
			v:      Values{Phase: "3.1", PhaseOf: 8, PhaseName: "Downloader", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute"},
			want:   cp + "Phase: 3.1 of 8 (Downloader)\nPlan: 1 of 2 in current phase\nStatus: Ready to execute\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name:   "letter-prefixed phases compare too",
			in:     cp + "Phase: E73 (Hardening)\nPlan: 1 of 1 in current phase\n",
			v:      Values{Phase: "E74", PhaseName: "Audit", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute"},
			want:   cp + "Phase: E74 (Audit)\nPlan: 1 of 2 in current phase\nStatus: Ready to execute\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name: "the last completed plan agrees, and so does the plan being worked on",
			in:   cp + "Phase: 10 of 10 (Gameplay)\nPlan: 2 of 3 in current phase (+ 1 FIX plan)\n",
			v:    Values{Phase: "10", PhaseOf: 10, PlanNumber: 3, PlanDone: 2, PlanTotal: 3},
		},
		{
			name:   "a wrong plan count is corrected, the note after it kept",
			in:     cp + "Phase: 10 of 10 (Gameplay)\nPlan: 2 of 3 in current phase (+ 1 FIX plan)\n",
			v:      Values{Phase: "10", PhaseOf: 10, PlanNumber: 3, PlanDone: 2, PlanTotal: 4},
			want:   cp + "Phase: 10 of 10 (Gameplay)\nPlan: 3 of 4 in current phase (+ 1 FIX plan)\n",
			fields: []string{"plan"},
		},
		{
			name:   "a placeholder Plan line gets the count once plans exist; a bold label stays bold",
			in:     cp + "**Current Phase:** Phase 1 — Viz Site MVP\n**Current Plan:** N/A (no plans yet — `/gsd-plan-phase 1` is next)\n",
			v:      Values{Phase: "1", PhaseOf: 5, PlanNumber: 1, PlanTotal: 6, Status: "Ready to execute"},
			want:   cp + "**Current Phase:** Phase 1 — Viz Site MVP\n**Current Plan:** 1 of 6 in current phase\n",
			fields: []string{"plan"},
		},
		{
			name: "prose on the Plan line is kept when the phase agrees",
			in:   cp + "Phase: 4 of 6\nPlan: 01 — halfway through task 3\n",
			v:    Values{Phase: "4", PhaseOf: 6, PlanNumber: 1, PlanTotal: 3},
		},
		{
			name:   "progress: bar and number redrawn, the human parenthesis kept",
			in:     cp + "Phase: 5 of 9\n\nProgress: [██████░░░░] 67% (v1.0 complete, v1.1 starting)\n",
			v:      Values{Phase: "5", PhaseOf: 9, Percent: 70, PercentKnown: true},
			want:   cp + "Phase: 5 of 9\n\nProgress: [███████░░░] 70% (v1.0 complete, v1.1 starting)\n",
			fields: []string{"progress"},
		},
		{
			name:   "progress: an unbracketed bar keeps its width",
			in:     cp + "Progress: ████████████████ 97%\n",
			v:      Values{Percent: 50, PercentKnown: true},
			want:   cp + "Progress: ████████░░░░░░░░ 50%\n",
			fields: []string{"progress"},
		},
		{
			name:   "progress: a hash bar keeps its glyphs",
			in:     cp + "**Progress:** [####------] 40% of v2\n",
			v:      Values{Percent: 100, PercentKnown: true},
			want:   cp + "**Progress:** [##########] 100% of v2\n",
			fields: []string{"progress"},
		},
		{
			name:   "progress: GSD's own line gets its bar, counts and percent together",
			in:     cp + "**Progress:** [████░░░░░░] 2/5 plans (40%)\n",
			v:      Values{Percent: 60, PercentKnown: true, TotalPlans: 5, CompletedPlans: 3, CountsKnown: true},
			want:   cp + "**Progress:** [██████░░░░] 3/5 plans (60%)\n",
			fields: []string{"progress"},
		},
		{
			name:   "progress: a bar after the percent, counts of phases and plans",
			in:     cp + "Progress: 40% [████░░░░░░] (2/5 plans, 1 of 3 phases done)\n",
			v:      withCounts(Values{Percent: 80, PercentKnown: true}),
			want:   cp + "Progress: 80% [████████░░] (8/10 plans, 4 of 5 phases done)\n",
			fields: []string{"progress"},
		},
		{
			name: "progress: counts of another scope leave the line alone, never half rewritten",
			in:   cp + "Progress: [███░░░░░░░] 33% (1/3 Phase 2 plans done)\n",
			v:    withCounts(Values{Percent: 80, PercentKnown: true}),
		},
		{
			name:   "progress: \"Phase 2 of 3\" is where work is, not a count: the percent is redrawn",
			in:     cp + "Progress: Phase 2 of 3 — 40%\n",
			v:      withCounts(Values{Percent: 80, PercentKnown: true}),
			want:   cp + "Progress: Phase 2 of 3 — 80%\n",
			fields: []string{"progress"},
		},
		{
			name: "progress: counts of every milestone are another scope too",
			in:   cp + "Progress: [█████████░] 90% (9 of 10 plans, all milestones)\n",
			v:    withCounts(Values{Percent: 80, PercentKnown: true}),
		},
		{
			name: "progress: a second percent is another scope",
			in:   cp + "Progress: 60% overall; v1.1: 33%\n",
			v:    withCounts(Values{Percent: 80, PercentKnown: true}),
		},
		{
			name: "progress: counts not known leave counts alone, and so the line",
			in:   cp + "Progress: [████░░░░░░] 2/5 plans (40%)\n",
			v:    Values{Percent: 60, PercentKnown: true},
		},
		{
			name: "progress: the figures agree; a bar a cell off is not rewritten",
			in:   cp + "Progress: [██████░░░░] 50%\n",
			v:    Values{Percent: 50, PercentKnown: true},
		},
		{
			name:   "plan: a pause note stays when the count is corrected",
			in:     cp + "Phase: 2 of 3 (API)\nPlan: 2 of 3 — PAUSED at Plan 02 Task 2 (waiting on vendor API key)\n",
			v:      Values{Phase: "2", PhaseOf: 3, PlanNumber: 2, PlanDone: 1, PlanTotal: 4},
			want:   cp + "Phase: 2 of 3 (API)\nPlan: 2 of 4 — PAUSED at Plan 02 Task 2 (waiting on vendor API key)\n",
			fields: []string{"plan"},
		},
		{
			name:   "plan: a word about the old count goes with it",
			in:     cp + "Phase: 2 of 3 (API)\nPlan: 3 of 3 complete\n",
			v:      Values{Phase: "2", PhaseOf: 3, PlanNumber: 4, PlanDone: 3, PlanTotal: 4},
			want:   cp + "Phase: 2 of 3 (API)\nPlan: 4 of 4 in current phase\n",
			fields: []string{"plan"},
		},
		{
			name:   "plan: a note naming the old count's plans goes with it",
			in:     cp + "Phase: 36 of 40 (Sync)\nPlan: 2 of 4 (Plans 01 + 02 complete; Plan 03 next)\n",
			v:      Values{Phase: "36", PhaseOf: 40, PlanNumber: 1, PlanDone: 2, PlanTotal: 5},
			want:   cp + "Phase: 36 of 40 (Sync)\nPlan: 1 of 5 in current phase\n",
			fields: []string{"plan"},
		},
		{
			name:   "frontmatter: current_phase_name and current_plan follow current_phase",
			in:     "---\ncurrent_phase: 01\ncurrent_phase_name: foundation\ncurrent_plan: 1\n---\n" + cp + "Phase: 2 of 3 (API)\nPlan: 2 of 3\n",
			v:      Values{Phase: "2", PhaseOf: 3, PhaseName: "API: v2", PlanNumber: 2, PlanDone: 1, PlanTotal: 3},
			want:   "---\ncurrent_phase: 2\ncurrent_phase_name: \"API: v2\"\ncurrent_plan: 2\n---\n" + cp + "Phase: 2 of 3 (API)\nPlan: 2 of 3\n",
			fields: []string{"frontmatter", "frontmatter", "frontmatter"},
		},
		{
			name:   "frontmatter: a phase that needs planning has no plan yet, as GSD writes it",
			in:     "---\ncurrent_phase: '2'\ncurrent_phase_name: 'API'\ncurrent_plan: 3\n---\n" + cp + "Phase: 3 of 3 (UI)\n",
			v:      Values{Phase: "3", PhaseOf: 3, PhaseName: "UI"},
			want:   "---\ncurrent_phase: '3'\ncurrent_phase_name: 'UI'\ncurrent_plan: Not started\n---\n" + cp + "Phase: 3 of 3 (UI)\n",
			fields: []string{"frontmatter", "frontmatter", "frontmatter"},
		},
		{
			name:   "frontmatter: current_plan keeps up with the phase's plans; a plan id is left alone",
			in:     "---\ncurrent_phase: 2\ncurrent_plan: 1\nresume_plan: 02-01\n---\n" + cp + "Phase: 2 of 3 (API)\nPlan: 3 of 3\n",
			v:      Values{Phase: "2", PhaseOf: 3, PlanNumber: 3, PlanDone: 2, PlanTotal: 3},
			want:   "---\ncurrent_phase: 2\ncurrent_plan: 3\nresume_plan: 02-01\n---\n" + cp + "Phase: 2 of 3 (API)\nPlan: 3 of 3\n",
			fields: []string{"frontmatter"},
		},
		{
			name:   "frontmatter: a current_phase of prose is rewritten whole, in its quotes",
			in:     "---\ncurrent_phase: \"Phase 1 — Setup\"\n---\n" + cp + "Phase: 2 of 3 (API: v2)\n",
			v:      Values{Phase: "2", PhaseOf: 3, PhaseName: "API: v2"},
			want:   "---\ncurrent_phase: \"Phase 2 — API: v2\"\n---\n" + cp + "Phase: 2 of 3 (API: v2)\n",
			fields: []string{"frontmatter"},
		},
		{
			name:   "frontmatter: unquoted prose gets quotes where YAML needs them",
			in:     "---\ncurrent_phase: Phase 1 — Setup\n---\n" + cp + "Phase: 2 of 3\n",
			v:      Values{Phase: "2", PhaseOf: 3, PhaseName: "API: v2"},
			want:   "---\ncurrent_phase: \"Phase 2 — API: v2\"\n---\n" + cp + "Phase: 2 of 3\n",
			fields: []string{"frontmatter"},
		},
		{
			name:   "frontmatter: a name that would need escaping is left out",
			in:     "---\ncurrent_phase: Phase 1 — Setup\n---\n" + cp + "Phase: 2 of 3\n",
			v:      Values{Phase: "2", PhaseOf: 3, PhaseName: `The "API"`},
			want:   "---\ncurrent_phase: Phase 2\n---\n" + cp + "Phase: 2 of 3\n",
			fields: []string{"frontmatter"},
		},
		{
			name:   "frontmatter: a quoted percent keeps its quotes and sign",
			in:     "---\nprogress:\n  total_plans: 10\n  completed_plans: 8\n  percent: \"40%\"\n---\n" + cp + "Progress: 80%\n",
			v:      withCounts(Values{Percent: 80, PercentKnown: true}),
			want:   "---\nprogress:\n  total_plans: 10\n  completed_plans: 8\n  percent: \"80%\"\n---\n" + cp + "Progress: 80%\n",
			fields: []string{"frontmatter"},
		},
		{
			name: "progress: a line without a percent is left alone",
			in:   cp + "Progress: [#########################] (M1 complete, M2 Phase 12 complete\n",
			v:    Values{Percent: 88, PercentKnown: true},
		},
		{
			name: "progress: an unknown percent is never written",
			in:   cp + "Phase: 2 of 4\n\nProgress: [░░░░░░░░░░] 0%\n",
			v:    Values{Phase: "2", PhaseOf: 4},
		},
		{
			name: "frontmatter: unknown counts leave percent: 67 alone",
			in:   "---\nprogress:\n  total_phases: 6\n  completed_phases: 4\n  percent: 67\n---\n" + cp + "Phase: 5 of 6\n",
			v:    Values{Phase: "5", PhaseOf: 6},
		},
		{
			name:   "frontmatter: known counts are written, comments kept",
			in:     "---\nprogress:\n  total_phases: 6  # two more planned\n  completed_phases: 4\n  total_plans: 8\n  completed_plans: 8\n  percent: 67\n---\n" + cp + "Progress: 80%\n",
			v:      withCounts(Values{Percent: 80, PercentKnown: true}),
			want:   "---\nprogress:\n  total_phases: 5  # two more planned\n  completed_phases: 4\n  total_plans: 10\n  completed_plans: 8\n  percent: 80\n---\n" + cp + "Progress: 80%\n",
			fields: []string{"frontmatter", "frontmatter", "frontmatter"},
		},
		{
			name:   "frontmatter: current_phase follows the phase, quotes kept",
			in:     "---\ncurrent_phase: \"07\"\n---\n" + cp + "Phase: 8 of 9 (Polish)\n",
			v:      Values{Phase: "8", PhaseOf: 9},
			want:   "---\ncurrent_phase: \"8\"\n---\n" + cp + "Phase: 8 of 9 (Polish)\n",
			fields: []string{"frontmatter"},
		},
		{
			name:   "added lines keep a blank line before the prose that follows",
			in:     cp + "All 4 phases complete. Phase 5 planned with 2 plans.\n\n```\n  Phase 1: State Machine  [1/1]\n```\n\n## Archived\n",
			v:      Values{Phase: "5", PhaseOf: 5, PhaseName: "Review Fixes", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute", Percent: 80, PercentKnown: true},
			want:   cp + "Phase: 5 of 5 (Review Fixes)\nPlan: 1 of 2 in current phase\nStatus: Ready to execute\nProgress: [████████░░] 80%\n\nAll 4 phases complete. Phase 5 planned with 2 plans.\n\n```\n  Phase 1: State Machine  [1/1]\n```\n\n## Archived\n",
			fields: []string{"phase", "plan", "status", "progress"},
		},
		{
			name:   "a missing line goes after the last field present",
			in:     cp + "Phase: 2 of 3 (Two)\nStatus: In progress\nLast activity: 2026-01-01\n\nProgress: [█████░░░░░] 50%\n",
			v:      Values{Phase: "2", PhaseOf: 3, PlanNumber: 2, PlanTotal: 2, Percent: 50, PercentKnown: true},
			want:   cp + "Phase: 2 of 3 (Two)\nStatus: In progress\nPlan: 2 of 2 in current phase\nLast activity: 2026-01-01\n\nProgress: [█████░░░░░] 50%\n",
			fields: []string{"plan"},
		},
		{
			name:   "no section: one is appended",
			in:     "# Project State\n\n## Decisions\n\n| Phase | Decision |\n",
			v:      Values{Phase: "1", PhaseOf: 2, PlanNumber: 1, PlanTotal: 1, Status: "Ready to execute", Percent: 0, PercentKnown: true},
			want:   "# Project State\n\n## Decisions\n\n| Phase | Decision |\n\n## Current Position\n\nPhase: 1 of 2\nPlan: 1 of 1 in current phase\nStatus: Ready to execute\n\nProgress: [░░░░░░░░░░] 0%\n",
			fields: []string{"phase", "plan", "status", "progress"},
		},
		{
			name:   "no section and only a percent known: one blank line under the new heading",
			in:     "# Project State\n",
			v:      Values{Percent: 40, PercentKnown: true},
			want:   "# Project State\n\n## Current Position\n\nProgress: [████░░░░░░] 40%\n",
			fields: []string{"progress"},
		},
		{
			name:   "no section: Phase lines before the first ## section are the fields; later ones are not",
			in:     "# Project State\n\nPhase: 2 of 5\nStatus: In progress\n\n## Performance\n\nPhase: 2 took 3 hours\n",
			v:      Values{Phase: "3", PhaseOf: 5, PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute"},
			want:   "# Project State\n\nPhase: 3 of 5\nStatus: Ready to execute\nPlan: 1 of 2 in current phase\n\n## Performance\n\nPhase: 2 took 3 hours\n",
			fields: []string{"phase", "status", "plan"},
		},
		{
			name:   "a position under another heading is the position: rewritten there, no second block",
			in:     "# Project State\n\n## Performance\n\nProgress: 20% of budget used\n\n## 📍 Where we are\n\nPhase: 2 of 3 (API)\nPlan: 1 of 3 in current phase\n",
			v:      Values{Phase: "3", PhaseOf: 3, PhaseName: "UI", PlanNumber: 1, PlanTotal: 1, Status: "Ready to execute"},
			want:   "# Project State\n\n## Performance\n\nProgress: 20% of budget used\n\n## 📍 Where we are\n\nPhase: 3 of 3 (UI)\nPlan: 1 of 1 in current phase\nStatus: Ready to execute\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name:   "a Status section without the phase or plan is not the position",
			in:     "# Project State\n\n## Status\n\nAll good.\n",
			v:      Values{Phase: "1", PhaseOf: 1, PlanNumber: 1, PlanTotal: 1, Status: "Ready to execute"},
			want:   "# Project State\n\n## Status\n\nAll good.\n\n## Current Position\n\nPhase: 1 of 1\nPlan: 1 of 1 in current phase\nStatus: Ready to execute\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name: "unknown phase: Phase, Plan and Status lines stay",
			in:   cp + "Phase: 8 of 8 (Distribution) — COMPLETE\nPlan: 3 of 3 complete\nStatus: Phase 8 Complete\n",
			v:    Values{Status: "Complete"},
		},
		{
			name: "a finished milestone said in words: no phase to name, no Plan or Progress line to add",
			in:   cp + "Phase: — all phases complete\nStatus: 3/3 phases complete\n",
			v:    Values{Phase: "104", PhaseOf: 104, PlanNumber: 2, PlanDone: 2, PlanTotal: 2, Status: StatusFinished, Percent: 100, PercentKnown: true},
		},
		{
			name:   "the same words while a phase is current name no phase: rewritten",
			in:     cp + "Phase: — all phases complete\nStatus: 3/3 phases complete\n",
			v:      Values{Phase: "105", PhaseOf: 105, PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute", Percent: 50, PercentKnown: true},
			want:   cp + "Phase: 105 of 105\nStatus: Ready to execute\nPlan: 1 of 2 in current phase\nProgress: [█████░░░░░] 50%\n",
			fields: []string{"phase", "status", "plan", "progress"},
		},
		{
			name: "a Current Position section of tables alone: the preamble's fields are the position",
			in:   "# Project State\n\n**Phase:** 14-cleanup\n**Current Plan:** 14-05 complete\n\n## Current Position\n\n| Phase | Status |\n|---|---|\n| 14 | ✓ Complete |\n",
			v:    Values{Phase: "14", PhaseOf: 14, PlanNumber: 6, PlanDone: 5, PlanTotal: 6, Status: "In progress"},
		},
		{
			name:   "the same preamble naming another phase is rewritten where it is",
			in:     "# Project State\n\n**Phase:** 13-integration\n\n## Current Position\n\n| Phase | Status |\n|---|---|\n| 13 | ✓ Complete |\n",
			v:      Values{Phase: "14", PhaseOf: 14, PhaseName: "Cleanup", PlanNumber: 6, PlanDone: 5, PlanTotal: 6, Status: "In progress"},
			want:   "# Project State\n\n**Phase:** 14 of 14 (Cleanup)\n**Plan:** 6 of 6 in current phase\n**Status:** In progress\n\n## Current Position\n\n| Phase | Status |\n|---|---|\n| 13 | ✓ Complete |\n",
			fields: []string{"phase", "plan", "status"},
		},
		{
			name:   "a section with a field of its own is the position, whatever the preamble says",
			in:     "# Project State\n\n**Phase:** 3 (A)\n\n## Current Position\n\nStatus: Executing phase 3\n\n| Phase | Status |\n|---|---|\n",
			v:      Values{Phase: "3", PhaseOf: 3, PlanNumber: 1, PlanTotal: 2, Status: "In progress"},
			want:   "# Project State\n\n**Phase:** 3 (A)\n\n## Current Position\n\nStatus: In progress\nPhase: 3 of 3\nPlan: 1 of 2 in current phase\n\n| Phase | Status |\n|---|---|\n",
			fields: []string{"status", "phase", "plan"},
		},
		{
			name: "two counts of plans are two scopes: the line is left alone",
			in:   cp + "Progress: 100% of v1.0-v3.0 (53/53 plans), v4.0 in progress (3/15 plans)\n",
			v:    withCounts(Values{Percent: 40, PercentKnown: true}),
		},
		{
			name:   "CRLF and a missing final newline are kept",
			in:     "## Current Position\r\n\r\n**Phase:** 1 of 3\r\n**Plan:** 1 of 1\r\nStatus:\tx",
			v:      Values{Phase: "2", PhaseOf: 3, PlanNumber: 1, PlanTotal: 4, Status: "In progress"},
			want:   "## Current Position\r\n\r\n**Phase:** 2 of 3\r\n**Plan:** 1 of 4 in current phase\r\nStatus:\tIn progress",
			fields: []string{"phase", "plan", "status"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.in
			}
			out, changes := Rewrite([]byte(tt.in), tt.v)
			if string(out) != want {
				t.Errorf("got:\n%s\nwant:\n%s\n%s", out, want, diff.Diff("STATE.md", []byte(want), "STATE.md", out))
			}
			var fields []string
			for _, c := range changes {
				fields = append(fields, c.Field)
			}
			if strings.Join(fields, " ") != strings.Join(tt.fields, " ") {
				t.Errorf("changes %+v, want fields %q", changes, tt.fields)
			}
			if (len(changes) == 0) != bytes.Equal(out, []byte(tt.in)) {
				t.Errorf("changes %+v but output equal %v", changes, bytes.Equal(out, []byte(tt.in)))
			}
			if again, ch := Rewrite(out, tt.v); len(ch) != 0 || !bytes.Equal(again, out) {
				t.Errorf("not idempotent: %+v", ch)
			}
		})
	}
}

func TestChangeLines(t *testing.T) {
	in := "---\nprogress:\n  percent: 10\n---\n## Current Position\n\nPhase: 1 of 2\n\nSome prose.\n"
	v := Values{Phase: "2", PhaseOf: 2, PlanNumber: 1, PlanTotal: 1, Status: "Ready to execute", Percent: 50, PercentKnown: true, CountsKnown: true}
	_, changes := Rewrite([]byte(in), v)
	want := []Change{
		{"frontmatter", 3, "  percent: 10", "  percent: 50"},
		{"phase", 7, "Phase: 1 of 2", "Phase: 2 of 2"},
		{"plan", 8, "", "Plan: 1 of 1 in current phase"},
		{"status", 8, "", "Status: Ready to execute"},
		{"progress", 8, "", "Progress: [█████░░░░░] 50%"},
	}
	if len(changes) != len(want) {
		t.Fatalf("changes = %+v", changes)
	}
	for i := range want {
		if changes[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, changes[i], want[i])
		}
	}
}

func TestPhaseText(t *testing.T) {
	for _, tt := range []struct {
		v    Values
		want string
	}{
		{Values{Phase: "5", PhaseOf: 5, PhaseName: "Ship"}, "Phase: 5 of 5 (Ship)"},
		{Values{Phase: "5", PhaseName: "Ship"}, "Phase: 5 (Ship)"}, // never "5 of 0"
		{Values{Phase: "12.3.1"}, "Phase: 12.3.1"},
		{Values{}, "Phase: none yet"},
	} {
		if got := PhaseText(tt.v); got != tt.want {
			t.Errorf("PhaseText(%+v) = %q, want %q", tt.v, got, tt.want)
		}
	}
	if got := PlanText(Values{Phase: "3"}); strings.Contains(got, "0 of 0") || !strings.Contains(got, "needs planning") {
		t.Errorf("PlanText without plans = %q", got)
	}
	if got := ProgressText(Values{Percent: 67, PercentKnown: true}); got != "Progress: [███████░░░] 67%" { // 6.7 cells: GSD rounds
		t.Errorf("ProgressText = %q", got)
	}
}

func TestSamePhase(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"07", "7", true}, {"3.1", "3", false}, {"3.01", "3.1", true}, {"12.3.1", "12.3.1", true},
		{"E73", "E073", true}, {"E73", "73", false}, {"9", "90", false}, {"", "", false},
		{"16C", "16c", true}, {"16C", "16", false}, {"16C", "16B", false}, {"016C", "16C", true},
		// The roadmap's grammar (package phasenum), where the two used to disagree: a project
		// code is dropped, a lower-case series prefix is no phase number at all.
		{"CK-01", "1", true}, {"ck-01", "01", true}, {"e73", "E73", false}, {"e73", "e73", false},
		{"v1.8", "V1.8", false}, {"ABC12", "ABC12", true},
	} {
		if got := samePhase(tt.a, tt.b); got != tt.same {
			t.Errorf("samePhase(%q, %q) = %v", tt.a, tt.b, got)
		}
	}
}

func TestNewAndDiff(t *testing.T) {
	v := Values{Phase: "3", PhaseOf: 3, PhaseName: "Three", PlanNumber: 2, PlanTotal: 2, Status: "In progress", Percent: 67, PercentKnown: true}
	b := New(v, time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC))
	if !strings.Contains(string(b), "## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\nLast activity: 2026-03-01") {
		t.Errorf("New:\n%s", b)
	}
	if _, ch := Rewrite(b, v); len(ch) != 0 {
		t.Errorf("a new STATE.md disagrees with its own values: %+v", ch)
	}
	if d := diff.Diff("STATE.md", b, "STATE.md", b); d != nil {
		t.Errorf("Diff of equal files = %q", d)
	}
	out, _ := Rewrite(b, Values{Phase: "4", Status: "Ready to plan"})
	d := string(diff.Diff(".planning/STATE.md", b, ".planning/STATE.md", out))
	if !strings.Contains(d, "-Phase: 3 of 3 (Three)\n-Plan: 2 of 2 in current phase\n-Status: In progress\n+Phase: 4\n") || !strings.Contains(d, "+++ .planning/STATE.md") {
		t.Errorf("Diff:\n%s", d)
	}
}
