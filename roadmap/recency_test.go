package roadmap

import (
	"testing"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// stopped_at's plan names its phase with the phase-number grammar every file uses: a project
// code is dropped, a series prefix kept, a number zero-padded or not.
func TestStoppedAt(t *testing.T) {
	phases := []Entry{{Num: mustNum(t, "1")}, {Num: mustNum(t, "7")}, {Num: mustNum(t, "E73")}, {Num: mustNum(t, "12.1")}}
	for plan, want := range map[string]int{"07-02": 1, "CK-01-02": 0, "E73-01": 2, "12.1-03": 3, "9-01": -1, "": -1} {
		if got := stoppedAt(phases, statemd.Declared{StoppedPlan: plan}); got != want {
			t.Errorf("stoppedAt(%q) = %d, want %d", plan, got, want)
		}
	}
}

func mustNum(t *testing.T, s string) PhaseNum {
	t.Helper()
	n, ok := ParsePhaseNum(s)
	if !ok {
		t.Fatalf("%q is no phase number", s)
	}
	return n
}
