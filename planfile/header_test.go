package planfile

import (
	"bytes"
	"testing"
)

// The decision headers go after the Started line in the file's own line ending, are read back,
// and are added once.
func TestMarkChosenAndForced(t *testing.T) {
	src := []byte("<!-- Session progress for ann -->\r\n<!-- Plan: p.md -->\r\n<!-- Started: 2026-02-03T10:00:00Z -->\r\n\r\n<tasks>\r\n</tasks>\r\n")
	out := MarkChosen(src)
	want := "<!-- Started: 2026-02-03T10:00:00Z -->\r\n" + chosenComment + "\r\n\r\n<tasks>"
	if !bytes.Contains(out, []byte(want)) {
		t.Fatalf("MarkChosen:\n%q\nwant it to contain %q", out, want)
	}
	if h := ReadHeader(out); !h.Chosen || h.Forced || h.Plan != "p.md" {
		t.Errorf("header %+v: want Chosen, not Forced", h)
	}
	if again := MarkChosen(out); !bytes.Equal(again, out) {
		t.Errorf("MarkChosen twice changed the file")
	}
	forced := MarkForced(src)
	if h := ReadHeader(forced); !h.Forced || !h.Chosen {
		t.Errorf("forced header %+v: want Forced and Chosen", h)
	}
	if again := MarkChosen(forced); !bytes.Equal(again, forced) {
		t.Errorf("MarkChosen of a forced session changed it")
	}
	if both := MarkForced(out); !ReadHeader(both).Forced || bytes.Count(both, []byte("<!-- Chosen:")) != 1 {
		t.Errorf("MarkForced of a chosen session:\n%s", both)
	}
}
