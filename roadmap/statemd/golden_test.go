package statemd

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

var update = flag.Bool("update", false, "rewrite golden files")

// goldenValues are the values each testdata/NAME.input.md is rewritten with, as the position
// model would hand them in.
var goldenValues = map[string]Values{
	// The roadmap moved on to phase 9: Phase, Plan and Status follow; the bar keeps its width.
	"classic": {Phase: "9", PhaseOf: 9, PhaseName: "Wizard Bug Fixes", PlanNumber: 3, PlanDone: 2, PlanTotal: 3,
		Status: "In progress", Percent: 94, PercentKnown: true},
	// Same phase (07 = 7): the PAUSED line and its Status stay; only numbers move.
	"paused": {Phase: "7", PhaseOf: 12, PhaseName: "Sync Engine", PlanNumber: 1, PlanTotal: 3, Status: "In progress",
		Percent: 60, PercentKnown: true, TotalPhases: 12, CompletedPhases: 6, TotalPlans: 30, CompletedPlans: 18, CountsKnown: true},
	// The milestone percent is not known to the caller: nothing changes, percent: 67 included.
	"milestone": {Phase: "54", PhaseOf: 59, PhaseName: "Report Exports", PlanNumber: 2, PlanDone: 1, PlanTotal: 3, Status: "In progress"},
	// Phase 14 complete, 15 next and not planned yet; the Progress line has no percent to redraw.
	"next-phase": {Phase: "15", PhaseName: "Link Sharing + Search", Status: "Ready to plan", Percent: 90, PercentKnown: true},
	// A workstream's STATE.md in the newer bold shape, CRLF: the phase agrees, Plan and Progress are added.
	"workstream.crlf": {Phase: "1", PhaseOf: 5, PhaseName: "Docs Site MVP", PlanNumber: 1, PlanTotal: 6, Status: "Ready to execute",
		Percent: 0, PercentKnown: true, TotalPhases: 5, CompletedPhases: 0, TotalPlans: 6, CompletedPlans: 0, CountsKnown: true},
	// Prose and a fenced overview: the fields go first, a blank line before the prose.
	"prose": {Phase: "5", PhaseOf: 5, PhaseName: "Review Feedback Fixes", PlanNumber: 1, PlanTotal: 2, Status: "Ready to execute",
		Percent: 80, PercentKnown: true, TotalPhases: 5, CompletedPhases: 4, TotalPlans: 10, CompletedPlans: 8, CountsKnown: true},
	// No section and no final newline: one is appended.
	"nosection-nofinal": {Phase: "1", PhaseOf: 3, PhaseName: "Setup", Status: "Ready to plan", Percent: 0, PercentKnown: true},
}

// TestGolden rewrites each testdata/NAME.input.md and compares the result with NAME.golden.md
// and its diff with NAME.diff (go test -update writes them).
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.input.md"))
	if err != nil || len(inputs) != len(goldenValues) {
		t.Fatalf("inputs %q (%v), values for %d", inputs, err, len(goldenValues))
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input.md")
		t.Run(name, func(t *testing.T) {
			v, ok := goldenValues[name]
			if !ok {
				t.Fatalf("no values for %s", in)
			}
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			out, changes := Rewrite(src, v)
			golden(t, name+".golden.md", out)
			golden(t, name+".diff", diff.Diff("STATE.md", src, "STATE.md", out))
			if (len(changes) == 0) != bytes.Equal(src, out) {
				t.Errorf("%d changes, output unchanged %v", len(changes), bytes.Equal(src, out))
			}
			if again, ch := Rewrite(out, v); len(ch) != 0 || !bytes.Equal(again, out) {
				t.Errorf("not idempotent: %+v", ch)
			}
			if crlf := bytes.Count(src, []byte("\r\n")); crlf > 0 && bytes.Count(out, []byte("\r\n")) != bytes.Count(out, []byte("\n")) {
				t.Errorf("CRLF not kept on every line")
			}
			if !bytes.HasSuffix(src, []byte("\n")) && Parse(string(src)).heading >= 0 && bytes.HasSuffix(out, []byte("\n")) {
				t.Errorf("final newline added to a file that had none")
			}
			if d := Parse(string(out)).Declared(); v.Phase != "" && !samePhase(d.Phase, v.Phase) {
				t.Errorf("rewritten file declares phase %q, want %q", d.Phase, v.Phase)
			}
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: output differs from golden file\n%s", name, diff.Diff(name, want, name, got))
	}
}
