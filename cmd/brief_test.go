package cmd

import (
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
)

// TestBriefSize: a brief at every budget's limit still fits in hydrate.MaxBriefSize, and what
// gives way is the lists and findings, never the resume task or the commands to run next.
func TestBriefSize(t *testing.T) {
	long := func(n int) string { return strings.Repeat("é", n) } // two bytes a rune
	var tasks []hydrate.Task
	for i := 1; i <= 24; i++ {
		tasks = append(tasks, hydrate.Task{Number: i, Name: long(120), Status: planfile.Complete})
	}
	var warnings []string
	for range 8 {
		warnings = append(warnings, long(240))
	}
	b := &hydrate.Brief{
		User: "ann", SessionFile: ".planning/sessions/ann/current-plan.md", State: hydrate.StateResume,
		Objective: &hydrate.Excerpt{Name: "objective", Text: strings.Repeat("x", 900)},
		Counts:    planfile.Counts{Complete: 24, Pending: 1, Total: 25},
		Completed: tasks[:12], Remaining: tasks[12:],
		Resume: &hydrate.ResumePoint{Task: hydrate.Task{Number: 25, Name: "Task 25"}, Fields: []hydrate.Excerpt{
			{Name: "action", Text: strings.Repeat("do this\n", 500)[:4000], Rest: 900, File: "f"},
		}},
		Warnings: warnings,
		Next:     []hydrate.Step{{Command: "gsd mark-in-progress 25", When: "now"}},
	}
	got := renderBrief(b, "compact")
	if len(got) > hydrate.MaxBriefSize {
		t.Fatalf("brief is %d bytes", len(got))
	}
	for _, want := range []string{"## Resume: task 25", "[... cut here: the rest is at f:900]", "- `gsd mark-in-progress 25`: now",
		"(12 tasks, left out for size: gsd tasks lists them)", "(left out for size: gsd check lists them)"} {
		if !strings.Contains(got, want) {
			t.Errorf("brief lacks %q", want)
		}
	}
	if strings.Contains(got, "[brief cut at 8 KB") {
		t.Error("the last-resort cut was needed")
	}

	// The last resort: a brief that no dropping saves is cut at a line, with a note.
	b.Resume.Fields[0].Text = strings.Repeat("do this\n", 2000)
	got = renderBrief(b, "")
	if len(got) > hydrate.MaxBriefSize || !strings.HasSuffix(got, "[brief cut at 8 KB: gsd tasks and the session file have the rest]\n") {
		t.Fatalf("brief is %d bytes, ends %q", len(got), got[len(got)-80:])
	}
}
