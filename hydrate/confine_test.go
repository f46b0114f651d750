package hydrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// TestWriteRefusedBeforeCreatingOutside: with .planning/sessions a symlink out of the project, a
// session write is refused before anything, even the user's directory, is created out there.
func TestWriteRefusedBeforeCreatingOutside(t *testing.T) {
	e := project(t, baseFiles())
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(e.Root, ".planning", "sessions")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	err := e.writeSession([]byte("x"))
	if err == nil || !strings.Contains(err.Error(), ".planning/sessions/ann: resolves to ") || !strings.Contains(err.Error(), "outside the project; refusing to write there") {
		t.Fatalf("err = %v", err)
	}
	if _, err := e.archive([]byte("x"), "stale"); err == nil {
		t.Fatal("archive wrote through the symlink")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("created outside the project: %v", entries)
	}
}

// TestDebrisRemovedOnlyForSessions: the next write removes the temporary files a killed gsd
// left, and nothing else: not other files, not a temporary file young enough to belong to a
// write in progress, not one whose writer still holds it locked.
func TestDebrisRemovedOnlyForSessions(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "pending", "pending", "pending")
	files[".planning/sessions/ann/.current-plan.md123456"] = "debris"
	files[".planning/sessions/ann/.current-plan.20260203100000.stale42"] = "debris"
	files[".planning/sessions/ann/.current-plan.md777"] = "a write in progress"
	files[".planning/sessions/ann/.current-plan.md888"] = "an old write in progress, locked"
	files[".planning/sessions/ann/.notes42"] = "not ours"
	files[".planning/sessions/ann/current-plan.md123"] = "not a dot-file"
	e := project(t, files)
	dir := filepath.Join(e.Root, ".planning/sessions/ann")
	old := time.Now().Add(-atomicfile.TempGrace - time.Minute)
	for _, name := range []string{".current-plan.md123456", ".current-plan.20260203100000.stale42", ".current-plan.md888", ".notes42", "current-plan.md123"} {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	holdFlock(t, filepath.Join(dir, ".current-plan.md888"))
	if _, err := e.Mark(1, "complete"); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, de := range entries {
		names = append(names, de.Name())
	}
	if got := strings.Join(names, " "); got != ".current-plan.md777 .current-plan.md888 .notes42 current-plan.md current-plan.md123 journal.jsonl" {
		t.Errorf("files after the write: %s", got)
	}
}
