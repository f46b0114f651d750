package roadmap

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the shared corpus of real GSD projects, which sits beside the
// checkout (../shared from the repository root).
var corpusDir = filepath.Join("..", "..", "shared", "corpus")

// TestCorpus runs FindCurrent over every real project and checks the
// position determined by reading each project's files by hand.
func TestCorpus(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("no corpus at %s", corpusDir)
	}
	tests := []struct {
		project     string
		planningDir string
		phase       string   // "" for no current phase
		active      string   // "" for no active plan
		inProgress  []string // what ROADMAP.md marks in progress
	}{
		// Table row "10. Gameplay Flow | 2/3 | In progress"; 10-01, its FIX
		// and 10-02 have summaries, 10-03 does not.
		{"crossing-words", ".planning", "10",
			".planning/phases/10-gameplay-flow-improvements/10-03-PLAN.md", []string{"10"}},
		// Phases 8 and 9 both "In progress"; 8 is first and 08-02 has no summary.
		{"gomcp", ".planning", "8",
			".planning/phases/08-end-to-end-validation/08-02-PLAN.md", []string{"8", "9"}},
		// Nothing in progress; 1-4 complete; 5 is "Inserted" with 05-01,
		// 05-02 and the phase-level 05-PLAN.md, none summarised.
		{"ebind", ".planning", "5",
			".planning/phases/05-pr-review-feedback-fixes/05-01-PLAN.md", nil},
		// Every phase "Complete" / "✓ Complete" and summarised.
		{"ssherpa", ".planning", "", "", nil},
		// Only the milestone heading says "(In Progress)"; every phase with a
		// directory is complete (12-PLAN-0N pair with 12-0N-SUMMARY); the
		// not-started phases 11, 15-21 have no directories yet.
		{"cipher-box", ".planning", "", "", nil},
		// active-workstream names viz-website, whose single phase is
		// unchecked and has six plans without summaries.
		{"tiered-pricing", ".planning/workstreams/viz-website", "1",
			".planning/workstreams/viz-website/phases/01-viz-site-mvp/01-01-PLAN.md", nil},
	}
	for _, tt := range tests {
		t.Run(tt.project, func(t *testing.T) {
			fsys := os.DirFS(filepath.Join(corpusDir, tt.project))
			dir, err := PlanningDir(fsys, "")
			if err != nil {
				t.Fatal(err)
			}
			if dir != tt.planningDir {
				t.Errorf("PlanningDir = %q, want %q", dir, tt.planningDir)
			}
			cur, err := FindCurrent(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			phase, active := "", ""
			var marked []string
			if cur != nil {
				phase = cur.Phase.Num.String()
				if cur.Active != nil {
					active = cur.Active.Path
				}
				for _, n := range cur.InProgress {
					marked = append(marked, n.String())
				}
			}
			if phase != tt.phase || active != tt.active {
				t.Errorf("current = %q %q, want %q %q", phase, active, tt.phase, tt.active)
			}
			if strings.Join(marked, ",") != strings.Join(tt.inProgress, ",") {
				t.Errorf("InProgress = %v, want %v", marked, tt.inProgress)
			}
		})
	}

	// The main .planning of the workstream project is finished; its phase 3
	// has only a phase-level 03-SUMMARY.md, which completes no numbered plan,
	// but the roadmap marks the phase complete.
	t.Run("tiered-pricing main", func(t *testing.T) {
		fsys := os.DirFS(filepath.Join(corpusDir, "tiered-pricing"))
		cur, err := FindCurrent(fsys, ".planning")
		if err != nil || cur != nil {
			t.Errorf("FindCurrent(.planning) = %+v, %v; want nil", cur, err)
		}
		plans, err := ScanPlans(fsys, ".planning/phases/03-targeted-cheap-tests")
		if err != nil || len(plans) != 3 || plans[0].Done() {
			t.Errorf("phase 3 plans = %+v, %v", plans, err)
		}
	})

	// Word-first plan names: without pairing by id, phase 12 would look
	// unfinished and become current.
	t.Run("cipher-box phase 12", func(t *testing.T) {
		fsys := os.DirFS(filepath.Join(corpusDir, "cipher-box"))
		plans, err := ScanPlans(fsys, ".planning/phases/12-multi-factor-authentication")
		if err != nil || len(plans) != 5 {
			t.Fatalf("plans = %+v, %v", plans, err)
		}
		for _, p := range plans {
			if !p.Done() {
				t.Errorf("%s has no summary", p.Path)
			}
		}
	})
}

// TestCorpusNoSurprises parses every ROADMAP and scans every phase directory
// in the corpus, archived milestones included: no errors, every plan id
// well formed, every summary paired at most once.
func TestCorpusNoSurprises(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skipf("no corpus at %s", corpusDir)
	}
	fsys := os.DirFS(corpusDir)
	roadmaps, dirs := 0, 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), "ROADMAP.md") {
			roadmaps++
			b, err := readText(fsys, p)
			if err != nil {
				return err
			}
			for _, e := range ParseRoadmap(p, b).Phases {
				if _, ok := ParsePhaseNum(e.Num.String()); !ok {
					t.Errorf("%s:%d: invalid phase %q", p, e.Line, e.Num.Raw())
				}
			}
		}
		if d.IsDir() && strings.HasSuffix(path.Base(path.Dir(p)), "phases") {
			if _, _, ok := phaseDirName(d.Name()); !ok {
				return nil
			}
			dirs++
			plans, err := ScanPlans(fsys, p)
			if err != nil {
				return err
			}
			seen := map[string]string{}
			for _, pl := range plans {
				if n, ok := PhaseOf(pl.Path); !ok || pl.ID == "" {
					t.Errorf("%s: phase %v, id %q", pl.Path, n, pl.ID)
				}
				if pl.Summary != "" {
					if other, dup := seen[pl.Summary]; dup {
						t.Errorf("%s completes both %s and %s", pl.Summary, other, pl.Path)
					}
					seen[pl.Summary] = pl.Path
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if roadmaps < 6 || dirs < 50 {
		t.Errorf("walked only %d roadmaps and %d phase directories", roadmaps, dirs)
	}
}
