package statemd

import (
	"reflect"
	"strings"
	"testing"
)

// TestDeclared reads where work is from STATE.md files shaped like real ones.
func TestDeclared(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Declared
	}{
		{
			name: "classic block with a performance table after it",
			in: "# Project State\n\n## Current Position\n\nPhase: 9 of 9 (Wizard Bug Fixes)\nPlan: 2 of 3 in current phase\nStatus: In progress\n\n" +
				"Progress: ████████████████ 97%\n\n## Performance Metrics\n\n| Phase | Plans |\n|---|---|\n| 8. Validation | 1/3 |\n",
			want: Declared{Phase: "9", PhaseLine: 5, PhaseOf: 9, Percent: 97, PercentLine: 9},
		},
		{
			name: "phase complete, next phase named in Session Continuity, progress without percent",
			in: "## Current Position\n\nPhase: 14 (User-to-User Sharing)\nPlan: 6 of 6\nStatus: Phase complete\n\nProgress: [#####] (M1 complete, M2 Phase 12 complete\n\n" +
				"## Decisions\n\n- Next: plan-phase 13 was skipped\n\n## Session Continuity\n\nLast session: 2026-02-21\nNext: Run /gsd:discuss-phase 15 or /gsd:plan-phase 15 for Link Sharing.\n",
			want: Declared{Phase: "14", PhaseLine: 3, Complete: true, Next: "15", NextLine: 16, Percent: -1, PercentLine: 7},
		},
		{
			name: "a status after the section's title",
			in:   "# State\n\n## CURRENT POSITION: IN PROGRESS\n\nPhase: 3 of 5 (C)\nStatus: IN PROGRESS\n\n## Decisions\n\nPhase: 9 was dropped\n",
			want: Declared{Phase: "3", PhaseLine: 5, PhaseOf: 5, Percent: -1},
		},
		{
			name: "an em dash after the section's title",
			in:   "## Current Position — Phase 3\n\nPhase: 3 of 5 (C)\n",
			want: Declared{Phase: "3", PhaseLine: 3, PhaseOf: 5, Percent: -1},
		},
		{
			name: "an en dash after the section's title",
			in:   "## Current Position – paused\n\nPhase: 3 of 5 (C)\n",
			want: Declared{Phase: "3", PhaseLine: 3, PhaseOf: 5, Percent: -1},
		},
		{
			name: "not the section: a longer word",
			in:   "## Current Positions\n\nPhase: 3 of 5 (C)\n\n## Current Position\n\nPhase: 4 of 5 (D)\n",
			want: Declared{Phase: "4", PhaseLine: 7, PhaseOf: 5, Percent: -1},
		},
		{
			name: "a letter-suffixed phase",
			in:   "## Current Position\n\nPhase: 16C of 17 (Billing emails)\n",
			want: Declared{Phase: "16C", PhaseLine: 3, PhaseOf: 17, Percent: -1},
		},
		{
			name: "a letter-suffixed phase in bold, before a dash",
			in:   "## Current Position\n\n**Current Phase:** 16c — Billing emails\n",
			want: Declared{Phase: "16c", PhaseLine: 3, Percent: -1},
		},
		{
			name: "an ordinal is not a phase",
			in:   "## Current Position\n\nPhase: 3rd of 5\n",
			want: Declared{Percent: -1},
		},
		{
			name: "COMPLETE after the name",
			in:   "## Current Position\n\nPhase: 8 of 8 (Distribution) — COMPLETE\nPlan: 3 of 3 complete\nStatus: Phase 8 Complete — README ready\n",
			want: Declared{Phase: "8", PhaseLine: 3, PhaseOf: 8, Complete: true, PhaseComplete: true, Completed: []string{"8"}, Percent: -1},
		},
		{
			name: "zero-padded phase, COMPLETE and a parenthesis",
			in:   "---\nstatus: completed\n---\n\n# Project State\n\n## Current Position\n\nPhase: 04 — COMPLETE (verified PASS 4/4 success criteria)\nPlan: 7 of 7\nStatus: complete\n\nProgress: [████████░░] 80%\n",
			want: Declared{Phase: "04", PhaseLine: 9, Complete: true, PhaseComplete: true, Completed: []string{"04"}, StatusDone: true, Percent: 80, PercentLine: 13},
		},
		{
			name: "frontmatter current_phase first; a name saying 'context complete' is not a status",
			in: "---\ngsd_state_version: 1.0\ncurrent_phase: Phase 1 — Viz Site MVP (context complete)\nstatus: executing\n---\n\n# Project State\n\n## Current Position\n\n" +
				"**Status:** Ready to execute\n**Current Phase:** Phase 1 — Viz Site MVP (context complete)\n",
			want: Declared{Phase: "1", PhaseLine: 3, Percent: -1},
		},
		{
			name: "the frontmatter's milestone, with its name unless it is the placeholder",
			in:   "---\nmilestone: v1.2\nmilestone_name: \"Visual Browsing\"\n---\n",
			want: Declared{Milestone: "v1.2 Visual Browsing", Percent: -1},
		},
		{
			name: "the placeholder name is left out",
			in:   "---\nmilestone: \"v1.0\"\nmilestone_name: milestone\n---\n",
			want: Declared{Milestone: "v1.0", Percent: -1},
		},
		{
			name: "null milestones and comments are YAML's, not names",
			in:   "---\nmilestone: v1.0  # current\nmilestone_name: null\n---\n",
			want: Declared{Milestone: "v1.0", Percent: -1},
		},
		{
			name: "a null milestone is none",
			in:   "---\nmilestone: ~\nmilestone_name: Teams\n---\n",
			want: Declared{Percent: -1},
		},
		{
			name: "paused",
			in:   "## Current Position\n\nPhase: 07 of 12 (Sync Engine) — PAUSED at Plan 01 Task 4\nPlan: 1 of 3 in current phase\nStatus: In progress\n",
			want: Declared{Phase: "07", PhaseLine: 3, PhaseOf: 12, Paused: "PAUSED at Plan 01 Task 4", Percent: -1},
		},
		{
			name: "paused on the Status line",
			in:   "## Current Position\n\n**Phase:** 12.3.1\n**Status:** Paused (waiting on the API team).\n",
			want: Declared{Phase: "12.3.1", PhaseLine: 3, Paused: "Paused (waiting on the API team", Percent: -1},
		},
		{
			name: "prose block, a fenced overview, Next action in a subsection",
			in: "## Current Position\n\nAll 4 phases complete. Phase 5 planned.\n\n```\n  Phase 1: State Machine [1/1]\nPhase: 3\n```\n\n" +
				"## Session Continuity\n\n### Last Session\n\n- **Next action:** `/gsd-execute-phase 05-pr-review-feedback-fixes` to execute\n",
			want: Declared{Next: "05", NextLine: 14, Percent: -1},
		},
		{
			name: "a bold Next naming the phase itself",
			in:   "## Current Position\n\nPhase: 14 of 17 — COMPLETE\n**Next:** Phase 15 — Link Sharing (needs planning)\n",
			want: Declared{Phase: "14", PhaseLine: 3, PhaseOf: 17, Complete: true, PhaseComplete: true, Completed: []string{"14"}, Next: "15", NextLine: 4, Percent: -1},
		},
		{
			name: "a Next line naming no phase is not one",
			in:   "## Session Continuity\n\nResume command: done. Next: Generate demo.gif\nNext: Tag the release\n",
			want: Declared{Percent: -1},
		},
		{
			name: "a status naming a completed plan is not a complete phase",
			in:   "## Current Position\n\nPhase: 3 of 5 (Import) — plan 2 complete\nStatus: Plan 2 complete, plan 3 next\n",
			want: Declared{Phase: "3", PhaseLine: 3, PhaseOf: 5, Percent: -1},
		},
		{
			name: "Status says ✓ Complete; a ### subsection stays in the section",
			in:   "## Current Position\n\n### Now\n\n**Current Phase:** Phase E73 — Hardening\n**Status:** ✓ Complete\n\n## Next\n\nPhase: 74\n",
			want: Declared{Phase: "E73", PhaseLine: 5, Complete: true, Percent: -1},
		},
		{
			name: "no Current Position section: a Phase line before the first ## section",
			in:   "# Project State\n\nPhase: 07 (Sync) — PAUSED at Plan 01 Task 4\nStatus: Phase 07 in progress\n\n## Performance\n\n| Phase: | 6 |\nPhase: 6 took 2 hours\n",
			want: Declared{Phase: "07", PhaseLine: 3, Paused: "PAUSED at Plan 01 Task 4", Percent: -1},
		},
		{
			name: "no phase anywhere it counts",
			in:   "# Project State\n\n## Performance\n\nPhase: 6 took 2 hours\n",
			want: Declared{Percent: -1},
		},
		{
			name: "a Next line naming a lettered phase",
			in:   "## Current Position\n\nPhase: 16B of 17 — COMPLETE\nNext: /gsd:plan-phase 16C\n",
			want: Declared{Phase: "16B", PhaseLine: 3, PhaseOf: 17, Complete: true, PhaseComplete: true, Completed: []string{"16B"}, Next: "16C", NextLine: 4, Percent: -1},
		},
		{
			name: "a percent of another scope is not the milestone's",
			in:   "## Current Position\n\nPhase: 2 of 3\nProgress: [███░░░░░░░] 33% (1/3 Phase 2 plans done)\n",
			want: Declared{Phase: "2", PhaseLine: 3, PhaseOf: 3, Percent: -1, PercentLine: 4},
		},
		{
			name: "CRLF and a BOM",
			in:   "\ufeff# State\r\n\r\n## Current Position\r\n\r\nPhase: 2 of 4 (Two)\r\nStatus: Phase 2 COMPLETE\r\nProgress: 50%",
			want: Declared{Phase: "2", PhaseLine: 5, PhaseOf: 4, Complete: true, Percent: 50, PercentLine: 7},
		},
		{
			name: "dated: stopped_at's plan and the newest date",
			in: "---\nstopped_at: Completed 57-02-PLAN.md (tests pass)\nlast_updated: \"2026-03-01T10:00:00Z\"\nlast_activity: 2026-03-04\n---\n\n" +
				"## Current Position\n\nPhase: 55 — EXECUTING\nLast activity: 2026-02-20 -- executed 55-01\n",
			want: Declared{Phase: "55", PhaseLine: 9, Percent: -1, StoppedPlan: "57-02", StoppedPlanLine: 2, Updated: "2026-03-04", UpdatedLine: 4,
				CompletedPlans: []PlanClaim{{Plan: "57-02", Line: 2, Text: "stopped_at: Completed 57-02-PLAN.md (tests pass)"}}},
		},
		{
			name: "a Last activity line that completed a plan claims it",
			in:   "## Current Position\n\nPhase: 3 of 4\nLast activity: 2026-02-03 — Completed 03-02-PLAN.md\n**Last activity:** 2026-02-04 - completed 03-03-PLAN.md (fixes)\n",
			want: Declared{Phase: "3", PhaseLine: 3, PhaseOf: 4, Percent: -1, Updated: "2026-02-04", UpdatedLine: 5, CompletedPlans: []PlanClaim{
				{Plan: "03-02", Line: 4, Text: "Last activity: 2026-02-03 — Completed 03-02-PLAN.md"},
				{Plan: "03-03", Line: 5, Text: "**Last activity:** 2026-02-04 - completed 03-03-PLAN.md (fixes)"},
			}},
		},
		{
			name: "a Phase line per recent phase: each one's COMPLETE is kept",
			in: "## Current Position\n\nPhase: 07 (hygiene) — COMPLETE\nPhase: 08 (gaps) — COMPLETE\nPhase: 09 (crosscheck) — COMPLETE (PR #199)\n" +
				"Phase: 10 (cash) — plans built, not executed\n",
			want: Declared{Phase: "07", PhaseLine: 3, Complete: true, PhaseComplete: true, Completed: []string{"07", "08", "09"}, Percent: -1},
		},
		{
			name: "the progress map counts every phase done: the milestone is",
			in:   "---\nstatus: executing\nprogress:\n  total_phases: 11\n  completed_phases: 11\n  percent: 100\n---\n\n## Current Position\n\nPhase: 11\n",
			want: Declared{Phase: "11", PhaseLine: 11, Percent: -1, MilestoneDone: true},
		},
		{
			name: "the progress map counts phases left: it is not",
			in:   "---\nprogress:\n  total_phases: 17\n  completed_phases: 15\n  percent: 100\n---\n\n## Current Position\n\nPhase: 18\n",
			want: Declared{Phase: "18", PhaseLine: 10, Percent: -1},
		},
		{
			name: "stopped_at that completed no plan names none",
			in:   "---\nstopped_at: Phase 4 complete (verified)\nlast_updated: not a date\n---\n\n## Current Position\n\nPhase: 4\n",
			want: Declared{Phase: "4", PhaseLine: 8, Percent: -1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.in).Declared()
			if got.PhaseLine > 0 {
				// The evidence is the declaring line, trimmed.
				line := strings.Split(strings.TrimPrefix(tt.in, "\ufeff"), "\n")[got.PhaseLine-1]
				if want := strings.TrimSpace(line); got.PhaseText != want {
					t.Errorf("PhaseText = %q, want %q", got.PhaseText, want)
				}
				got.PhaseText = ""
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Declared() =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}
