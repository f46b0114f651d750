package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun: a page per command and per help topic, hidden ones (cobra's __complete) left out,
// and no generation date in the Markdown, so regenerating gives the same bytes.
func TestRun(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800")
	dir := t.TempDir()
	man, md := filepath.Join(dir, "man"), filepath.Join(dir, "md")
	if err := run(man, md); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"man/gsd.1", "man/gsd-brief.1", "man/gsd-hook-install.1", "md/gsd.md", "md/gsd_hook_session-start.md", "md/gsd_completion.md",
		"man/gsd-position.7", "man/gsd-json.7", "md/gsd_help_position.md", "md/gsd_help_guarantees.md"} {
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
	// The topics are listed on gsd's own pages, and rendered from their Markdown.
	root, _ := os.ReadFile(filepath.Join(man, "gsd.1"))
	if !strings.Contains(string(root), "gsd-position(7)") {
		t.Errorf("gsd.1 does not list the help topics:\n%.600s", root)
	}
	index, _ := os.ReadFile(filepath.Join(md, "gsd.md"))
	if !strings.Contains(string(index), "[gsd help json](gsd_help_json.md)") {
		t.Errorf("gsd.md does not link the help topics:\n%.600s", index)
	}
	topic, _ := os.ReadFile(filepath.Join(man, "gsd-position.7"))
	for _, want := range []string{`.TH "GSD-POSITION" "7"`, ".SH The rules", "gsd help position"} {
		if !strings.Contains(string(topic), want) {
			t.Errorf("gsd-position.7 lacks %q:\n%.600s", want, topic)
		}
	}
	page, _ := os.ReadFile(filepath.Join(man, "gsd-brief.1"))
	if !strings.Contains(string(page), "Feb 2026") {
		t.Errorf("man page date is not SOURCE_DATE_EPOCH's:\n%.300s", page)
	}
}
