package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: a page per command, hidden ones (cobra's __complete) left out, and no generation
// date in the Markdown, so regenerating gives the same bytes.
func TestRun(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800")
	dir := t.TempDir()
	man, md := filepath.Join(dir, "man"), filepath.Join(dir, "md")
	if err := run(man, md); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"man/gsd.1", "man/gsd-brief.1", "man/gsd-hook-install.1", "md/gsd.md", "md/gsd_hook_session-start.md", "md/gsd_completion.md"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	ents, _ := os.ReadDir(md)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(md, e.Name()))
		if strings.Contains(e.Name(), "__complete") || strings.Contains(string(b), "Auto generated") {
			t.Errorf("%s: hidden command or generation date", e.Name())
		}
	}
	page, _ := os.ReadFile(filepath.Join(man, "gsd-brief.1"))
	if !strings.Contains(string(page), "Feb 2026") {
		t.Errorf("man page date is not SOURCE_DATE_EPOCH's:\n%.300s", page)
	}
}
