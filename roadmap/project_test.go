package roadmap

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gsd-tools/gsd/roadmap/statemd"
	"github.com/gsd-tools/gsd/roadmap/testcorpus"
)

// problemsText renders problems one per line for comparisons.
func problemsText(ps []Problem) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.String() + "\n")
	}
	return b.String()
}

// phaseLine summarises one phase: "3.1 Name 1/2 in-progress (roadmap planned)".
func phaseLine(ph *PhaseInfo) string {
	d, t := ph.Counted()
	return fmt.Sprintf("%s %s %d/%d %s (roadmap %s)", ph.Num, ph.Name, d, t, ph.Status, ph.RoadmapStatus)
}

func mustLoad(t *testing.T, fsys fstest.MapFS, dir string) *Project {
	t.Helper()
	p, err := Load(fsys, dir)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return p
}

func TestLoadMergesRoadmapAndDisk(t *testing.T) {
	const ph = ".planning/phases/"
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap: Finch\n\n"+
			"- [x] **Phase 1: Foundation** - layout\n"+
			"- [ ] **Phase 3.1: Downloader** (INSERTED)\n"+
			"- [ ] **Phase 2: Core**\n"+
			"- [ ] Phase 12.3.1: Cleanup\n\n"+
			progressHeader+
			"| 1. Foundation | 1/1 | Complete | 2026-01-02 |\n"+
			"| 2. Core | 1/3 | In progress | - |\n"+
			"| 3.1 Downloader | 0/? | Inserted | - |\n"+
			"| 12.3.1 Cleanup | 0/TBD | Not started | - |\n",
		ph+"01-foundation/01-01-PLAN.md", "", ph+"01-foundation/01-01-SUMMARY.md", "",
		ph+"02-core/02-01-PLAN.md", "", ph+"02-core/02-01-SUMMARY.md", "",
		ph+"02-core/02-01-FIX.md", "",
		ph+"02-core/02-02-PLAN.md", "",
		ph+"02-core/02-03-PLAN.md", "",
		ph+"3.1-downloader/plans/PLAN-01-fetch.md", "",
		ph+"3.1-downloader/plans/SUMMARY-01-fetch.md", "",
		ph+"099-later/099-01-PLAN.md", "",
		".planning/quick/001-typo/001-PLAN.md", "", ".planning/quick/001-typo/001-SUMMARY.md", "",
		".planning/quick/002-logo/002-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	var got []string
	for i := range p.Phases {
		got = append(got, phaseLine(&p.Phases[i]))
	}
	want := []string{
		"1 Foundation 1/1 complete (roadmap complete)",
		"2 Core 1/3 in-progress (roadmap in-progress)", // the FIX plan is not counted
		"3.1 Downloader 1/1 complete (roadmap inserted)",
		"12.3.1 Cleanup 0/0 not-started (roadmap not-started)",
		"99 later 0/1 planned (roadmap unknown)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("phases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p.Milestone != "Finch" {
		t.Errorf("Milestone = %q", p.Milestone)
	}
	// Phase 99 is not in the roadmap: an orphan, counted in AllProgress only. Phase 12.3.1 has
	// no plan yet.
	wantProgress := Progress{PhasesComplete: 2, PhasesTotal: 4, PlansComplete: 3, PlansTotal: 5, Percent: 50, PhasesUnplanned: 1}
	if p.Progress != wantProgress {
		t.Errorf("Progress = %+v, want %+v", p.Progress, wantProgress)
	}
	if cur := p.CurrentPhase(); cur == nil || cur.Num.String() != "2" || p.Active == nil || p.Active.ID != "02-01-FIX" {
		t.Errorf("current = %v, active = %+v", cur, p.Active)
	}
	if len(p.Quick) != 2 || !p.Quick[0].Done || p.Quick[1].Done {
		t.Errorf("Quick = %+v", p.Quick)
	}
	wantProblems := ".planning/ROADMAP.md:4: info: every plan of phase 3.1 has a SUMMARY, but it is marked inserted: mark it complete\n" +
		".planning/ROADMAP.md:12: warning: phase 3.1: progress table says 0/? plans complete, the disk has 1/1: update the row\n" +
		".planning/phases/099-later: warning: phase 99 has a directory but is not in ROADMAP.md, so it is never the current phase: add it to the roadmap or archive it\n"
	if got := problemsText(p.Problems); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

func TestLoadProblems(t *testing.T) {
	const ph = ".planning/phases/"
	tests := []struct {
		name string
		fsys fstest.MapFS
		want string // problems, one per line
	}{
		{
			name: "complete in the roadmap, a plan without SUMMARY",
			fsys: project(
				".planning/ROADMAP.md", "- [x] **Phase 1: One**\n- [x] **Phase 2: Two**\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"01-one/01-02-PLAN.md", "",
				ph+"02-two/02-01-PLAN.md", "", ph+"02-two/02-01-SUMMARY.md", "",
			),
			want: ".planning/ROADMAP.md:1: error: phase 1 is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or uncheck the phase)\n",
		},
		{
			name: "a heading's mark calls it complete, the checklist does not",
			fsys: project(
				".planning/ROADMAP.md", "- [ ] **Phase 1: One**\n\n"+progressHeader+
					"| 1. One | 1/2 | | - |\n\n"+
					"### Phase 1: One (COMPLETE)\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"01-one/01-02-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:7: error: phase 1 is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or remove the mark that calls it complete)\n",
		},
		{
			// The row is the freshest word on the status, but the box is a claim all the same:
			// the error is at the box.
			name: "the checklist calls it complete, the table's row says in progress",
			fsys: project(
				".planning/ROADMAP.md", "- [x] **Phase 1: One**\n\n"+progressHeader+
					"| 1. One | 1/2 | In Progress | - |\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"01-one/01-02-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:1: error: phase 1 is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or uncheck the phase)\n",
		},
		{
			name: "a heading's mark calls it complete, the table's row says in progress",
			fsys: project(
				".planning/ROADMAP.md", "- [ ] **Phase 1: One**\n\n"+progressHeader+
					"| 1. One | 1/2 | In Progress | - |\n\n"+
					"### Phase 1: One (COMPLETE)\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"01-one/01-02-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:7: error: phase 1 is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or remove the mark that calls it complete)\n",
		},
		{
			name: "the table's row calls it complete, the checklist does not",
			fsys: project(
				".planning/ROADMAP.md", "- [ ] **Phase 1: One**\n\n"+progressHeader+
					"| 1. One | 1/2 | Complete | - |\n\n"+
					"### Phase 1: One\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"01-one/01-02-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:5: error: phase 1 is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or update the progress table's row)\n",
		},
		{
			name: "plans cell disagrees with the disk",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 1. One | 2/2 | Complete | - |\n"+
					"| 2. Two | 0/3 | In progress | - |\n"+
					"| 3. Three | 0/TBD | Not started | - |\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
				ph+"02-two/02-01-PLAN.md", "", ph+"02-two/02-01-SUMMARY.md", "",
				ph+"02-two/02-02-PLAN.md", "",
				ph+"03-three/03-01-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:3: warning: phase 1: progress table says 2/2 plans complete, the disk has 1/1: update the row\n" +
				".planning/ROADMAP.md:4: warning: phase 2: progress table says 0/3 plans complete, the disk has 1/2: update the row\n",
		},
		{
			name: "two phases in progress",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 8. Eight | 1/2 | In progress | - |\n"+
					"| 9. Nine | 0/1 | In Progress| - |\n",
				ph+"08-eight/08-01-PLAN.md", "", ph+"08-eight/08-01-SUMMARY.md", "",
				ph+"08-eight/08-02-PLAN.md", "",
				ph+"09-nine/09-01-PLAN.md", "",
			),
			want: ".planning/ROADMAP.md:4: warning: 2 phases are marked in progress (8, 9); the current phase is 8 (gsd progress --explain says why): mark the others as they stand\n",
		},
		{
			name: "duplicate phase directories",
			fsys: project(
				".planning/ROADMAP.md", "- [ ] **Phase 26: Sync**\n",
				ph+"26-sync/26-01-PLAN.md", "",
				ph+"26-sync-again/26-02-PLAN.md", "",
			),
			want: ".planning/phases/26-sync-again: error: phase 26 has plans in 2 directories (.planning/phases/26-sync, .planning/phases/26-sync-again): merge them into one\n",
		},
		{
			name: "shifted and unreadable rows",
			fsys: project(
				".planning/ROADMAP.md", progressHeader+
					"| 1. One | 1/1 | Complete |\n"+
					"| Foundation | 1/1 | Complete | - |\n"+
					"| 2. Two | 0/1 | Sideways | - |\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
			),
			want: ".planning/ROADMAP.md:3: warning: progress table row for phase 1 has 3 cells, the header 4; read as best it could be\n" +
				".planning/ROADMAP.md:4: warning: progress table row: cannot read phase \"Foundation\"; row ignored\n" +
				".planning/ROADMAP.md:5: warning: progress table row for phase 2: unknown status \"Sideways\"\n",
		},
		{
			name: "a row with a cell left out and an empty one at the end: read by what the cells hold",
			fsys: project(
				".planning/ROADMAP.md", "| Phase | Milestone | Plans Complete | Status | Completed |\n|---|---|---|---|---|\n"+
					"| 1. One | 1/1 | Complete | 2026-03-17 | - |\n"+
					"| 2. Two | 0/TBD | **Archivée** (superseded) | 2026-07-22 | - |\n",
				ph+"01-one/01-01-PLAN.md", "", ph+"01-one/01-01-SUMMARY.md", "",
			),
			want: ".planning/ROADMAP.md:3: warning: progress table row for phase 1 has its cells shifted (its Status cell says \"2026-03-17\"); read as best it could be\n" +
				".planning/ROADMAP.md:4: warning: progress table row for phase 2 has its cells shifted (its Status cell says \"2026-07-22\"); read as best it could be\n",
		},
		{
			name: "a directory in a shipped milestone's range, its details dropped, with a plan not done: a leftover",
			fsys: project(
				".planning/ROADMAP.md", "## Milestones\n\n- ✅ **v1.9 Member Events** - Phases 16-21 (shipped 2026-03-31)\n- 🚧 **v2.0 Devices** - Phases 22-23\n\n## Phases\n\n- [ ] **Phase 22: Devices**\n",
				ph+"16-events/16-01-PLAN.md", "", ph+"16-events/16-02-PLAN.md", "", ph+"16-events/16-01-SUMMARY.md", "",
				ph+"22-devices/22-01-PLAN.md", "",
				ph+"30-spike/30-01-PLAN.md", "",
			),
			want: ".planning/phases/16-events: info: phase 16 has a directory but is not in ROADMAP.md, and plans not done: a leftover of v1.9 Member Events, which shipped (archive it to say so)\n" +
				".planning/phases/30-spike: warning: phase 30 has a directory but is not in ROADMAP.md, so it is never the current phase: add it to the roadmap or archive it\n",
		},
		{
			name: "numbers restarted: a directory a milestone still open may reach is no shipped one's leftover",
			fsys: project(
				".planning/ROADMAP.md", "## Milestones\n\n- ✅ **v1.0 Catalog** - Phases 1-8 (shipped)\n- 🚧 **v2.0 Checkout** - Phases 1-3\n\n## Phases\n\n- [ ] **Phase 1: Cart**\n",
				ph+"01-cart/01-01-PLAN.md", "",
				ph+"04-new-feature/04-01-PLAN.md", "",
			),
			want: ".planning/phases/04-new-feature: warning: phase 4 has a directory but is not in ROADMAP.md, so it is never the current phase: add it to the roadmap or archive it\n",
		},
		{
			name: "phase-level SUMMARY completes no numbered plan",
			fsys: project(
				".planning/ROADMAP.md", "- [x] **Phase 3: Tests**\n",
				ph+"03-tests/03-01-PLAN.md", "", ph+"03-tests/03-02-PLAN.md", "",
				ph+"03-tests/03-SUMMARY.md", "",
			),
			want: ".planning/ROADMAP.md:1: error: phase 3 is marked complete, but 03-01-PLAN.md, 03-02-PLAN.md have no SUMMARY (write the missing SUMMARY or uncheck the phase)\n" +
				".planning/phases/03-tests/03-SUMMARY.md: info: phase 3 has a phase-level SUMMARY, which completes no numbered plan: 03-01-PLAN.md, 03-02-PLAN.md have no SUMMARY of their own\n",
		},
		{
			name: "no roadmap",
			fsys: project(ph+"01-one/01-01-PLAN.md", ""),
			want: ".planning/ROADMAP.md: warning: no ROADMAP.md; phases are taken from the phase directories alone\n",
		},
		{
			name: "headings in code fences and comments are not phases",
			fsys: project(
				".planning/ROADMAP.md", "### Phase 1: Real\n\n```\n### Phase 2: In a fence\n```\n<!--\n### Phase 3: In a comment\n-->\n",
				ph+"01-real/01-01-PLAN.md", "",
			),
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := mustLoad(t, tt.fsys, ".planning")
			if got := problemsText(p.Problems); got != tt.want {
				t.Errorf("problems:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

func TestLoadNumbering(t *testing.T) {
	// Letter suffixes, project codes, leading zeros and plan lists that are not phases.
	fsys := project(
		".planning/ROADMAP.md", "### Phase 16C: Extra\n**Goal:** x\n\nPlans:\n- [x] 16C-01: first\n- [ ] 16C-02-PLAN.md — second\n\n"+
			"#### Phase 03: Three\n**Goal**: y\n\n## Phase 16: Sixteen\n",
		".planning/phases/CK-03-three/CK-03-01-PLAN.md", "",
		".planning/phases/16-sixteen/16-01-PLAN.md", "",
		".planning/phases/16C-extra/16C-01-PLAN.md", "", ".planning/phases/16C-extra/16C-01-SUMMARY.md", "",
		".planning/phases/16C-extra/16C-02-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	var got []string
	for i := range p.Phases {
		got = append(got, phaseLine(&p.Phases[i]))
	}
	want := "3 Three 0/1 planned (roadmap unknown)\n16 Sixteen 0/1 planned (roadmap unknown)\n16C Extra 1/2 in-progress (roadmap unknown)"
	if strings.Join(got, "\n") != want {
		t.Errorf("phases:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	if len(p.Problems) != 0 {
		t.Errorf("problems: %s", problemsText(p.Problems))
	}
}

func TestLoadShippedMilestone(t *testing.T) {
	// Phases in a collapsed <details> block are shipped: complete, even
	// without directories (archived to milestones/), and never current.
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap\n\n## Milestones\n\n- ✅ v1.0 Core (shipped)\n- 🚧 **v1.1 Search** — Phases 3-4\n\n"+
			"<details>\n<summary>v1.0</summary>\n\n- [x] Phase 1: Setup\n- [x] Phase 2: Core\n\n</details>\n\n"+
			"### 🚧 v1.1 Search (In Progress)\n\n- [ ] **Phase 3: Index**\n- [ ] **Phase 4: Query**\n",
		".planning/phases/03-index/03-01-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	if p.Milestone != "v1.1 Search" {
		t.Errorf("Milestone = %q, want v1.1 Search", p.Milestone)
	}
	if len(p.Phases) != 4 || !p.Phases[0].Shipped || p.Phases[0].Status != StatusComplete || p.Phases[2].Shipped {
		t.Fatalf("phases = %+v", p.Phases)
	}
	if cur := p.CurrentPhase(); cur == nil || cur.Num.String() != "3" {
		t.Errorf("current = %+v", cur)
	}
	// Progress is the current milestone's, as GSD counts it; AllProgress every phase's.
	if p.Progress != (Progress{PhasesTotal: 2, PlansTotal: 1, PhasesUnplanned: 1}) || p.AllProgress.PhasesComplete != 2 || p.AllProgress.PhasesTotal != 4 {
		t.Errorf("progress = %+v, all = %+v", p.Progress, p.AllProgress)
	}
}

// TestLoadClosedByState: a phase STATE.md calls complete that has no plan is closed for the
// project as for the position (dirIndex.closedByState): once every other phase is finished the
// milestone is, at 100%, and no phase of it is open, though that phase's row keeps what the
// roadmap and the disk say of it.
func TestLoadClosedByState(t *testing.T) {
	fsys := project(
		".planning/ROADMAP.md", "- [x] **Phase 7: Hygiene**\n- [ ] **Phase 8: Gaps**\n- [ ] **Phase 9: Crosscheck**\n- [ ] **Phase 10: Cash cycle**\n",
		".planning/STATE.md", "# Project State\n\n## Current Position\n\nPhase: 08 (gaps) — COMPLETE\nPhase: 09 (crosscheck) — COMPLETE (decided in 09-DISPOSITION.md)\n",
		".planning/phases/07-hygiene/07-01-PLAN.md", "", ".planning/phases/07-hygiene/07-01-SUMMARY.md", "",
		".planning/phases/08-gaps/08-01-PLAN.md", "", ".planning/phases/08-gaps/08-01-SUMMARY.md", "",
		".planning/phases/09-crosscheck/09-DISPOSITION.md", "decided",
		".planning/phases/10-cash-cycle/10-01-PLAN.md", "", ".planning/phases/10-cash-cycle/10-01-SUMMARY.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	if p.Position.Phase != nil || p.Position.Rule != RuleFinished {
		t.Fatalf("position: phase %+v, rule %s; want the milestone finished", p.Position.Phase, p.Position.Rule)
	}
	if open := p.OpenPhases(); len(open) != 0 || !p.Finished() {
		t.Errorf("open phases %q, finished %v; want none open, finished", open, p.Finished())
	}
	if p.Progress.Percent != 100 || p.Progress.PhasesComplete != p.Progress.PhasesTotal || p.Progress.PhasesUnplanned != 0 {
		t.Errorf("progress %+v, want every phase complete, 100%%", p.Progress)
	}
	if v := p.StateValues(); v.Status != statemd.StatusFinished {
		t.Errorf("STATE.md status %q, want %q", v.Status, statemd.StatusFinished)
	}
}

// TestLoadResetPhaseNumbers: with two milestones numbering phases 1-3, each phase is counted
// from its own directories (v1.0's archived under milestones/v1.0-phases/, v2.0's under phases/),
// progress is v2.0's alone, and a consistent project has no problems.
func TestLoadResetPhaseNumbers(t *testing.T) {
	for _, archived := range []bool{true, false} {
		t.Run(fmt.Sprintf("archived=%v", archived), func(t *testing.T) {
			fsys := projectOf(resetFiles(archived))
			p := mustLoad(t, fsys, ".planning")
			var got []string
			for i := range p.Phases {
				ph := &p.Phases[i]
				got = append(got, fmt.Sprintf("%s dir=%s milestone=%v shipped=%v current=%v", phaseLine(ph), ph.Dir, ph.InMilestone, ph.Shipped, i == p.Current))
			}
			v1 := func(dir string) string {
				if archived {
					return ".planning/milestones/v1.0-phases/" + dir
				}
				return ""
			}
			n := func(done, total int) string {
				if archived {
					return fmt.Sprintf("%d/%d", done, total)
				}
				return "0/0"
			}
			want := []string{
				"1 Foundation " + n(2, 2) + " complete (roadmap complete) dir=" + v1("01-foundation") + " milestone=false shipped=true current=false",
				"1 New core 1/1 complete (roadmap complete) dir=.planning/phases/01-new-core milestone=true shipped=false current=false",
				"2 Auth " + n(3, 3) + " complete (roadmap complete) dir=" + v1("02-auth") + " milestone=false shipped=true current=false",
				"2 Sync engine 1/2 in-progress (roadmap in-progress) dir=.planning/phases/02-sync-engine milestone=true shipped=false current=true",
				"3 Core " + n(1, 1) + " complete (roadmap complete) dir=" + v1("03-core") + " milestone=false shipped=true current=false",
				"3 Migration 0/0 not-started (roadmap not-started) dir= milestone=true shipped=false current=false",
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("phases:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if p.Milestone != "v2.0 Rewrite" || p.Active == nil || p.Active.Path != ".planning/phases/02-sync-engine/02-02-PLAN.md" {
				t.Errorf("milestone %q, active %+v", p.Milestone, p.Active)
			}
			if want := (Progress{PhasesComplete: 1, PhasesTotal: 3, PlansComplete: 2, PlansTotal: 3, Percent: 33, PhasesUnplanned: 1}); p.Progress != want {
				t.Errorf("progress = %+v, want %+v", p.Progress, want)
			}
			if len(p.Problems) != 0 {
				t.Errorf("problems:\n%s", problemsText(p.Problems))
			}
		})
	}

	// Problems name the milestone of a phase whose number is not enough: v1.0's leftover plan
	// without its SUMMARY is history, v2.0's phase 1 checked off with an unfinished plan is an
	// error; each is checked against its own directories only.
	fsys := projectOf(resetFiles(true))
	delete(fsys, ".planning/milestones/v1.0-phases/02-auth/02-03-SUMMARY.md")
	fsys[".planning/phases/01-new-core/01-02-PLAN.md"] = &fstest.MapFile{}
	p := mustLoad(t, fsys, ".planning")
	wantProblems := ".planning/ROADMAP.md:14: info: phase 2 of v1.0 MVP is marked complete, but 02-03-PLAN.md has no SUMMARY (a leftover of a shipped milestone)\n" +
		".planning/ROADMAP.md:21: error: phase 1 of v2.0 Rewrite is marked complete, but 01-02-PLAN.md has no SUMMARY (write the missing SUMMARY or uncheck the phase)\n" +
		".planning/ROADMAP.md:30: info: phase 2 of v1.0 MVP: progress table says 3/3 plans complete, the disk has 2/3 (a row of a shipped milestone: history)\n" +
		".planning/ROADMAP.md:32: warning: phase 1 of v2.0 Rewrite: progress table says 1/1 plans complete, the disk has 1/2: update the row\n"
	if got := problemsText(p.Problems); got != wantProblems {
		t.Errorf("problems:\n%s\nwant:\n%s", got, wantProblems)
	}
}

func TestLoadWorkstream(t *testing.T) {
	fsys := project(
		".planning/ROADMAP.md", "- [x] **Phase 1: Main**\n",
		".planning/active-workstream", "site\n",
		".planning/workstreams/site/ROADMAP.md", "- [ ] **Phase 1: Site**\n",
		".planning/workstreams/site/phases/01-site/01-01-PLAN.md", "",
	)
	sel, err := Select(fsys, "")
	if err != nil {
		t.Fatal(err)
	}
	dir := sel.Dir()
	p := mustLoad(t, fsys, dir)
	if len(p.Phases) != 1 || p.Phases[0].Name != "Site" || p.Active == nil ||
		p.Active.Path != ".planning/workstreams/site/phases/01-site/01-01-PLAN.md" {
		t.Errorf("phases = %+v, active = %+v", p.Phases, p.Active)
	}
}

func TestLoadTextVariants(t *testing.T) {
	// CRLF, a BOM, tabs and non-ASCII names read like plain LF; an empty
	// ROADMAP.md is a roadmap without phases.
	src := "\ufeff# Roadmap: Café\r\n\r\n- [ ] **Phase 1:\tÉtape première** - x\r\n\r\n" +
		strings.ReplaceAll(progressHeader, "\n", "\r\n") + "| 1. Étape première | 0/1 | In progress | - |\r\n"
	p := mustLoad(t, project(".planning/ROADMAP.md", src, ".planning/phases/01-etape/01-01-PLAN.md", ""), ".planning")
	if len(p.Phases) != 1 || p.Phases[0].Name != "Étape première" || p.Phases[0].RoadmapStatus != StatusInProgress || p.Milestone != "Café" {
		t.Errorf("phases = %+v, milestone %q", p.Phases, p.Milestone)
	}
	if len(p.Problems) != 0 {
		t.Errorf("problems: %s", problemsText(p.Problems))
	}
	p = mustLoad(t, project(".planning/ROADMAP.md", ""), ".planning")
	if len(p.Phases) != 0 || !strings.Contains(problemsText(p.Problems), "names no phases") {
		t.Errorf("empty roadmap: %+v", p)
	}
}

func TestLoadRefusesBinaryAndHuge(t *testing.T) {
	for name, data := range map[string][]byte{
		"binary": []byte("# Roadmap\x00\x01\x02"),
		"huge":   make([]byte, MaxFileSize+1),
	} {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{".planning/ROADMAP.md": &fstest.MapFile{Data: data}}
			_, err := Load(fsys, ".planning")
			if err == nil || !strings.Contains(err.Error(), ".planning/ROADMAP.md") ||
				!errors.Is(err, ErrBinary) && !errors.Is(err, ErrTooLarge) {
				t.Errorf("Load = %v, want a binary or too-large error naming the file", err)
			}
		})
	}
}

func TestPercent(t *testing.T) {
	for _, tt := range []struct{ done, total, want int }{
		{0, 0, 0}, {0, 3, 0}, {1, 3, 33}, {2, 3, 67}, {1, 2, 50}, {1, 200, 1}, {1, 201, 0}, {199, 200, 100}, {397, 400, 99}, {3, 3, 100},
	} {
		if got := percent(tt.done, tt.total); got != tt.want {
			t.Errorf("percent(%d, %d) = %d, want %d", tt.done, tt.total, got, tt.want)
		}
	}
}

func TestPlansCell(t *testing.T) {
	tests := []struct {
		in          string
		done, total int
		ok          bool
	}{
		{"2/3", 2, 3, true},
		{"0/TBD", 0, -1, true},
		{"0/?", 0, -1, true},
		{"4/4 (13-05 deferred)", 4, 4, true},
		{" 1 / 2 ", 1, 2, true},
		{"007/0012", 7, 12, true},
		{"+2/3", 2, 3, true},
		{"12/1234567890", 12, -1, true},        // a total too long for a count is unknown
		{"1234567890/1234567890", 0, 0, false}, // and a done count too long, no count at all
		{"3/", 3, -1, true},
		{"Complete", 0, 0, false},
		{"-", 0, 0, false},
	}
	for _, tt := range tests {
		d, n, ok := plansCell(tt.in)
		if d != tt.done || n != tt.total || ok != tt.ok {
			t.Errorf("plansCell(%q) = %d, %d, %v; want %d, %d, %v", tt.in, d, n, ok, tt.done, tt.total, tt.ok)
		}
	}
}

// TestCorpusLoad runs Load over every real project: the figures below were
// checked by reading each project's files.
func TestCorpusLoad(t *testing.T) {
	corpusDir := testcorpus.Dir(t)
	tests := []struct {
		project  string
		progress Progress
		errors   int
	}{
		// 02-04 and 06.1-04..06 have no SUMMARY though the roadmap marks
		// phases 2 and 6.1 complete (and its table says 4/4 and 7/7).
		{"cipher-box", Progress{12, 16, 54, 54, 75, 4}, 0},     // milestone 2 (every plan written is done, but 15 to 17 and another need planning: 12/16 phases); milestone 1's leftovers are history
		{"crossing-words", Progress{11, 12, 32, 33, 92, 0}, 0}, // the lesser of 97% of plans and 92% of phases
		{"ebind", Progress{4, 5, 8, 11, 73, 0}, 0},
		{"gomcp", Progress{7, 9, 17, 20, 78, 0}, 0},
		{"ssherpa", Progress{8, 8, 22, 22, 100, 0}, 0},
		{"tiered-pricing", Progress{0, 1, 0, 6, 0, 0}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.project, func(t *testing.T) {
			fsys := os.DirFS(filepath.Join(corpusDir, tt.project))
			sel, err := Select(fsys, "")
			if err != nil {
				t.Fatal(err)
			}
			dir := sel.Dir()
			p, err := Load(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			cur, err := Locate(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			if lc := p.CurrentPhase(); (cur.Phase == nil) != (lc == nil) || cur.Phase != nil && !cur.Phase.Num.Equal(lc.Num) {
				t.Errorf("Load's current phase %v differs from Locate's %v", lc, cur.Phase)
			}
			if p.Progress != tt.progress {
				t.Errorf("progress = %+v, want %+v", p.Progress, tt.progress)
			}
			n := 0
			for _, pr := range p.Problems {
				if pr.Severity == SeverityError {
					n++
				}
			}
			if n != tt.errors {
				t.Errorf("%d errors, want %d:\n%s", n, tt.errors, problemsText(p.Problems))
			}
		})
	}
}

// TestScanQuick holds the quick-task rule, done when the task's directory has a file whose name
// ends in SUMMARY.md, whether the summary is found by its usual name or by listing.
func TestScanQuick(t *testing.T) {
	fsys := fstest.MapFS{
		".planning/quick/001-typo/001-PLAN.md":              {},
		".planning/quick/001-typo/001-SUMMARY.md":           {}, // the usual name
		".planning/quick/002-logo/002-PLAN.md":              {}, // not done
		".planning/quick/003-docs/003-docs-SUMMARY.md":      {}, // another spelling
		".planning/quick/004-api/SUMMARY.md":                {},
		".planning/quick/005-ci/005-SUMMARY.md.bak":         {}, // not a SUMMARY
		".planning/quick/-odd/-odd-SUMMARY.md":              {}, // no number
		".planning/quick/260105-a1b-fix/260105-SUMMARY.md":  {},
		".planning/quick/README.md":                         {}, // a file beside the tasks
		".planning/quick/006-empty/.gitkeep":                {},
		".planning/quick/007-nested/007-SUMMARY.md/keep.md": {}, // a directory so named still counts by name
	}
	got, err := scanQuick(fsys, ".planning")
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, q := range got {
		lines = append(lines, fmt.Sprintf("%s %v", strings.TrimPrefix(q.Dir, ".planning/quick/"), q.Done))
	}
	want := "-odd true\n001-typo true\n002-logo false\n003-docs true\n004-api true\n005-ci false\n006-empty false\n007-nested true\n260105-a1b-fix true"
	if g := strings.Join(lines, "\n"); g != want {
		t.Errorf("quick tasks:\n%s\nwant:\n%s", g, want)
	}
}

func TestListOrder(t *testing.T) {
	ph := func(num string, line int, shipped, current bool) PhaseInfo {
		n, ok := ParsePhaseNum(num)
		if !ok {
			t.Fatalf("bad number %q", num)
		}
		return PhaseInfo{Phase: Phase{Num: n, Name: fmt.Sprintf("%s@%d", num, line)}, Line: line, Shipped: shipped, InMilestone: current}
	}
	names := func(p *Project) string {
		var out []string
		for _, i := range p.ListOrder() {
			out = append(out, p.Phases[i].Name)
		}
		return strings.Join(out, " ")
	}
	// Two shipped milestones and the current one all start at phase 1; an orphan directory 3.
	restarted := &Project{Phases: []PhaseInfo{
		ph("1", 30, false, true), ph("1", 10, true, false), ph("1", 20, true, false),
		ph("2", 31, false, true), ph("2", 11, true, false), ph("2", 21, true, false),
		ph("3", 0, false, false),
	}}
	if got, want := names(restarted), "1@10 2@11 1@20 2@21 1@30 2@31 3@0"; got != want {
		t.Errorf("restarted numbers: %s, want %s", got, want)
	}
	// Numbers not restarted: numeric order, whatever was shipped (a shipped phase 5 after an
	// unshipped 4).
	plain := &Project{Phases: []PhaseInfo{ph("4", 40, false, true), ph("5", 12, true, false), ph("6", 41, false, true)}}
	if got, want := names(plain), "4@40 5@12 6@41"; got != want {
		t.Errorf("plain numbers: %s, want %s", got, want)
	}
}

func TestLoadOnePhaseOverPaddingSiblings(t *testing.T) {
	const ph = ".planning/phases/"
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap: Kiln\n\n"+
			"- [x] **Phase 87: Parser**\n"+
			"- [ ] **Phase 96: Compiler additions**\n"+
			"- [ ] **Phase 100: Release**\n",
		ph+"87-parser/87-01-PLAN.md", "", ph+"87-parser/87-01-SUMMARY.md", "",
		ph+"096-compiler-additions/096-01-PLAN.md", "",
		ph+"096-compiler-additions/096-02-PLAN.md", "",
		ph+"96-compiler-additions/96-01-SUMMARY.md", "",
		ph+"100-release/100-01-PLAN.md", "",
		// Kept copies: a Finder conflict copy and a hidden pre-replan directory.
		ph+"96-compiler-additions 2/96-03-PLAN.md", "",
		ph+".before-replan-2026-01-02/96-01-PLAN.md", "",
		ph+"096-compiler-additions/.before-replan-2026-01-02/096-03-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	var got []string
	for i := range p.Phases {
		got = append(got, phaseLine(&p.Phases[i]))
	}
	want := "87 Parser 1/1 complete (roadmap complete)|96 Compiler additions 1/2 in-progress (roadmap not-started)|100 Release 0/1 planned (roadmap not-started)"
	if g := strings.Join(got, "|"); g != want {
		t.Errorf("phases:\n got %s\nwant %s", g, want)
	}
	if s := problemsText(p.Problems); strings.Contains(s, "error") || strings.Contains(s, "directory but") {
		t.Errorf("problems:\n%s", s)
	}
	if p.Active == nil || !strings.HasSuffix(p.Active.Path, "096-02-PLAN.md") {
		t.Errorf("active = %+v, want 096-02-PLAN.md", p.Active)
	}
}

// TestFixPlanWithoutSummary: progress does not count FIX plans, so a phase marked complete with a
// FIX plan left without its SUMMARY is a warning (a fix to make), not the error an open numbered
// plan is; in a shipped milestone, a note.
func TestFixPlanWithoutSummary(t *testing.T) {
	const ph = ".planning/phases/"
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap: Finch\n\n"+
			"- [x] **Phase 1: Foundation** - layout\n"+
			"- [x] **Phase 2: Core** - core\n"+
			"- [ ] **Phase 3: Web** - web\n",
		ph+"01-foundation/01-01-PLAN.md", "", ph+"01-foundation/01-01-SUMMARY.md", "",
		ph+"01-foundation/01-01-FIX-PLAN.md", "",
		ph+"02-core/02-01-PLAN.md", "",
		ph+"02-core/02-01-FIX-PLAN.md", "",
		ph+"03-web/03-01-PLAN.md", "",
	)
	p := mustLoad(t, fsys, ".planning")
	want := ".planning/ROADMAP.md:3: warning: phase 1 is marked complete, but its FIX plan 01-01-FIX-PLAN.md has no SUMMARY (FIX plans are not counted in progress; write the SUMMARY once the fix is made)\n" +
		".planning/ROADMAP.md:4: warning: phase 2 is marked complete, but its FIX plan 02-01-FIX-PLAN.md has no SUMMARY (FIX plans are not counted in progress; write the SUMMARY once the fix is made)\n" +
		".planning/ROADMAP.md:4: error: phase 2 is marked complete, but 02-01-PLAN.md has no SUMMARY (write the missing SUMMARY or uncheck the phase)\n"
	if got := problemsText(p.Problems); got != want {
		t.Errorf("problems:\n%s\nwant:\n%s", got, want)
	}
}

// A row whose cells slid a column is read by what they hold: the status is the one cell that
// reads as one, not the date in the Status column.
func TestShiftedRowStatus(t *testing.T) {
	p := mustLoad(t, project(
		".planning/ROADMAP.md", "| Phase | Milestone | Plans Complete | Status | Completed |\n|---|---|---|---|---|\n"+
			"| 1. One | 1/1 | Complete | 2026-03-17 | - |\n"+
			"| 2. Two | 0/TBD | **Archivée** (superseded) | 2026-07-22 | - |\n"+
			"| 3. Three | 0/2 | Not started | - | - |\n",
	), ".planning")
	want := []Status{StatusComplete, StatusDeferred, StatusNotStarted}
	for i, ph := range p.Phases {
		if i >= len(want) || ph.RoadmapStatus != want[i] {
			t.Errorf("phase %s: roadmap status %s, want %v", ph.Num, ph.RoadmapStatus, want)
		}
	}
	if len(p.Phases) != len(want) {
		t.Errorf("%d phases, want %d", len(p.Phases), len(want))
	}
	if done, total := p.Phases[0].Entry.PlansDone, p.Phases[0].Entry.PlansTotal; done != 1 || total != 1 {
		t.Errorf("phase 1's plans cell read as %d/%d, want 1/1 (from the Milestone column)", done, total)
	}
}

// Percent is GSD's: the lesser of plans and phases done, so that unplanned phases cap it; a
// percent GSD's tools write for the counts (that one, or plans done alone) agrees with the
// values STATE.md is given (statemd's agrees).
func TestProgressPercent(t *testing.T) {
	tests := []struct {
		name              string
		pr                Progress
		want              int
		agrees, disagrees []int
	}{
		// tenant-flow: 29 of 35 plans, 4 of 14 phases (9 unplanned); GSD wrote 29.
		{"phases cap it", Progress{PhasesComplete: 4, PhasesTotal: 14, PlansComplete: 29, PlansTotal: 35, PhasesUnplanned: 9}, 29, []int{29, 83}, []int{28, 30, 100}},
		{"plans cap it", Progress{PhasesComplete: 4, PhasesTotal: 5, PlansComplete: 6, PlansTotal: 10}, 60, []int{60}, []int{80}},
		{"every written plan done, a phase to plan", Progress{PhasesComplete: 1, PhasesTotal: 3, PlansComplete: 2, PlansTotal: 2, PhasesUnplanned: 2}, 33, []int{33, 100}, []int{67}},
		{"rounding never says done while a phase is unplanned", Progress{PhasesComplete: 199, PhasesTotal: 200, PlansComplete: 400, PlansTotal: 400, PhasesUnplanned: 1}, 99, []int{99, 100}, nil},
		{"every phase finished, a leftover plan", Progress{PhasesComplete: 3, PhasesTotal: 3, PlansComplete: 35, PlansTotal: 36}, 100, []int{100, 97}, []int{96}}, // 97: min(97, 100), GSD's
		{"nothing yet", Progress{PhasesTotal: 2, PhasesUnplanned: 2}, 0, []int{0}, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pr := tt.pr
			if got := pr.percentOf(); got != tt.want {
				t.Errorf("percent = %d, want %d", got, tt.want)
			}
			pr.Percent = pr.percentOf()
			v := (&Project{Progress: pr, Current: -1}).StateValues()
			v.PercentKnown, v.CountsKnown = true, true // as for a milestone with a plan
			// A percent agrees when a write of these values leaves it as written.
			agrees := func(n int) bool {
				src := fmt.Sprintf("---\nprogress:\n  percent: %d\n---\n", n)
				return !slices.ContainsFunc(statemd.Changes([]byte(src), v), func(c statemd.Change) bool { return c.Field == "frontmatter" })
			}
			for _, n := range tt.agrees {
				if !agrees(n) {
					t.Errorf("percent: %d is rewritten, want it kept", n)
				}
			}
			for _, n := range tt.disagrees {
				if agrees(n) {
					t.Errorf("percent: %d is kept, want it rewritten", n)
				}
			}
		})
	}
}
