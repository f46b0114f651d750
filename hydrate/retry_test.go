package hydrate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStartRetryAddsNoDuplicateArchive: a start that archived the session and then failed or was
// killed leaves that archive; the retry finds it holding exactly the session's bytes and reuses
// it instead of adding another identical copy.
func TestStartRetryAddsNoDuplicateArchive(t *testing.T) {
	files := baseFiles()
	// (A session of another plan: a start of the plan it already follows archives nothing.)
	sess := session(".planning/phases/01-one/01-01-PLAN.md", "complete")
	files[".planning/sessions/ann/current-plan.md"] = sess
	// What the killed start left: its archive, under an earlier stamp.
	files[".planning/sessions/ann/current-plan.20260101000000.stale"] = sess
	e := project(t, files)
	res, err := e.Start(".planning/phases/03-three/03-02-PLAN.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(e.Root, ".planning/sessions/ann")
	archives, _ := filepath.Glob(filepath.Join(dir, "current-plan.*.stale"))
	if len(archives) != 1 {
		t.Errorf("archives %v, want only the earlier identical one", archives)
	}
	if len(res.Actions) == 0 || res.Actions[0].Kind != "archived" || res.Actions[0].Path != ".planning/sessions/ann/current-plan.20260101000000.stale" {
		t.Errorf("actions %+v: want the existing archive reported", res.Actions)
	}
	// A different session is archived anew.
	if _, err := e.Mark(1, "complete"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Archive(); err != nil {
		t.Fatal(err)
	}
	archives, _ = filepath.Glob(filepath.Join(dir, "current-plan.*.stale"))
	if len(archives) != 2 {
		t.Errorf("archives %v, want 2", archives)
	}
	if _, err := os.Stat(filepath.Join(dir, "current-plan.md")); !os.IsNotExist(err) {
		t.Errorf("session left after Archive: %v", err)
	}
}
