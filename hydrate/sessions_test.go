package hydrate

import "testing"

// snapshotKind reads exactly the names parseSnapshotID does.
func TestSnapshotKind(t *testing.T) {
	for _, name := range []string{
		"current-plan.20260203100000.stale", "current-plan.20260203100000-2.pre-compact",
		"current-plan.20260203100000.", "current-plan.2026020310000.stale", "current-plan.20260203100000-.stale",
		"current-plan.20260203100000.Stale", "current-plan.md", "journal.jsonl", "current-plan.20260203100000.a_b",
		"current-plan.20260203100000-12.manual", "current-plan.20261303100000.stale", "current-plan.20260203100000x.stale",
	} {
		_, _, want, wantOK := parseSnapshotID(name)
		got, ok := snapshotKind(name)
		if ok != wantOK || got != want {
			t.Errorf("snapshotKind(%q) = %q, %v; parseSnapshotID says %q, %v", name, got, ok, want, wantOK)
		}
	}
}
