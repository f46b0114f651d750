package main

// gsd sync turned against the person using it, with real git: a bare remote and two or more
// clones. A link in a session directory, a teammate writing on your ref, a flood of files, a
// ref nested under a user's or holding a blob, two machines of one user that each began the
// session: none may change a file outside the session directory, take a version of your
// session someone else wrote, lose an event, or keep the ref moving.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/gsd-tools/gsd/hydrate/journal"
)

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// remoteRef is what the remote's ref points at, "" when it has none.
func (w *syncWorld) remoteRef(ref string) string {
	w.t.Helper()
	out := w.git(w.dir, "--git-dir", w.remote, "for-each-ref", "--format=%(objectname)", ref)
	return strings.TrimSpace(out)
}

// eventLines is the events of a journal, as lines.
func eventLines(t *testing.T, dir, user string) []string {
	t.Helper()
	var out []string
	for _, l := range journalLines(t, dir, user) {
		if evs, _ := journal.Parse([]byte(l)); len(evs) == 1 {
			out = append(out, l)
		}
	}
	return out
}

func TestSyncCannotBeTurnedAgainstItsUser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts git and gsd processes: go test without -short runs it")
	}
	needGit(t)
	bin := gsdBin(t)

	t.Run("a link in the session directory is never written through", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("symbolic links")
		}
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "bob", "1770112800", "hydrate")
		w.must(a, "bob", "1770112900", "mark-complete", "1")
		w.mustSync(a, "bob", "1770113000")
		w.must(b, "bob", "1770113100", "hydrate")
		dir := filepath.Join(b, ".planning/sessions/bob")
		config := readFile(t, filepath.Join(b, ".git/config"))
		roadmap := readFile(t, filepath.Join(b, ".planning/ROADMAP.md"))
		journalBytes := readFile(t, filepath.Join(dir, journal.FileName))
		link := func(name, target string) {
			t.Helper()
			_ = os.Remove(filepath.Join(dir, name))
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
		}
		// The journal a link to git's config: the merge refuses it, git's config is intact.
		link(journal.FileName, "../../../.git/config")
		r := w.sync(b, "bob", "1770113200")
		if r.code != 1 || !strings.Contains(r.stderr, ".planning/sessions/bob/journal.jsonl: is a symbolic link, not a regular file") || strings.Contains(r.stdout, "merged") {
			t.Errorf("a linked journal: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got := readFile(t, filepath.Join(b, ".git/config")); got != config {
			t.Fatalf(".git/config was written through the link:\n%s", got)
		}
		// A link to a file that does not exist yet, inside the project: not created.
		link(journal.FileName, "../../../made-by-gsd")
		if r := w.sync(b, "bob", "1770113300"); r.code != 1 {
			t.Errorf("a dangling journal link: exit %d\n%s", r.code, r.stderr)
		}
		if _, err := os.Lstat(filepath.Join(b, "made-by-gsd")); err == nil {
			t.Error("the sync created the file a dangling link names")
		}
		// The session a link to a file git tracks: neither the merge nor a mark writes it.
		_ = os.Remove(filepath.Join(dir, journal.FileName))
		writeFile(t, filepath.Join(dir, journal.FileName), journalBytes)
		session := readFile(t, filepath.Join(dir, "current-plan.md"))
		writeFile(t, filepath.Join(b, ".planning/sessions/bob-copy.md"), session)
		link("current-plan.md", "../bob-copy.md")
		if r := w.sync(b, "bob", "1770113400"); r.code != 1 || !strings.Contains(r.stderr, "current-plan.md: is a symbolic link") {
			t.Errorf("a linked session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got := readFile(t, filepath.Join(b, ".planning/sessions/bob-copy.md")); got != session {
			t.Error("the file the session links to was written by the merge")
		}
		if r := w.gsd(b, "bob", "", "mark-complete", "2"); r.code != 1 || !strings.Contains(r.stderr, "current-plan.md: is a symbolic link") {
			t.Errorf("a mark through a linked session: exit %d\n%s", r.code, r.stderr)
		}
		if got := readFile(t, filepath.Join(b, ".planning/sessions/bob-copy.md")); got != session {
			t.Error("the file the session links to was written by a mark")
		}
		link("current-plan.md", "../../ROADMAP.md")
		_ = w.gsd(b, "bob", "", "hydrate")
		_ = w.gsd(b, "bob", "", "sync")
		if got := readFile(t, filepath.Join(b, ".planning/ROADMAP.md")); got != roadmap {
			t.Error("ROADMAP.md was written through the session's link")
		}
		if st := w.git(b, "status", "--porcelain", "--untracked-files=no"); st != "" {
			t.Errorf("tracked files changed: %s", st)
		}
	})

	t.Run("two machines that each began the session keep both machines' marks", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.must(a, "ann", "1770112900", "mark-complete", "1")
		w.mustSync(a, "ann", "1770113000")
		w.must(b, "ann", "1770113100", "hydrate") // its own bootstrap: a second root
		w.must(b, "ann", "1770113200", "mark-in-progress", "2")
		out := w.mustSync(b, "ann", "1770113300")
		if !strings.Contains(out, "statuses of both") {
			t.Errorf("the desktop's merge: %s", out)
		}
		w.mustSync(a, "ann", "1770113400")
		for name, d := range map[string]string{"laptop": a, "desktop": b} {
			tasks := w.must(d, "ann", "", "tasks")
			for _, want := range []string{"1  complete", "2  in-progress", "3  pending"} {
				if !strings.Contains(tasks, want) {
					t.Errorf("the %s's tasks lack %q:\n%s", name, want, tasks)
				}
			}
			if r := w.gsd(d, "ann", "", "log"); r.code != 0 || r.stderr != "" {
				t.Errorf("the %s's log: exit %d %s", name, r.code, r.stderr)
			}
		}
		if ja, jb := readFile(t, filepath.Join(a, ".planning/sessions/ann/journal.jsonl")), readFile(t, filepath.Join(b, ".planning/sessions/ann/journal.jsonl")); ja != jb {
			t.Errorf("the journals differ:\n%s\n--\n%s", ja, jb)
		}
	})

	t.Run("a teammate cannot overwrite your session", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		v, m := w.clone("vic"), w.clone("mal")
		w.must(v, "vic", "1770112800", "hydrate")
		w.mustSync(v, "vic", "1770112900")
		// Mal fetches vic's ref, writes vic's session directory from it, and marks and syncs
		// as vic, with his own git.
		w.git(m, "fetch", "-q", "origin", "refs/gsd/sessions/vic:refs/gsd/sessions/vic")
		vdir := filepath.Join(m, ".planning/sessions/vic")
		for _, name := range strings.Fields(w.git(m, "ls-tree", "--name-only", "refs/gsd/sessions/vic")) {
			if name != "gsd-sync.json" {
				writeFile(t, filepath.Join(vdir, name), w.git(m, "show", "refs/gsd/sessions/vic:"+name)+"\n")
			}
		}
		for n := 1; n <= 3; n++ {
			if r := w.gsdAs(m, "vic", "mal@example.com", "1770113000", "mark-complete", fmt.Sprint(n)); r.code != 0 {
				t.Fatalf("mal's mark: %s", r.stderr)
			}
		}
		if r := w.gsdAs(m, "vic", "mal@example.com", "1770113100", "sync"); r.code != 0 {
			t.Fatalf("mal's sync: %s%s", r.stdout, r.stderr)
		}
		session := readFile(t, filepath.Join(v, ".planning/sessions/vic/current-plan.md"))
		r := w.sync(v, "vic", "1770113200")
		if r.code != 0 || strings.Contains(r.stdout, "took your session") ||
			!strings.Contains(r.stderr, "written by mal <mal@example.com>, not by you (vic <vic@example.com>)") {
			t.Fatalf("vic's sync: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		snap := regexp.MustCompile(`current-plan\.\d{14}\.sync-foreign`).FindString(r.stderr)
		if snap == "" {
			t.Fatalf("mal's version is not kept as a snapshot: %s", r.stderr)
		}
		if got := readFile(t, filepath.Join(v, ".planning/sessions/vic/current-plan.md")); got != session {
			t.Errorf("vic's session changed:\n%s", got)
		}
		if kept := readFile(t, filepath.Join(v, ".planning/sessions/vic", snap)); strings.Count(kept, `status="complete"`) != 3 {
			t.Errorf("the snapshot is not mal's version:\n%s", kept)
		}
		for _, l := range eventLines(t, v, "vic") {
			if strings.Contains(l, `"type":"mark"`) {
				t.Errorf("mal's event is in vic's journal: %s", l)
			}
		}
		if !strings.Contains(w.must(v, "vic", "", "log"), "mal <mal@example.com>") {
			t.Error("vic's log does not say who wrote the version not taken")
		}
		// Said once: the next sync takes nothing and moves nothing.
		ref := w.remoteRef("refs/gsd/sessions/vic")
		if r := w.sync(v, "vic", "1770113300"); r.code != 0 || r.stderr != "" || !strings.Contains(r.stdout, "up to date") {
			t.Errorf("vic's next sync: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if w.remoteRef("refs/gsd/sessions/vic") != ref {
			t.Error("vic's ref moved with nothing new")
		}

		// Vic's own other machine publishes a session that is no session: not taken either.
		v2 := w.clone("vic2")
		w.mustSync(v2, "vic", "1770113400")
		writeFile(t, filepath.Join(v2, ".planning/sessions/vic/current-plan.md"), "<!-- Plan: x -->\nnot a session\n")
		w.mustSync(v2, "vic", "1770113500")
		r = w.sync(v, "vic", "1770113600")
		if r.code != 0 || !strings.Contains(r.stdout, "not one gsd reads") {
			t.Errorf("a corrupt session from vic's other machine: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got := readFile(t, filepath.Join(v, ".planning/sessions/vic/current-plan.md")); got != session {
			t.Errorf("vic's session was replaced by a corrupt one:\n%s", got)
		}
	})

	t.Run("a ref over the caps is not read", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.mustSync(a, "ann", "1770112900")
		// On the desktop, as ann: a commit of 1,100 snapshots on top of ann's ref.
		w.git(b, "fetch", "-q", "origin", "refs/gsd/sessions/ann:refs/gsd/sessions/ann")
		blob := w.gitIn(b, "x\n", "hash-object", "-w", "--stdin")
		var tree strings.Builder
		for i := range 1100 {
			fmt.Fprintf(&tree, "100644 blob %s\tcurrent-plan.2026020310%04d.manual\n", blob, i)
		}
		flood := w.gitIn(b, tree.String(), "mktree")
		push := func(tree, msg string) {
			t.Helper()
			c := w.gitEnvIn(b, w.userEnv("ann"), "", "commit-tree", tree, "-p", "refs/gsd/sessions/ann", "-m", msg)
			w.git(b, "update-ref", "refs/gsd/sessions/ann", c)
			w.git(b, "push", "-q", "origin", "refs/gsd/sessions/ann")
		}
		push(flood, "flood")
		w.must(a, "ann", "1770113000", "mark-in-progress", "1")
		before, _ := os.ReadDir(filepath.Join(a, ".planning/sessions/ann"))
		r := w.sync(a, "ann", "1770113100", "--timeout", "20s")
		if r.code != 0 || !strings.Contains(r.stderr, "more than 1000 files") {
			t.Errorf("a ref of 1,100 files: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if after, _ := os.ReadDir(filepath.Join(a, ".planning/sessions/ann")); len(after) != len(before) {
			t.Errorf("%d files in the session directory, %d before: the flood was written", len(after), len(before))
		}
		if !strings.Contains(w.remoteFile("ann", "current-plan.md"), `status="in-progress"`) {
			t.Error("ann's session is not published over the flood")
		}
		// A session file over the 8 MiB gsd reads.
		w.git(b, "fetch", "-q", "origin", "+refs/gsd/sessions/ann:refs/gsd/sessions/ann")
		big := w.gitIn(b, strings.Repeat("x", 9<<20), "hash-object", "-w", "--stdin")
		push(w.gitIn(b, "100644 blob "+big+"\tcurrent-plan.md\n", "mktree"), "big")
		session := readFile(t, filepath.Join(a, ".planning/sessions/ann/current-plan.md"))
		r = w.sync(a, "ann", "1770113200")
		if r.code != 0 || !strings.Contains(r.stderr, "current-plan.md is 9437184 bytes, over the 8 MiB gsd reads") {
			t.Errorf("a 9 MiB session: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if got := readFile(t, filepath.Join(a, ".planning/sessions/ann/current-plan.md")); got != session {
			t.Error("the 9 MiB session was taken")
		}
		// A teammate's 9 MiB session is listed, not read.
		w.git(b, "push", "-q", "origin", "refs/gsd/sessions/ann:refs/gsd/sessions/dan")
		c := w.clone("cy")
		w.mustSync(c, "cy", "1770113300")
		got := w.sessions(c, "cy", "1770113300")
		found := false
		for _, s := range got.Sessions {
			if s.User == "dan" {
				found = true
				if s.State != "corrupt" || !strings.Contains(strings.Join(s.Reasons, " "), "current-plan.md is 9437184 bytes, over the 8 MiB gsd reads; not read") {
					t.Errorf("cy's view of dan: %+v", s)
				}
			}
		}
		if !found {
			t.Errorf("dan is not listed: %+v", got)
		}
	})

	t.Run("two clones of one user converge and the ref stops moving", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.mustSync(a, "ann", "1770112900")
		w.mustSync(b, "ann", "1770113000")
		w.must(a, "ann", "1770113100", "mark-in-progress", "1")
		w.must(b, "ann", "1770113200", "mark-complete", "3")
		w.mustSync(a, "ann", "1770113300")
		w.mustSync(b, "ann", "1770113400")
		w.must(a, "ann", "1770113500", "mark-complete", "1")
		w.must(b, "ann", "1770113600", "mark-in-progress", "2")
		// Both at once, a few times over.
		var wg sync.WaitGroup
		for _, d := range []string{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 2 {
					_ = w.gsd(d, "ann", "1770113700", "sync")
				}
			}()
		}
		wg.Wait()
		seen := map[string]bool{}
		for _, d := range []string{a, b} {
			for _, l := range eventLines(t, d, "ann") {
				seen[l] = true
			}
		}
		w.converge("ann", seen, func(d string) { w.mustSync(d, "ann", "1770113800") }, a, b)
		if sa, sb := readFile(t, filepath.Join(a, ".planning/sessions/ann/current-plan.md")), readFile(t, filepath.Join(b, ".planning/sessions/ann/current-plan.md")); sa != sb {
			t.Error("the two machines' sessions differ")
		}
		for _, want := range []string{"1  complete", "2  in-progress", "3  complete"} {
			if tasks := w.must(a, "ann", "", "tasks"); !strings.Contains(tasks, want) {
				t.Errorf("the merged session lacks %q:\n%s", want, tasks)
			}
		}
	})

	t.Run("only refs that name a user are fetched; nested refs and blobs wedge nothing", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("ann"), w.clone("bob")
		w.must(a, "ann", "", "hydrate")
		w.mustSync(a, "ann", "")
		w.mustSync(b, "bob", "")
		// Ann stops sharing, as gsd help sync says; then someone pushes a ref nested under hers.
		w.git(a, "push", "-q", "origin", "--delete", "refs/gsd/sessions/ann")
		w.git(a, "push", "-q", "origin", "HEAD:refs/gsd/sessions/ann/x")
		r := w.sync(b, "bob", "")
		if r.code != 0 || !strings.Contains(r.stderr, "refs/gsd/sessions/ann/x on origin names no user: not fetched") ||
			!strings.Contains(r.stdout, "ann no longer shares a session on origin") {
			t.Errorf("bob's sync after ann left: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		for _, s := range w.sessions(b, "bob", "").Sessions {
			if s.User != "bob" {
				t.Errorf("%s is still listed: %+v", s.User, s)
			}
		}
		// A ref planted under carl's before carl ever syncs, and a blob pushed on dee's.
		w.git(a, "push", "-q", "origin", "HEAD:refs/gsd/sessions/carl/x")
		c := w.clone("carl")
		w.must(c, "carl", "", "hydrate")
		if r := w.sync(c, "carl", ""); r.code != 0 || !strings.Contains(r.stdout, "deleted refs/gsd/sessions/carl/x on origin") {
			t.Errorf("carl's sync: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		w.remoteFile("carl", "current-plan.md")
		d := w.clone("dee")
		w.must(d, "dee", "", "hydrate")
		w.mustSync(d, "dee", "")
		blob := w.gitIn(a, "junk\n", "hash-object", "-w", "--stdin")
		w.git(a, "push", "-q", "--force", "origin", blob+":refs/gsd/sessions/dee")
		w.must(d, "dee", "", "mark-in-progress", "1")
		if r := w.sync(d, "dee", ""); r.code != 0 || !strings.Contains(r.stdout, "replaced what refs/gsd/sessions/dee held on origin") {
			t.Errorf("dee's sync over a blob: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(w.remoteFile("dee", "current-plan.md"), `status="in-progress"`) {
			t.Error("dee's session is not on the remote")
		}
		if r := w.sync(d, "dee", ""); r.code != 0 {
			t.Errorf("dee's next sync: exit %d %s", r.code, r.stderr)
		}
	})

	t.Run("fetched teammates are counted for the remote synced", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("ann"), w.clone("bob")
		other := filepath.Join(w.dir, "other.git")
		w.git(w.dir, "clone", "-q", "--bare", w.remote, other)
		w.git(a, "remote", "add", "other", other)
		w.git(b, "remote", "add", "other", other)
		w.must(a, "ann", "", "hydrate")
		w.mustSync(a, "ann", "", "other")
		w.mustSync(b, "bob", "", "other")
		if out := w.mustSync(b, "bob", ""); !strings.Contains(out, "fetched 0 teammates' sessions from origin") {
			t.Errorf("bob's sync of origin: %s", out)
		}
	})

	t.Run("a time limit ends the sync and every process it started", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Skip("the hanging helper is a shell script")
		}
		w := newSyncWorld(t, bin)
		a := w.clone("ann")
		w.must(a, "ann", "", "hydrate")
		// An ssh that ignores SIGTERM and never answers.
		pidFile := filepath.Join(w.dir, "helper.pid")
		helper := filepath.Join(w.dir, "slow-ssh")
		writeFile(t, helper, "#!/bin/sh\ntrap '' TERM\necho $$ > "+pidFile+"\nwhile :; do sleep 1; done\n")
		if err := os.Chmod(helper, 0o755); err != nil {
			t.Fatal(err)
		}
		w.git(a, "remote", "add", "slow", "ssh://example.invalid/x.git")
		w.git(a, "config", "core.sshCommand", helper)
		r := w.sync(a, "ann", "", "slow", "--timeout", "1s")
		if r.code != 1 || !strings.Contains(r.stderr, "within 1s") {
			t.Errorf("exit %d, %q", r.code, r.stderr)
		}
		pid, err := os.ReadFile(pidFile)
		if err != nil {
			t.Fatal("the helper never ran:", err)
		}
		if alive(strings.TrimSpace(string(pid))) {
			t.Errorf("the helper (pid %s) outlived gsd sync", strings.TrimSpace(string(pid)))
		}
		for _, bad := range []string{"1ns", "0", "-1s", "soon"} {
			if r := w.sync(a, "ann", "", "--timeout", bad); r.code != 2 || !strings.HasPrefix(r.stderr, "gsd: --timeout: ") {
				t.Errorf("--timeout %s: exit %d, %q", bad, r.code, r.stderr)
			}
		}
	})

	t.Run("four machines of one user syncing at once all succeed", func(t *testing.T) {
		// Each push the remote turns down (not a fast-forward, or its ref locked by another
		// push that moment) means another machine's push landed: with four, no machine loses
		// more than three times, and a sync tries five.
		w := newSyncWorld(t, bin)
		var ms []string
		for i := range 4 {
			ms = append(ms, w.clone(fmt.Sprintf("m%d", i)))
		}
		w.must(ms[0], "ann", "1770112800", "hydrate")
		w.mustSync(ms[0], "ann", "1770112900")
		for _, d := range ms[1:] {
			w.mustSync(d, "ann", "1770113000")
		}
		for round := range 3 {
			var wg sync.WaitGroup
			errs := make(chan string, len(ms))
			for i, d := range ms {
				w.must(d, "ann", "1770113100", []string{"mark-complete", "mark-in-progress", "mark-pending"}[(i+round)%3], fmt.Sprint(1+i%3))
				wg.Add(1)
				go func() {
					defer wg.Done()
					if r := w.gsd(d, "ann", "1770113200", "sync"); r.code != 0 {
						errs <- fmt.Sprintf("round %d, %s: exit %d %s", round, filepath.Base(d), r.code, r.stderr)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for e := range errs {
				t.Error(e)
			}
		}
	})

	t.Run("an absurd sequence number does not travel", func(t *testing.T) {
		w := newSyncWorld(t, bin)
		a, b := w.clone("laptop"), w.clone("desktop")
		w.must(a, "ann", "1770112800", "hydrate")
		w.mustSync(a, "ann", "1770112900")
		w.mustSync(b, "ann", "1770113000")
		jb := filepath.Join(b, ".planning/sessions/ann/journal.jsonl")
		evs, _ := journal.Parse([]byte(readFile(t, jb)))
		last := evs[len(evs)-1]
		bad, err := journal.Encode(journal.Event{Seq: journal.MaxSeq, Prev: last.ID, Time: last.Time, Type: journal.Snapshot, Note: "absurd", SHA256: last.SHA256})
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(jb, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = f.Write(bad)
		_ = f.Close()
		w.must(b, "ann", "1770113100", "mark-in-progress", "2")
		w.mustSync(b, "ann", "1770113200")
		w.mustSync(a, "ann", "1770113300")
		w.must(a, "ann", "1770113400", "mark-complete", "1")
		for _, d := range []string{a, b} {
			evs, _ := journal.Parse([]byte(readFile(t, filepath.Join(d, ".planning/sessions/ann/journal.jsonl"))))
			for _, ev := range evs {
				if ev.Seq > 100 {
					t.Errorf("an event numbered %d in %s: %+v", ev.Seq, filepath.Base(d), ev)
				}
			}
		}
		if tasks := w.must(a, "ann", "", "tasks"); !strings.Contains(tasks, "1  complete") || !strings.Contains(tasks, "2  in-progress") {
			t.Errorf("tasks:\n%s", tasks)
		}
	})
}

// converge syncs user's machines dirs in turn (with syncOne) until two rounds leave the
// remote's ref where it was, failing after six; then the machines' journals must be the same
// bytes, hold each event once, and hold every event of seen.
func (w *syncWorld) converge(user string, seen map[string]bool, syncOne func(dir string), dirs ...string) {
	t := w.t
	t.Helper()
	ref := "refs/gsd/sessions/" + user
	stable, last := 0, w.remoteRef(ref)
	for round := 0; round < 6 && stable < 2; round++ {
		for _, d := range dirs {
			syncOne(d)
		}
		if cur := w.remoteRef(ref); cur == last {
			stable++
		} else {
			stable, last = 0, cur
		}
	}
	if stable < 2 {
		t.Fatalf("the ref still moves after 6 rounds of syncs on every machine (%s commits)", w.git(dirs[0], "rev-list", "--count", ref))
	}
	journalOf := func(d string) string {
		return readFile(t, filepath.Join(d, ".planning/sessions", user, journal.FileName))
	}
	for _, d := range dirs[1:] {
		if ja, jb := journalOf(dirs[0]), journalOf(d); ja != jb {
			t.Errorf("the machines' journals differ:\n%s\n--\n%s", ja, jb)
		}
	}
	final := map[string]int{}
	for _, l := range eventLines(t, dirs[0], user) {
		final[l]++
	}
	for l, n := range final {
		if n > 1 {
			t.Errorf("event twice: %s", l)
		}
	}
	for l := range seen {
		if final[l] == 0 {
			t.Errorf("event lost: %s", l)
		}
	}
}

// gitIn runs git in dir with stdin.
func (w *syncWorld) gitIn(dir, stdin string, args ...string) string {
	w.t.Helper()
	return w.gitEnvIn(dir, w.env(), stdin, args...)
}

func (w *syncWorld) gitEnvIn(dir string, env []string, stdin string, args ...string) string {
	w.t.Helper()
	c := gitCmd(dir, env, args...)
	c.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		w.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

func gitCmd(dir string, env []string, args ...string) *exec.Cmd {
	c := exec.Command("git", args...)
	c.Dir, c.Env = dir, env
	return c
}
