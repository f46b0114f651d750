package roadmap

import (
	"slices"
	"testing"
)

// A plan's SUMMARY in a sibling directory that differs only in zero padding completes it for a
// command that looks one phase up (PhasePlans), as for progress; AllPlans lists phases/ before
// the milestones' archives, each paired alike.
func TestPhasePlansAndAllPlans(t *testing.T) {
	fsys := project(
		".planning/phases/096-compiler/096-01-PLAN.md", "",
		".planning/phases/096-compiler/096-02-PLAN.md", "",
		".planning/phases/96-compiler/96-01-SUMMARY.md", "",
		".planning/milestones/v3-phases/323-sync/323-01-PLAN.md", "",
		".planning/milestones/v3-phases/323-sync/323-01-SUMMARY.md", "",
		".planning/milestones/v3-phases/323-sync/323-02-PLAN.md", "",
		".planning/quick/1-fix/1-PLAN.md", "",
	)
	plans, err := PhasePlans(fsys, ".planning/phases/096-compiler")
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) != 2 || plans[0].Summary != ".planning/phases/96-compiler/96-01-SUMMARY.md" || plans[1].Done() {
		t.Errorf("PhasePlans = %+v, want 096-01 done by its sibling's SUMMARY, 096-02 not", plans)
	}
	if plans, err := PhasePlans(fsys, ".planning/quick/1-fix"); err != nil || len(plans) != 1 {
		t.Errorf("PhasePlans of a quick task = %+v, %v; want its one plan", plans, err)
	}
	all, err := AllPlans(fsys, ".planning")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range all {
		got = append(got, p.ID+map[bool]string{true: " done", false: ""}[p.Done()])
	}
	if want := []string{"096-01 done", "096-02", "323-01 done", "323-02"}; !slices.Equal(got, want) {
		t.Errorf("AllPlans = %q, want %q", got, want)
	}
	if !Archived(".planning/milestones/v3-phases/323-sync/323-02-PLAN.md") || Archived(".planning/phases/096-compiler/096-02-PLAN.md") {
		t.Error("Archived: want true for milestones/v3-phases, false for phases/")
	}
}
