package hydrate

import (
	"errors"
	"path/filepath"
	"testing"
	"testing/fstest"
)

// TestResolvePlan: a plan by path or by id; an id two plans share, a path outside the project
// and a name that is neither are argument errors.
func TestResolvePlan(t *testing.T) {
	e := project(t, map[string]string{
		".planning/phases/03-api/03-01-PLAN.md":    plan("Task 1: A"),
		".planning/phases/03-api/03-01-SUMMARY.md": "done\n",
		".planning/phases/10-fix/10-01-FIX.md":     plan("Task 1: B"),
		".planning/phases/11-x/11-01-PLAN.md":      plan("Task 1: C"),
		".planning/notes.md":                       "notes\n",
	})
	sub := filepath.Join(e.Root, ".planning")
	for _, tt := range []struct {
		dir, arg, want string
		argErr         bool
	}{
		{e.Root, "03-01", ".planning/phases/03-api/03-01-PLAN.md", false},
		{e.Root, "10-01-fix", ".planning/phases/10-fix/10-01-FIX.md", false},
		{sub, "notes.md", ".planning/notes.md", false}, // an existing file, relative to dir
		{e.Root, filepath.Join(e.Root, ".planning/phases/03-api/03-01-PLAN.md"), ".planning/phases/03-api/03-01-PLAN.md", false},
		{e.Root, "nosuch", "", true},
		{e.Root, "03-09", "", true},
		{e.Root, ".planning/phases/03-api/03-09-PLAN.md", "", true},
		{e.Root, "../../etc/passwd", "", true},
		{e.Root, "/etc/passwd", "", true},
	} {
		got, err := e.ResolvePlan(tt.dir, tt.arg)
		var ae *ArgError
		if got != tt.want || errors.As(err, &ae) != tt.argErr || (err != nil) != tt.argErr {
			t.Errorf("ResolvePlan(%q) = %q, %v; want %q, argument error %v", tt.arg, got, err, tt.want, tt.argErr)
		}
		if tt.argErr && tt.arg == "nosuch" && !errors.Is(err, ErrNoSuchPlan) {
			t.Errorf("ResolvePlan(nosuch): %v is not ErrNoSuchPlan", err)
		}
	}
}

// TestSpelledOnDisk: where names are matched regardless of case (Windows, macOS), a plan path
// typed in another case is recorded as the directory spells it; an exact name stays, and so
// does a name two entries match but for case.
func TestSpelledOnDisk(t *testing.T) {
	fsys := fstest.MapFS{
		".planning/phases/02-api/02-01-PLAN.md": {},
		".planning/phases/02-api/notes.md":      {},
		".planning/phases/02-api/NOTES.md":      {},
		".planning/phases/02-Api/x.md":          {},
	}
	for in, want := range map[string]string{
		".planning/phases/02-api/02-01-PLAN.md":  ".planning/phases/02-api/02-01-PLAN.md",
		".PLANNING/Phases/02-api/02-01-plan.md":  ".planning/phases/02-api/02-01-PLAN.md",
		".planning/phases/02-api/Notes.md":       ".planning/phases/02-api/Notes.md",
		".planning/phases/02-api/NOTES.md":       ".planning/phases/02-api/NOTES.md",
		".planning/phases/02-API/02-01-PLAN.md":  ".planning/phases/02-API/02-01-PLAN.md",
		".planning/PHASES/02-Api/x.md":           ".planning/phases/02-Api/x.md",
		".planning/phases/missing/02-01-PLAN.md": ".planning/phases/missing/02-01-PLAN.md",
	} {
		if got := spelledOnDisk(fsys, in); got != want {
			t.Errorf("spelledOnDisk(%q) = %q, want %q", in, got, want)
		}
	}
}
