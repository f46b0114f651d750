package roadmap

import (
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/roadmap/testcorpus"
)

// expected is one project of the corpus's EXPECTED.json: where it stands, as a person reads it.
type expected struct {
	Scope        string  `json:"scope"`
	CurrentPhase *string `json:"currentPhase"`
	ActivePlan   *string `json:"activePlan"`
	Trackable    *bool   `json:"trackable"`
	PlanFiles    int     `json:"planFiles"`
	PlansDone    int     `json:"plansDone"`
}

// readExpected returns the corpus directory (testcorpus.Dir: the test is skipped without
// GSD_CORPUS) and its EXPECTED.json.
func readExpected(t *testing.T) (string, map[string]expected) {
	t.Helper()
	corpusDir := testcorpus.Dir(t)
	b, err := os.ReadFile(filepath.Join(corpusDir, "EXPECTED.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]expected
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 6 {
		t.Fatalf("EXPECTED.json lists %d projects", len(want))
	}
	return corpusDir, want
}

// TestCorpus runs Locate and Load over every real project and checks the position a person
// reads from its files (corpus/EXPECTED.json), and that both agree.
func TestCorpus(t *testing.T) {
	corpusDir, expected := readExpected(t)
	for name, want := range expected {
		t.Run(name, func(t *testing.T) {
			fsys := os.DirFS(filepath.Join(corpusDir, name))
			sel, err := Select(fsys, "")
			if err != nil {
				t.Fatal(err)
			}
			dir := sel.Dir()
			pos, err := Locate(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			if pos.Scope != want.Scope {
				t.Errorf("scope = %q, want %q", pos.Scope, want.Scope)
			}
			phase, active := "", ""
			if pos.Phase != nil {
				phase = pos.Phase.Num.String()
			}
			if pos.Active != nil {
				active = pos.Active.Path
			}
			wantPhase, wantActive := "", ""
			if want.CurrentPhase != nil {
				n, _ := ParsePhaseNum(*want.CurrentPhase)
				wantPhase = n.String()
			}
			if want.ActivePlan != nil {
				wantActive = *want.ActivePlan
			}
			if phase != wantPhase || active != wantActive {
				t.Errorf("current = %q %q, want %q %q\nevidence:\n%s", phase, active, wantPhase, wantActive, evidenceText(pos))
			}
			if pos.NeedsPlanning != (wantPhase != "" && wantActive == "") {
				t.Errorf("NeedsPlanning = %v", pos.NeedsPlanning)
			}
			proj, err := Load(fsys, dir)
			if err != nil {
				t.Fatal(err)
			}
			files, done, err := proj.CountPlanFiles(fsys)
			if err != nil || files != want.PlanFiles || done != want.PlansDone {
				t.Errorf("CountPlanFiles = %d, %d, %v; want %d, %d", files, done, err, want.PlanFiles, want.PlansDone)
			}
			lc := ""
			if ph := proj.CurrentPhase(); ph != nil {
				lc = ph.Num.String()
			}
			if lc != phase {
				t.Errorf("Load's current phase %q differs from Locate's %q", lc, phase)
			}
		})
	}

	// The main .planning of the workstream project is finished; its phase 3
	// has only a phase-level 03-SUMMARY.md, which completes no numbered plan,
	// but the roadmap marks the phase complete.
	t.Run("tiered-pricing main", func(t *testing.T) {
		fsys := os.DirFS(filepath.Join(corpusDir, "tiered-pricing"))
		// The roadmap marks phase 3 complete, which the position model takes after a finished
		// STATE.md phase (04); progress --check reports the contradiction.
		cur, err := Locate(fsys, ".planning")
		if err != nil || cur.Phase != nil || cur.Rule != RuleFinished {
			t.Errorf("Locate(.planning) = %+v, %v; want finished", cur, err)
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
	fsys := os.DirFS(testcorpus.Dir(t))
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

func evidenceText(p *Position) string {
	var b strings.Builder
	for _, e := range p.Evidence {
		b.WriteString("  " + e.String() + "\n")
	}
	return b.String()
}
