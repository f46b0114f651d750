package cmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestNamesAreEscaped: a session directory whose name holds a newline, a GitHub workflow command
// and a terminal escape sequence shows up in every output format (text, --check, annotations,
// the step summary, hydrate's and check's reports) escaped: no line of its own, no ESC byte. So
// do the same payload in an agent instance, a journal, a phase name and snapshots, in the text
// of log, sessions, snapshots, restore, stats and state. The transcript must equal
// testdata/escape.golden (go test -run NamesAreEscaped -update rewrites it).
func TestNamesAreEscaped(t *testing.T) {
	root := hostileProject(t, validSession(t))
	evil := "x\n::error file=README.md,line=1::INJECTED\x1b[31mRED\u202e"
	writeFile(t, filepath.Join(root, ".planning/sessions", evil, "current-plan.md"), "junk\n")
	// A plan name with the same payload, for the paths that name plans.
	writeFile(t, filepath.Join(root, ".planning/phases/01-x", "01-03-PLAN\n::error::X\x1b[2J.md"), "no tasks\n")
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	// The sessions' last activity is printed with its time: a fixed clock and file times.
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800") // 2026-02-03T10:00:00Z
	for _, u := range []string{"ann", evil} {
		at := time.Date(2026, 2, 3, 9, 30, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Join(root, ".planning/sessions", u, "current-plan.md"), at, at); err != nil {
			t.Fatal(err)
		}
	}
	var transcript strings.Builder
	for _, args := range [][]string{
		{"progress", "--check"},
		{"progress"},
		{"check"},
		{"start", ".planning/phases/01-x/01-03-PLAN\n::error::X\x1b[2J.md"},
	} {
		code, stdout, stderr := runGSD(t, root, args...)
		transcript.WriteString(fmt.Sprintf("$ gsd %q\n", args) + stdout + stderr + fmt.Sprintf("exit %d\n\n", code))
	}

	// The history commands, in a second project: the same name as a teammate's session (on the
	// same plan as ann's, and with a journal of hostile events), an agent instance with the
	// payload (GSD_INSTANCE, in ann's journal), a phase name and snapshots naming a plan and a
	// task with it.
	root = hostileProject(t, validSession(t))
	writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), "# Roadmap\n\n| Phase | Plans Complete | Status |\n|---|---|---|\n| 1. X\x1b]0;TITLE\x07 | 0/2 | In progress |\n")
	writeFile(t, filepath.Join(root, ".planning/sessions", evil, "current-plan.md"), string(validSession(t)))
	at := time.Date(2026, 2, 3, 9, 30, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(root, ".planning/sessions", evil, "current-plan.md"), at, at); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, ".planning/STATE.md"), "# State\n\n## Current Position\n\nPhase: 2 of 1 (Y\x1b[2J)\nPlan: 1 of 1 in current phase\nStatus: In progress\n")
	writeFile(t, filepath.Join(root, ".planning/sessions", evil, "journal.jsonl"),
		`{"schemaVersion":1,"seq":1,"time":"2026-02-03T09:00:00Z","type":"rehydrated","source":"hook","instance":"i\n::error::Z\u001b[2J","note":"startup\n::error::Z\u001b[2J","size":1234}`+"\n"+
			`{"schemaVersion":1,"seq":2,"time":"2026-02-03T09:01:00Z","type":"hook-failure","source":"hook\u001b[2J","note":"why\n::error::Z\u001b[2J"}`+"\n"+
			"junk\x1b[2J\n")
	writeFile(t, filepath.Join(root, ".planning/sessions/ann/journal.jsonl"),
		`{"schemaVersion":1,"seq":1,"time":"2026-02-03T08:00:00Z","type":"bootstrap","source":"cli","plan":"p\n::error::Z\u001b[2J.md"}`+"\n"+
			`{"schemaVersion":1,"seq":2,"time":"2026-02-03T08:01:00Z","type":"mark","source":"cli","task":1,"name":"n\n::error::Z\u001b[2J","old":"o\u001b[2J","new":"n\u001b[2J"}`+"\n"+
			`{"schemaVersion":1,"seq":3,"time":"2026-02-03T08:02:00Z","type":"carry","source":"cli","plan":"p\n::error::Z\u001b[2J.md","carried":[{"task":1,"name":"n","from":1}]}`+"\n"+
			`{"schemaVersion":1,"seq":4,"time":"2026-02-03T08:03:00Z","type":"t\n::error::Z\u001b[2J","source":"s\u001b[2J"}`+"\n")
	session := string(validSession(t))
	writeFile(t, filepath.Join(root, ".planning/sessions/ann/current-plan.20260203090000.manual"),
		strings.Replace(strings.Replace(session, "Task 1: Alpha", "Task 1: Alpha\x1b[2J\u202e", 1), `status="complete"`, `status="pending"`, 1))
	writeFile(t, filepath.Join(root, ".planning/sessions/ann/current-plan.20260203090001.manual"),
		strings.Replace(session, "01-01-PLAN.md", "01-01-PLAN\x1b[2J.md", 1))
	t.Setenv("GSD_INSTANCE", "inst\x1b[2Jx\n::error::Y")
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800") // 2026-02-03T10:00:00Z
	for _, args := range [][]string{
		{"mark-in-progress", "2"},
		{"sessions"},
		{"snapshots"},
		{"restore", "--dry-run", "current-plan.20260203090000.manual"},
		{"restore", "current-plan.20260203090001.manual"},
		{"log"},
		{"stats", "--all"},
		{"state"},
	} {
		code, stdout, stderr := runGSD(t, root, args...)
		transcript.WriteString(fmt.Sprintf("$ gsd %q\n", args) + stdout + stderr + fmt.Sprintf("exit %d\n\n", code))
	}

	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	transcript.WriteString("$ cat $GITHUB_STEP_SUMMARY\n" + string(b))
	got := transcript.String()
	for i, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "::error file=README.md") || strings.HasPrefix(line, "::error::") || strings.HasPrefix(line, "INJECTED") {
			t.Errorf("line %d injected: %q", i+1, line)
		}
	}
	if strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("raw escape or format characters in the output")
	}
	golden := filepath.Join("..", "testdata", "escape.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (go test -run NamesAreEscaped -update, then review the diff):\n%s", golden, got)
	}
}

// TestStepSummaryCells: a | in a phase directory's name (or anywhere a cell quotes a name) is
// escaped in every cell of the step summary's tables, the location's code span included:
// GitHub splits a row at an unescaped | even there, which added a cell.
func TestStepSummaryCells(t *testing.T) {
	hostileEnv(t)
	root := hostileProject(t, validSession(t))
	writeFile(t, filepath.Join(root, ".planning/phases/07-a|b`c/07-01-PLAN.md"), "no tasks\n")
	writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), "# Roadmap\n\n| Phase | Plans Complete | Status |\n|---|---|---|\n| 1. X|Y | 0/2 | In progress |\n")
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	runGSD(t, root, "progress", "--check")
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	rows, want := 0, 0
	for _, l := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(l, "|") {
			continue
		}
		rows++
		cells := len(strings.Split(strings.ReplaceAll(l, `\|`, ""), "|")) - 2
		if strings.HasPrefix(l, "| Phase |") || strings.HasPrefix(l, "| Severity |") {
			want = cells // a header: the rows below have as many cells
		}
		if cells != want {
			t.Errorf("a row of %d cells, want %d: %s", cells, want, l)
		}
	}
	if rows == 0 || !strings.Contains(string(b), `07-a\|b'c`) {
		t.Fatalf("no table, or the directory is not in it:\n%s", b)
	}
}
