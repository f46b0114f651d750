package planfile

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestScanTaskLists: which list items of a plan without <task> elements or task headings are
// its tasks.
func TestScanTaskLists(t *testing.T) {
	for _, tc := range []struct {
		file   string
		names  []string
		lines  []int
		status []Status
	}{
		// A numbered list under "## Tasks": not the numbered outline above it, nor lines nested
		// in a bullet, in a fence, in a comment or in an item's own nested list, nor the
		// verification steps and success criteria below it.
		{"md-list.input.md", []string{
			"**Add the encoder** in `export/csv.go`: one row per task,",
			"**Serve it** from `GET /export.csv`:",
			"**Document it** in the README.",
		}, []int{19, 23, 36}, []Status{Pending, Pending, Pending}},
		// A checklist under "## 3. Tasks": a checked item is complete; nested boxes, plain
		// bullets, boxes under a sub-heading and the acceptance criteria are not tasks.
		{"md-checklist.input.md", []string{
			"**Task 1: Map the events** to calendar entries",
			"**Task 2: Publish the feed** at `/calendar.ics`",
			"**Task 3: Link it** from the events page",
			"**Task 4: Announce it**",
		}, []int{5, 7, 8, 10}, []Status{Complete, Pending, Complete, Pending}},
		{"md-list-crlf.input.md", []string{"First", "Last, at the very end"}, []int{5, 6}, []Status{Pending, Pending}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := Scan(read(t, tc.file))
			var names []string
			var lines []int
			var sts []Status
			for i := range p.Tasks {
				tk := &p.Tasks[i]
				if tk.Section == nil || !tk.Section.Item || tk.Section.Level != 0 || tk.Section.HasMarker {
					t.Fatalf("task %d: section %+v", i+1, tk.Section)
				}
				st, err := tk.Status()
				if err != nil {
					t.Fatal(err)
				}
				names, lines, sts = append(names, tk.Name()), append(lines, tk.Line), append(sts, st)
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.names) || fmt.Sprint(lines) != fmt.Sprint(tc.lines) || fmt.Sprint(sts) != fmt.Sprint(tc.status) {
				t.Errorf("tasks %q on lines %v, %v; want %q on %v, %v", names, lines, sts, tc.names, tc.lines, tc.status)
			}
			if len(p.Problems) != 0 {
				t.Errorf("problems: %v", p.Problems)
			}
		})
	}
	// A task's body is what follows its first line up to the next item of the list, or to the
	// next heading for the last one.
	p := Scan(read(t, "md-list.input.md"))
	body, _ := p.Tasks[0].Child("body")
	if !strings.HasPrefix(body.Text, "   wrapped onto a second line") || !strings.Contains(body.Text, "nested in a bullet") || strings.Contains(body.Text, "Serve it") {
		t.Errorf("task 1's body: %q", body.Text)
	}
	body, _ = p.Tasks[1].Child("body")
	if !strings.Contains(body.Text, "2. another one") || strings.Contains(body.Text, "Document it") {
		t.Errorf("task 2's body: %q", body.Text)
	}
	body, _ = p.Tasks[2].Child("body")
	if body.Text != "\n" {
		t.Errorf("the last task's body runs past the next heading: %q", body.Text)
	}
}

// TestTaskListsGiveWay: a list is read only when nothing else in the file is a task, and only
// under a heading that names the tasks.
func TestTaskListsGiveWay(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"task headings win", "## Tasks\n\n1. Summary of both\n\n### Task 1: A\n### Task 2: B\n", []string{"Task 1: A", "Task 2: B"}},
		{"<task> elements win", "## Tasks\n\n1. Summary\n\n<tasks>\n<task><name>Real</name></task>\n</tasks>\n", []string{"Real"}},
		// <task> elements outside a <tasks> block are tasks (one here, named by its text), and
		// their numbered instructions are not.
		{"bare <task> elements", "## Tasks\n\n<task id=\"1\">\n<instructions>\n1. Step one\n2. Step two\n</instructions>\n</task>\n", []string{"task: 1. Step one"}},
		{"a list beats numbered headings", "## Tasks\n\n1. Do A\n2. Do B\n\n## Verification\n\n### 1. Build\n### 2. Test\n", []string{"Do A", "Do B"}},
		{"numbered headings without a list", "## Tasks\n\n### 1. Schema\n- [ ] a box\n### 2. API\n", []string{"1. Schema", "2. API"}},
		{"not under a Tasks heading", "## Verification\n\n1. Build\n2. Test\n\n- [ ] done\n", nil},
		{"before the first heading", "1. Build\n2. Test\n", nil},
		{"plain bullets", "## Tasks\n\n- Build\n- Test\n", nil},
		{"indented four spaces: code", "## Tasks\n\n    1. Build\n    2. Test\n", nil},
		{"Steps, with a colon", "## Steps:\n1. Build\n2) Test\n", []string{"Build", "Test"}},
		{"two task lists", "## Tasks\n1. A\n## Notes\n1. not a task\n## Implementation steps\n1. B\n", []string{"A", "B"}},
		{"empty items", "## Tasks\n1.\n2. [ ]\n3. Real\n", []string{"Real"}},
		{"numbered checkbox", "## Tasks\n1. [x] Done\n2. [ ] Open\n3. [?] Odd box kept\n", []string{"Done", "Open", "[?] Odd box kept"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Scan([]byte(tc.src))
			var names []string
			for i := range p.Tasks {
				names = append(names, p.Tasks[i].Name())
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.want) {
				t.Errorf("tasks %q, want %q", names, tc.want)
			}
		})
	}
}

func TestIsTasksHeading(t *testing.T) {
	for text, want := range map[string]bool{
		"Tasks": true, "tasks": true, "3. Tasks": true, "Tasks:": true, "Task List": true, "Steps": true,
		"Implementation Steps": true, "执行步骤": true, "任务：": true,
		"Task": false, "Task Commits": false, "Verification Steps": false, "Tasks done": false, "": false,
	} {
		if got := isTasksHeading(text); got != want {
			t.Errorf("isTasksHeading(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestSetStatusTaskLists: a mark rewrites one marker's status value and nothing else; an item
// without a marker gets one, indented to its content; the checkbox is never touched.
func TestSetStatusTaskLists(t *testing.T) {
	boot, err := Bootstrap(read(t, "md-checklist.input.md"), "ann", ".planning/phases/12-x/12-01-PLAN.md", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	src := boot
	for _, c := range []struct {
		n  int
		st Status
	}{{2, InProgress}, {1, Pending}, {2, Complete}} {
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
	sts, err := Scan(src).Statuses()
	if err != nil || fmt.Sprint(sts) != "[pending complete complete pending]" {
		t.Errorf("statuses %v %v", sts, err)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"numbered", "## Tasks\n1. A\n10. B\n", "## Tasks\n1. A\n10. B\n    <!-- gsd:task status=\"complete\" -->\n"},
		{"checkbox", "## Tasks\n  - [ ] A\n  - [ ] B\r\n", "## Tasks\n  - [ ] A\n  - [ ] B\r\n    <!-- gsd:task status=\"complete\" -->\r\n"},
		{"ends the file", "## Tasks\n1. A\n2. B", "## Tasks\n1. A\n2. B\n   <!-- gsd:task status=\"complete\" -->"},
		{"marker after a blank line", "## Tasks\n1. A\n2. B\n\n   <!-- gsd:task status=\"pending\" -->\n", "## Tasks\n1. A\n2. B\n\n   <!-- gsd:task status=\"complete\" -->\n"},
	} {
		out, err := SetStatus([]byte(tc.src), 2, Complete)
		if err != nil || string(out) != tc.want {
			t.Errorf("%s: got %q, %v; want %q", tc.name, out, err, tc.want)
		}
	}
}

// TestScanFeatures: a test-first plan's <feature> elements (GSD's TDD plan, no <task>) are its
// tasks, test-first by kind; those in fences and comments are not, and a <task> anywhere wins.
func TestScanFeatures(t *testing.T) {
	src := read(t, "tdd-features.input.md")
	p := Scan(src)
	if len(p.Problems) != 0 || len(p.Tasks) != 2 {
		t.Fatalf("%d tasks, problems %v", len(p.Tasks), p.Problems)
	}
	for i, want := range []string{"Rank candidates by score (SCOR-02)", "Decay scores older than 30 days (SCOR-03)"} {
		tk := &p.Tasks[i]
		if !tk.Feature || !tk.Closed || tk.Name() != want {
			t.Errorf("task %d: feature %v closed %v name %q, want %q", i+1, tk.Feature, tk.Closed, tk.Name(), want)
		}
		if f, ok := tk.Child("files"); !ok || !strings.Contains(f.Text, "src/score/") {
			t.Errorf("task %d: files %q %v", i+1, f.Text, ok)
		}
	}
	for name, src := range map[string]string{
		"a task wins":       "<feature><name>F</name></feature>\n<tasks>\n<task><name>T</name></task>\n</tasks>\n",
		"unclosed is prose": "Our <feature> list:\n- one\n",
		"mid-line is prose": "We added a <feature>x</feature> today.\n",
		"sections give way": "## Tasks\n### Task 1: A\n### Task 2: B\n",
	} {
		p := Scan([]byte(src))
		for _, tk := range p.Tasks {
			if tk.Feature {
				t.Errorf("%s: %q read as a feature", name, tk.Name())
			}
		}
	}
}

// TestBootstrapFeatures: a status goes into each <feature> start tag and nothing else changes;
// a mark rewrites one attribute, byte-exact.
func TestBootstrapFeatures(t *testing.T) {
	src := read(t, "tdd-features.input.md")
	out, err := Bootstrap(src, "ann", ".planning/phases/03-scoring/03-02-PLAN.md", time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "tdd-features.bootstrap.golden.md", out)
	p := Scan(out)
	if why := p.CorruptReasons(); why != nil {
		t.Fatalf("bootstrapped session is corrupt: %v", why)
	}
	marked, err := SetStatus(out, 2, Complete)
	if err != nil {
		t.Fatal(err)
	}
	assertOneSplice(t, out, marked)
	if got, want := len(marked)-len(out), len("complete")-len("pending"); got != want {
		t.Errorf("mark changed %d bytes, want %d", got, want)
	}
	sts, err := Scan(marked).Statuses()
	if err != nil || fmt.Sprint(sts) != "[pending complete]" {
		t.Errorf("statuses %v %v", sts, err)
	}
}
