package hydrate

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/planfile"
)

// longPlan has an objective, a task whose action is far over budget, and many tasks.
func longPlan(tasks int) string {
	var b strings.Builder
	b.WriteString("---\nphase: 03\n---\n\n<objective>\nShip it.\n\n```\n<objective>not this</objective>\n```\n</objective>\n\n<tasks>\n")
	for i := 1; i <= tasks; i++ {
		fmt.Fprintf(&b, "<task type=\"auto\">\n  <name>Task %d: step %d</name>\n  <files>f%d.go</files>\n  <read_first>\n", i, i, i)
		b.WriteString(strings.Repeat("    some/file/to/read/first.go (the part about the thing)\n", 40))
		b.WriteString("  </read_first>\n  <action>\n")
		for j := 1; j <= 200; j++ {
			fmt.Fprintf(&b, "    line %d of the action of task %d\n", j, i)
		}
		b.WriteString("  </action>\n  <verify>go test</verify>\n  <done>All green</done>\n</task>\n")
	}
	b.WriteString("</tasks>\n")
	return b.String()
}

func TestBriefResumeInterrupted(t *testing.T) {
	files := baseFiles()
	planPath := ".planning/phases/03-three/03-02-PLAN.md"
	files[planPath] = longPlan(40)
	e := project(t, files)
	res, err := e.Start(planPath)
	if err != nil {
		t.Fatal(err)
	}
	// Tasks 1-30 complete, 31 in progress (edited in memory: 31 locked writes would be slow).
	src := e.readFileT(t, e.SessionPath())
	for n := 1; n <= 31; n++ {
		st := planfile.Complete
		if n == 31 {
			st = planfile.InProgress
		}
		if src, err = planfile.SetStatus(src, n, st); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(e.abs(e.SessionPath()), src, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = e.Hydrate(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := e.Brief(res)
	if b.State != StateResume || b.Resume == nil || b.Resume.Number != 31 || !b.Resume.Interrupted {
		t.Fatalf("resume = %+v", b.Resume)
	}
	if b.Objective == nil || b.Objective.Text != "Ship it.\n\n```\n<objective>not this</objective>\n```" || b.Objective.Line != 10 {
		t.Fatalf("objective = %+v", b.Objective)
	}
	// The action is dedented, cut at a line boundary within budget, and says where the rest is.
	var action *Excerpt
	for i := range b.Resume.Fields {
		if b.Resume.Fields[i].Name == "action" {
			action = &b.Resume.Fields[i]
		}
	}
	if action == nil {
		t.Fatalf("no action in %+v", b.Resume.Fields)
	}
	if !strings.HasPrefix(action.Text, "line 1 of the action of task 31\nline 2 ") || len(action.Text) > 2400 {
		t.Fatalf("action text (%d bytes) starts %q", len(action.Text), action.Text[:40])
	}
	// What the task is and how to tell it is done come before what to read first.
	var names []string
	for _, f := range b.Resume.Fields {
		names = append(names, f.Name)
		switch f.Name {
		case "name", "files", "verify", "done":
			if f.Rest != 0 {
				t.Errorf("%s was cut: %+v", f.Name, f)
			}
		case "read_first":
			if f.Rest == 0 || len(f.Text) > otherCap {
				t.Errorf("read_first kept %d bytes, rest at %d", len(f.Text), f.Rest)
			}
		}
	}
	if got := strings.Join(names, " "); got != "name files read_first action verify done" {
		t.Errorf("fields in order %q", got)
	}
	kept := strings.Count(action.Text, "\n") + 1
	if action.Rest != action.Line+kept {
		t.Fatalf("rest at line %d, want %d (first line %d, %d kept)", action.Rest, action.Line+kept, action.Line, kept)
	}
	// Lines point into the session file: the action's first text line is where it says.
	lines := strings.Split(string(e.readFileT(t, b.SessionFile)), "\n")
	if got := strings.TrimSpace(lines[action.Line-1]); got != "line 1 of the action of task 31" {
		t.Fatalf("session line %d is %q", action.Line, got)
	}
	if got := strings.TrimSpace(lines[action.Rest-1]); got != fmt.Sprintf("line %d of the action of task 31", kept+1) {
		t.Fatalf("session line %d (rest) is %q", action.Rest, got)
	}
	// Lists are capped, remaining tasks first, the latest completions kept.
	if len(b.Remaining) != 9 || len(b.Completed)+len(b.Remaining) != maxListed || b.Omitted != 39-maxListed {
		t.Fatalf("remaining %d, completed %d, omitted %d", len(b.Remaining), len(b.Completed), b.Omitted)
	}
	if last := b.Completed[len(b.Completed)-1]; last.Number != 30 {
		t.Fatalf("last completed listed is %d", last.Number)
	}
	// The commands: already in progress, so only mark-complete, then the next brief.
	if len(b.Next) != 2 || b.Next[0].Command != "gsd --user ann mark-complete 31" {
		t.Fatalf("next = %+v", b.Next)
	}
}

func TestBriefStates(t *testing.T) {
	planPath := ".planning/phases/03-three/03-02-PLAN.md"
	for _, tc := range []struct {
		name    string
		session string
		state   SessionState
		first   string
	}{
		{"no session", "", StateNoSession, "gsd --user ann hydrate"},
		{"pending", session(planPath, "complete", "pending", "pending"), StateResume, "gsd --user ann mark-in-progress 2"},
		{"stale", session(".planning/phases/03-three/03-01-PLAN.md", "pending", "pending"), StateStale, "gsd --user ann check"},
		{"corrupt", "<tasks>\n<task type=\"auto\" status=\"pending\"><name>x</name></task>\n</tasks>\n", StateCorrupt, "gsd --user ann check"},
		{"all complete", session(planPath, "complete", "complete", "complete"), StateAllComplete, "gsd --user ann progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := baseFiles()
			if tc.session != "" {
				files[".planning/sessions/ann/current-plan.md"] = tc.session
			}
			e := project(t, files)
			res, err := e.Hydrate(Options{})
			if err != nil {
				t.Fatal(err)
			}
			b := e.Brief(res)
			if b.State != tc.state || len(b.Next) == 0 || b.Next[0].Command != tc.first {
				t.Fatalf("state %s, next %+v", b.State, b.Next)
			}
			if tc.state != StateResume && b.Resume != nil {
				t.Fatalf("a %s session has a resume task", tc.state)
			}
		})
	}
}

func TestExcerpt(t *testing.T) {
	for _, tc := range []struct {
		text   string
		budget int
		want   string
		line   int
		rest   int
	}{
		{"Task 1", 100, "Task 1", 10, 0},
		{"\n    a\n      b\n    c\n  ", 100, "a\n  b\nc", 11, 0},
		{"\r\n\ta\r\n\tb\r\n", 100, "a\nb", 11, 0},
		{"\naaaa\nbbbb\ncccc\n", 9, "aaaa\nbbbb", 11, 13},
		{strings.Repeat("é", 100), 81, strings.Repeat("é", 40) + "…", 10, 10},
		{strings.Repeat("x", 100), 10, "", 10, 10},
	} {
		got := excerpt(planfile.Child{Name: "action", Text: tc.text, Line: 10}, "f", tc.budget)
		if got.Text != tc.want || got.Line != tc.line || got.Rest != tc.rest {
			t.Errorf("excerpt(%q, %d) = %q line %d rest %d; want %q line %d rest %d",
				tc.text, tc.budget, got.Text, got.Line, got.Rest, tc.want, tc.line, tc.rest)
		}
	}
}

func (e *Env) readFileT(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := e.readFile(rel)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
