package roadmap

import (
	"strings"
	"testing"
)

// resetRoadmap is a roadmap after /gsd-new-milestone --reset-phase-numbers: the shipped v1.0,
// collapsed, and v2.0 in progress both have phases 1-3. Its progress table has a Milestone
// column.
const resetRoadmap = `# Roadmap: Widget

## Milestones

- ✅ **v1.0 MVP** — Phases 1-3 (shipped 2026-02-01)
- 🚧 **v2.0 Rewrite** — Phases 1-3 (in progress)

## Phases

<details>
<summary>✅ v1.0 MVP (Phases 1-3) — SHIPPED 2026-02-01</summary>

- [x] Phase 1: Foundation (2/2 plans) — completed 2026-01-10
- [x] Phase 2: Auth (3/3 plans) — completed 2026-01-20
- [x] Phase 3: Core (1/1 plan) — completed 2026-02-01

</details>

### 🚧 v2.0 Rewrite (In Progress)

- [x] **Phase 1: New core** - engine port
- [ ] **Phase 2: Sync engine** - sync
- [ ] **Phase 3: Migration** - migrate users

## Progress

| Phase | Milestone | Plans Complete | Status | Completed |
|-------|-----------|----------------|--------|-----------|
| 1. Foundation | v1.0 | 2/2 | Complete | 2026-01-10 |
| 2. Auth | v1.0 | 3/3 | Complete | 2026-01-20 |
| 3. Core | v1.0 | 1/1 | Complete | 2026-02-01 |
| 1. New core | v2.0 | 1/1 | Complete | 2026-03-01 |
| 2. Sync engine | v2.0 | 1/2 | In Progress | - |
| 3. Migration | v2.0 | 0/TBD | Not started | - |
`

// resetFiles is a project with resetRoadmap: v1.0's phases archived under
// milestones/v1.0-phases/ (archived is false: removed), v2.0's phase 2 half done.
func resetFiles(archived bool) map[string]string {
	const ph, v1 = ".planning/phases/", ".planning/milestones/v1.0-phases/"
	files := map[string]string{
		".planning/ROADMAP.md":           resetRoadmap,
		".planning/STATE.md":             "# Project State\n\n## Current Position\n\nPhase: 2 of 3 (Sync engine)\nPlan: 2 of 2 in current phase\n",
		ph + "01-new-core/01-01-PLAN.md": "", ph + "01-new-core/01-01-SUMMARY.md": "",
		ph + "02-sync-engine/02-01-PLAN.md": "", ph + "02-sync-engine/02-01-SUMMARY.md": "",
		ph + "02-sync-engine/02-02-PLAN.md": "",
	}
	if archived {
		for _, f := range []string{"01-foundation/01-01", "01-foundation/01-02", "02-auth/02-01", "02-auth/02-02", "02-auth/02-03", "03-core/03-01"} {
			files[v1+f+"-PLAN.md"], files[v1+f+"-SUMMARY.md"] = "", ""
		}
	}
	return files
}

// TestPositionRules walks the position model's rules one by one, each on the smallest project
// that needs it, and checks which rule decided and the evidence it cites.
func TestPositionRules(t *testing.T) {
	const ph = ".planning/phases/"
	tests := []struct {
		name       string
		fsys       map[string]string
		wantPhase  string // "" for none
		wantActive string // base name, "" for none
		wantRule   Rule
		wantNeeds  bool
		wantCite   string // a "file:line" the evidence must cite
	}{
		{
			name: "a: STATE.md's phase beats the first of two marked in progress",
			fsys: map[string]string{
				".planning/ROADMAP.md":           progressHeader + "| 8. Validate | 1/3 | In progress | - |\n| 9. Fixes | 2/3 | In Progress | - |\n",
				".planning/STATE.md":             "# State\n\n## Current Position\n\nPhase: 9 of 9 (Fixes)\nPlan: 2 of 3\n",
				ph + "08-validate/08-01-PLAN.md": "", ph + "08-validate/08-01-SUMMARY.md": "", ph + "08-validate/08-02-PLAN.md": "",
				ph + "09-fixes/09-01-PLAN.md": "", ph + "09-fixes/09-01-SUMMARY.md": "", ph + "09-fixes/09-02-PLAN.md": "",
			},
			wantPhase: "9", wantActive: "09-02-PLAN.md", wantRule: RuleState, wantCite: ".planning/STATE.md:5",
		},
		{
			name: "b: after a finished STATE.md phase, the next unfinished one in listed order, which needs planning",
			fsys: map[string]string{
				".planning/ROADMAP.md": "# Roadmap\n\n## Milestones\n\n- Milestone 1: MVP (Phases 1-3) -- shipped 2026-01-01\n- Milestone 2: Production (Phases 4-7) -- in progress\n\n" +
					"### Milestone 2: Production (In Progress)\n\n- [ ] **Phase 4: Desktop** - can run in parallel\n- [x] **Phase 4.1: Catch-up** (INSERTED)\n- [x] **Phase 5: Sharing**\n- [ ] **Phase 6: Search**\n- [ ] **Phase 7: Sync**\n",
				".planning/STATE.md":                 "## Current Position\n\nPhase: 5 (Sharing)\nStatus: Phase complete\n\nNext: Run /gsd:plan-phase 6\n",
				ph + "04.1-catch-up/04.1-01-PLAN.md": "", ph + "04.1-catch-up/04.1-01-SUMMARY.md": "",
				ph + "05-sharing/05-01-PLAN.md": "", ph + "05-sharing/05-01-SUMMARY.md": "",
				ph + "02-old/02-01-PLAN.md": "",
			},
			wantPhase: "6", wantRule: RuleAfterFinished, wantNeeds: true, wantCite: ".planning/ROADMAP.md:6",
		},
		{
			name: "b: a deferred phase none of whose plans was done is finished, as progress counts it",
			fsys: map[string]string{
				".planning/ROADMAP.md":    progressHeader + "| 1. A | 1/1 | Complete | - |\n| 2. B | 0/1 | Deferred | - |\n| 3. C | 0/1 | Not started | - |\n",
				".planning/STATE.md":      "## Current Position\n\nPhase: 2 of 3 (B)\n",
				ph + "01-a/01-01-PLAN.md": "", ph + "01-a/01-01-SUMMARY.md": "",
				ph + "02-b/02-01-PLAN.md": "", ph + "03-c/03-01-PLAN.md": "",
			},
			wantPhase: "3", wantActive: "03-01-PLAN.md", wantRule: RuleAfterFinished, wantCite: ".planning/ROADMAP.md:5",
		},
		{
			name: "b: listed order, not numeric order",
			fsys: map[string]string{
				".planning/ROADMAP.md":    "- [x] **Phase 1: A**\n- [x] **Phase 2: B**\n- [ ] **Phase 3: C** (In Progress)\n- [ ] **Phase 5: E**\n- [ ] **Phase 4: D**\n",
				".planning/STATE.md":      "## CURRENT POSITION: IN PROGRESS\n\nPhase: 3 of 5 (C)\nStatus: IN PROGRESS\n",
				ph + "03-c/03-01-PLAN.md": "", ph + "03-c/03-01-SUMMARY.md": "",
				ph + "04-d/04-01-PLAN.md": "", ph + "05-e/05-01-PLAN.md": "",
			},
			wantPhase: "5", wantActive: "05-01-PLAN.md", wantRule: RuleAfterFinished,
		},
		{
			name: "a: STATE.md's phase outside the milestone is not followed",
			fsys: map[string]string{
				".planning/ROADMAP.md": "## Milestones\n\n- ✅ v1.0 (Phases 1-2)\n- 🚧 **v1.1 Polish** — Phases 3-4 (in progress)\n\n| Phase | Milestone | Plans Complete | Status |\n|---|---|---|---|\n" +
					"| 1-2 | v1.0 | 4/4 | Complete |\n| 3. Polish | v1.1 | 0/1 | In progress |\n| 4. Ship | v1.1 | 0/0 | Not started |\n",
				".planning/STATE.md":        "Phase: 2 of 4\n",
				ph + "02-old/02-01-PLAN.md": "", ph + "03-polish/03-01-PLAN.md": "",
			},
			wantPhase: "3", wantActive: "03-01-PLAN.md", wantRule: RuleInProgress, wantCite: ".planning/STATE.md:1",
		},
		{
			name: "d: every milestone shipped, a phase inserted into the last one afterwards",
			fsys: map[string]string{
				".planning/ROADMAP.md": "## Milestones\n\n- ✅ **v1.0 Core** — Phases 1-2 (shipped 2026-06-03)\n\n<details>\n<summary>✅ v1.0 Core (Phases 1-2) — SHIPPED</summary>\n\n" +
					"- [x] Phase 1: A (1/1 plans)\n- [x] Phase 2: B (1/1 plans)\n- [ ] Phase 3: Review fixes (0/0 plans) — (INSERTED)\n\n</details>\n",
				ph + "01-a/01-01-PLAN.md": "", ph + "01-a/01-01-SUMMARY.md": "",
				ph + "03-review-fixes/03-01-PLAN.md": "", ph + "03-review-fixes/03-PLAN.md": "",
			},
			wantPhase: "3", wantActive: "03-01-PLAN.md", wantRule: RuleFirstOpen,
		},
		{
			name: "the current milestone's phases live in milestones/<v>-phases",
			fsys: map[string]string{
				".planning/ROADMAP.md": "### 🚧 v1.7 Export (In Progress)\n\n- [x] **Phase E72: Import**\n- [ ] **Phase E73: Export**\n",
				".planning/milestones/v1.7-phases/E72-import/E72-PLAN.md": "", ".planning/milestones/v1.7-phases/E72-import/E72-SUMMARY.md": "",
				".planning/milestones/v1.7-phases/E73-export/E73-PLAN.md": "",
			},
			wantPhase: "E73", wantActive: "E73-PLAN.md", wantRule: RuleFirstOpen,
		},
		{
			name: "a: numbers reset by a new milestone: STATE.md's phase is the current milestone's",
			fsys: resetFiles(true), wantPhase: "2", wantActive: "02-02-PLAN.md", wantRule: RuleState, wantCite: ".planning/ROADMAP.md:6",
		},
		{
			name: "a: numbers reset, the shipped milestone's directories removed",
			fsys: resetFiles(false), wantPhase: "2", wantActive: "02-02-PLAN.md", wantRule: RuleState, wantCite: ".planning/ROADMAP.md:6",
		},
		{
			name: "a: numbers reset, the next phase needs planning (v1.0's phase 3 is finished, v2.0's is not)",
			fsys: func() map[string]string {
				files := resetFiles(true)
				files[".planning/ROADMAP.md"] = strings.Replace(resetRoadmap, "- [ ] **Phase 2: Sync engine**", "- [x] **Phase 2: Sync engine**", 1)
				files[".planning/STATE.md"] = "## Current Position\n\nPhase: 3 of 3 (Migration)\nPlan: Not started\nStatus: Ready to plan\n"
				files[".planning/phases/02-sync-engine/02-02-SUMMARY.md"] = ""
				return files
			}(),
			wantPhase: "3", wantRule: RuleState, wantNeeds: true, wantCite: ".planning/ROADMAP.md:23",
		},
		{
			name: "e: every phase finished",
			fsys: map[string]string{
				".planning/ROADMAP.md":    "- [x] **Phase 1: A**\n",
				".planning/STATE.md":      "Phase: 1 of 1 (A) — COMPLETE\n",
				ph + "01-a/01-01-PLAN.md": "", ph + "01-a/01-01-SUMMARY.md": "",
			},
			wantRule: RuleFinished,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := projectOf(tt.fsys)
			pos, err := Locate(fsys, ".planning")
			if err != nil {
				t.Fatal(err)
			}
			phase, active := "", ""
			if pos.Phase != nil {
				phase = pos.Phase.Num.String()
			}
			if pos.Active != nil {
				active = pos.Active.Path[strings.LastIndexByte(pos.Active.Path, '/')+1:]
			}
			if phase != tt.wantPhase || active != tt.wantActive || pos.Rule != tt.wantRule || pos.NeedsPlanning != tt.wantNeeds {
				t.Errorf("got phase %q active %q rule %s needs planning %v; want %q %q %s %v\n%s",
					phase, active, pos.Rule, pos.NeedsPlanning, tt.wantPhase, tt.wantActive, tt.wantRule, tt.wantNeeds, evidenceText(pos))
			}
			if tt.wantCite != "" && !strings.Contains(evidenceText(pos), tt.wantCite+":") {
				t.Errorf("evidence does not cite %s:\n%s", tt.wantCite, evidenceText(pos))
			}
			proj, err := Load(fsys, ".planning")
			if err != nil {
				t.Fatal(err)
			}
			if got := proj.CurrentPhase(); (got == nil) != (pos.Phase == nil) || got != nil && !got.Num.Equal(pos.Phase.Num) {
				t.Errorf("Load disagrees with Locate: %v", got)
			}
		})
	}
}

func TestParseMilestone(t *testing.T) {
	tests := []struct {
		text        string
		inList      bool
		ok          bool
		name        string
		status      Status
		first, last string
	}{
		{"Milestone 2: Production v1.0 (Phases 11-17) -- in progress", true, true, "Milestone 2: Production v1.0", StatusInProgress, "11", "17"},
		{"🚧 **v1.9.0 Polish** — Phases 54-59 (in progress)", true, true, "v1.9.0 Polish", StatusInProgress, "54", "59"},
		{"✅ v1.0 Pause/Resume (Phases 1-4) — SHIPPED 2026-06-03", false, true, "v1.0 Pause/Resume", StatusComplete, "1", "4"},
		{"📋 v2.0 Teams (Phases 18–21)", true, true, "v2.0 Teams", StatusPlanned, "18", "21"},
		{"Milestone 3: Encrypted Productivity Suite (Planned)", false, true, "Milestone 3: Encrypted Productivity Suite", StatusPlanned, "", ""},
		{"v1.7 Export — Phase E73", false, true, "v1.7 Export", StatusUnknown, "E73", ""},
		{"Current Milestone: v1.20 Backlog Burndown (Phases 158-165)", false, true, "v1.20 Backlog Burndown", StatusInProgress, "158", "165"},
		{"**Active Milestone:** v2.0 Teams", false, true, "v2.0 Teams", StatusInProgress, "", ""},
		{"✅ Current Milestone: v1.0 MVP (shipped)", false, true, "v1.0 MVP", StatusComplete, "", ""},
		{"✅ **[v2.0 Agent Dashboard](milestones/v2.0-ROADMAP.md)** - Phases 14-28 (shipped 2026-01-22)", true, true, "v2.0 Agent Dashboard", StatusComplete, "14", "28"},
		{"🟡 **v4.1 Auto Torrent Population** — Phases 7-11 (started 2026-06-17)", true, true, "v4.1 Auto Torrent Population", StatusInProgress, "7", "11"},
		{"v5.0 Teams — Phases 12-14 (not started)", true, true, "v5.0 Teams", StatusPlanned, "12", "14"},
		{"🔵 **2026.7.5 Batch Compute** — Phases 93-95 (active)", true, true, "2026.7.5 Batch Compute", StatusInProgress, "93", "95"},
		{"[x] v1.3 Search (Phases 1-2)", false, true, "v1.3 Search", StatusComplete, "1", "2"},
		{" [X] ✅ v1.2 Tags — SHIPPED", false, true, "v1.2 Tags", StatusComplete, "", ""},
		{"[ ] v1.4 Next (Phases 3-4) — in progress", false, true, "v1.4 Next", StatusInProgress, "3", "4"},
		{"[x] Phase 3: Auth", false, false, "", 0, "", ""},
		{"Phase 3: Auth (In Progress)", false, false, "", 0, "", ""},
		{"Integer phases (1, 2, 3): Planned milestone work", true, false, "", 0, "", ""},
		{"Overview", false, false, "", 0, "", ""},
	}
	for _, tt := range tests {
		m, ok := parseMilestone(tt.text, tt.inList)
		if ok != tt.ok {
			t.Errorf("parseMilestone(%q) ok = %v", tt.text, ok)
			continue
		}
		if !ok {
			continue
		}
		if m.Name != tt.name || m.Status != tt.status || m.First.String() != tt.first || m.Last.String() != tt.last {
			t.Errorf("parseMilestone(%q) = %q %s %s-%s; want %q %s %s-%s", tt.text, m.Name, m.Status, m.First, m.Last, tt.name, tt.status, tt.first, tt.last)
		}
	}
}

func TestMilestoneContains(t *testing.T) {
	m, _ := parseMilestone("v1.1 — Phases 11-17", false)
	for _, n := range []string{"11", "11.1", "12.3.1", "17", "17.2"} {
		if v, _ := ParsePhaseNum(n); !m.Contains(v) {
			t.Errorf("%s not in 11-17", n)
		}
	}
	for _, n := range []string{"10", "10.9", "18", "E12"} {
		if v, _ := ParsePhaseNum(n); m.Contains(v) {
			t.Errorf("%s in 11-17", n)
		}
	}
}
