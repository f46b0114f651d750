package trace

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// logOf builds git log -z --name-status output as LogArgs asks for it.
func logOf(recs ...string) []byte { return []byte(strings.Join(recs, "")) }

func rec(hash string, ct int64, parents, subject string, files ...string) string {
	var b strings.Builder
	b.WriteString("\x1e" + hash + " " + strconv.FormatInt(ct, 10) + " " + parents + "\x1f" + subject + "\x00")
	if len(files) > 0 {
		b.WriteString("\n")
		for _, f := range files {
			b.WriteString(f + "\x00")
		}
	}
	return b.String()
}

func TestParseLog(t *testing.T) {
	h1 := strings.Repeat("a", 40)
	h2 := strings.Repeat("b", 40)
	h3 := strings.Repeat("c", 40)
	out := logOf(
		rec(h1, 1700000200, h2, "feat(02-02): add handler", "M", "src/a.go", "A", "src/b.go", "R100", "old.go", "new.go"),
		rec(h2, 1700000100, h3+" "+h1, "Merge branch 'x'"),
		rec(h3, 1700000000, "", "docs(02-02): create plan", "A", ".planning/phases/02-x/02-02-PLAN.md"),
	)
	cs := ParseLog(out)
	if len(cs) != 3 {
		t.Fatalf("%d commits: %+v", len(cs), cs)
	}
	c := cs[0]
	if c.Hash != h1 || c.Short() != "aaaaaaa" || c.Subject != "feat(02-02): add handler" || !c.Time.Equal(time.Unix(1700000200, 0)) || c.Merge {
		t.Errorf("first: %+v", c)
	}
	if len(c.Files) != 3 || c.Files[2] != (Change{'R', "new.go"}) || !c.Touched("src/b.go") || !c.Added("src/b.go") || c.Added("src/a.go") {
		t.Errorf("files: %+v", c.Files)
	}
	if !cs[1].Merge || len(cs[1].Files) != 0 || cs[1].PlanningOnly() {
		t.Errorf("merge: %+v", cs[1])
	}
	if !cs[2].PlanningOnly() || c.PlanningOnly() {
		t.Errorf("planning only: %v %v", cs[2].PlanningOnly(), c.PlanningOnly())
	}
}

// A hostile log yields what parses, bounded, and never panics: cut short anywhere, a huge
// subject, control characters, a commit with more files than kept, garbage.
func TestParseLogHostile(t *testing.T) {
	h := strings.Repeat("d", 40)
	full := string(logOf(rec(h, 1, "", "feat(01-01): \x1b[31mred\x1b[0m "+strings.Repeat("x", 5000), "M", "a", "M", "b")))
	for i := range len(full) {
		_ = ParseLog([]byte(full[:i]))
	}
	cs := ParseLog([]byte(full))
	if len(cs) != 1 || len(cs[0].Subject) > MaxSubject || strings.ContainsRune(cs[0].Subject, '\x1b') {
		t.Fatalf("%+v", cs)
	}
	var files []string
	for range MaxFiles + 5 {
		files = append(files, "M", "f")
	}
	cs = ParseLog(logOf(rec(h, 1, "", "x", files...)))
	if len(cs) != 1 || len(cs[0].Files) != MaxFiles || !cs[0].FilesCut {
		t.Errorf("files: %d cut %v", len(cs[0].Files), cs[0].FilesCut)
	}
	for _, garbage := range []string{"\x1e\x00", "\x1enothex 1\x1fs\x00", "\x1e" + h + " -5\x1fs\x00", "\x1e" + h + " 1\x1fs\x00\nnot a status\x00x\x00", "\x1e\x1e\x1e"} {
		_ = ParseLog([]byte(garbage))
	}
	var many strings.Builder
	for range MaxCommits + 10 {
		many.WriteString(rec(h, 1, "", "s"))
	}
	if n := len(ParseLog([]byte(many.String()))); n != MaxCommits {
		t.Errorf("%d commits", n)
	}
}

func TestParseStatus(t *testing.T) {
	out := []byte(" M src/a.ts\x00?? src/new.ts\x00M  staged.go\x00D  gone.go\x00bad\x00")
	got := ParseStatus(out)
	want := []Change{{'M', "src/a.ts"}, {'A', "src/new.ts"}, {'M', "staged.go"}, {'D', "gone.go"}}
	if len(got) != len(want) {
		t.Fatalf("%+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestHandoffJSON(t *testing.T) {
	h, ok := ParseHandoffJSON([]byte(`{"version":"1.0","timestamp":"2026-08-13T08:37:15.000Z","phase":"58","plan":1,"task":"3","total_tasks":3,"status":"paused",
	"blockers":[{"description":"backend hangs","type":"technical","workaround":"switch pooler"},"plain text"],
	"human_actions_pending":[{"action":"approve the schema","context":"db","blocking":true}],
	"uncommitted_files":["src/a.go", {"path":"src/b.go"}, 7],
	"next_action":"finish task 3\nthen write the SUMMARY","context_notes":{"deep":[[[1]]]}}`))
	if !ok {
		t.Fatal("not read")
	}
	if h.Phase != "58" || h.Plan != "1" || h.Task != 3 || h.Total != 3 || h.Status != "paused" || !h.Time.Equal(time.Date(2026, 8, 13, 8, 37, 15, 0, time.UTC)) {
		t.Errorf("%+v", h)
	}
	if h.NextAction != "finish task 3 then write the SUMMARY" {
		t.Errorf("next %q", h.NextAction)
	}
	if len(h.Blockers) != 2 || h.Blockers[0] != "backend hangs — switch pooler" || h.Blockers[1] != "plain text" {
		t.Errorf("blockers %q", h.Blockers)
	}
	if len(h.HumanActions) != 1 || h.HumanActions[0] != "approve the schema — db" {
		t.Errorf("human %q", h.HumanActions)
	}
	if strings.Join(h.Uncommitted, ",") != "src/a.go,src/b.go,7" {
		t.Errorf("uncommitted %q", h.Uncommitted)
	}
	for _, bad := range []string{`[]`, `null`, `{"task":{"a":1},"phase":[1],"blockers":"x","timestamp":5}`, strings.Repeat("[", 100000), `{"a":` + strings.Repeat(`[`, 5000) + `}`} {
		h, _ := ParseHandoffJSON([]byte(bad))
		if h.Task != 0 || h.Phase != "" || len(h.Blockers) != 0 {
			t.Errorf("%.40s: %+v", bad, h)
		}
	}
	if _, ok := ParseHandoffJSON([]byte(`{"x":"` + strings.Repeat("y", MaxHandoffSize) + `"}`)); ok {
		t.Error("a huge file is read")
	}
}

func TestContinueHere(t *testing.T) {
	h, ok := ParseContinueHere([]byte("---\r\nphase: 02-sentinel-data-access\r\ntask: 3\r\ntotal_tasks: 7 tests\r\nstatus: in_progress\r\nlast_updated: 2026-02-19T09:28:45Z\r\n---\r\n\r\n<current_state>\r\nRunning\r\n</current_state>\r\n\r\n<next_action>\r\nStart with: test 3\r\n</next_action>\r\n"))
	if !ok || h.Phase != "02-sentinel-data-access" || h.Task != 3 || h.Total != 7 || h.Status != "in_progress" || h.NextAction != "Start with: test 3" || h.Time.IsZero() {
		t.Errorf("%+v", h)
	}
	h, ok = ParseContinueHere([]byte("---\nphase: 4\n---\n# Handoff\n\n## Next Action\n\nRun the migration.\n\n## Blockers\n\nNone\n"))
	if !ok || h.NextAction != "Run the migration." || len(h.Blockers) != 0 {
		t.Errorf("%+v", h)
	}
	if _, ok := ParseContinueHere([]byte("# no front matter\n")); ok {
		t.Error("read without front matter")
	}
}
