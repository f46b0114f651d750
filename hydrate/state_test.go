package hydrate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// pos3 are the values STATE.md should have in phase 3 of 3, its second plan of two, two
// plans of three done; pos3Lines the same without the milestone's counts, as hydrate checks.
var (
	pos3Lines = statemd.Values{
		Phase: "3", PhaseName: "Three", PhaseOf: 3, PlanNumber: 2, PlanDone: 1, PlanTotal: 2, Status: "In progress",
	}
	pos3 = func() statemd.Values {
		v := pos3Lines
		v.Percent, v.PercentKnown = 66, true
		v.TotalPhases, v.CompletedPhases, v.TotalPlans, v.CompletedPlans, v.CountsKnown = 2, 1, 3, 2, true
		return v
	}()
)

func TestRewriteState(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{
			name: "plain block, every other line kept",
			in: "# Project State\n\n## Current Position\n\nPhase: 2 of 3 (Two)\nPlan: 1 of 1 in current phase\nStatus: Ready to plan\n" +
				"Last activity: 2026-01-01 — something\n\nProgress: [██░░░░░░░░] 20%\n\n## Decisions\n\nPhase: not this one\n",
			want: "# Project State\n\n## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n" +
				"Last activity: 2026-01-01 — something\n\nProgress: [███████░░░] 66%\n\n## Decisions\n\nPhase: not this one\n",
		},
		{
			name: "CRLF and bold labels kept",
			in:   "## Current Position\r\n\r\n**Phase:** 1 of 3\r\n**Plan:** 1 of 1\r\nStatus:\tx\r\n",
			want: "## Current Position\r\n\r\n**Phase:** 3 of 3 (Three)\r\n**Plan:** 2 of 2 in current phase\r\nStatus:\tIn progress\r\nProgress: [███████░░░] 66%\r\n",
		},
		{
			name: "frontmatter progress numbers",
			in: "---\ngsd_state_version: 1.0\nstatus: active\nprogress:\n  total_phases: 5\n  completed_phases: 4  # kept\n  total_plans: 8\n  completed_plans: 9\n  percent: 100\n---\n\n" +
				"## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n\nProgress: [███████░░░] 66%\n",
			want: "---\ngsd_state_version: 1.0\nstatus: active\nprogress:\n  total_phases: 2\n  completed_phases: 1  # kept\n  total_plans: 3\n  completed_plans: 2\n  percent: 66\n---\n\n" +
				"## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n\nProgress: [███████░░░] 66%\n",
		},
		{
			// Issue 8: added lines were glued to the prose that follows; a blank line keeps them apart.
			name: "prose only: fields added after the heading",
			in:   "## Current Position\n\nAll good, shipping soon.\n\n## Next\n",
			want: "## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\nProgress: [███████░░░] 66%\n\nAll good, shipping soon.\n\n## Next\n",
		},
		{
			name: "no section, no final newline",
			in:   "# Project State",
			want: "# Project State\n\n## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n\nProgress: [███████░░░] 66%\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(rewriteState([]byte(tt.in), pos3))
			if got != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
			if again := string(rewriteState([]byte(got), pos3)); again != got {
				t.Errorf("not idempotent:\n%q", again)
			}
			if d := compareState([]byte(got), pos3); len(d) != 0 {
				t.Errorf("rewritten file still differs: %+v", d)
			}
		})
	}
}

func TestCompareState(t *testing.T) {
	src := "## Current Position\n\nPhase: 03 of 3 (Three) — busy\nPlan: 1 of 2 in current phase (+ 1 FIX plan)\nStatus: whatever prose\n\nProgress: ██████ 66%\n"
	if d := compareState([]byte(src), pos3); len(d) != 0 {
		t.Errorf("agreeing file (03 = 3, plan 1 = the last completed) reported: %+v", d)
	}
	src = "## Current Position\n\nPhase: 2 of 3 (Two)\nPlan: 2 of 2 in current phase\n\nProgress: 40%\n"
	// A check lists exactly what a write changes (issue 8): the phase moved, so the missing
	// Status line is added too.
	d := compareState([]byte(src), pos3)
	if len(d) != 3 || d[0].Field != "phase" || d[0].Line != 3 || d[1].Field != "status" || d[1].Line != 5 ||
		d[1].Says != nil || d[1].SaysText() != "no status line" || d[2].Field != "progress" || d[2].Line != 6 {
		t.Errorf("differences = %+v", d)
	}
	if d := compareState([]byte(src), pos3Lines); len(d) != 2 {
		t.Errorf("without progress: %+v", d)
	}
}

func TestCompareStateVariants(t *testing.T) {
	// "**Current Phase:** Phase 3 — Three" and bold fields, as newer STATE.md files write them,
	// and a frontmatter whose progress numbers are stale.
	src := "---\nprogress:\n  total_phases: 2\n  completed_phases: 1\n  total_plans: 3\n  completed_plans: 9\n  percent: 66\n---\n" +
		"## Current Position\n\n**Status:** Ready\n**Current Phase:** Phase 3 — Three\n**Current Plan:** 2 of 2\n**Progress:** 66%\n"
	d := compareState([]byte(src), pos3)
	if len(d) != 1 || d[0].Field != "frontmatter" || d[0].Line != 6 || d[0].SaysText() != "completed_plans: 9" || d[0].Derived != "completed_plans: 2" {
		t.Errorf("differences = %+v", d)
	}
	out := string(rewriteState([]byte(src), pos3))
	// Lines that agree stay as written (issue 8: never a poorer line over a richer one).
	if !strings.Contains(out, "**Current Phase:** Phase 3 — Three\n**Current Plan:** 2 of 2\n") ||
		!strings.Contains(out, "  completed_plans: 2\n") {
		t.Errorf("rewritten:\n%s", out)
	}
}

// The report carries the values roadmap derives (roadmap.TestStateValues), with the active plan.
func TestStateReport(t *testing.T) {
	e := project(t, baseFiles())
	sp, err := e.Project().StateReport()
	if err != nil {
		t.Fatal(err)
	}
	if v := sp.Values; v.Phase != "3" || v.PlanNumber != 2 || v.Percent != 50 || sp.ActivePlan != ".planning/phases/03-three/03-02-PLAN.md" {
		t.Errorf("values %+v, active plan %q", v, sp.ActivePlan)
	}
	if sp.Exists || sp.Agrees {
		t.Errorf("no STATE.md: exists %v agrees %v", sp.Exists, sp.Agrees)
	}
}

func TestWriteStateCreatesAndLocks(t *testing.T) {
	e := project(t, baseFiles())
	sp, changed, err := e.Project().WriteState()
	if err != nil || !changed || !sp.Agrees {
		t.Fatalf("WriteState = %+v, %v, %v", sp, changed, err)
	}
	b, err := os.ReadFile(filepath.Join(e.Root, ".planning", "STATE.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "Phase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n") ||
		!strings.HasPrefix(string(b), "# Project State\n") {
		t.Errorf("created STATE.md:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(e.Root, ".planning", "STATE.md.lock")); !os.IsNotExist(err) {
		t.Errorf("lock left behind: %v", err)
	}
	if _, changed, err := e.Project().WriteState(); err != nil || changed {
		t.Errorf("second WriteState changed %v, %v", changed, err)
	}

	// A fresh lock held by someone else: wait, then give up without writing.
	lock := filepath.Join(e.Root, ".planning", "STATE.md.lock")
	if err := os.WriteFile(lock, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(e.Root, ".planning", "STATE.md"), []byte("## Current Position\n\nPhase: 1\n"), 0o644)
	e.lockTimeout = 50 * time.Millisecond
	if _, _, err := e.Project().WriteState(); err == nil || !strings.Contains(err.Error(), "STATE.md.lock: held by another process") {
		t.Errorf("WriteState under a fresh lock = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(e.Root, ".planning", "STATE.md")); string(b) != "## Current Position\n\nPhase: 1\n" {
		t.Errorf("STATE.md changed under someone else's lock:\n%s", b)
	}
	// A lock older than StateLockStale is reaped.
	old := time.Now().Add(-StateLockStale - time.Second)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	if _, changed, err := e.Project().WriteState(); err != nil || !changed {
		t.Errorf("WriteState over a stale lock = %v, %v", changed, err)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Errorf("stale lock not removed: %v", err)
	}
}

// deref renders differences with what they say, not where it is kept.
func deref(ds []Difference) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%s:%s", d.Field, d.Line, d.SaysText(), d.Derived))
	}
	return out
}

func TestHydrateReportsAndSyncsState(t *testing.T) {
	files := baseFiles()
	files[".planning/STATE.md"] = "# State\n\n## Current Position\n\nPhase: 1 of 3 (One)\nPlan: 1 of 1 in current phase\nStatus: done\n\nProgress: [░░░░░░░░░░] 0%\n"
	e := project(t, files)
	res, err := e.Hydrate(Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The drift is what a write of the cheap position changes (issue 8): the Phase line, rendered
	// as gsd state renders it (never "3 of 0"), the Plan line and the Status line; exactly what
	// gsd state reports, but for the milestone's counts, which the cheap check does not load.
	if len(res.StateDrift) != 3 || res.StateDrift[0].Line != 5 || res.StateDrift[0].Derived != "Phase: 3 of 3 (Three)" ||
		res.StateDrift[1].Field != "plan" || res.StateDrift[2].Derived != "Status: In progress" || res.StateSynced {
		t.Errorf("drift = %+v synced %v", res.StateDrift, res.StateSynced)
	}
	report, err := e.Project().StateReport()
	if err != nil {
		t.Fatal(err)
	}
	var full []Difference
	for _, d := range report.Differences {
		if d.Field != "progress" && d.Field != "frontmatter" {
			full = append(full, d)
		}
	}
	if fmt.Sprint(deref(full)) != fmt.Sprint(deref(res.StateDrift)) {
		t.Errorf("hydrate's drift %v, gsd state's %v", deref(res.StateDrift), deref(full))
	}
	res, err = e.Hydrate(Options{SyncState: true})
	if err != nil || !res.StateSynced || len(res.StateDrift) != 0 {
		t.Fatalf("sync: %+v, %v", res, err)
	}
	b, _ := os.ReadFile(filepath.Join(e.Root, ".planning", "STATE.md"))
	want := "# State\n\n## Current Position\n\nPhase: 3 of 3 (Three)\nPlan: 2 of 2 in current phase\nStatus: In progress\n\nProgress: [█████░░░░░] 50%\n"
	if string(b) != want {
		t.Errorf("STATE.md:\n%s\nwant:\n%s", b, want)
	}

	// Only the milestone's percent is stale: hydrate's cheap check cannot see it, and says
	// nothing; --sync-state writes it, as gsd state --write would.
	stale := strings.Replace(want, "50%", "40%", 1)
	if err := os.WriteFile(filepath.Join(e.Root, ".planning", "STATE.md"), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	e.pos = nil
	if res, err = e.Hydrate(Options{}); err != nil || len(res.StateDrift) != 0 {
		t.Fatalf("percent only: %+v, %v", res, err)
	}
	if res, err = e.Hydrate(Options{SyncState: true}); err != nil || !res.StateSynced {
		t.Fatalf("sync of the percent: %+v, %v", res, err)
	}
	if b, _ = os.ReadFile(filepath.Join(e.Root, ".planning", "STATE.md")); string(b) != want {
		t.Errorf("STATE.md after the percent's sync:\n%s", b)
	}
	if res, err := e.Hydrate(Options{}); err != nil || len(res.StateDrift) != 0 {
		t.Errorf("after sync: %+v, %v", res.StateDrift, err)
	}
}

func TestProgressSessions(t *testing.T) {
	files := baseFiles()
	e := project(t, files)
	if _, err := e.Start(""); err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(e.Root, ".planning", "sessions", "bob", SessionFileName)
	os.MkdirAll(filepath.Dir(corrupt), 0o755)
	os.WriteFile(corrupt, []byte("not a session\n"), 0o644)
	old := t0.Add(-10 * 24 * time.Hour)
	os.Chtimes(corrupt, old, old)

	r, err := e.Project().Progress()
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Sessions) != 2 {
		t.Fatalf("sessions = %+v", r.Sessions)
	}
	ann, bob := r.Sessions[0], r.Sessions[1]
	if ann.User != "ann" || ann.State != TeamActive || ann.Total != 3 || ann.ResumeTask != 1 || ann.Plan != ".planning/phases/03-three/03-02-PLAN.md" {
		t.Errorf("ann = %+v", ann)
	}
	if bob.State != TeamCorrupt || !bob.LastActivity.Equal(old) || bob.ActivityFrom != "file" {
		t.Errorf("bob = %+v", bob)
	}
	var msgs []string
	for _, p := range r.Problems {
		if strings.Contains(p.File, "sessions") {
			msgs = append(msgs, string(p.Severity)+": "+p.Message)
		}
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, "warning: corrupt session") || strings.Contains(got, "idle") {
		t.Errorf("session problems:\n%s", got)
	}
	if r.Errors() != 0 {
		t.Errorf("errors: %+v", r.Problems)
	}
}

func TestStateRefusesBinary(t *testing.T) {
	files := baseFiles()
	files[".planning/STATE.md"] = "## Current Position\x00\x01"
	e := project(t, files)
	if _, err := e.Project().StateReport(); err == nil || !strings.Contains(err.Error(), ".planning/STATE.md: file is binary") {
		t.Errorf("State = %v", err)
	}
	if _, _, err := e.Project().WriteState(); err == nil {
		t.Error("WriteState wrote over a binary STATE.md")
	}
	// hydrate is not stopped by it.
	if _, err := e.Hydrate(Options{}); err != nil {
		t.Errorf("Hydrate = %v", err)
	}
}

// FuzzRewriteState: rewriting never panics, is idempotent, leaves a file that agrees with the
// position, and keeps every line before the Current Position section that is not frontmatter.
func FuzzRewriteState(f *testing.F) {
	for _, s := range []string{
		"", "# Project State", "## Current Position\n\nPhase: 1\n",
		"---\nprogress:\n  percent: 5\n---\n## Current Position\r\n**Plan:** 1 of 2\r\n",
		"## Current Position\n## Current Position\nStatus: x", "\ufeff## Current Position\nProgress: 5%",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		out := rewriteState(src, pos3)
		if again := rewriteState(out, pos3); string(again) != string(out) {
			t.Fatalf("not idempotent:\n%q\n%q", out, again)
		}
		if d := compareState(out, pos3); len(d) != 0 {
			t.Fatalf("rewritten file disagrees: %+v\n%q", d, out)
		}
	})
}
