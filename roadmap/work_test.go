package roadmap

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/roadmap/trace"
)

// history builds a log, newest first as git gives it, from commits written oldest first: each
// "subject | path path ...", a path prefixed with "+" added.
func history(lines ...string) []trace.Commit {
	var out []trace.Commit
	for i, l := range lines {
		subject, files, _ := strings.Cut(l, "|")
		c := trace.Commit{Hash: fmt.Sprintf("%040x", i+1), Time: time.Unix(int64(1000+i), 0).UTC(), Subject: strings.TrimSpace(subject)}
		for _, f := range strings.Fields(files) {
			st := byte('M')
			if p, ok := strings.CutPrefix(f, "+"); ok {
				st, f = 'A', p
			}
			c.Files = append(c.Files, trace.Change{Status: st, Path: f})
		}
		out = append([]trace.Commit{c}, out...)
	}
	return out
}

func plansOf(t *testing.T, dir string, names ...string) []Plan {
	t.Helper()
	var out []Plan
	for _, n := range names {
		kind, key, id := classify(strings.TrimSuffix(n, "*"))
		if kind != kindPlan {
			t.Fatalf("%s is no plan", n)
		}
		p := Plan{ID: id, Path: dir + "/" + strings.TrimSuffix(n, "*"), key: key.pair()}
		if strings.HasSuffix(n, "*") {
			p.Summary = strings.Replace(p.Path, "PLAN", "SUMMARY", 1)
		}
		out = append(out, p)
	}
	return out
}

var demoTasks = []TaskSpec{
	{Name: "Task 1: Create schema", Files: []string{"src/db.ts", "src/schema.ts"}},
	{Name: "Task 2: Add the completion handler", Files: []string{"src/handlers/complete.ts"}},
	{Name: "Task 3: Wire routes into the server", Files: []string{"src/server.ts"}},
}

const apiDir = ".planning/phases/02-api"

func TestPlanCommitsAndTasks(t *testing.T) {
	plans := plansOf(t, apiDir, "02-01-PLAN.md*", "02-02-PLAN.md", "02-03-PLAN.md")
	pl := plans[1]
	for _, c := range []struct {
		name      string
		log       []string
		done      int // Tracing.Done
		works     []TaskWork
		unmatched int
	}{
		{"one commit a task", []string{
			"feat(02-02): old work before the plan existed | src/db.ts",
			"docs(02): create phase plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"feat(02-01): another plan's work | src/other.ts",
			"feat(02-02): add completion handler | src/handlers/complete.ts",
		}, 2, []TaskWork{WorkDone, WorkDone, WorkNone}, 0},
		{"a fix of the task just done is that task's", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"fix(02-02): schema column types | src/schema.ts",
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
		{"planning files alone are bookkeeping", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"docs(02-02): update state | .planning/STATE.md",
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
		{"a commit like no task is not counted", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"chore(02-02): bump lockfile | package-lock.json",
		}, 0, []TaskWork{WorkNone, WorkNone, WorkNone}, 1},
		{"a task further on: the ones between were passed", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"feat(02-02): wire routes into the server | src/server.ts",
		}, 3, []TaskWork{WorkDone, WorkPassed, WorkDone}, 0},
		{"git's revert takes a commit back", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"feat(02-02): add completion handler | src/handlers/complete.ts",
			`Revert "feat(02-02): add completion handler" | src/handlers/complete.ts`,
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
		{"the plan's own revert takes back what it changed", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02-02): create schema | src/db.ts src/schema.ts",
			"feat(02-02): add completion handler | src/handlers/complete.ts",
			"revert(02-02): undo the handler for a re-plan | src/handlers/complete.ts",
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
		{"a phase alone names the phase's first open plan", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(02): create schema | src/db.ts src/schema.ts",
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
		{"padding and unpadded numbers are one plan", []string{
			"docs(02): plans | +.planning/phases/02-api/02-02-PLAN.md",
			"feat(2-2): create schema | src/db.ts src/schema.ts",
		}, 1, []TaskWork{WorkDone, WorkNone, WorkNone}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			cs := PlanCommits(history(c.log...), pl, plans)
			tr := MatchTasks(demoTasks, cs)
			if doneInARow(tr) != c.done || len(tr.Unmatched) != c.unmatched {
				t.Errorf("done %d, unmatched %d; want %d, %d", doneInARow(tr), len(tr.Unmatched), c.done, c.unmatched)
			}
			for i, w := range c.works {
				if tr.Tasks[i].Work != w {
					t.Errorf("task %d: %q, want %q", i+1, tr.Tasks[i].Work, w)
				}
			}
		})
	}
	// The phase alone is not the second open plan's.
	cs := PlanCommits(history("docs(02): plans | +.planning/phases/02-api/02-03-PLAN.md", "feat(02): create schema | src/db.ts"), plans[2], plans)
	if len(cs) != 0 {
		t.Errorf("02-03 took the phase's commit: %v", cs)
	}
}

func TestTestFirst(t *testing.T) {
	tasks := []TaskSpec{
		{Name: "Task 1: Parser for durations", Files: []string{"dur.go", "dur_test.go"}, TDD: true},
		{Name: "Task 2: Model tests", Files: []string{"model_test.go"}, TDD: true},
	}
	log := func(lines ...string) []trace.Commit {
		return history(lines...)
	}
	// The failing test alone: the task is under way.
	tr := MatchTasks(tasks, reversed(log("test(01-01): add failing test for duration parser | dur_test.go")))
	if tr.Tasks[0].Work != WorkStarted || doneInARow(tr) != 0 {
		t.Errorf("red: %+v", tr.Tasks[0])
	}
	// Its implementation after it: done, one task.
	tr = MatchTasks(tasks, reversed(log("test(01-01): add failing test for duration parser | dur_test.go", "feat(01-01): implement duration parser | dur.go")))
	if tr.Tasks[0].Work != WorkDone || len(tr.Tasks[0].Commits) != 2 || doneInARow(tr) != 1 {
		t.Errorf("green: %+v", tr.Tasks)
	}
	// A later task committed: the executor moved on, the test-first task is done.
	tr = MatchTasks(tasks, reversed(log("test(01-01): add failing test for duration parser | dur_test.go", "test(01-01): add model tests | model_test.go")))
	if tr.Tasks[0].Work != WorkDone || doneInARow(tr) != 2 {
		t.Errorf("moved on: %+v", tr.Tasks)
	}
	// A task of tests only is done with them.
	tr = MatchTasks(tasks, reversed(log("test(01-01): add failing test for duration parser | dur_test.go", "feat(01-01): implement duration parser | dur.go", "test(01-01): add model tests | model_test.go")))
	if doneInARow(tr) != 2 {
		t.Errorf("tests only: %+v", tr.Tasks)
	}
}

// reversed turns a newest-first log into the oldest-first commits MatchTasks takes.
func reversed(cs []trace.Commit) []trace.Commit {
	out := make([]trace.Commit, len(cs))
	for i, c := range cs {
		out[len(cs)-1-i] = c
	}
	return out
}

func TestFilesOf(t *testing.T) {
	got := filesOf("`src/db.ts`, src/schema.ts (new)\n- tests/e2e/\n  src/auth.ts (rename from walletAuth.ts)\nN/A (MCP tool calls)")
	want := "src/db.ts src/schema.ts tests/e2e src/auth.ts"
	if strings.Join(got, " ") != want {
		t.Errorf("%q", got)
	}
}

func TestWordSet(t *testing.T) {
	w := wordSet("Task 3: 新增 pytest 测试 for the Parser")
	for _, k := range []string{"新", "增", "pytest", "测", "试", "parser"} {
		if !w[k] {
			t.Errorf("%q missing from %v", k, w)
		}
	}
	if w["the"] || w["task"] || w["3"] {
		t.Errorf("stop words kept: %v", w)
	}
}

// A checkpoint's <files> often names everything it verifies: a commit like it is not evidence
// that the task before it was passed; the commit is the task's it also resembles.
func TestCheckpointTakesNoSkip(t *testing.T) {
	tasks := []TaskSpec{
		{Name: "Task 1: Import the models", Files: []string{"models/a.glb"}},
		{Name: "Task 2: Wire the project settings", Files: []string{"project.godot"}},
		{Name: "checkpoint:human-verify: the scene renders", Files: []string{"models", "scenes", "project.godot"}, Checkpoint: true},
	}
	tr := MatchTasks(tasks, reversed(history(
		"feat(01-02): import the models | models/a.glb",
		"feat(01-02): export the assets | project.godot models/b.glb scenes/main.tscn",
	)))
	if tr.Tasks[1].Work != WorkDone || tr.Tasks[2].Work != WorkNone || doneInARow(tr) != 2 {
		t.Errorf("%+v", tr.Tasks)
	}
}

// In order, a commit passes a checkpoint (a human's gate) to the next task of work.
func TestCommitPassesCheckpoint(t *testing.T) {
	tasks := []TaskSpec{
		{Name: "Task 1: Create the folders", Files: []string{"models"}},
		{Name: "Task 2: Rename the files in the editor", Checkpoint: true},
		{Name: "Task 3: Update the project paths", Files: []string{"project.godot"}},
		{Name: "Task 4: Verify the game launches", Checkpoint: true},
	}
	tr := MatchTasks(tasks, reversed(history(
		"chore(01-02): create the folders | models/.gitkeep",
		"refactor(01-02): reorganize files | assets/a.png autoloads/b.gd",
	)))
	if tr.Tasks[1].Work != WorkPassed || tr.Tasks[2].Work != WorkDone || doneInARow(tr) != 3 {
		t.Errorf("%+v", tr.Tasks)
	}
}

// The newest commit of work decides where work stands: the plan it names (a phase alone: the
// phase's first plan without a SUMMARY), unless STATE.md was committed after it; the files'
// reading is kept as Files and as the other reading.
func TestLocateWithCommits(t *testing.T) {
	fsys := project(
		".planning/ROADMAP.md", "# Roadmap\n\n- [ ] **Phase 1: One**\n- [ ] **Phase 2: Two**\n",
		".planning/STATE.md", "## Current Position\n\nPhase: 1 of 2 (One)\n",
		".planning/phases/01-one/01-01-PLAN.md", "",
		".planning/phases/01-one/01-02-PLAN.md", "",
		".planning/phases/02-two/02-01-PLAN.md", "",
		".planning/phases/02-two/02-02-PLAN.md", "",
	)
	for _, c := range []struct {
		name, active string
		rule         Rule
		log          []string
	}{
		{"no commits: the files decide", ".planning/phases/01-one/01-01-PLAN.md", RuleState, nil},
		{"a sibling in a wave", ".planning/phases/01-one/01-02-PLAN.md", RuleCommits, []string{"feat(01-02): b | src/b.go"}},
		{"a later phase by its plan", ".planning/phases/02-two/02-02-PLAN.md", RuleCommits, []string{"feat(02-02): d | src/d.go"}},
		{"a later phase alone", ".planning/phases/02-two/02-01-PLAN.md", RuleCommits, []string{"test(e2e-02): a failing test | tests/t.go"}},
		{"planning files alone are no work", ".planning/phases/01-one/01-01-PLAN.md", RuleState, []string{"docs(02-02): plan it | .planning/phases/02-two/02-02-PLAN.md"}},
		{"STATE.md committed after the work", ".planning/phases/01-one/01-01-PLAN.md", RuleState, []string{"feat(02-02): d | src/d.go", "docs(state): back to phase 1 | .planning/STATE.md"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			pos, err := LocateWith(fsys, ".planning", history(c.log...))
			if err != nil {
				t.Fatal(err)
			}
			if pos.Active == nil || pos.Active.Path != c.active || pos.Rule != c.rule {
				t.Fatalf("active %v rule %s; want %s, %s", pos.Active, pos.Rule, c.active, c.rule)
			}
			if (pos.Rule == RuleCommits) != (pos.Files != nil) || pos.Files != nil && pos.Files.Active.Path != ".planning/phases/01-one/01-01-PLAN.md" {
				t.Errorf("files reading %+v", pos.Files)
			}
		})
	}
}

// doneInARow is how many tasks from the first the commits show done or passed, in a row.
func doneInARow(t Tracing) int {
	n := 0
	for _, tt := range t.Tasks {
		if tt.Work != WorkDone && tt.Work != WorkPassed {
			break
		}
		n++
	}
	return n
}
