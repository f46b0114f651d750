package teamsync

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

const session = `<!-- Session progress for ann -->
<!-- Plan: p.md -->
<!-- Started: 2026-02-03T10:00:00Z -->

<tasks>
<task type="auto" status="pending"><name>Task 1</name></task>
<task type="auto" status="pending"><name>Task 2</name></task>
</tasks>
`

func line(t *testing.T, ev journal.Event) string {
	t.Helper()
	ev.SchemaVersion = journal.SchemaVersion
	b, err := journal.Encode(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func at(min int) time.Time { return time.Date(2026, 2, 3, 10, min, 0, 0, time.UTC) }

// mark returns the session with task n set to st, and its journal line.
func mark(t *testing.T, src string, seq int64, min, n int, st planfile.Status) (string, string) {
	t.Helper()
	out, err := planfile.SetStatus([]byte(src), n, st)
	if err != nil {
		t.Fatal(err)
	}
	return string(out), line(t, journal.Event{Seq: seq, Time: at(min), Type: journal.Mark, Task: n, New: string(st), SHA256: journal.Hash(out, true)})
}

func TestMergeJournalsUnitesOnce(t *testing.T) {
	boot := line(t, journal.Event{Seq: 1, Time: at(0), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)})
	_, m1 := mark(t, session, 2, 1, 1, planfile.Complete)
	_, m2 := mark(t, session, 2, 2, 2, planfile.InProgress)
	torn := "{\"schemaVersion\":1,\"seq\":3,\"ti\n"
	local := boot + m1 + torn
	remote := boot + m2
	got, onlyL, onlyR := MergeJournals([]byte(local), []byte(remote))
	want := boot + m1 + m2 + torn // the events in their order, then what is no event
	if string(got) != want || onlyL != 2 || onlyR != 1 {
		t.Errorf("merged (%d, %d):\n%s\nwant:\n%s", onlyL, onlyR, got, want)
	}
	// Merging again changes nothing: no event twice; and the other way round gives the same.
	again, _, onlyR2 := MergeJournals(got, []byte(remote))
	if string(again) != want || onlyR2 != 0 {
		t.Errorf("merging twice:\n%s", again)
	}
	if other, _, _ := MergeJournals([]byte(remote), []byte(local)); string(other) != want {
		t.Errorf("remote into local:\n%s\nwant:\n%s", other, want)
	}
}

// Two machines whose clocks disagree: the remote's clock runs five minutes behind, so its mark
// is dated before the bootstrap both share. The merge orders by what each event names as the one
// before it, never by time: both marks are kept and replayed.
func TestMergeWithSkewedClocks(t *testing.T) {
	bootEv := journal.Event{Seq: 1, Time: at(10), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)}
	boot := line(t, bootEv)
	bootID := journal.IDOf([]byte(strings.TrimSuffix(boot, "\n")))
	s1, _ := planfile.SetStatus([]byte(session), 1, planfile.Complete)
	s2, _ := planfile.SetStatus([]byte(session), 2, planfile.Complete)
	m1 := line(t, journal.Event{Seq: 2, Time: at(11), Prev: bootID, Type: journal.Mark, Task: 1, New: "complete", SHA256: journal.Hash(s1, true)})
	m2 := line(t, journal.Event{Seq: 2, Time: at(6), Prev: bootID, Type: journal.Mark, Task: 2, New: "complete", SHA256: journal.Hash(s2, true)})
	r := Merge(Side{Session: s1, Exists: true, Journal: []byte(boot + m1)}, Side{Session: s2, Exists: true, Journal: []byte(boot + m2)})
	both, _ := planfile.SetStatus(s1, 2, planfile.Complete)
	if r.Took != TookMerged || string(r.Session) != string(both) || r.Conflict != "" {
		t.Errorf("merge with a remote clock behind: %+v\n%s", r, r.Session)
	}
}

func TestMergeDecides(t *testing.T) {
	boot := line(t, journal.Event{Seq: 1, Time: at(0), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)})
	s1, m1 := mark(t, session, 2, 1, 1, planfile.Complete)
	s2, m2 := mark(t, session, 2, 2, 2, planfile.InProgress)
	both, _ := planfile.SetStatus([]byte(s1), 2, planfile.InProgress)

	// The remote has all of the local history and more: take it.
	r := Merge(Side{Session: []byte(session), Exists: true, Journal: []byte(boot)}, Side{Session: []byte(s1), Exists: true, Journal: []byte(boot + m1)})
	if r.Took != TookRemote || string(r.Session) != s1 || r.KeepLocal || r.KeepRemote {
		t.Errorf("fast-forward: %+v", r)
	}
	// Both went on, on one plan: the statuses of both.
	r = Merge(Side{Session: []byte(s1), Exists: true, Journal: []byte(boot + m1)}, Side{Session: []byte(s2), Exists: true, Journal: []byte(boot + m2)})
	if r.Took != TookMerged || string(r.Session) != string(both) || r.Conflict != "" {
		t.Errorf("merged: %+v\n%s", r, r.Session)
	}
	// Two different tasks in progress: both kept, the latest current.
	s3, m3 := mark(t, session, 2, 3, 1, planfile.InProgress)
	r = Merge(Side{Session: []byte(s3), Exists: true, Journal: []byte(boot + m3)}, Side{Session: []byte(s2), Exists: true, Journal: []byte(boot + m2)})
	if r.Conflict == "" || !r.KeepLocal || !r.KeepRemote || r.Took != TookLocal {
		t.Errorf("conflict: %+v", r)
	}
	// A remote rewritten by hand (no journal, no session): the local session stands.
	r = Merge(Side{Session: []byte(s1), Exists: true, Journal: []byte(boot + m1)}, Side{})
	if r.Took != TookLocal || string(r.Session) != s1 || string(r.Journal) != boot+m1 {
		t.Errorf("rewritten remote: %+v", r)
	}
}

func TestNames(t *testing.T) {
	for _, ok := range []string{"ann", "ann-lee", "a1"} {
		if err := CheckUser(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".x", "a..b", "a.lock", "a/b", "A", "a b", "-a", "a-", "@", "a@{1}", "a~1", "a^", "a:b", "a\x00", "a\\b", "a*"} {
		if CheckUser(bad) == nil {
			t.Errorf("user %q accepted", bad)
		}
	}
	for _, ok := range []string{"origin", "team/upstream"} {
		if err := CheckRemote(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-oops", "https://x/y.git", "a..b", "x.lock", "a//b"} {
		if CheckRemote(bad) == nil {
			t.Errorf("remote %q accepted", bad)
		}
	}
	if r, u, ok := splitFetched("refs/gsd/remotes/team/up/sessions/ann"); !ok || r != "team/up" || u != "ann" {
		t.Errorf("splitFetched: %q %q %v", r, u, ok)
	}
}

// fakeGit answers from a table, for what real git is not needed for.
type fakeGit struct {
	calls []string
	err   error
}

func (f *fakeGit) Run(_ context.Context, _ []byte, _ []string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, strings.Join(args, " "))
	return nil, f.err
}

func TestPushClassifies(t *testing.T) {
	g := &fakeGit{err: &Error{Args: []string{"push"}, TimedOut: true, Err: context.DeadlineExceeded}}
	err := Repo{Git: g}.Push(context.Background(), "origin", OwnRef("ann"), "")
	var ge *Error
	if !errors.As(err, &ge) || !ge.TimedOut || !strings.Contains(err.Error(), "time limit") {
		t.Errorf("timeout: %v", err)
	}
	if g.calls[0] != "push --porcelain origin refs/gsd/sessions/ann:refs/gsd/sessions/ann" {
		t.Errorf("pushed %q: only the user's own ref, never forced", g.calls[0])
	}
}

type scriptGit struct{ out string }

func (s scriptGit) Run(_ context.Context, _ []byte, _ []string, args ...string) ([]byte, error) {
	return []byte(s.out), &Error{Args: args, Code: 1, Stderr: "remote: sessions are not welcome\nerror: failed to push some refs", Err: fmt.Errorf("exit 1")}
}

func TestPushRefusals(t *testing.T) {
	err := Repo{Git: scriptGit{"To x\n!\trefs/gsd/sessions/ann:refs/gsd/sessions/ann\t[rejected] (non-fast-forward)\nDone\n"}}.Push(context.Background(), "origin", OwnRef("ann"), "")
	if !errors.Is(err, ErrRejected) {
		t.Errorf("non-fast-forward: %v", err)
	}
	err = Repo{Git: scriptGit{"To x\n!\trefs/gsd/sessions/ann:refs/gsd/sessions/ann\t[remote rejected] (pre-receive hook declined)\nDone\n"}}.Push(context.Background(), "origin", OwnRef("ann"), "")
	var re *RefusedError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "pre-receive hook declined) (sessions are not welcome)") {
		t.Errorf("refused: %v", err)
	}
}

func TestHasFetched(t *testing.T) {
	none := func(string) bool { return false }
	if HasFetched("/r/.git", none, func(string, string) bool { return false }) {
		t.Error("nothing there, yet fetched")
	}
	if !HasFetched("/r/.git", func(p string) bool { return p == "/r/.git/refs/gsd/remotes" }, func(string, string) bool { return false }) {
		t.Error("loose refs not seen")
	}
	if !HasFetched("/r/.git", none, func(p, s string) bool { return p == "/r/.git/packed-refs" && s == " refs/gsd/remotes/" }) {
		t.Error("packed refs not seen")
	}
}

// A push that lost the race for the remote's ref lock is a push to retry after a fetch, not a
// refusal: the other push moved the ref.
func TestPushLockRaceIsRetried(t *testing.T) {
	race := scriptGitErr{out: "To x\n!\trefs/gsd/sessions/ann:refs/gsd/sessions/ann\t[remote rejected] (failed to update ref)\nDone\n",
		stderr: "remote: error: cannot lock ref 'refs/gsd/sessions/ann': is at 1111 but expected 2222\nerror: failed to push some refs"}
	if err := (Repo{Git: race}).Push(context.Background(), "origin", OwnRef("ann"), ""); !errors.Is(err, ErrRejected) {
		t.Errorf("a lock race: %v", err)
	}
	inTheWay := scriptGitErr{out: race.out, stderr: "remote: error: cannot lock ref 'refs/gsd/sessions/ann': 'refs/gsd/sessions/ann/x' exists; cannot create 'refs/gsd/sessions/ann'"}
	var re *RefusedError
	if err := (Repo{Git: inTheWay}).Push(context.Background(), "origin", OwnRef("ann"), ""); !errors.As(err, &re) {
		t.Errorf("a ref in the way: %v", err)
	}
}

type scriptGitErr struct{ out, stderr string }

func (s scriptGitErr) Run(_ context.Context, _ []byte, _ []string, args ...string) ([]byte, error) {
	return []byte(s.out), &Error{Args: args, Code: 1, Stderr: s.stderr, Err: fmt.Errorf("exit 1")}
}

// A ref nested under a user's names that user's remote, never a made-up one, and no user.
func TestNestedRefNames(t *testing.T) {
	r, u, ok := splitFetched("refs/gsd/remotes/origin/sessions/x/sessions/y")
	if !ok || r != "origin" || CheckUser(u) == nil {
		t.Errorf("splitFetched: %q %q %v", r, u, ok)
	}
	if _, ok := UserOf("refs/gsd/sessions/ann/x"); ok {
		t.Error("a nested ref names a user")
	}
	if u, ok := UserOf("refs/gsd/sessions/ann"); !ok || u != "ann" {
		t.Errorf("UserOf: %q %v", u, ok)
	}
	if CheckRemote("team/sessions") == nil {
		t.Error("a remote whose name holds /sessions is accepted")
	}
}

// Two machines that each began the session (two roots): both machines' marks, the same bytes
// whichever merges, and merging the result again changes nothing.
func TestMergeTwoRoots(t *testing.T) {
	bootA := line(t, journal.Event{Seq: 1, Time: at(0), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)})
	other := strings.Replace(session, "Started: 2026-02-03T10:00:00Z", "Started: 2026-02-03T10:30:00Z", 1)
	bootB := line(t, journal.Event{Seq: 1, Time: at(30), Type: journal.Bootstrap, Session: other, SHA256: journal.Hash([]byte(other), true)})
	idA, idB := journal.IDOf([]byte(strings.TrimSuffix(bootA, "\n"))), journal.IDOf([]byte(strings.TrimSuffix(bootB, "\n")))
	sA, _ := planfile.SetStatus([]byte(session), 1, planfile.Complete)
	sB, _ := planfile.SetStatus([]byte(other), 2, planfile.InProgress)
	mA := line(t, journal.Event{Seq: 2, Prev: idA, Time: at(10), Type: journal.Mark, Task: 1, New: "complete", SHA256: journal.Hash(sA, true)})
	mB := line(t, journal.Event{Seq: 2, Prev: idB, Time: at(40), Type: journal.Mark, Task: 2, New: "in-progress", SHA256: journal.Hash(sB, true)})
	a := Side{Session: sA, Exists: true, Journal: []byte(bootA + mA)}
	b := Side{Session: sB, Exists: true, Journal: []byte(bootB + mB)}
	ab, ba := Merge(a, b), Merge(b, a)
	if ab.Took != TookMerged || string(ab.Journal) != string(ba.Journal) || string(ab.Session) != string(ba.Session) {
		t.Fatalf("not the same both ways:\n%s\n%s\n--\n%s\n%s", ab.Journal, ab.Session, ba.Journal, ba.Session)
	}
	sts, _ := planfile.Scan(ab.Session).Statuses()
	if sts[0] != planfile.Complete || sts[1] != planfile.InProgress {
		t.Errorf("statuses %v, want both machines' marks", sts)
	}
	if again, _, _ := MergeJournals(ab.Journal, []byte(bootB+mB)); string(again) != string(ab.Journal) {
		t.Errorf("merging again changed the journal:\n%s", again)
	}
}

// The merge is a function of the two sets of lines: for histories two machines made from a
// shared start (or each from its own), merging either way gives the same bytes and session,
// merging the result with either side again changes nothing, and no line is lost.
func TestMergeIsAFunctionOfTheSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 5))
	sts := []planfile.Status{planfile.Pending, planfile.InProgress, planfile.Complete}
	type side struct {
		sess  []byte
		lines []string
		last  journal.Event
	}
	write := func(s *side, ev journal.Event) {
		if len(s.lines) > 0 {
			ev.Prev, ev.Seq = s.last.ID, s.last.Seq+1
		} else {
			ev.Seq = 1
		}
		l := line(t, ev)
		ev.ID = journal.IDOf([]byte(strings.TrimSuffix(l, "\n")))
		s.lines, s.last = append(s.lines, l), ev
	}
	mark := func(s *side, minute int) {
		n, st := 1+rng.IntN(2), sts[rng.IntN(3)]
		out, err := planfile.SetStatus(s.sess, n, st)
		if err != nil {
			return // unchanged
		}
		s.sess = out
		write(s, journal.Event{Time: at(minute), Type: journal.Mark, Task: n, New: string(st), SHA256: journal.Hash(out, true)})
	}
	for i := range 150 {
		var a side
		a.sess = []byte(session)
		write(&a, journal.Event{Time: at(0), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)})
		for k := range rng.IntN(4) {
			mark(&a, 1+k)
		}
		b := side{sess: append([]byte(nil), a.sess...), lines: append([]string(nil), a.lines...), last: a.last}
		if i%5 == 0 { // the other machine began its own session
			b = side{sess: []byte(session)}
			write(&b, journal.Event{Time: at(7), Type: journal.Bootstrap, Session: session, SHA256: journal.Hash([]byte(session), true)})
		}
		for k := range rng.IntN(5) {
			mark(&a, 10+k)
		}
		for k := range rng.IntN(5) {
			mark(&b, 10+rng.IntN(5)+k)
		}
		A := Side{Session: a.sess, Exists: true, Journal: []byte(strings.Join(a.lines, ""))}
		B := Side{Session: b.sess, Exists: true, Journal: []byte(strings.Join(b.lines, ""))}
		ab, ba := Merge(A, B), Merge(B, A)
		if string(ab.Journal) != string(ba.Journal) || string(ab.Session) != string(ba.Session) || ab.Conflict != ba.Conflict {
			t.Fatalf("history %d: not the same both ways:\n%s\n%s\n--\n%s\n%s", i, ab.Journal, ab.Session, ba.Journal, ba.Session)
		}
		for _, l := range append(append([]string(nil), a.lines...), b.lines...) {
			if !strings.Contains(string(ab.Journal), l) {
				t.Fatalf("history %d: line lost: %s", i, l)
			}
		}
		M := Side{Session: ab.Session, Exists: ab.Exists, Journal: ab.Journal}
		for _, s := range []Side{A, B} {
			if again, _, _ := MergeJournals(ab.Journal, s.Journal); string(again) != string(ab.Journal) {
				t.Fatalf("history %d: merging again changed the journal", i)
			}
			if again := Merge(M, s); string(again.Journal) != string(ab.Journal) {
				t.Fatalf("history %d: merging the result again changed it", i)
			}
		}
	}
}
