package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap/testcorpus"
)

// hasSections reports whether the plan at path has Markdown task sections.
func hasSections(t *testing.T, path string) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := planfile.Scan(b)
	return len(p.Tasks) > 0 && p.Tasks[0].Section != nil
}

// TestCorpusProgress runs gsd progress --json, as a user would, over every real project of the
// corpus (GSD_CORPUS) and checks it against its EXPECTED.json: where each stands as a person reads
// it (scope, current phase, active plan, trackability) and its plan-file counts.
func TestCorpusProgress(t *testing.T) {
	corpusDir := testcorpus.Dir(t)
	b, err := os.ReadFile(filepath.Join(corpusDir, "EXPECTED.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]struct {
		Scope        string  `json:"scope"`
		CurrentPhase *string `json:"currentPhase"`
		ActivePlan   *string `json:"activePlan"`
		Trackable    *bool   `json:"trackable"`
		PlanFiles    int     `json:"planFiles"`
		PlansDone    int     `json:"plansDone"`
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if len(want) < 6 {
		t.Fatalf("EXPECTED.json lists %d projects", len(want))
	}
	t.Setenv("GSD_USER", "probe")
	t.Setenv("GSD_WORKSTREAM", "")
	for name, w := range want {
		t.Run(name, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"-C", dir, "progress", "--json"}, nil, &stdout, &stderr); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			var got struct {
				Scope         string  `json:"scope"`
				CurrentPhase  *string `json:"currentPhase"`
				ActivePlan    *string `json:"activePlan"`
				Trackable     *bool   `json:"trackable"`
				NeedsPlanning bool    `json:"needsPlanning"`
				PlanFiles     int     `json:"planFiles"`
				PlansDone     int     `json:"plansDone"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			// EXPECTED.json was written when only <task> elements were tracked: an active plan
			// it calls not trackable is trackable now if it has Markdown task sections (ebind's
			// "### Task N" plan).
			if w.Trackable != nil && !*w.Trackable && w.ActivePlan != nil && hasSections(t, filepath.Join(dir, *w.ActivePlan)) {
				w.Trackable = new(bool)
				*w.Trackable = true
			}
			str := func(p *string) string {
				if p == nil {
					return "null"
				}
				return *p
			}
			boolean := func(p *bool) string {
				if p == nil {
					return "null"
				}
				if *p {
					return "true"
				}
				return "false"
			}
			if got.Scope != w.Scope || str(got.CurrentPhase) != str(w.CurrentPhase) || str(got.ActivePlan) != str(w.ActivePlan) ||
				boolean(got.Trackable) != boolean(w.Trackable) || got.PlanFiles != w.PlanFiles || got.PlansDone != w.PlansDone {
				t.Errorf("got scope %s, phase %s, plan %s, trackable %s, %d/%d plan files done;\nwant scope %s, phase %s, plan %s, trackable %s, %d/%d",
					got.Scope, str(got.CurrentPhase), str(got.ActivePlan), boolean(got.Trackable), got.PlansDone, got.PlanFiles,
					w.Scope, str(w.CurrentPhase), str(w.ActivePlan), boolean(w.Trackable), w.PlansDone, w.PlanFiles)
			}
			if needs := w.CurrentPhase != nil && w.ActivePlan == nil; got.NeedsPlanning != needs {
				t.Errorf("needsPlanning = %v, want %v", got.NeedsPlanning, needs)
			}
		})
	}
}
