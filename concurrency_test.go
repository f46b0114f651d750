//go:build !windows

package main

// Process-level proofs of the write guarantees: many gsd processes at once lose no update, a
// bounded lock wait ends in a clear error, a killed holder frees the lock at once, and SIGKILL at
// any moment of a write leaves the old or the new session, never a torn one. The processes are
// gsd as users get it (gsdBin).

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// processTest skips t under -short: it starts gsd processes, many times over, and takes seconds;
// make test (go test without -short) runs it.
func processTest(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts gsd processes: go test without -short runs it")
	}
}

// gsdEnv is a clean environment for gsd processes: no user git config, a fixed clock.
func gsdEnv(home string, extra ...string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES=" + filepath.Dir(home),
		"SOURCE_DATE_EPOCH=1770112800",
		"GSD_USER=ann",
	}
	if v, ok := os.LookupEnv("GORACE"); ok {
		env = append(env, "GORACE="+v)
	}
	return append(env, extra...)
}

// raceProject makes a project with a plan of n tasks and ann's session bootstrapped from it,
// outside any git repository. It returns the root and the session file.
func raceProject(t testing.TB, n int) (root, session string) { return raceProjectOf(t, n, false) }

// raceProjectOf is raceProject with a plan of <task> elements, or, with markdown, of "### Task N"
// sections (each session task a <!-- gsd:task status="..." --> line under its heading).
func raceProjectOf(t testing.TB, n int, markdown bool) (root, session string) {
	t.Helper()
	root = t.TempDir()
	plan := firstPlan
	var b strings.Builder
	if markdown {
		b.WriteString("---\nphase: 01\n---\n\n## Tasks\n\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "### Task %d: step %d\n\nDo `%d` & more.\n\n#### Notes\n\n- a < b\n\n", i, i, i)
		}
		b.WriteString("## Verification\n\nAll done.\n")
	} else {
		b.WriteString("---\nphase: 01\n---\n\n<tasks>\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "<task type=\"auto\">\n  <name>Task %d</name>\n  <action>step `%d` & more</action>\n</task>\n", i, i)
		}
		b.WriteString("</tasks>\n")
	}
	writeFile(t, filepath.Join(root, plan), b.String())
	// A second plan of the same tasks, for a start that replaces the session with another plan's
	// (a start of the plan the session follows writes nothing).
	writeFile(t, filepath.Join(root, otherPlan), b.String())
	writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), "| Phase | Plans Complete | Status |\n|---|---|---|\n| 1. X | 0/1 | In progress |\n")
	data, err := planfile.Bootstrap([]byte(b.String()), "ann", plan, time.Unix(1770112800, 0))
	if err != nil {
		t.Fatal(err)
	}
	session = filepath.Join(root, ".planning/sessions/ann/current-plan.md")
	writeFile(t, session, string(data))
	return root, session
}

// The plans of raceProject: the session follows firstPlan, the active plan; otherPlan has the
// same tasks.
const (
	firstPlan = ".planning/phases/01-x/01-01-PLAN.md"
	otherPlan = ".planning/phases/01-x/01-02-PLAN.md"
)

// startArgs is a gsd start that replaces the session cur with a fresh one of the other plan, and
// the session it writes (gsd start of a plan other than the active one records the decision).
func startArgs(t testing.TB, root string, cur []byte) (args []string, fresh []byte) {
	t.Helper()
	plan := otherPlan
	if planfile.ReadHeader(cur).Plan == otherPlan {
		plan = firstPlan
	}
	src, err := os.ReadFile(filepath.Join(root, plan))
	if err != nil {
		t.Fatal(err)
	}
	if fresh, err = planfile.Bootstrap(src, "ann", plan, time.Unix(1770112800, 0)); err != nil {
		t.Fatal(err)
	}
	if plan == otherPlan {
		fresh = planfile.MarkChosen(fresh)
	}
	return []string{"-C", root, "start", plan}, fresh
}

// statuses scans a session file and returns its statuses, failing on anything that is not a
// whole, valid session of n tasks.
func statuses(t testing.TB, path string, n int) []planfile.Status {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := planfile.Scan(src)
	sts, err := p.Statuses()
	if err != nil || p.Err != nil || len(p.CorruptReasons()) > 0 || len(p.Tasks) != n {
		t.Fatalf("%s is not a valid session of %d tasks: %v %v %v (%d tasks)", path, n, err, p.Err, p.CorruptReasons(), len(p.Tasks))
	}
	return sts
}

// tempFiles lists atomicfile temporary files left in dir.
func tempFiles(t testing.TB, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if atomicfile.IsTemp(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// ageTemps makes the temporary files in dir older than atomicfile.TempGrace, as if that much time
// had passed since the writer that left them was killed.
func ageTemps(t testing.TB, dir string) {
	t.Helper()
	old := time.Now().Add(-atomicfile.TempGrace - time.Minute)
	for _, name := range tempFiles(t, dir) {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// TestParallelMarksLoseNothing: 50 gsd processes started at once, each marking a different task of
// the same session, in 20 repetitions; every update is there afterwards. Some repetitions also
// race hydrate (which reads without the lock and must never see a torn file) against the marks.
func TestParallelMarksLoseNothing(t *testing.T) {
	processTest(t)
	parallelMarks(t, gsdBin(t), 20, false)
}

// TestParallelMarksOnMarkdownPlanLoseNothing: the same, on a session of "### Task N" sections,
// whose statuses are marker lines under the headings.
func TestParallelMarksOnMarkdownPlanLoseNothing(t *testing.T) {
	processTest(t)
	parallelMarks(t, gsdBin(t), 6, true)
}

func parallelMarks(t *testing.T, bin string, reps int, markdown bool) {
	const procs = 50
	start := time.Now()
	for rep := range reps {
		root, session := raceProjectOf(t, procs, markdown)
		home := t.TempDir()
		var wg sync.WaitGroup
		errs := make(chan string, 2*procs)
		run := func(args ...string) {
			defer wg.Done()
			cmd := exec.Command(bin, append([]string{"-C", root}, args...)...)
			cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=60s")
			if out, err := cmd.CombinedOutput(); err != nil {
				errs <- fmt.Sprintf("gsd %s: %v: %s", strings.Join(args, " "), err, out)
			}
		}
		for i := 1; i <= procs; i++ {
			wg.Add(1)
			st := "mark-complete"
			if i%2 == 0 {
				st = "mark-in-progress"
			}
			go run(st, fmt.Sprint(i))
			if rep%2 == 1 && i%10 == 0 {
				wg.Add(1)
				go run("hydrate", "--porcelain")
			}
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Errorf("rep %d: %s", rep, e)
		}
		for i, st := range statuses(t, session, procs) {
			want := planfile.Complete
			if (i+1)%2 == 0 {
				want = planfile.InProgress
			}
			if st != want {
				t.Fatalf("rep %d: task %d is %s, want %s: an update was lost", rep, i+1, st, want)
			}
		}
		if tmp := tempFiles(t, filepath.Dir(session)); len(tmp) > 0 {
			t.Fatalf("rep %d: temporary files left: %v", rep, tmp)
		}
	}
	t.Logf("%d repetitions of %d processes in %v", reps, procs, time.Since(start))
}

// TestStartRacingMarksLosesNothing: gsd start (which archives the session and bootstraps a fresh
// one) racing 40 marks. A mark lands either in a session that start then archives, or in the
// fresh one: every successful mark is in some archive or in the current session, and every file
// is a whole session.
func TestStartRacingMarksLosesNothing(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	const procs = 40
	reps := 5
	for rep := range reps {
		root, session := raceProject(t, procs)
		home := t.TempDir()
		var wg sync.WaitGroup
		var mu sync.Mutex
		marked := map[int]bool{}
		for i := 1; i <= procs; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, "-C", root, "mark-complete", fmt.Sprint(i))
				cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=60s")
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Errorf("mark %d: %v %s", i, err, out)
					return
				}
				mu.Lock()
				marked[i] = true
				mu.Unlock()
			}()
			if i%10 == 5 {
				// Starts of the other plan and back: each replaces a session of the plan it
				// does not name (or, the session already following it, writes nothing).
				plan := []string{otherPlan, firstPlan}[i/10%2]
				wg.Add(1)
				go func() {
					defer wg.Done()
					cmd := exec.Command(bin, "-C", root, "start", plan)
					cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=60s")
					if out, err := cmd.CombinedOutput(); err != nil {
						t.Errorf("start: %v %s", err, out)
					}
				}()
			}
		}
		wg.Wait()
		dir := filepath.Dir(session)
		files, _ := filepath.Glob(filepath.Join(dir, "current-plan.*.stale"))
		// One per start, except that a start finding the session exactly as an earlier start
		// archived it (no mark landed between them) reuses that archive.
		if len(files) < 1 || len(files) > 4 {
			t.Errorf("rep %d: %d archives, want 1 to 4 (at most one per start): %v", rep, len(files), files)
		}
		files = append(files, session)
		seen := map[int]bool{}
		for _, f := range files {
			for i, st := range statuses(t, f, procs) {
				if st == planfile.Complete {
					seen[i+1] = true
				}
			}
		}
		for i := range marked {
			if !seen[i] {
				t.Errorf("rep %d: mark-complete %d succeeded but is in no archive and not in the session", rep, i)
			}
		}
		if tmp := tempFiles(t, dir); len(tmp) > 0 {
			t.Fatalf("rep %d: temporary files left: %v", rep, tmp)
		}
	}
}

// TestLockWaitIsBounded: while another process holds the lock, gsd gives up after
// GSD_LOCK_TIMEOUT with one clear line, exit 1, and the session untouched; once the holder is
// killed with SIGKILL, the next gsd gets the lock at once.
func TestLockWaitIsBounded(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	root, session := raceProject(t, 3)
	home := t.TempDir()
	before, _ := os.ReadFile(session)
	lock := filepath.Join(root, ".planning")

	// The holder is another process (flock excludes per open file, but a process of our own makes
	// the SIGKILL part honest): gsd itself, stopped with SIGSTOP while it holds the lock would be
	// racy, so hold it from a shell-free helper: this test binary re-executed in holder mode.
	holder := exec.Command(os.Args[0], "-test.run=^TestLockHolderHelper$")
	holder.Env = append(os.Environ(), "GSD_TEST_HOLD_LOCK="+lock)
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = holder.Process.Kill(); _ = holder.Wait() }()
	buf := make([]byte, 6)
	if _, err := io.ReadFull(stdout, buf); err != nil || string(buf) != "locked" {
		t.Fatalf("holder: %q %v", buf, err)
	}

	// A wait that is not bounded shows as a kill after 20 s here, not as a stuck test run.
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-C", root, "mark-complete", "1")
	cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=300ms")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	t0 := time.Now()
	err = cmd.Run()
	waited := time.Since(t0)
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Fatalf("exit %d (%v), want 1; stderr %q", code, err, stderr.String())
	}
	want := "gsd: lock " + lock + ": locked by another gsd process (waited 300ms)\n"
	if stderr.String() != want {
		t.Errorf("stderr %q\nwant   %q", stderr.String(), want)
	}
	if waited < 300*time.Millisecond || waited > 10*time.Second {
		t.Errorf("gave up after %v", waited)
	}
	if after, _ := os.ReadFile(session); !bytes.Equal(before, after) {
		t.Error("session changed although the lock was never taken")
	}

	// A bad knob is a usage error.
	bad := exec.Command(bin, "-C", root, "mark-complete", "1")
	bad.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=soon")
	out, _ := bad.CombinedOutput()
	if code := bad.ProcessState.ExitCode(); code != 2 || !strings.HasPrefix(string(out), "gsd: GSD_LOCK_TIMEOUT: \"soon\" is not a duration") {
		t.Errorf("GSD_LOCK_TIMEOUT=soon: exit %d %q", code, out)
	}

	// SIGKILL: no chance to unlock; the kernel drops the lock with the process.
	if err := holder.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = holder.Wait()
	cmd = exec.Command(bin, "-C", root, "mark-complete", "1")
	cmd.Env = gsdEnv(home, "GSD_LOCK_TIMEOUT=30s")
	t0 = time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("after the holder was killed: %v %s", err, out)
	}
	// A lock that outlived its holder would make this wait the whole 30 s.
	if d := time.Since(t0); d > 10*time.Second {
		t.Errorf("took %v after the holder was killed", d)
	}
	if sts := statuses(t, session, 3); sts[0] != planfile.Complete {
		t.Errorf("task 1 is %s", sts[0])
	}
}

// TestLockHolderHelper is not a test: re-executed by TestLockWaitIsBounded with
// GSD_TEST_HOLD_LOCK set, it takes the lock, says so and waits to be killed.
func TestLockHolderHelper(t *testing.T) {
	path := os.Getenv("GSD_TEST_HOLD_LOCK")
	if path == "" {
		t.Skip("helper process only")
	}
	if _, err := atomicfile.LockDir(context.Background(), path, time.Second); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Print("locked")
	time.Sleep(time.Minute)
	os.Exit(0)
}

// TestKilledMidWrite: SIGKILL at random moments of hundreds of gsd mark runs. After every kill the
// session file is whole and equals either the content before that run or the one it was
// writing; a temporary file a kill leaves behind is removed by the next write.
func TestKilledMidWrite(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	const n = 20
	runs := 300
	root, session := raceProject(t, n)
	home := t.TempDir()
	dir := filepath.Dir(session)
	env := gsdEnv(home, "GSD_LOCK_TIMEOUT=10s")

	// How long one run takes (the fastest of a few), to spread the kills over its whole life.
	life := time.Hour
	for range 5 {
		t0 := time.Now()
		cmd := exec.Command(bin, "-C", root, "tasks")
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v %s", err, out)
		}
		life = min(life, time.Since(t0))
	}

	rng := rand.New(rand.NewPCG(1, 2))
	var killed, finished, torn, leftovers int
	cur, _ := os.ReadFile(session)
	history := map[string]bool{string(cur): true}
	statusesCycle := []planfile.Status{planfile.InProgress, planfile.Complete, planfile.Pending}
	for i := range runs {
		task := 1 + rng.IntN(n)
		st := statusesCycle[rng.IntN(len(statusesCycle))]
		args := []string{"-C", root, "mark-" + string(st), fmt.Sprint(task)}
		next, err := planfile.SetStatus(cur, task, st)
		if err == planfile.ErrUnchanged {
			next = cur
		} else if err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			// Every tenth run starts afresh from the other plan: archive, then replace.
			args, next = startArgs(t, root, cur)
		}
		history[string(next)] = true
		if killAfter(t, bin, env, args, time.Duration(rng.Int64N(int64(life)*3/2))) == nil {
			killed++
		} else {
			finished++
		}
		got, err := os.ReadFile(session)
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		switch {
		case bytes.Equal(got, cur):
		case bytes.Equal(got, next):
			cur = next
		default:
			torn++
			t.Fatalf("run %d (gsd %s): session is neither the old nor the new content:\n%s", i, strings.Join(args[2:], " "), got)
		}
		statuses(t, session, n)
		if len(tempFiles(t, dir)) > 0 {
			leftovers++
		}
	}
	// One start that is not killed, so that at least one archive is checked below however slow
	// the machine (a loaded one may kill every start before it archives).
	args, fresh := startArgs(t, root, cur)
	cmd0 := exec.Command(bin, args...)
	cmd0.Env = env
	if out, err := cmd0.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	history[string(fresh)] = true
	// One more run that completes cleans up what the kills left, once it is old enough not to be
	// a live writer's (atomicfile.TempGrace): age it rather than wait.
	ageTemps(t, dir)
	cmd := exec.Command(bin, "-C", root, "mark-in-progress", "1")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	cmd = exec.Command(bin, "-C", root, "mark-pending", "1")
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if tmp := tempFiles(t, dir); len(tmp) > 0 {
		t.Errorf("temporary files left after a clean run: %v", tmp)
	}
	// Every archive is a whole copy of some content the session had.
	archives, _ := filepath.Glob(filepath.Join(dir, "current-plan.*.stale"))
	for _, a := range archives {
		if b, err := os.ReadFile(a); err != nil || !history[string(b)] {
			t.Errorf("archive %s is not a whole earlier session (%v)", filepath.Base(a), err)
		}
	}
	if len(archives) == 0 {
		t.Error("no archive: the archives are untested")
	}
	stray, _ := filepath.Glob(filepath.Join(root, ".planning", "*"))
	for _, s := range stray {
		if base := filepath.Base(s); base != "ROADMAP.md" && base != "phases" && base != "sessions" {
			t.Errorf("unexpected file %s", s)
		}
	}
	t.Logf("%d runs (one run takes %v): %d killed, %d finished first, %d times a temporary file was left until the next write, %d archives", runs, life, killed, finished, leftovers, len(archives))
	if killed == 0 {
		t.Error("no run was killed: the test proves nothing")
	}
}

// git runs git in dir, failing the test on error.
func git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v %s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestWritersFindingGitDifferentlyShareOneLock: a GSD project in app/ inside the git repository
// mono/; marks of different tasks race, started in four ways that make git find a different
// repository or none: plainly, with GIT_DIR=mono/.git, with GIT_CEILING_DIRECTORIES=mono (no
// repository), and with GIT_DIR set to a linked worktree's git directory. Every mark that reported
// success is in the session, and gsd created no lock file anywhere: `git status` shows only the
// session itself.
func TestWritersFindingGitDifferentlyShareOneLock(t *testing.T) {
	processTest(t)
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed to build the repositories of this test:", err)
	}
	bin := gsdBin(t)
	const procs = 40
	reps := 4
	for rep := range reps {
		proj, _ := raceProject(t, procs)
		mono := t.TempDir()
		app := filepath.Join(mono, "app")
		if err := os.Rename(proj, app); err != nil {
			t.Fatal(err)
		}
		session := filepath.Join(app, ".planning/sessions/ann/current-plan.md")
		git(t, mono, "init", "-q", "-b", "main")
		git(t, mono, "add", "-A")
		git(t, mono, "commit", "-q", "-m", "project")
		wt := filepath.Join(t.TempDir(), "linked")
		git(t, mono, "worktree", "add", "-q", wt)
		linkedGitDir := strings.TrimSpace(git(t, wt, "rev-parse", "--absolute-git-dir"))
		home := t.TempDir()
		ways := [][]string{
			nil,
			{"GIT_DIR=" + filepath.Join(mono, ".git")},
			{"GIT_CEILING_DIRECTORIES=" + mono},
			{"GIT_DIR=" + linkedGitDir},
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		marked := map[int]bool{}
		for i := 1; i <= procs; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, "mark-complete", fmt.Sprint(i))
				cmd.Dir = app
				env := gsdEnv(home, "GSD_LOCK_TIMEOUT=60s")
				// gsdEnv's own ceiling (above HOME) does not stop discovery in mono.
				cmd.Env = append(env, ways[i%len(ways)]...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Errorf("rep %d: mark-complete %d (%v): %v %s", rep, i, ways[i%len(ways)], err, out)
					return
				}
				mu.Lock()
				marked[i] = true
				mu.Unlock()
			}()
		}
		wg.Wait()
		sts := statuses(t, session, procs)
		for i := range marked {
			if sts[i-1] != planfile.Complete {
				t.Errorf("rep %d: mark-complete %d reported success but task %d is %s: an update was lost", rep, i, i, sts[i-1])
			}
		}
		if len(marked) != procs {
			t.Errorf("rep %d: %d of %d marks succeeded", rep, len(marked), procs)
		}
		// The session and its journal (the session's history, meant to be committed with it),
		// nothing else: no lock file, no temporary file.
		want := " M app/.planning/sessions/ann/current-plan.md\n?? app/.planning/sessions/ann/journal.jsonl\n"
		if st := git(t, mono, "status", "--porcelain", "--untracked-files=all", "--ignored"); st != want {
			t.Errorf("rep %d: git status shows more than the session and its journal:\n%s", rep, st)
		}
		for _, gitDir := range []string{filepath.Join(mono, ".git"), linkedGitDir} {
			if _, err := os.Lstat(filepath.Join(gitDir, "gsd.lock")); err == nil {
				t.Errorf("rep %d: a lock file in %s", rep, gitDir)
			}
		}
		if tmp := tempFiles(t, filepath.Dir(session)); len(tmp) > 0 {
			t.Errorf("rep %d: temporary files left: %v", rep, tmp)
		}
	}
}

// TestKilledStateAndSettingsWriters: SIGKILL at random moments of gsd state --write (STATE.md,
// under STATE.md.lock) and gsd hook install/uninstall (.claude/settings.json). After every kill
// each file is whole, its old or its new content; a STATE.md.lock the kill left is taken over at
// once by the next writer (its holder is dead), never waited out; and once old enough, the
// temporary files the kills left are removed by the next writer of that file.
func TestKilledStateAndSettingsWriters(t *testing.T) {
	processTest(t)
	bin := gsdBin(t)
	runs := 120
	root, _ := raceProject(t, 3)
	home := t.TempDir()
	// A lock left by a killed writer must be taken over at once: a 10 s wait would fail here.
	env := gsdEnv(home, "GSD_LOCK_TIMEOUT=2s")
	state := filepath.Join(root, ".planning", "STATE.md")
	settings := filepath.Join(root, ".claude", "settings.json")
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"-C", root}, args...)...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("gsd %s: %v %s", strings.Join(args, " "), err, out)
		}
	}
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	// The contents each writer goes between, measured by clean runs.
	oldState := "# Project State\n\n## Current Position\n\nPhase: 9 of 9 (Old)\nPlan: 9 of 9 in current phase\nStatus: old\n\nProgress: [░░░░░░░░░░] 0%\n"
	writeFile(t, state, oldState)
	run("state", "--write")
	newState := read(state)
	writeFile(t, settings, "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]}\n}\n")
	without := read(settings)
	run("hook", "install")
	with := read(settings)
	if newState == oldState || with == without {
		t.Fatal("the writers changed nothing: the test proves nothing")
	}

	life := time.Hour
	for range 5 {
		t0 := time.Now()
		run("hook", "uninstall")
		run("hook", "install")
		life = min(life, time.Since(t0)/2)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	killed := 0
	for i := range runs {
		var args []string
		var file, target string
		switch i % 3 {
		case 0:
			writeFile(t, state, oldState)
			args, file, target = []string{"state", "--write"}, state, newState
		case 1:
			args, file, target = []string{"hook", "uninstall"}, settings, without
		case 2:
			args, file, target = []string{"hook", "install"}, settings, with
		}
		before := read(file)
		if ps := killAfter(t, bin, env, append([]string{"-C", root}, args...), time.Duration(rng.Int64N(int64(life)*3/2))); ps == nil {
			killed++
		} else if !ps.Success() {
			t.Fatalf("run %d: gsd %s failed: %v", i, strings.Join(args, " "), ps)
		}
		if got := read(file); got != before && got != target {
			t.Fatalf("run %d (gsd %s): %s is neither the old nor the new content:\n%s", i, strings.Join(args, " "), file, got)
		}
	}
	// Whatever the kills left (a STATE.md.lock with a dead pid, temporary files), the next
	// writers get through at once and, once the debris is old enough, remove it.
	ageTemps(t, filepath.Dir(state))
	ageTemps(t, filepath.Dir(settings))
	run("state", "--write")
	run("hook", "install")
	for _, dir := range []string{filepath.Dir(state), filepath.Dir(settings)} {
		if tmp := tempFiles(t, dir); len(tmp) > 0 {
			t.Errorf("temporary files left in %s: %v", dir, tmp)
		}
	}
	if _, err := os.Lstat(state + ".lock"); err == nil {
		t.Error("STATE.md.lock left after a clean run")
	}
	t.Logf("%d runs (one takes %v), %d killed", runs, life, killed)
	if killed == 0 {
		t.Error("no run was killed: the test proves nothing")
	}
}

// killAfter starts gsd with args and sends it SIGKILL after d. It returns nil when the kill
// ended the process, else the state it exited with first.
func killAfter(t *testing.T, bin string, env, args []string, d time.Duration) *os.ProcessState {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(d)
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return nil
	}
	return cmd.ProcessState
}
