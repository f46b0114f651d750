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
	for _, f := range []string{"man/man1/gsd.1", "man/man1/gsd-brief.1", "man/man1/gsd-hook-install.1", "md/gsd.md", "md/gsd_hook_session-start.md", "md/gsd_completion.md",
		"man/man7/gsd-position.7", "man/man7/gsd-json.7", "md/gsd_help_position.md", "md/gsd_help_guarantees.md"} {
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
	root, _ := os.ReadFile(filepath.Join(man, "man1", "gsd.1"))
	if !strings.Contains(string(root), "gsd-position(7)") {
		t.Errorf("gsd.1 does not list the help topics:\n%.600s", root)
	}
	index, _ := os.ReadFile(filepath.Join(md, "gsd.md"))
	if !strings.Contains(string(index), "[gsd help json](gsd_help_json.md)") {
		t.Errorf("gsd.md does not link the help topics:\n%.600s", index)
	}
	topic, _ := os.ReadFile(filepath.Join(man, "man7", "gsd-position.7"))
	for _, want := range []string{`.TH "GSD-POSITION" "7"`, ".SH The rules", "gsd help position"} {
		if !strings.Contains(string(topic), want) {
			t.Errorf("gsd-position.7 lacks %q:\n%.600s", want, topic)
		}
	}
	page, _ := os.ReadFile(filepath.Join(man, "man1", "gsd-brief.1"))
	if !strings.Contains(string(page), "Feb 2026") {
		t.Errorf("man page date is not SOURCE_DATE_EPOCH's:\n%.300s", page)
	}
}

// TestPagesKeepTheirText: each page is headed by its own name and section, and keeps what its
// help says: "its <task> elements" is not "its  elements" (Markdown took the tag for HTML and
// dropped it), in the man pages as in the Markdown ones.
func TestPagesKeepTheirText(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800")
	dir := t.TempDir()
	man, md := filepath.Join(dir, "man"), filepath.Join(dir, "md")
	if err := run(man, md); err != nil {
		t.Fatal(err)
	}
	for page, want := range map[string][]string{
		"man1/gsd-hydrate.1":      {`.TH "GSD-HYDRATE" "1"`, "Its tasks are its <task> elements", `"### Task N: ...", see gsd start`},
		"man1/gsd-hook-install.1": {`.TH "GSD-HOOK-INSTALL" "1"`},
		"man1/gsd-mark-pending.1": {`<!-- gsd:task status="..." -->`},
		"man1/gsd-log.1":          {".planning/sessions/<user>/journal.jsonl"},
		"man1/gsd.1":              {`.TH "GSD" "1"`},
		"man7/gsd-session.7":      {`.TH "GSD-SESSION" "7"`},
	} {
		b, err := os.ReadFile(filepath.Join(man, page))
		if err != nil {
			t.Fatal(err)
		}
		// Roff escapes what it would take for its own: \- for -, \(dq for quotes, \\ for \.
		text := strings.NewReplacer(`\-`, "-", `\(dq`, `"`, `\&`, "", `\\`, `\`, "\n", " ").Replace(string(b))
		for _, w := range want {
			if !strings.Contains(text, w) && !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%.1500s", page, w, b)
			}
		}
	}
	b, _ := os.ReadFile(filepath.Join(md, "gsd_hydrate.md"))
	if !strings.Contains(string(b), `its \<task\> elements`) {
		t.Errorf("gsd_hydrate.md drops <task>:\n%.1200s", b)
	}
}

// TestMarkdown: a terminal's help text made Markdown: markup characters escaped, indented
// blocks kept as written.
func TestMarkdown(t *testing.T) {
	in := "Its <task> elements, mark-* and a_b_.\n\n  bash:  source <(gsd completion bash)\n    more\n\nEnd [x] & `y` #1 \\n."
	want := "Its \\<task\\> elements, mark-\\* and a\\_b\\_.\n\n      bash:  source <(gsd completion bash)\n        more\n\nEnd \\[x\\] \\& \\`y\\` \\#1 \\\\n."
	if got := markdown(in); got != want {
		t.Errorf("markdown:\n%s\nwant\n%s", got, want)
	}
}
