package planfile

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files")

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: output differs from golden file\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestScanMessyPlan(t *testing.T) {
	for _, name := range []string{"messy.input.md", "crlf.input.md", "bom-nofinalnewline.input.md"} {
		t.Run(name, func(t *testing.T) {
			p := Scan(read(t, name))
			want := []struct{ name, typ string }{
				{"Task 1: Create schema", "auto"},
				{"Task 2: Create API endpoints", "auto"},
				{"checkpoint:human-verify: The API from task 2, with schema", "checkpoint:human-verify"},
				{"Task 4: Tidy", "auto"},
				{"Task 5: Untyped task", ""},
			}
			if len(p.Tasks) != len(want) {
				t.Fatalf("got %d tasks, want %d", len(p.Tasks), len(want))
			}
			for i, w := range want {
				tk := &p.Tasks[i]
				if tk.Name() != w.name || tk.Type() != w.typ {
					t.Errorf("task %d = %q type %q, want %q type %q", i+1, tk.Name(), tk.Type(), w.name, w.typ)
				}
				if !tk.Closed {
					t.Errorf("task %d not closed", i+1)
				}
			}
			if len(p.Problems) != 0 {
				t.Errorf("problems: %v", p.Problems)
			}
			if got := p.Tasks[0].Line; got != 32 {
				t.Errorf("task 1 on line %d, want 32", got)
			}
			var names []string
			for _, c := range p.Tasks[0].Children {
				names = append(names, c.Name)
			}
			if strings.Join(names, ",") != "name,files,action,verify,done" {
				t.Errorf("task 1 children = %v", names)
			}
			action, _ := p.Tasks[0].Child("action")
			if !strings.Contains(action.Text, `console.log("</task>")`) || !strings.Contains(action.Text, "<div className") {
				t.Errorf("action text cut short: %q", action.Text)
			}
			a2, _ := p.Tasks[1].Child("action")
			if !strings.Contains(a2.Text, "&amp; an ampersand & a bare one") {
				t.Errorf("child text must stay raw, got %q", a2.Text)
			}
		})
	}
}

func TestBootstrapGolden(t *testing.T) {
	started := time.Date(2026, 2, 3, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	for _, name := range []string{"messy", "crlf", "bom-nofinalnewline"} {
		t.Run(name, func(t *testing.T) {
			src := read(t, name+".input.md")
			out, err := Bootstrap(src, "john-doe", ".planning/phases/03-session-folder-structure/03-01-PLAN.md", started)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name+".bootstrap.golden.md", out)
			p := Scan(out)
			if p.Header.User != "john-doe" || p.Header.Plan != ".planning/phases/03-session-folder-structure/03-01-PLAN.md" || p.Header.Started != "2026-02-03T09:00:00Z" {
				t.Errorf("header = %+v", p.Header)
			}
			if why := p.CorruptReasons(); why != nil {
				t.Errorf("bootstrapped session is corrupt: %v", why)
			}
			sts, err := p.Statuses()
			if err != nil {
				t.Fatal(err)
			}
			for i, st := range sts {
				if v, ok := p.Tasks[i].StatusText(); !ok || v != "pending" || st != Pending {
					t.Errorf("task %d status %q %v", i+1, v, ok)
				}
			}
			// Idempotence: injecting into the result again changes nothing.
			again, err := InjectStatuses(out)
			if err != nil || !bytes.Equal(again, out) {
				t.Errorf("InjectStatuses not idempotent (err %v)", err)
			}
			// The plan's bytes are all there, in order, apart from the inserted attributes.
			stripped := bytes.ReplaceAll(out, []byte(` status="pending"`), nil)
			stripped = bytes.ReplaceAll(stripped, []byte(` status='pending'`), nil)
			if !bytes.HasSuffix(stripped, bytes.TrimPrefix(src, bom)) {
				t.Error("plan bytes changed beyond the inserted status attributes")
			}
		})
	}
}

func TestBootstrapRefusesPlanWithoutTasks(t *testing.T) {
	_, err := Bootstrap(read(t, "prose-only.input.md"), "ann", "p.md", time.Now())
	if !errors.Is(err, ErrNoTasks) || err.Error() != `no <task> elements and no "### Task N" sections: nothing to track` {
		t.Fatalf("err = %v", err)
	}
	if _, err := Bootstrap([]byte("<tasks><task/></tasks>"), "ann", "a -->b", time.Now()); err == nil {
		t.Fatal("a path that would end the comment must be refused")
	}
}

func TestSessionHeaderAndStatuses(t *testing.T) {
	p := Scan(read(t, "session.input.md"))
	if p.Header.Plan != ".planning/phases/03-x/03-01-PLAN.md" || p.Header.PlanLine != 2 || p.Header.User != "john-doe" {
		t.Fatalf("indented header not recognised: %+v", p.Header)
	}
	if p.Header.Started != "2026-02-03T10:00:00Z" {
		t.Errorf("started = %q", p.Header.Started)
	}
	_, err := p.Statuses()
	var le *LineError
	if !errors.As(err, &le) || le.Line != 18 || !strings.Contains(err.Error(), `task 5 has unknown status "done" (want "complete", "in-progress" or "pending")`) {
		t.Fatalf("err = %v", err)
	}
	var got []string
	for i := 0; i < 4; i++ {
		st, err := p.Tasks[i].Status()
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(st))
	}
	if strings.Join(got, ",") != "complete,in-progress,pending,pending" {
		t.Errorf("statuses = %v", got)
	}
}

func TestSetStatusGolden(t *testing.T) {
	src := read(t, "session.input.md")
	cases := []struct {
		n  int
		st Status
	}{
		{2, Complete},   // double-quoted value, status not the last attribute
		{1, InProgress}, // plain case
		{3, Complete},   // unquoted value gets quotes
		{4, InProgress}, // no status attribute: inserted after the last one
		{5, Complete},   // an unknown value is repaired
	}
	for _, c := range cases {
		name := "session.mark" + string(rune('0'+c.n)) + "-" + string(c.st) + ".golden.md"
		t.Run(name, func(t *testing.T) {
			out, err := SetStatus(src, c.n, c.st)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, name, out)
			assertOneSplice(t, src, out)
			st, err := Scan(out).Tasks[c.n-1].Status()
			if err != nil || st != c.st {
				t.Errorf("after edit: %v %v", st, err)
			}
			if _, err := SetStatus(out, c.n, c.st); !errors.Is(err, ErrUnchanged) {
				t.Errorf("second edit: err = %v, want ErrUnchanged", err)
			}
		})
	}
}

func TestSetStatusKeepsCRLF(t *testing.T) {
	boot, err := Bootstrap(read(t, "crlf.input.md"), "ann", "x/03-01-PLAN.md", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	out, err := SetStatus(boot, 3, Complete)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(out, []byte("\r\n")) != bytes.Count(out, []byte("\n")) {
		t.Error("a bare LF appeared in a CRLF file")
	}
	assertOneSplice(t, boot, out)
}

func TestSetStatusErrors(t *testing.T) {
	src := read(t, "session.input.md")
	for _, c := range []struct {
		n    int
		st   Status
		want string
	}{
		{0, Complete, "no task 0: the session has 5 tasks"},
		{6, Complete, "no task 6"},
		{1, "done", `unknown status "done"`},
	} {
		if _, err := SetStatus(src, c.n, c.st); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("SetStatus(%d, %s) err = %v, want %q", c.n, c.st, err, c.want)
		}
	}
	dup := []byte("<tasks>\n<task status=\"pending\" status=\"complete\">\n</task>\n</tasks>\n")
	if _, err := SetStatus(dup, 1, Complete); err == nil || !strings.Contains(err.Error(), "2: task 1 has 2 status attributes") {
		t.Errorf("duplicate status: err = %v", err)
	}
}

// assertOneSplice checks that out equals src with one contiguous range replaced, and that the
// replaced range lies inside a single <task> start tag.
func assertOneSplice(t *testing.T, src, out []byte) {
	t.Helper()
	pre := 0
	for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
		pre++
	}
	suf := 0
	for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
		suf++
	}
	for _, tk := range Scan(src).Tasks {
		if tk.Tag.Start <= pre && len(src)-suf <= tk.Tag.End {
			return
		}
	}
	t.Errorf("edit spans bytes %d..%d, outside any start tag", pre, len(src)-suf)
}

func TestScanToleratesBrokenInput(t *testing.T) {
	for name, src := range map[string]string{
		"unclosed tasks":      "<tasks>\n<task type=\"auto\">\n<name>A</name>\n</task>\n",
		"unclosed task":       "<tasks>\n<task type=\"auto\">\n<name>A</name>\n<task type=\"auto\"><name>B</name></task>\n</tasks>\n",
		"truncated start tag": "<tasks>\n<task type=\"auto",
		"unclosed fence":      "<tasks>\n```\n<task type=\"auto\"><name>A</name></task>\n</tasks>\n",
		"unclosed comment":    "<tasks>\n<task><name>A</name></task>\n<!-- \n<task/>",
		"empty":               "",
		"nul":                 "<tasks>\x00<task\x00>\x00</tasks>",
	} {
		t.Run(name, func(t *testing.T) {
			p := Scan([]byte(src))
			for _, tk := range p.Tasks {
				if tk.Tag.Start < 0 || tk.Tag.End > len(src) || tk.Span.End > len(src) {
					t.Errorf("span out of range: %+v", tk)
				}
			}
		})
	}
	p := Scan([]byte("<tasks>\n<task type=\"auto\">\n<name>A</name>\n<task type=\"auto\"><name>B</name></task>\n</tasks>\n"))
	if len(p.Tasks) != 2 || p.Tasks[1].Name() != "B" || len(p.Problems) != 1 || p.Problems[0].Line != 2 {
		t.Errorf("unclosed task: %d tasks, problems %v", len(p.Tasks), p.Problems)
	}
	p = Scan([]byte("<tasks>\n```\n<task type=\"auto\"><name>A</name></task>\n</tasks>\n"))
	if len(p.Tasks) != 1 {
		t.Errorf("an unclosed fence must not hide tasks: got %d", len(p.Tasks))
	}
}

// Tasks written without a <tasks> block around them ("## Tasks", then <task> elements) are
// tasks; a line of prose that begins with "<task>" and never closes is not.
func TestTasksWithoutBlock(t *testing.T) {
	src := []byte("# Plan\n\n<task> elements below are what the executor runs.\n\n## Tasks\n\n" +
		"<task type=\"auto\" tdd=\"true\">\n  <name>Task 1: Prompt tests</name>\n  <files>tests/a.py</files>\n</task>\n\n" +
		"```\n<task type=\"auto\"><name>in a fence</name></task>\n```\n\n" +
		"<task type=\"auto\">\n  <name>Task 2: Streaming tests</name>\n</task>\n")
	p := Scan(src)
	if p.Err != nil || len(p.Tasks) != 2 || p.Tasks[0].Name() != "Task 1: Prompt tests" || p.Tasks[1].Name() != "Task 2: Streaming tests" {
		t.Fatalf("%v: %d tasks %+v", p.Err, len(p.Tasks), p.Problems)
	}
	if len(p.Problems) != 0 {
		t.Errorf("problems: %+v", p.Problems)
	}
	out, err := Bootstrap(src, "ann", ".planning/phases/67-x/67-01-PLAN.md", time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	s := Scan(out)
	sts, err := s.Statuses()
	if err != nil || len(sts) != 2 || sts[0] != Pending || sts[1] != Pending {
		t.Fatalf("%v %v", sts, err)
	}
	if n, err := SetStatus(out, 2, Complete); err != nil || !bytes.Contains(n, []byte("<task type=\"auto\" status=\"complete\">\n  <name>Task 2")) {
		t.Errorf("%v\n%s", err, n)
	}
}
