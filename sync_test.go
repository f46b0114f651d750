package main

// Proofs of gsd sync with real git: a bare remote and several clones in a temporary directory,
// gsd run as users get it. Every sync leaves the working tree, the index, HEAD and the branches
// as they were.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/gsd-tools/gsd/hydrate/journal"
)

type syncWorld struct {
	t      *testing.T
	bin    string
	dir    string // holds remote.git and the clones
	remote string
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: the gsd sync tests run real git")
	}
}

// newSyncWorld makes a bare remote holding the demo project (sessions git-ignored, as GSD
// projects have them) on branch main.
func newSyncWorld(t *testing.T, bin string) *syncWorld {
	t.Helper()
	w := &syncWorld{t: t, bin: bin, dir: t.TempDir()}
	w.remote = filepath.Join(w.dir, "remote.git")
	w.git(w.dir, "init", "-q", "--bare", "-b", "main", w.remote)
	seed := filepath.Join(w.dir, "seed")
	w.git(w.dir, "init", "-q", "-b", "main", seed)
	demo, _ := filepath.Abs(filepath.Join("testdata", "demo"))
	copyTree(t, demo, seed)
	writeFile(t, filepath.Join(seed, ".gitignore"), ".planning/sessions/\n")
	w.git(seed, "add", "-A")
	w.git(seed, "commit", "-q", "-m", "init")
	w.git(seed, "push", "-q", w.remote, "main")
	return w
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (w *syncWorld) env(extra ...string) []string {
	home := filepath.Join(w.dir, "home")
	_ = os.MkdirAll(home, 0o755)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "SOURCE_DATE_EPOCH=1770112800",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	if runtime.GOOS == "windows" {
		env = append(env, "SYSTEMROOT="+os.Getenv("SYSTEMROOT"), "USERPROFILE="+home)
	}
	return append(env, extra...)
}

// userEnv is env for gsd as user, with the git identity user <user@example.com>.
func (w *syncWorld) userEnv(user string, extra ...string) []string {
	return w.envAs(user, user+"@example.com", extra...)
}

// envAs is env for gsd as user, with the git identity whose email is email.
func (w *syncWorld) envAs(user, email string, extra ...string) []string {
	name, _, _ := strings.Cut(email, "@")
	return w.env(append([]string{"GSD_USER=" + user, "GIT_AUTHOR_NAME=" + name, "GIT_AUTHOR_EMAIL=" + email,
		"GIT_COMMITTER_NAME=" + name, "GIT_COMMITTER_EMAIL=" + email}, extra...)...)
}

func (w *syncWorld) git(dir string, args ...string) string {
	w.t.Helper()
	c := exec.Command("git", args...)
	c.Dir, c.Env = dir, w.env()
	out, err := c.CombinedOutput()
	if err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// clone makes a clone of the remote named name.
func (w *syncWorld) clone(name string) string {
	w.t.Helper()
	dir := filepath.Join(w.dir, name)
	w.git(w.dir, "clone", "-q", w.remote, dir)
	return dir
}

type result struct {
	stdout, stderr string
	code           int
}

// gsd runs gsd in dir as user, at the clock epoch ("" for the default), with the git identity
// user <user@example.com>: each user's machines share one.
func (w *syncWorld) gsd(dir, user, epoch string, args ...string) result {
	w.t.Helper()
	return w.gsdAs(dir, user, user+"@example.com", epoch, args...)
}

// gsdAs is gsd with the git identity whose email is email.
func (w *syncWorld) gsdAs(dir, user, email, epoch string, args ...string) result {
	w.t.Helper()
	c := exec.Command(w.bin, args...)
	var extra []string
	if epoch != "" {
		extra = append(extra, "SOURCE_DATE_EPOCH="+epoch)
	}
	c.Dir, c.Env = dir, w.envAs(user, email, extra...)
	var o, e bytes.Buffer
	c.Stdout, c.Stderr = &o, &e
	err := c.Run()
	r := result{o.String(), e.String(), 0}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("gsd %v: %v", args, err)
	}
	return r
}

// must runs gsd and fails the test unless it exits 0.
func (w *syncWorld) must(dir, user, epoch string, args ...string) string {
	w.t.Helper()
	r := w.gsd(dir, user, epoch, args...)
	if r.code != 0 {
		w.t.Fatalf("gsd %v as %s: exit %d\n%s%s", args, user, r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// gitState is what a sync must never change: the working tree and index, HEAD, the branches.
func (w *syncWorld) gitState(dir string) string {
	w.t.Helper()
	return w.git(dir, "status", "--porcelain") + "\n" + w.git(dir, "rev-parse", "HEAD") + "\n" +
		w.git(dir, "symbolic-ref", "HEAD") + "\n" + w.git(dir, "for-each-ref", "refs/heads", "refs/remotes", "refs/tags")
}

// sync runs gsd sync and checks that it left the repository's state alone.
func (w *syncWorld) sync(dir, user, epoch string, args ...string) result {
	w.t.Helper()
	before := w.gitState(dir)
	r := w.gsd(dir, user, epoch, append([]string{"sync"}, args...)...)
	if after := w.gitState(dir); after != before {
		w.t.Fatalf("gsd sync changed the repository's state:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	return r
}

func (w *syncWorld) mustSync(dir, user, epoch string, args ...string) string {
	w.t.Helper()
	r := w.sync(dir, user, epoch, args...)
	if r.code != 0 {
		w.t.Fatalf("gsd sync as %s in %s: exit %d\n%s%s", user, filepath.Base(dir), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// journalLines is the user's journal in dir, line by line.
func journalLines(t *testing.T, dir, user string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".planning", "sessions", user, journal.FileName))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// remoteFile is a file of the user's session as the remote has it.
func (w *syncWorld) remoteFile(user, name string) string {
	w.t.Helper()
	c := exec.Command("git", "--git-dir", w.remote, "show", "refs/gsd/sessions/"+user+":"+name)
	c.Env = w.env()
	out, err := c.Output()
	if err != nil {
		w.t.Fatalf("the remote has no %s in %s's session: %v", name, user, err)
	}
	return string(out)
}

type sessionsJSON struct {
	Sessions []struct {
		User        string  `json:"user"`
		State       string  `json:"state"`
		Plan        string  `json:"plan"`
		InProgress  []int   `json:"inProgress"`
		Remote      *string `json:"remote"`
		SyncedAt    *string `json:"syncedAt"`
		Reasons     []string
		TakenOverBy []struct {
			By string `json:"by"`
		} `json:"takenOverBy"`
	} `json:"sessions"`
	Warnings []string `json:"warnings"`
}

func (w *syncWorld) sessions(dir, user, epoch string) sessionsJSON {
	w.t.Helper()
	var s sessionsJSON
	if err := json.Unmarshal([]byte(w.must(dir, user, epoch, "sessions", "--json")), &s); err != nil {
		w.t.Fatal(err)
	}
	return s
}

func TestSync(t *testing.T) {
	if testing.Short() {
		t.Skip("starts git and gsd processes: go test without -short runs it")
	}
	needGit(t)
	bin := gsdBin(t)

	t.Run("five users at once lose nothing", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		users := []string{"ann", "bob", "cy", "dee", "eve"}
		dirs := map[string]string{}
		for _, u := range users {
			dirs[u] = w.clone(u)
			w.must(dirs[u], u, "", "hydrate")
			w.must(dirs[u], u, "", "mark-in-progress", "1")
		}
		var wg sync.WaitGroup
		errs := make(chan string, len(users))
		for _, u := range users {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c := exec.Command(bin, "sync")
				c.Dir, c.Env = dirs[u], w.userEnv(u)
				if out, err := c.CombinedOutput(); err != nil {
					errs <- fmt.Sprintf("%s: %v: %s", u, err, out)
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		watcher := w.clone("zed")
		w.mustSync(watcher, "zed", "")
		got := w.sessions(watcher, "zed", "")
		seen := map[string]bool{}
		for _, s := range got.Sessions {
			if s.Remote == nil || *s.Remote != "origin" || s.SyncedAt == nil {
				t.Errorf("%s: not from origin with a sync time: %+v", s.User, s)
			}
			if len(s.InProgress) != 1 || s.InProgress[0] != 1 {
				t.Errorf("%s: in progress %v, want [1]", s.User, s.InProgress)
			}
			seen[s.User] = true
		}
		for _, u := range users {
			if !seen[u] {
				t.Errorf("%s's session is not listed after everyone synced: %+v", u, got)
			}
			if want := strings.Join(journalLines(t, dirs[u], u), "\n") + "\n"; w.remoteFile(u, journal.FileName) != want {
				t.Errorf("%s's published journal is not their journal", u)
			}
		}
	})

	t.Run("one user on two machines merges every event once", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.must(a, "ann", "1770112900", "mark-complete", "1")
		w.mustSync(a, "ann", "1770113000")
		out := w.mustSync(b, "ann", "1770113100") // adopts the laptop's session
		if !strings.Contains(out, "took your session as another machine published it") {
			t.Errorf("desktop's first sync: %s", out)
		}
		// Both go on without the other: the laptop marks task 2, the desktop task 3.
		w.must(a, "ann", "1770113200", "mark-in-progress", "2")
		w.must(b, "ann", "1770113300", "mark-complete", "3")
		w.mustSync(b, "ann", "1770113400") // the remote has nothing new for the desktop
		out = w.mustSync(a, "ann", "1770113500")
		if !strings.Contains(out, "statuses of both") {
			t.Errorf("laptop's merge: %s", out)
		}
		w.mustSync(b, "ann", "1770113550") // takes the merge
		la, lb := journalLines(t, a, "ann"), journalLines(t, b, "ann")
		if strings.Join(la, "\n") != strings.Join(lb, "\n") {
			t.Errorf("the two machines' journals differ:\n%s\n--\n%s", strings.Join(la, "\n"), strings.Join(lb, "\n"))
		}
		seen := map[string]int{}
		for _, l := range la {
			seen[l]++
		}
		for l, n := range seen {
			if n > 1 {
				t.Errorf("event twice: %s", l)
			}
		}
		var marks []string
		for _, l := range la {
			evs, _ := journal.Parse([]byte(l))
			if len(evs) == 1 && evs[0].Type == journal.Mark {
				marks = append(marks, fmt.Sprintf("%d:%s", evs[0].Task, evs[0].New))
			}
		}
		if strings.Join(marks, " ") != "1:complete 2:in-progress 3:complete" {
			t.Errorf("marks %v, want each machine's once, in time order", marks)
		}
		tasks := w.must(a, "ann", "", "tasks")
		for _, want := range []string{"1  complete", "2  in-progress", "3  complete"} {
			if !strings.Contains(tasks, want) {
				t.Errorf("laptop's tasks after the merge lack %q:\n%s", want, tasks)
			}
		}
		sa, errA := os.ReadFile(filepath.Join(a, ".planning/sessions/ann/current-plan.md"))
		sb, errB := os.ReadFile(filepath.Join(b, ".planning/sessions/ann/current-plan.md"))
		if errA != nil || errB != nil {
			t.Fatalf("the sessions after both synced: %v, %v", errA, errB)
		}
		if !bytes.Equal(sa, sb) {
			t.Error("the two machines' sessions differ after both synced")
		}
		if parents := strings.Fields(w.git(a, "rev-list", "--parents", "-n1", "refs/gsd/sessions/ann")); len(parents) < 3 {
			t.Errorf("the merge commit has parents %v, want both machines'", parents[1:])
		}
		// The history still replays (gsd tasks --at the last event; the two machines' events
		// share sequence numbers, so the last is the highest seq, not the count of lines).
		var last int64
		for _, l := range la {
			if evs, _ := journal.Parse([]byte(l)); len(evs) == 1 && evs[0].Seq > last {
				last = evs[0].Seq
			}
		}
		if r := w.gsd(a, "ann", "", "tasks", "--at", fmt.Sprint(last)); r.code != 0 {
			t.Errorf("gsd tasks --at after the merge: %s", r.stderr)
		}

		// Syncing at once, over and over, still loses nothing.
		w.must(a, "ann", "1770113600", "mark-complete", "2")
		var wg sync.WaitGroup
		for _, d := range []string{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 3 {
					c := exec.Command(bin, "sync")
					c.Dir, c.Env = d, w.userEnv("ann", "SOURCE_DATE_EPOCH=1770113700")
					_ = c.Run() // a push lost to the other machine three times in a row may fail
				}
			}()
		}
		wg.Wait()
		w.mustSync(a, "ann", "1770113800")
		w.mustSync(b, "ann", "1770113800")
		w.mustSync(a, "ann", "1770113800")
		la = journalLines(t, a, "ann")
		all := map[string]bool{}
		for _, l := range la {
			if all[l] {
				t.Errorf("event twice after concurrent syncs: %s", l)
			}
			all[l] = true
		}
		for _, l := range lb {
			if !all[l] {
				t.Errorf("event lost after concurrent syncs: %s", l)
			}
		}
		// And the desktop, after its own last sync, has every event the laptop has.
		lb = journalLines(t, b, "ann")
		inB := map[string]bool{}
		for _, l := range lb {
			inB[l] = true
		}
		for _, l := range la {
			if !inB[l] {
				t.Errorf("the desktop lacks an event after the concurrent syncs: %s", l)
			}
		}
		if !strings.Contains(w.must(b, "ann", "", "tasks"), "2  complete") {
			t.Error("the desktop lacks the laptop's last mark after the concurrent syncs")
		}
	})

	t.Run("two machines on different plans keep both", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.mustSync(a, "ann", "1770112900")
		w.mustSync(b, "ann", "1770113000")
		w.must(a, "ann", "1770113100", "mark-in-progress", "1")
		w.must(b, "ann", "1770113200", "start", ".planning/phases/02-task-api/02-03-PLAN.md")
		w.mustSync(a, "ann", "1770113300")
		out := w.mustSync(b, "ann", "1770113300")
		if !strings.Contains(out, "different plans") || !strings.Contains(out, "the local one is current") {
			t.Errorf("the desktop's merge: %s", out)
		}
		w.mustSync(a, "ann", "1770113400")
		kinds := map[string]bool{}
		ents, _ := os.ReadDir(filepath.Join(a, ".planning/sessions/ann"))
		for _, e := range ents {
			kinds[filepath.Ext(e.Name())] = true
		}
		if !kinds[".sync-local"] || !kinds[".sync-remote"] {
			t.Errorf("both sides are not kept as snapshots: %v", ents)
		}
		if sa, _ := os.ReadFile(filepath.Join(a, ".planning/sessions/ann/current-plan.md")); !strings.Contains(string(sa), "Plan: .planning/phases/02-task-api/02-03-PLAN.md") {
			t.Error("the latest (the desktop's 02-03) is not current")
		}
	})

	t.Run("an unreachable remote", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a := w.clone("ann")
		w.must(a, "ann", "", "hydrate")
		w.git(a, "remote", "add", "nowhere", filepath.Join(w.dir, "no-such-remote.git"))
		r := w.sync(a, "ann", "", "nowhere")
		if r.code != 1 || !strings.HasPrefix(r.stderr, "gsd: cannot fetch from nowhere") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("exit %d, stderr %q; want 1 and one line naming the remote", r.code, r.stderr)
		}
		if r := w.sync(a, "ann", "", "nosuch"); r.code != 2 || !strings.Contains(r.stderr, `no remote named "nosuch"`) {
			t.Errorf("an unknown remote: exit %d, %q", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(a, ".planning/sessions/ann/current-plan.md")); err != nil {
			t.Error(err)
		}
	})

	t.Run("a remote that refuses the push", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("the refusing hook is a shell script")
		}
		w := newSyncWorld(t, bin)
		a := w.clone("ann")
		w.must(a, "ann", "", "hydrate")
		hook := filepath.Join(w.remote, "hooks", "pre-receive")
		writeFile(t, hook, "#!/bin/sh\necho 'sessions are not welcome here' >&2\nexit 1\n")
		if err := os.Chmod(hook, 0o755); err != nil {
			t.Fatal(err)
		}
		r := w.sync(a, "ann", "")
		if r.code != 1 || !strings.Contains(r.stderr, "refused the push of refs/gsd/sessions/ann") ||
			!strings.Contains(r.stderr, "sessions are not welcome here") || strings.Count(r.stderr, "\n") != 1 {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		if w.git(a, "rev-parse", "refs/gsd/sessions/ann^{tree}") == "" {
			t.Error("the session is not kept on the local ref")
		}
		_ = os.Remove(hook)
		w.mustSync(a, "ann", "")
		w.remoteFile("ann", "current-plan.md")
	})

	t.Run("a ref rewritten by hand", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("ann"), w.clone("bob")
		w.must(a, "ann", "", "hydrate")
		w.must(a, "ann", "", "mark-in-progress", "1")
		w.mustSync(a, "ann", "")
		// Someone replaces ann's ref on the remote with a commit of their own.
		junk := w.git(b, "commit-tree", w.git(b, "rev-parse", "HEAD^{tree}"), "-m", "not a session")
		w.git(b, "push", "-q", "--force", "origin", junk+":refs/gsd/sessions/ann")
		w.mustSync(b, "bob", "")
		got := w.sessions(b, "bob", "")
		if len(got.Sessions) != 1 || !strings.Contains(strings.Join(got.Sessions[0].Reasons, " "), "rewritten by hand") {
			t.Errorf("bob's view of the rewritten ref: %+v", got)
		}
		// Ann's next sync merges it (nothing there to take) and publishes her session again.
		before := journalLines(t, a, "ann")
		w.mustSync(a, "ann", "")
		if after := journalLines(t, a, "ann"); strings.Join(after[:len(before)], "\n") != strings.Join(before, "\n") {
			t.Error("ann's journal lost events to a rewritten ref")
		}
		if !strings.Contains(w.must(a, "ann", "", "tasks"), "in-progress") {
			t.Error("ann's session lost its status to a rewritten ref")
		}
		if !strings.Contains(w.remoteFile("ann", "current-plan.md"), "in-progress") {
			t.Error("ann's session is not published again")
		}
	})

	t.Run("hostile names", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("ann"), w.clone("bob")
		w.must(a, "ann", "", "hydrate")
		w.mustSync(a, "ann", "")
		// A ref git accepts but that names no gsd user: not fetched, and said so.
		w.git(a, "push", "-q", "origin", "refs/gsd/sessions/ann:refs/gsd/sessions/Not_A_User")
		r := w.sync(b, "bob", "")
		if r.code != 0 || !strings.Contains(r.stderr, "refs/gsd/sessions/Not_A_User on origin names no user: not fetched") {
			t.Errorf("the hostile ref is not reported: exit %d\n%s", r.code, r.stderr)
		}
		if refs := w.git(b, "for-each-ref", "refs/gsd/remotes"); strings.Contains(refs, "Not_A_User") {
			t.Errorf("the hostile ref was fetched: %s", refs)
		}
		for _, s := range w.sessions(b, "bob", "").Sessions {
			if s.User == "Not_A_User" {
				t.Errorf("a hostile user name is listed: %+v", s)
			}
		}
		for _, bad := range []string{"-upload-pack=touch x", "https://example.com/x.git", "a..b", "x.lock"} {
			if r := w.sync(b, "bob", "", "--", bad); r.code != 2 || !strings.Contains(r.stderr, "remote") {
				t.Errorf("remote %q: exit %d, %q", bad, r.code, r.stderr)
			}
		}
		if r := w.gsd(b, "bob", "", "resume", "../ann"); r.code != 2 {
			t.Errorf("resume ../ann: exit %d", r.code)
		}
	})

	t.Run("files that are not gsd's stay home", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a := w.clone("ann")
		w.must(a, "ann", "", "hydrate")
		dir := filepath.Join(a, ".planning/sessions/ann")
		writeFile(t, filepath.Join(dir, "notes.txt"), "my private notes\n")
		writeFile(t, filepath.Join(dir, "scratch", "x.md"), "x\n")
		r := w.sync(a, "ann", "")
		if r.code != 0 || !strings.Contains(r.stderr, "notes.txt: not gsd's, not published") || !strings.Contains(r.stderr, "scratch: not gsd's") {
			t.Errorf("exit %d, stderr %q", r.code, r.stderr)
		}
		tree := w.git(a, "ls-tree", "--name-only", "refs/gsd/sessions/ann")
		names := strings.Fields(tree)
		sort.Strings(names)
		if strings.Join(names, " ") != "current-plan.md gsd-sync.json journal.jsonl" {
			t.Errorf("published %v", names)
		}
		for _, f := range []string{"notes.txt", "scratch/x.md"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Error(err)
			}
		}
	})
}
