package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestScanSections: which headings of a plan without <task> elements are its tasks.
func TestScanSections(t *testing.T) {
	for _, tc := range []struct {
		file  string
		names []string
		lines []int
		level int
	}{
		// "### Task N" sections: not "### Issue 1", nor headings in a comment or a fence; the
		// "## Plan 05-01" heading above them gives way to them; a nested "####" belongs to its
		// section; a closing "###" sequence is not part of the name.
		{"md-tasks.input.md", []string{"Task 1: Add AllStepsDone to the run state", "Task 2: Resume from a paused step", "Task 3 (TDD): Tests for both"}, []int{21, 35, 40}, 3},
		// Numbered steps from level 3, indented up to three spaces; "## 1. Goal" is the outline.
		{"md-steps.input.md", []string{"1. Register the VDI job", "2) Initialise the directory scheduler", "3: Add the department sync"}, []int{9, 13, 17}, 3},
		// A phase-level plan: its "## Plan NN-MM" sections.
		{"md-plans.input.md", []string{"Plan 31-01: Seeder core module", "Plan 31-02: Cost estimate and tests"}, []int{5, 16}, 2},
		{"md-crlf.input.md", []string{"Task 1: First", "Task 2: Last, at the very end"}, []int{3, 7}, 3},
		{"prose-only.input.md", nil, nil, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := Scan(read(t, tc.file))
			var names []string
			var lines []int
			for i := range p.Tasks {
				tk := &p.Tasks[i]
				if tk.Section == nil || tk.Section.Level != tc.level || tk.Section.HasMarker {
					t.Fatalf("task %d: section %+v", i+1, tk.Section)
				}
				names, lines = append(names, tk.Name()), append(lines, tk.Line)
				if st, err := tk.Status(); err != nil || st != Pending {
					t.Errorf("task %d of a plan: status %v %v, want pending", i+1, st, err)
				}
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.names) || fmt.Sprint(lines) != fmt.Sprint(tc.lines) {
				t.Errorf("tasks %q on lines %v, want %q on %v", names, lines, tc.names, tc.lines)
			}
			if len(p.Problems) != 0 {
				t.Errorf("problems: %v", p.Problems)
			}
		})
	}
	p := Scan(read(t, "md-tasks.input.md"))
	body, _ := p.Tasks[0].Child("body")
	if !strings.Contains(body.Text, "#### Details") || !strings.Contains(body.Text, "### Task 9: inside a fence") || strings.Contains(body.Text, "### Task 2") {
		t.Errorf("task 1's body is not its section: %q", body.Text)
	}
	if body.Line != 22 {
		t.Errorf("task 1's body starts on line %d, want 22", body.Line)
	}
	last, _ := p.Tasks[2].Child("body")
	if last.Text != "Written straight under the heading, no blank line.\n\n" {
		t.Errorf("task 3's body runs past the next heading of its level: %q", last.Text)
	}
}

// TestSectionsOnlyWithoutTaskElements: a plan with one <task> element is read by its elements;
// its headings are prose.
func TestSectionsOnlyWithoutTaskElements(t *testing.T) {
	// One "## Plan NN-MM" heading is the plan's title, not a task.
	if p := Scan([]byte("# Plan 02-01: Title\n\nProse.\n\n## Plan notes\n")); len(p.Tasks) != 0 {
		t.Errorf("a plan's title heading is a task: %+v", p.Tasks)
	}
	p := Scan([]byte("### Task 1: A heading\n\n<tasks>\n<task type=\"auto\"><name>Real</name></task>\n</tasks>\n"))
	if len(p.Tasks) != 1 || p.Tasks[0].Section != nil || p.Tasks[0].Name() != "Real" {
		t.Fatalf("tasks = %+v", p.Tasks)
	}
}

func TestKindOf(t *testing.T) {
	for text, want := range map[string]sectionKind{
		"Task 1: A": taskSection, "task 2": taskSection, "TASK 3 (TDD)": taskSection, "Task 1.2: sub": taskSection,
		"Step 4: B": taskSection, "Task1": taskSection, "Tasks 1-3": notSection, "Taskforce 9": notSection,
		"Task: none": notSection, "Plan 31-01: C": planSection, "plan 2": planSection, "Plan31": notSection,
		"Planned 3": notSection, "Plan of attack": notSection, "1. D": numberSection, "2) E": numberSection,
		"3: F": numberSection, "12.": numberSection, "1.1 G": notSection, "1 H": notSection, "2024 notes": notSection,
		"Issue 1": notSection, "": notSection,
	} {
		if got := kindOf(text); got != want {
			t.Errorf("kindOf(%q) = %d, want %d", text, got, want)
		}
	}
}

// TestBootstrapSectionsGolden: a marker line under every section heading and nothing else;
// removing those lines gives the plan back byte for byte.
func TestBootstrapSectionsGolden(t *testing.T) {
	started := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	// Task lists (list.go) too: a marker line under every item, indented to its content; a
	// checked item starts complete.
	for name, id := range map[string]string{
		"md-tasks": "05-x/05-01", "md-steps": "05-x/05-01", "md-plans": "05-x/05-01", "md-crlf": "05-x/05-01",
		"md-list": "07-x/07-02", "md-checklist": "07-x/07-02", "md-list-crlf": "07-x/07-02",
	} {
		t.Run(name, func(t *testing.T) {
			src := read(t, name+".input.md")
			out, err := Bootstrap(src, "ann", ".planning/phases/"+id+"-PLAN.md", started)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".bootstrap.golden.md", out)
			p := Scan(out)
			if why := p.CorruptReasons(); why != nil {
				t.Errorf("bootstrapped session is corrupt: %v", why)
			}
			plan := Scan(src)
			if len(p.Tasks) != len(plan.Tasks) || len(p.Tasks) == 0 || len(p.Problems) != 0 {
				t.Fatalf("%d tasks, problems %v", len(p.Tasks), p.Problems)
			}
			for i := range p.Tasks {
				want, _ := plan.Tasks[i].Status()
				if v, ok := p.Tasks[i].StatusText(); !ok || v != string(want) || !p.Tasks[i].Section.HasMarker || p.Tasks[i].Name() != plan.Tasks[i].Name() {
					t.Errorf("task %d: status %q %v, want %s; name %q", i+1, v, ok, want, p.Tasks[i].Name())
				}
			}
			again, err := InjectStatuses(out)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("InjectStatuses not idempotent (err %v)", err)
			}
			body, _ := InjectStatuses(src)
			if got := stripInserted(t, src, body); !bytes.Equal(got, src) {
				t.Errorf("removing the marker lines does not give the plan back:\n%q\n%q", got, src)
			}
			if !bytes.HasSuffix(out, body) {
				t.Error("the session is not the header and the injected plan")
			}
		})
	}
}

// stripInserted removes from injected what InjectStatuses added to plan: the ` status="pending"`
// attributes and the marker lines.
func stripInserted(t testing.TB, plan, injected []byte) []byte {
	t.Helper()
	before, after := Scan(plan), Scan(injected)
	if len(before.Tasks) != len(after.Tasks) {
		t.Fatalf("task count %d became %d", len(before.Tasks), len(after.Tasks))
	}
	out := injected
	for i := len(after.Tasks) - 1; i >= 0; i-- {
		b, a := &before.Tasks[i], &after.Tasks[i]
		if _, ok := b.StatusText(); ok || b.Section != nil && b.Section.Bad {
			continue
		}
		var from, to int
		switch bs, as := b.Section, a.Section; {
		case bs != nil && !bs.HasMarker:
			if !as.HasMarker {
				t.Fatalf("task %d has no marker after injection", i+1)
			}
			from, to = as.insert, nextLine(out, lineEndAt(out, as.Marker.Start))
			if bs.eol == "" { // the heading ended the file: its new line end goes too
				from, to = as.Heading.End, as.Marker.End
			}
		default:
			st, ok := a.Attr("status")
			if !ok {
				t.Fatalf("task %d has no status after injection", i+1)
			}
			from, to = st.Span.Start-1, st.Span.End
		}
		out = append(out[:from:from], out[to:]...)
	}
	return out
}

// TestSetStatusSectionsGolden: a mark rewrites one marker's status value, byte-exactly, and
// marking again changes nothing.
func TestSetStatusSectionsGolden(t *testing.T) {
	boot, err := Bootstrap(read(t, "md-tasks.input.md"), "ann", ".planning/phases/05-x/05-01-PLAN.md", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		n  int
		st Status
	}{{1, Complete}, {2, InProgress}, {3, Complete}}
	src := boot
	for _, c := range steps {
		out, err := SetStatus(src, c.n, c.st)
		if err != nil {
			t.Fatal(err)
		}
		assertMarkerSplice(t, src, out, c.n, c.st)
		if _, err := SetStatus(out, c.n, c.st); !errors.Is(err, ErrUnchanged) {
			t.Errorf("second edit: err = %v, want ErrUnchanged", err)
		}
		src = out
	}
	golden(t, "md-tasks.marked.golden.md", src)
	sts, err := Scan(src).Statuses()
	if err != nil || fmt.Sprint(sts) != "[complete in-progress complete]" {
		t.Errorf("statuses %v %v", sts, err)
	}
}

// assertMarkerSplice checks that out is src with only task n's status value replaced by st.
func assertMarkerSplice(t *testing.T, src, out []byte, n int, st Status) {
	t.Helper()
	a, ok := Scan(src).Tasks[n-1].Attr("status")
	if !ok || a.Quote == 0 {
		t.Fatalf("task %d has no quoted status to replace", n)
	}
	want := string(src[:a.Val.Start]) + string(st) + string(src[a.Val.End:])
	if string(out) != want {
		t.Errorf("task %d -> %s changed more than its status value", n, st)
	}
}

// TestSetStatusSectionHandEdits: sessions edited by hand. A missing marker is inserted under
// its heading, an unquoted value gets quotes, an unreadable marker is replaced whole, a marker
// after a blank line (a Markdown formatter's doing) is still the section's, a marker elsewhere
// is a problem, not a status.
func TestSetStatusSectionHandEdits(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		n         int
		st        Status
		want      string
	}{
		{"no marker", "### Task 1: A\nx\n", 1, Complete,
			"### Task 1: A\n<!-- gsd:task status=\"complete\" -->\nx\n"},
		{"no marker, CRLF", "### Task 1: A\r\nx\r\n", 1, Complete,
			"### Task 1: A\r\n<!-- gsd:task status=\"complete\" -->\r\nx\r\n"},
		{"heading ends the file", "### Task 1: A", 1, InProgress,
			"### Task 1: A\n<!-- gsd:task status=\"in-progress\" -->"},
		{"unquoted", "### Task 1: A\n<!-- gsd:task status=pending -->\n", 1, Complete,
			"### Task 1: A\n<!-- gsd:task status=\"complete\" -->\n"},
		{"single quotes kept", "### 1. A\n<!--gsd:task id='a' status='pending'-->\n", 1, Complete,
			"### 1. A\n<!--gsd:task id='a' status='complete'-->\n"},
		{"no status attribute", "### Task 1: A\n<!-- gsd:task id=\"x\" -->\n", 1, Complete,
			"### Task 1: A\n<!-- gsd:task id=\"x\" status=\"complete\" -->\n"},
		{"no attribute at all", "### Task 1: A\n<!-- gsd:task -->\n", 1, Complete,
			"### Task 1: A\n<!-- gsd:task status=\"complete\" -->\n"},
		{"unreadable", "### Task 1: A\n  <!-- gsd:task status=\"pend -->  \n", 1, Pending,
			"### Task 1: A\n  <!-- gsd:task status=\"pending\" -->  \n"},
		{"after a blank line", "### Task 1: A\n\n<!-- gsd:task status=\"pending\" -->\n", 1, Complete,
			"### Task 1: A\n\n<!-- gsd:task status=\"complete\" -->\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := SetStatus([]byte(tc.src), tc.n, tc.st)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != tc.want {
				t.Errorf("got\n%q\nwant\n%q", out, tc.want)
			}
			if st, err := Scan(out).Tasks[tc.n-1].Status(); err != nil || st != tc.st {
				t.Errorf("after the edit: %v %v", st, err)
			}
		})
	}
	bad := Scan([]byte("### Task 1: A\n<!-- gsd:task status=\"done\" -->\n"))
	if _, err := bad.Statuses(); err == nil || err.Error() != `2: task 1 has unknown status "done" (want "complete", "in-progress" or "pending")` {
		t.Errorf("unknown status: %v", err)
	}
	bad = Scan([]byte("### Task 1: A\n<!-- gsd:task status=\"x -->\n"))
	if _, err := bad.Statuses(); err == nil || !strings.Contains(err.Error(), "2: task 1 has a gsd:task marker gsd cannot read") || len(bad.Problems) != 1 || bad.Problems[0].Line != 2 {
		t.Errorf("unreadable marker: %v, problems %v", err, bad.Problems)
	}
	// An unreadable marker with more on its line is refused, never replaced with what follows it.
	for _, src := range []string{
		"### Task 1: A\n<!-- gsd:task status=\"pend --> keep me\n",
		"### Task 1: A\n<!-- gsd:task status=\"pend --><!-- other -->\n",
		"### Task 1: A\n<!-- gsd:task status=\"pending\"\n  a note -->\n",
	} {
		if out, err := SetStatus([]byte(src), 1, Complete); err == nil || !strings.Contains(err.Error(), "2: task 1 has a gsd:task marker gsd cannot read, with more on its line") {
			t.Errorf("%q: got %q, %v; want it refused", src, out, err)
		}
	}
	dup := []byte("### Task 1: A\n<!-- gsd:task status=\"pending\" status=\"complete\" -->\n")
	if _, err := SetStatus(dup, 1, Complete); err == nil || err.Error() != "2: task 1 has 2 status attributes; remove all but one by hand" {
		t.Errorf("duplicate status: err = %v", err)
	}
	stray := Scan([]byte("### Task 1: A\ntext\n<!-- gsd:task status=\"complete\" -->\n<!-- gsd:task -->\n<!-- gsd:task -->\n"))
	if st, _ := stray.Tasks[0].Status(); st != Pending || len(stray.Problems) != 2 || stray.Problems[0].Line != 3 || !strings.Contains(stray.Problems[1].Message, "2 more") {
		t.Errorf("a stray marker: status %v, problems %v", st, stray.Problems)
	}
}

// TestSessionWithoutMarkersIsCorrupt: a copied plan is not a session.
func TestSessionWithoutMarkersIsCorrupt(t *testing.T) {
	p := Scan([]byte("<!-- Plan: p.md -->\n\n### Task 1: A\n"))
	if why := p.CorruptReasons(); fmt.Sprint(why) != "[no task section has a gsd:task status marker]" {
		t.Errorf("why = %q", why)
	}
	p = Scan([]byte("<!-- Plan: p.md -->\n\nprose\n"))
	if why := p.CorruptReasons(); fmt.Sprint(why) != `[no <task> elements and no "### Task N" sections]` {
		t.Errorf("why = %q", why)
	}
}

// verifyEdit refuses an edit that changes a section's heading (its level or its title), the
// one guard no mark could trip: it stands between a splice gone wrong and the file.
func TestVerifyEditRefusesHeadingChanges(t *testing.T) {
	before := Scan([]byte("### Task 1: A\n<!-- gsd:task status=\"pending\" -->\n"))
	for _, after := range []string{
		"#### Task 1: A\n<!-- gsd:task status=\"complete\" -->\n",
		"### Task 1: B\n<!-- gsd:task status=\"complete\" -->\n",
	} {
		err := verifyEdit(before, Scan([]byte(after)), map[int]Status{1: Complete})
		if err == nil || !strings.Contains(err.Error(), "refusing to write") || !strings.Contains(err.Error(), "task 1 heading") {
			t.Errorf("%q: %v", after, err)
		}
	}
	if err := verifyEdit(before, Scan([]byte("### Task 1: A\n<!-- gsd:task status=\"complete\" -->\n")), map[int]Status{1: Complete}); err != nil {
		t.Errorf("the status alone: %v", err)
	}
}
