//go:build !windows

package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

// TestParallelMarksJournal: 50 gsd mark processes at once on one session record 50 mark events,
// one per task, with strictly increasing sequence numbers and no duplicates, and the journal
// replays to exactly the session on disk.
// markedTooRe is mark-in-progress's warning about other tasks in progress.
var markedTooRe = regexp.MustCompile(`gsd: warning: tasks? [0-9, and]+(?:and \d+ more )?(?:is|are) in progress too: [^\n]*\n`)

func TestParallelMarksJournal(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	const procs = 50
	root, session := raceProject(t, procs)
	home := t.TempDir()
	// Start the history with a bootstrap, as gsd hydrate or gsd start would.
	if err := os.Remove(session); err != nil {
		t.Fatal(err)
	}
	start := exec.Command(bin, "-C", root, "start")
	start.Env = gsdEnv(home)
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("gsd start: %v %s", err, out)
	}
	var wg sync.WaitGroup
	errs := make(chan string, procs)
	for i := 1; i <= procs; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := "mark-complete"
			if i%2 == 0 {
				st = "mark-in-progress"
			}
			cmd := exec.Command(bin, "-C", root, st, fmt.Sprint(i))
			cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=60s")
			// A journal repaired or skipped is a warning; tasks in progress side by side, as these
			// marks leave them, is the one warning expected.
			if out, err := cmd.CombinedOutput(); err != nil || bytes.Contains(markedTooRe.ReplaceAll(out, nil), []byte("warning")) {
				errs <- fmt.Sprintf("gsd %s %d: %v: %s", st, i, err, out)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	data, err := os.ReadFile(filepath.Join(filepath.Dir(session), journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	evs, probs := journal.Parse(data)
	if len(probs) > 0 {
		t.Fatalf("journal lines skipped: %v", probs)
	}
	marks := map[int]int{}
	for i, ev := range evs {
		if ev.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: sequence numbers must be 1, 2, 3, ... without gaps or duplicates", i, ev.Seq)
		}
		if ev.Type == journal.Mark {
			marks[ev.Task]++
		}
	}
	if len(marks) != procs {
		t.Errorf("%d tasks have mark events, want %d", len(marks), procs)
	}
	for task, n := range marks {
		if n != 1 {
			t.Errorf("task %d has %d mark events, want 1", task, n)
		}
	}
	if evs[0].Type != journal.Bootstrap || len(evs) != procs+1 {
		var types []string
		for _, ev := range evs {
			types = append(types, ev.Type)
		}
		t.Errorf("events: %s; want a bootstrap and %d marks", strings.Join(types, " "), procs)
	}
	st, err := journal.Replay(evs, nil)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := os.ReadFile(session)
	if err != nil {
		t.Fatal(err)
	}
	if !st.Exists || !bytes.Equal(st.Session, cur) {
		t.Fatalf("the journal replays to\n%s\nbut the session is\n%s", st.Session, cur)
	}
}

// gsdIn runs gsd in the project root with env, failing the test unless it exits 0.
func gsdIn(t *testing.T, bin, root string, env []string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-C", root}, args...)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gsd %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
}

// TestWriteKilledBeforeItsEventReconciles: a write killed after it replaced the session and
// before it appended its event leaves the session ahead of the journal; the next command that
// writes catches the journal up even when it has nothing to write itself (a mark of the status
// the task already has, a restore of the session as it is), so that the journal replays to
// the session on disk. That moment, made by hand here, is where a random kill once left the
// journal at task 1 pending with the session at complete.
func TestWriteKilledBeforeItsEventReconciles(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	root, session := raceProject(t, 3)
	env := gsdEnv(t.TempDir())
	gsd := gsdIn(t, bin, root, env)
	replaysTo := func(what string) {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(filepath.Dir(session), journal.FileName))
		if err != nil {
			t.Fatal(err)
		}
		evs, _ := journal.Parse(data)
		st, err := journal.Replay(evs, nil)
		cur, _ := os.ReadFile(session)
		if err != nil || !bytes.Equal(st.Session, cur) {
			t.Errorf("%s: the journal replays to\n%s\n(%v) but the session is\n%s", what, st.Session, err, cur)
		}
	}
	gsd("mark-in-progress", "1")
	gsd("snapshot")
	// mark-complete 1, killed after the session was replaced, before its event.
	src, _ := os.ReadFile(session)
	done, err := planfile.SetStatus(src, 1, planfile.Complete)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, session, string(done))
	gsd("mark-complete", "1") // nothing to change
	replaysTo("a mark of the status the task has")
	// restore, killed after the session was replaced, before its events.
	snap, _ := os.ReadFile(filepath.Join(filepath.Dir(session), "current-plan.20260203100000.manual"))
	writeFile(t, session, string(snap))
	gsd("restore", "current-plan.20260203100000.manual") // the session already is the snapshot
	replaysTo("a restore of the session as it is")
}

// TestKilledWritesReconcile: marks, starts, snapshots and restores SIGKILLed at random points leave a journal that,
// once the next write has run, replays to exactly the session on disk: every write is either in
// the journal or reconciled by the next one, and a torn line is skipped, never fatal.
func TestKilledWritesReconcile(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	const n = 10
	// At least runs writes, and until minKilled of them were killed (at most maxRuns): how
	// long a write takes depends on the machine's load, which the test does not control.
	const runs, minKilled, maxRuns = 60, 30, 600
	root, session := raceProject(t, n)
	home := t.TempDir()
	env := gsdEnv(home)
	gsd := gsdIn(t, bin, root, env)
	gsd("mark-in-progress", "1")
	gsd("snapshot") // current-plan.20260203100000.manual, which the restores below bring back
	life := time.Hour
	for range 3 {
		t0 := time.Now()
		gsd("mark-pending", "1")
		gsd("mark-in-progress", "1")
		life = min(life, time.Since(t0)/2)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	killed := 0
	var kills []string // what was killed, and when, for a failure to tell
	i := 0
	for ; i < maxRuns && (i < runs || killed < minKilled); i++ {
		args := []string{"-C", root, []string{"mark-complete", "mark-pending", "mark-in-progress"}[rng.IntN(3)], fmt.Sprint(1 + rng.IntN(n))}
		switch i % 8 {
		case 3:
			args = []string{"-C", root, "snapshot"}
		case 5:
			args = []string{"-C", root, "restore", "current-plan.20260203100000.manual"}
		case 7:
			args = []string{"-C", root, "start", "--force"}
		}
		d := time.Duration(rng.Int64N(int64(life) * 3 / 2))
		if killAfter(t, bin, env, args, d) == nil {
			killed++
			kills = append(kills, fmt.Sprintf("run %d: gsd %s killed after %v", i, strings.Join(args[2:], " "), d))
		} else {
			life = max(life*7/8, time.Millisecond) // it finished first: aim a little earlier
		}
	}
	// The next write notices whatever the kills left, even when it has nothing to write.
	gsd("mark-complete", "1")
	data, err := os.ReadFile(filepath.Join(filepath.Dir(session), journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	evs, probs := journal.Parse(data)
	for _, p := range probs {
		// A kill mid-append can only tear a line, which the next append ends with a newline.
		if !strings.Contains(p.Message, "not a journal event") {
			t.Errorf("unexpected journal problem: %v", p)
		}
	}
	for i := 1; i < len(evs); i++ {
		if evs[i].Seq <= evs[i-1].Seq {
			t.Fatalf("seq %d follows seq %d", evs[i].Seq, evs[i-1].Seq)
		}
	}
	st, err := journal.Replay(evs, nil)
	if err != nil {
		t.Fatal(err)
	}
	cur, _ := os.ReadFile(session)
	if !st.Exists || !bytes.Equal(st.Session, cur) {
		t.Fatalf("after %d kills (%s) the journal replays to\n%s\nbut the session is\n%s\nthe journal:\n%s", killed, strings.Join(kills, "; "), st.Session, cur, data)
	}
	reconciled := 0
	for _, ev := range evs {
		if ev.Type == journal.Reconcile {
			reconciled++
		}
	}
	t.Logf("%d runs, %d killed, %d events (%d reconcile), %d torn lines", i, killed, len(evs), reconciled, len(probs))
	if killed == 0 {
		t.Error("no run was killed: the test proves nothing")
	}
}
