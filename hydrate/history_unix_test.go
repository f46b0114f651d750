//go:build unix

package hydrate

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestFIFOJournalNeverBlocksAMark: a journal that is a FIFO is never opened (opening it would
// block this test); the mark is made, and the warning says what the journal is.
func TestFIFOJournalNeverBlocksAMark(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "pending", "pending", "pending")
	e := project(t, files)
	if err := syscall.Mkfifo(filepath.Join(e.Root, filepath.FromSlash(e.History().JournalPath())), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := e.Mark(2, "complete")
	if err != nil || !res.Changed {
		t.Fatalf("mark: %+v %v", res, err)
	}
	data, _ := os.ReadFile(filepath.Join(e.Root, filepath.FromSlash(e.SessionPath())))
	if !strings.Contains(string(data), `<task type="auto" status="complete">
  <name>C2</name>`) {
		t.Errorf("task 2 not marked:\n%s", data)
	}
	w := e.History().HistoryWarnings()
	if len(w) != 1 || w[0] != ".planning/sessions/ann/journal.jsonl is a named pipe, not a journal; session history is not recorded until it is moved away" {
		t.Errorf("warnings %q", w)
	}
	if _, err := e.History().Log(LogQuery{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("log of a FIFO journal: %v", err)
	}
}
