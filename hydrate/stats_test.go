package hydrate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/hydrate/journal"
)

// TestStatsReadsWhatLogReads: gsd stats reads the journals gsd log reads, with one limit; here
// one larger than any other file gsd reads.
func TestStatsReadsWhatLogReads(t *testing.T) {
	e := project(t, baseFiles())
	line, err := journal.Encode(journal.Event{SchemaVersion: 1, Seq: 1, Time: t0, Type: journal.Rehydrated, Source: "hook", Instance: "s1", Note: "startup", Size: 900})
	if err != nil {
		t.Fatal(err)
	}
	j := filepath.Join(e.Root, filepath.FromSlash(e.JournalPath()))
	if err := os.MkdirAll(filepath.Dir(j), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j, line, 0o644); err != nil {
		t.Fatal(err)
	}
	// A sparse tail (one torn line of NULs) past MaxFileSize, within MaxJournalSize.
	if err := os.Truncate(j, MaxFileSize+1<<20); err != nil {
		t.Fatal(err)
	}
	lr, err := e.Log(LogQuery{})
	if err != nil || len(lr.Events) != 1 {
		t.Fatalf("log: %v %v", lr, err)
	}
	for _, all := range []bool{false, true} {
		st, err := e.Stats(all)
		if err != nil {
			t.Fatal(err)
		}
		if st.Rehydrations != 1 || st.BySource["startup"] != 1 || len(st.Problems) != len(lr.Problems) {
			t.Errorf("all=%v: %d rehydrations, problems %q; log's problems %q", all, st.Rehydrations, st.Problems, lr.Problems)
		}
		for i, p := range st.Problems {
			if p != lr.Problems[i] || strings.Contains(p, "larger than") {
				t.Errorf("all=%v: problem %q, log says %q", all, p, lr.Problems[i])
			}
		}
	}
}
