package cmd

import (
	"os"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/identity"
)

// colourApp is an app that colours: its stdout is a character device (/dev/null).
func colourApp(t *testing.T) *app {
	t.Helper()
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	a := &app{stdout: f, lookupEnv: func(string) (string, bool) { return "", false }}
	if !a.colour() {
		t.Skip(os.DevNull + " is not a character device here")
	}
	return a
}

// TestPaintedFieldsKeepTheirColour: on a terminal, hydrate's colour codes reach it as they are
// and the data inside them is escaped (the codes were once escaped as data: \x1b[1m).
func TestPaintedFieldsKeepTheirColour(t *testing.T) {
	a := colourApp(t)
	env := &hydrate.Env{User: identity.Identity{User: "ann", Source: identity.Source{Kind: identity.KindFlag}}}
	r := &hydrate.Result{Session: &hydrate.Session{
		Path:       ".planning/sessions/ann/current-plan.md",
		State:      hydrate.StateResume,
		Plan:       "p\x1b[31m.md",
		Tasks:      []hydrate.Task{{Number: 1, Name: "one"}, {Number: 2, Name: "two\x1b[2J"}},
		ResumeTask: 2,
	}}
	var b strings.Builder
	a.printHydrate(&b, env, r)
	want := "User:      ann (--user)\n" +
		"Session:   .planning/sessions/ann/current-plan.md\n" +
		"Plan:      p\\x1b[31m.md\n" +
		"Progress:  0/0 complete, 0 in progress, 0 pending\n" +
		"Resume:    \x1b[1mtask 2: two\\x1b[2J\x1b[0m\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	r.State, r.Note = hydrate.StateCorrupt, "x\n::error::y"
	b.Reset()
	a.printHydrate(&b, env, r)
	if want := "State:     \x1b[31mcorrupt\x1b[0m, kept: x\\n::error::y\n"; !strings.HasSuffix(b.String(), want) {
		t.Errorf("got\n%q\nwant it to end in\n%q", b.String(), want)
	}
}

// TestPrintfEscapesText: printf escapes every text argument before padding it, quotes with fmt's
// %q, leaves numbers and styled text alone.
func TestPrintfEscapesText(t *testing.T) {
	a := colourApp(t)
	type name string
	var b strings.Builder
	printf(&b, "%-8s|%q|%d|%s|%v|%s|%s\n", "a\x1bb", "q\n", 7, name("n\u202e"), os.ErrNotExist, a.statusWord("complete", 0), a.paint("cyan", ">"))
	want := "a\\x1bb  |\"q\\n\"|7|n\\u202e|file does not exist|\x1b[32mcomplete\x1b[0m|\x1b[36m>\x1b[0m\n"
	if got := b.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

// TestWarningsAreEscaped: a warning is one line whatever names and messages it carries.
func TestWarningsAreEscaped(t *testing.T) {
	var b strings.Builder
	a := &app{stderr: &b}
	a.warnStale(&hydrate.Session{Path: "s\n::error::x", State: hydrate.StateStale, StaleReasons: []string{"plan \x1b[2J gone"}})
	want := `gsd: warning: s\n::error::x is stale: plan \x1b[2J gone` + "\n"
	if b.String() != want {
		t.Errorf("warning = %q, want %q", b.String(), want)
	}
}

// --dry-run's diff is data: its lines are escaped as every text output is, but for tabs and the
// carriage returns of a CRLF file.
func TestPrintableDiff(t *testing.T) {
	for in, want := range map[string]string{
		"":                              "",
		"--- a\n+++ a\n@@ -1 +1 @@\n":   "--- a\n+++ a\n@@ -1 +1 @@\n",
		"-Phase: 2\x1b[2J\n+Phase: 3\n": "-Phase: 2\\x1b[2J\n+Phase: 3\n",
		"-a\tb\r\n+a\tc\r\n":            "-a\tb\r\n+a\tc\r\n",
		"-x\ry\r\n":                     "-x\\ry\r\n",
		"+\u202egnp.exe\n":              "+\\u202egnp.exe\n",
		"+no newline":                   "+no newline",
		"+bad \xff byte\n":              "+bad \\xff byte\n",
	} {
		if got := string(printableDiff([]byte(in))); got != want {
			t.Errorf("printableDiff(%q) = %q, want %q", in, got, want)
		}
	}
}
