package hydrate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile"
)

var t0 = time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)

// project writes files (path -> content) under a new root and opens it as user ann.
func project(t testing.TB, files map[string]string) *Env {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(root, ".planning"), 0o755); err != nil {
		t.Fatal(err)
	}
	e, err := Open(Config{Dir: root, Identity: identity.Sources{Flag: "ann"}, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func plan(names ...string) string {
	var b strings.Builder
	b.WriteString("---\nphase: 03\n---\n\n<tasks>\n")
	for _, n := range names {
		fmt.Fprintf(&b, "<task type=\"auto\">\n  <name>%s</name>\n</task>\n", n)
	}
	b.WriteString("</tasks>\n")
	return b.String()
}

const roadmapMD = `# Roadmap

| Phase | Plans Complete | Status | Completed |
|-------|----------------|--------|-----------|
| 1. One | 1/1 | Complete | 2026-01-01 |
| 3. Three | 1/2 | In Progress | - |
`

func baseFiles() map[string]string {
	return map[string]string{
		".planning/ROADMAP.md":                       roadmapMD,
		".planning/phases/01-one/01-01-PLAN.md":      plan("A"),
		".planning/phases/01-one/01-01-SUMMARY.md":   "done",
		".planning/phases/03-three/03-01-PLAN.md":    plan("B1", "B2"),
		".planning/phases/03-three/03-01-SUMMARY.md": "done",
		".planning/phases/03-three/03-02-PLAN.md":    plan("C1", "C2", "C3"),
	}
}

func session(planPath string, statuses ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- Session progress for ann -->\n<!-- Plan: %s -->\n<!-- Started: 2026-02-01T00:00:00Z -->\n\n<tasks>\n", planPath)
	for i, s := range statuses {
		fmt.Fprintf(&b, "<task type=\"auto\" status=\"%s\">\n  <name>C%d</name>\n</task>\n", s, i+1)
	}
	b.WriteString("</tasks>\n")
	return b.String()
}

func TestHydrateBootstrapsActivePlan(t *testing.T) {
	e := project(t, baseFiles())
	res, err := e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found != StateNoSession || res.State != StateResume || res.ResumeTask != 1 || res.Phase != "3" {
		t.Fatalf("found %s state %s resume %d phase %q", res.Found, res.State, res.ResumeTask, res.Phase)
	}
	if res.Plan != ".planning/phases/03-three/03-02-PLAN.md" || res.Started != "2026-02-03T10:00:00Z" {
		t.Errorf("plan %q started %q", res.Plan, res.Started)
	}
	if len(res.Actions) != 1 || res.Actions[0].Kind != "bootstrapped" {
		t.Errorf("actions = %+v", res.Actions)
	}
	// Read-only hydrate of the fresh session: valid, nothing to do.
	again, err := e.Hydrate(Options{})
	if err != nil || again.State != StateResume || len(again.StaleReasons) != 0 {
		t.Fatalf("second hydrate: %+v %v", again, err)
	}
}

func TestNoBootstrapWritesNothing(t *testing.T) {
	e := project(t, baseFiles())
	res, err := e.Hydrate(Options{})
	if err != nil || res.State != StateNoSession || res.Token() != "NO_SESSION" {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(e.Root, ".planning", "sessions")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("sessions dir created by a read-only hydrate: %v", err)
	}
}

func TestStalenessListsEveryReason(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/01-one/01-01-PLAN.md", "complete", "pending")
	e := project(t, files)
	s, err := e.Inspect()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"plan already completed (.planning/phases/01-one/01-01-SUMMARY.md exists)",
		"phase has advanced (session is in phase 1, the current phase is 3)",
		"task count differs (session has 2, plan has 1)",
	}
	if s.State != StateStale || !slices.Equal(s.StaleReasons, want) {
		t.Errorf("state %s reasons:\n%s", s.State, strings.Join(s.StaleReasons, "\n"))
	}
}

func TestPhaseComparedAsNumbers(t *testing.T) {
	files := baseFiles()
	// "03" in the path, "3" in ROADMAP: the same phase. The names match the plan.
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "in-progress", "pending")
	e := project(t, files)
	s, err := e.Inspect()
	if err != nil {
		t.Fatal(err)
	}
	if s.State != StateResume || s.ResumeTask != 2 || !s.Interrupted || s.Token() != "2" {
		t.Fatalf("state %s resume %d interrupted %v reasons %v", s.State, s.ResumeTask, s.Interrupted, s.StaleReasons)
	}
	// 3.1 is not 3.
	files[".planning/phases/3.1-x/3.1-01-PLAN.md"] = plan("C1", "C2", "C3")
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/3.1-x/3.1-01-PLAN.md", "pending", "pending", "pending")
	e = project(t, files)
	if s, _ = e.Inspect(); s.State != StateStale || !strings.Contains(s.StaleReasons[0], "session is in phase 3.1") {
		t.Errorf("3.1 vs 3: state %s %v", s.State, s.StaleReasons)
	}
}

func TestTaskNamesDiffer(t *testing.T) {
	files := baseFiles()
	files[".planning/phases/03-three/03-02-PLAN.md"] = plan("C1", "renamed", "C3")
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "pending", "pending", "pending")
	s, err := project(t, files).Inspect()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.StaleReasons) != 1 || s.StaleReasons[0] != `task 2 is "C2" in the session but "renamed" in the plan` {
		t.Errorf("reasons %q", s.StaleReasons)
	}
}

func TestHeaderCannotLeaveProject(t *testing.T) {
	for _, p := range []string{"/etc/passwd", "../../x", ".planning/../../x", `C:\x`} {
		files := baseFiles()
		files[".planning/sessions/ann/current-plan.md"] = session(p, "pending")
		s, err := project(t, files).Inspect()
		if err != nil {
			t.Fatal(err)
		}
		if s.State != StateStale || len(s.StaleReasons) != 1 || !strings.Contains(s.StaleReasons[0], "outside the project") {
			t.Errorf("%s: state %s %q", p, s.State, s.StaleReasons)
		}
	}
}

func TestStaleSessionIsArchivedNotLost(t *testing.T) {
	files := baseFiles()
	old := session(".planning/phases/01-one/01-01-PLAN.md", "complete")
	files[".planning/sessions/ann/current-plan.md"] = old
	files[".planning/sessions/ann/current-plan.20260203100000.stale"] = "an older archive"
	e := project(t, files)
	res, err := e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found != StateStale || res.State != StateResume || len(res.Actions) != 2 {
		t.Fatalf("%+v", res)
	}
	got, _ := os.ReadFile(filepath.Join(e.Root, ".planning/sessions/ann/current-plan.20260203100000-2.stale"))
	if string(got) != old {
		t.Errorf("archive content %q", got)
	}
	prev, _ := os.ReadFile(filepath.Join(e.Root, ".planning/sessions/ann/current-plan.20260203100000.stale"))
	if string(prev) != "an older archive" {
		t.Error("an existing archive was overwritten")
	}
}

func TestNoPlanToBootstrap(t *testing.T) {
	files := baseFiles()
	files[".planning/phases/03-three/03-02-SUMMARY.md"] = "done"
	e := project(t, files)
	res, err := e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateNoPlan || res.Token() != "NO_PLAN" || res.Note == "" {
		t.Errorf("state %s note %q", res.State, res.Note)
	}
}

func TestAllCompleteOffersNextPlan(t *testing.T) {
	files := baseFiles()
	files[".planning/phases/03-three/03-03-PLAN.md"] = plan("D")
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "complete", "complete")
	res, err := project(t, files).Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateAllComplete || res.Token() != "ALL_COMPLETE" || res.NextPlan != ".planning/phases/03-three/03-03-PLAN.md" {
		t.Errorf("state %s next %q", res.State, res.NextPlan)
	}
}

func TestMark(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "pending", "pending")
	e := project(t, files)
	path := filepath.Join(e.Root, ".planning/sessions/ann/current-plan.md")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := e.Mark(0, planfile.InProgress)
	if err != nil || res.Task.Number != 2 || !res.Changed || res.Session.ResumeTask != 2 || !res.Session.Interrupted {
		t.Fatalf("mark-in-progress: %+v %v", res, err)
	}
	res, err = e.Mark(0, planfile.Complete)
	if err != nil || res.Task.Number != 2 || res.From != "in-progress" || res.Session.Counts.Complete != 2 {
		t.Fatalf("mark-complete: %+v %v", res, err)
	}
	before, _ := os.ReadFile(path)
	fi0, _ := os.Stat(path)
	res, err = e.Mark(2, planfile.Complete)
	if err != nil || res.Changed {
		t.Fatalf("unchanged mark: %+v %v", res, err)
	}
	after, _ := os.ReadFile(path)
	fi1, _ := os.Stat(path)
	if string(before) != string(after) || !fi0.ModTime().Equal(fi1.ModTime()) || fi1.Mode().Perm() != 0o600 {
		t.Errorf("unchanged mark touched the file (mode %v)", fi1.Mode())
	}
	if _, err := e.Mark(0, planfile.Complete); err == nil || !strings.Contains(err.Error(), "no task is in progress") {
		t.Errorf("err = %v", err)
	}
	if _, err := e.Mark(4, planfile.Complete); err == nil || !strings.Contains(err.Error(), "no task 4 (the session has 3)") {
		t.Errorf("err = %v", err)
	}
}

// TestMarkWarnings: a checkpoint marked complete before the work it checks, and a second task
// marked in progress, are marked as asked, with a warning saying why that is probably wrong.
func TestMarkWarnings(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = "<!-- Plan: .planning/phases/03-three/03-02-PLAN.md -->\n\n<tasks>\n" +
		"<task type=\"auto\" status=\"complete\"><name>C1</name></task>\n" +
		"<task type=\"auto\" status=\"in-progress\"><name>C2</name></task>\n" +
		"<task type=\"auto\" status=\"pending\"><name>C3</name></task>\n" +
		"<task type=\"checkpoint:human-verify\" gate=\"blocking\" status=\"pending\"><name>C4</name></task>\n</tasks>\n"
	e := project(t, files)
	for _, step := range []struct {
		n    int
		st   planfile.Status
		want string
	}{
		{3, planfile.InProgress, "task 2 is in progress too: work on one task at a time"},
		{4, planfile.InProgress, "tasks 2 and 3 are in progress too"},
		{4, planfile.Complete, "task 4, a checkpoint (checkpoint:human-verify), is marked complete while tasks 2 and 3 before it are not: a checkpoint is answered after the work it checks"},
		{2, planfile.Complete, ""},
		{3, planfile.Pending, ""},
		{4, planfile.Complete, "while task 3 before it is not"},
		{3, planfile.Complete, ""}, // a task that is not a checkpoint: work done in any order
		{4, planfile.Complete, ""}, // everything before it is done
	} {
		res, err := e.Mark(step.n, step.st)
		if err != nil || res.Task.Status != step.st {
			t.Fatalf("mark %d %s: %+v %v", step.n, step.st, res, err)
		}
		got := strings.Join(res.Warnings, "\n")
		if step.want == "" && got != "" || !strings.Contains(got, step.want) {
			t.Errorf("mark %d %s: warnings %q, want %q", step.n, step.st, got, step.want)
		}
	}
	// A warning names five tasks at most.
	var b strings.Builder
	b.WriteString("<!-- Plan: .planning/phases/03-three/03-02-PLAN.md -->\n\n<tasks>\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "<task type=\"auto\" status=\"in-progress\"><name>T%d</name></task>\n", i)
	}
	b.WriteString("<task type=\"checkpoint:decision\" status=\"pending\"><name>T10</name></task>\n</tasks>\n")
	files[".planning/sessions/ann/current-plan.md"] = b.String()
	e = project(t, files)
	for n, want := range map[int]string{
		9:  "tasks 1, 2, 3, 4, 5 and 3 more are in progress too",
		10: "task 10, a checkpoint (checkpoint:decision), is marked complete while tasks 1, 2, 3, 4, 5 and 4 more before it are not",
	} {
		st := planfile.InProgress
		if n == 10 {
			st = planfile.Complete
		}
		if res, err := e.Mark(n, st); err != nil || len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], want) {
			t.Errorf("mark %d: %+v %v, want %q", n, res, err, want)
		}
	}
}

func TestSymlinkedSessionsDirIsRefused(t *testing.T) {
	files := baseFiles()
	e := project(t, files)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(e.Root, ".planning", "sessions")); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	_, err := e.Hydrate(Options{Bootstrap: true})
	if err == nil || !strings.Contains(err.Error(), ".planning/sessions/ann/current-plan.md: leads outside the project") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the project: %v", entries)
	}
}

func TestFindRoot(t *testing.T) {
	e := project(t, baseFiles())
	deep := filepath.Join(e.Root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := FindRoot(deep)
	if err != nil || got != e.Root {
		t.Errorf("FindRoot = %q %v", got, err)
	}
	if _, err := FindRoot(t.TempDir()); !errors.Is(err, ErrNotProject) {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkHydrate is the whole read path an agent turn takes: open the project, resolve the
// user, read and judge the session, read ROADMAP and the plan.
func BenchmarkHydrate(b *testing.B) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "in-progress", "pending")
	root := project(b, files).Root
	for b.Loop() {
		e, err := Open(Config{Dir: root, Identity: identity.Sources{Flag: "ann"}})
		if err != nil {
			b.Fatal(err)
		}
		res, err := e.Hydrate(Options{})
		if err != nil || res.ResumeTask != 2 {
			b.Fatal(res, err)
		}
	}
}

func TestUntrackableActivePlanIsReportedNotFatal(t *testing.T) {
	files := baseFiles()
	files[".planning/phases/03-three/03-02-PLAN.md"] = "## Plan 03-02\n\n## Notes\n\n<action>\nx\n</action>\n"
	e := project(t, files)
	res, err := e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	// A plan exists: the token says it has no tasks, not that there is no plan.
	if res.State != StateNoTasks || res.Token() != "NO_TASKS" || res.Untrackable != ".planning/phases/03-three/03-02-PLAN.md" ||
		res.Note != `the active plan .planning/phases/03-three/03-02-PLAN.md has no <task> elements and no "### Task N" sections: nothing to track` {
		t.Errorf("state %s token %s note %q", res.State, res.Token(), res.Note)
	}
	// Named explicitly, the same plan is an error.
	if _, err := e.Hydrate(Options{Bootstrap: true, Plan: ".planning/phases/03-three/03-02-PLAN.md"}); !errors.Is(err, planfile.ErrNoTasks) {
		t.Errorf("err = %v", err)
	}
}

// TestMarkdownSectionPlan: a plan of "### Task N" sections is bootstrapped, marked, carried and
// briefed like a plan of <task> elements.
func TestMarkdownSectionPlan(t *testing.T) {
	const planPath = ".planning/phases/03-three/03-02-PLAN.md"
	files := baseFiles()
	files[planPath] = "## Plan 03-02\n\n### Task 1: Alpha\n\nDo A.\n\n### Task 2: Beta\n\nDo B.\n"
	e := project(t, files)
	res, err := e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.State != StateResume || res.ResumeTask != 1 || len(res.Tasks) != 2 || res.Tasks[1].Name != "Task 2: Beta" {
		t.Fatalf("state %s resume %d tasks %+v", res.State, res.ResumeTask, res.Tasks)
	}
	if _, err := e.Mark(1, planfile.Complete); err != nil {
		t.Fatal(err)
	}
	m, err := e.Mark(0, planfile.InProgress)
	if err != nil || m.Task.Number != 2 {
		t.Fatalf("mark-in-progress picked %+v, %v", m, err)
	}
	session, _ := os.ReadFile(filepath.Join(e.Root, ".planning/sessions/ann/current-plan.md"))
	if !strings.HasSuffix(string(session), "### Task 1: Alpha\n<!-- gsd:task status=\"complete\" -->\n\nDo A.\n\n### Task 2: Beta\n<!-- gsd:task status=\"in-progress\" -->\n\nDo B.\n") {
		t.Errorf("session:\n%s", session)
	}
	h, err := e.Hydrate(Options{})
	if err != nil {
		t.Fatal(err)
	}
	b := e.Brief(h)
	if b.Resume == nil || !b.Resume.Section || b.Resume.StartTag != "### Task 2: Beta" || len(b.Resume.Fields) != 1 || b.Resume.Fields[0].Text != "Do B." {
		t.Errorf("brief resume %+v", b.Resume)
	}
	// The plan is edited (a task inserted, the others renumbered): the statuses are carried by name.
	if err := os.WriteFile(filepath.Join(e.Root, planPath), []byte("## Plan 03-02\n\n### Task 1: Alpha\n\nDo A.\n\n### Task 2: Gamma\n\n### Task 3: Beta\n\nDo B.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = e.Hydrate(Options{Bootstrap: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range res.Tasks {
		got = append(got, string(tk.Status))
	}
	if res.Carry == nil || strings.Join(got, ",") != "complete,pending,in-progress" {
		t.Errorf("carried %v (report %+v)", got, res.Carry)
	}
}

func TestNestedPlansLayout(t *testing.T) {
	files := map[string]string{
		".planning/ROADMAP.md":                           "| Phase | Plans Complete | Status | Completed |\n|---|---|---|---|\n| 4. Four | 1/3 | In progress | - |\n",
		".planning/phases/04-four/plans/PLAN-01-a.md":    plan("C1", "C2", "C3"),
		".planning/phases/04-four/plans/PLAN-02-b.md":    plan("D"),
		".planning/phases/04-four/plans/PLAN-03-c.md":    plan("E"),
		".planning/phases/04-four/plans/SUMMARY-02-b.md": "done",
	}
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/04-four/plans/PLAN-01-a.md", "complete", "complete", "complete")
	e := project(t, files)
	res, err := e.Hydrate(Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 02 has its SUMMARY, so the next plan to run is 03.
	if res.State != StateAllComplete || res.NextPlan != ".planning/phases/04-four/plans/PLAN-03-c.md" {
		t.Errorf("state %s next %q reasons %v", res.State, res.NextPlan, res.StaleReasons)
	}
	files[".planning/phases/04-four/plans/SUMMARY-01-a.md"] = "done"
	s, err := project(t, files).Inspect()
	if err != nil {
		t.Fatal(err)
	}
	if s.State != StateStale || len(s.StaleReasons) != 1 || !strings.Contains(s.StaleReasons[0], "plans/SUMMARY-01-a.md exists") {
		t.Errorf("state %s reasons %q", s.State, s.StaleReasons)
	}
}

// TestMarkdownSessionBadInputChangesNothing: a hand-edited session of "### Task N" sections
// that cannot be marked as asked is refused with its file and line, and the file keeps every
// byte; so does a write that fails.
func TestMarkdownSessionBadInputChangesNothing(t *testing.T) {
	const planPath = ".planning/phases/03-three/03-02-PLAN.md"
	header := "<!-- Session progress for ann -->\n<!-- Plan: " + planPath + " -->\n<!-- Started: 2026-02-03T10:00:00Z -->\n\n"
	files := baseFiles()
	files[planPath] = "### Task 1: Alpha\n\n### Task 2: Beta\n"
	for _, tc := range []struct {
		name, session string
		n             int
		want          string
	}{
		{"an unreadable marker on another task", "### Task 1: Alpha\n<!-- gsd:task status=\"pending\" -->\n\n### Task 2: Beta\n<!-- gsd:task status=\"pend -->\n", 1,
			".planning/sessions/ann/current-plan.md:9: task 2 has a gsd:task marker gsd cannot read"},
		{"two status attributes", "### Task 1: Alpha\n<!-- gsd:task status=\"pending\" status=\"complete\" -->\n\n### Task 2: Beta\n<!-- gsd:task status=\"pending\" -->\n", 1,
			".planning/sessions/ann/current-plan.md:6: task 1 has 2 status attributes; remove all but one by hand"},
		{"no such task", "### Task 1: Alpha\n<!-- gsd:task status=\"pending\" -->\n\n### Task 2: Beta\n<!-- gsd:task status=\"pending\" -->\n", 3,
			".planning/sessions/ann/current-plan.md: no task 3 (the session has 2)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files[".planning/sessions/ann/current-plan.md"] = header + tc.session
			e := project(t, files)
			path := filepath.Join(e.Root, ".planning/sessions/ann/current-plan.md")
			before, _ := os.ReadFile(path)
			_, err := e.Mark(tc.n, planfile.Complete)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want %q", err, tc.want)
			}
			if after, _ := os.ReadFile(path); string(after) != string(before) {
				t.Errorf("a refused mark changed the session:\n%s", after)
			}
		})
	}
	t.Run("a failed write", func(t *testing.T) {
		if os.Geteuid() == 0 {
			t.Skip("root writes into a read-only directory")
		}
		files[".planning/sessions/ann/current-plan.md"] = header + "### Task 1: Alpha\n<!-- gsd:task status=\"pending\" -->\n\n### Task 2: Beta\n<!-- gsd:task status=\"pending\" -->\n"
		e := project(t, files)
		dir := filepath.Join(e.Root, ".planning/sessions/ann")
		path := filepath.Join(dir, "current-plan.md")
		before, _ := os.ReadFile(path)
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(dir, 0o755) })
		if _, err := e.Mark(1, planfile.Complete); err == nil {
			t.Fatal("a mark into a read-only directory succeeded")
		}
		if after, _ := os.ReadFile(path); string(after) != string(before) {
			t.Errorf("a failed write changed the session:\n%s", after)
		}
	})
}
