package cmd

import (
	"testing"

	"github.com/gsd-tools/gsd/hydrate"
)

// The texts new users read: a task name that already carries its number is not numbered twice,
// and a STATE.md without the line says so rather than quoting "no phase line" as its text.
func TestReadableTexts(t *testing.T) {
	for _, tc := range []struct {
		n          int
		name, want string
	}{
		{1, "Task 1: Create handlers", "Task 1: Create handlers"},
		{2, "task 2: lower case", "task 2: lower case"},
		{3, "Create handlers", "task 3: Create handlers"},
		{4, "Task 1: another number", "task 4: Task 1: another number"},
	} {
		if got := hydrate.TaskLabel(tc.n, tc.name); got != tc.want {
			t.Errorf("TaskLabel(%d, %q) = %q, want %q", tc.n, tc.name, got, tc.want)
		}
	}
	says := "Phase: 2 of 3"
	for _, tc := range []struct {
		d    hydrate.Difference
		want string
	}{
		{hydrate.Difference{Field: "phase", Derived: "Phase: 3 of 3"}, `out of date: it has no phase line; the roadmap and disk say "Phase: 3 of 3" (gsd state --write)`},
		{hydrate.Difference{Field: "phase", Line: 36, Says: &says, Derived: "Phase: 3 of 3"}, `out of date: line 36 says "Phase: 2 of 3", not "Phase: 3 of 3" (gsd state --write)`},
	} {
		if got := stateDriftText(tc.d); got != tc.want {
			t.Errorf("stateDriftText = %s\nwant %s", got, tc.want)
		}
	}
}
