package journal

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/planfile"
)

// zeros is a file of size bytes ending in zeros (a 2 GB torn tail with no newline) after head,
// that counts what is read from it.
type zeros struct {
	head       []byte
	size, read int64
}

func (z *zeros) ReadAt(p []byte, off int64) (int, error) {
	z.read += int64(len(p))
	if z.read > 4*MaxTail {
		return 0, errors.New("read far more than a journal line can be")
	}
	for i := range p {
		p[i] = 0
		if o := off + int64(i); o < int64(len(z.head)) {
			p[i] = z.head[o]
		}
	}
	if off+int64(len(p)) > z.size {
		return int(z.size - off), io.EOF
	}
	return len(p), nil
}

// TestTailReadIsBounded: finding the last event of a journal reads a bounded number of bytes
// whatever the journal's size and shape: a 2 GB torn tail is found to hold no event after at
// most MaxTail bytes, not read whole.
func TestTailReadIsBounded(t *testing.T) {
	l1, _ := Encode(Event{Seq: 1, Time: t0, Type: Mark, Task: 1, New: "complete"})
	for _, head := range [][]byte{nil, l1} {
		z := &zeros{head: head, size: 2 << 30}
		t1, err := readTail(z, z.size)
		if err != nil || t1.ok || !t1.overlong {
			t.Fatalf("ok %v overlong %v err %v", t1.ok, t1.overlong, err)
		}
		if z.read > 2*MaxTail {
			t.Errorf("read %d bytes of a %d-byte journal", z.read, z.size)
		}
	}
	// A tail of garbage lines: as bounded.
	z := &zeros{head: bytes.Repeat([]byte("x\n"), MaxTail), size: 2*MaxTail + 10}
	if t1, err := readTail(z, z.size); err != nil || t1.ok || !t1.overlong || z.read > 2*MaxTail {
		t.Errorf("garbage lines: ok %v overlong %v err %v, read %d", t1.ok, t1.overlong, err, z.read)
	}
}

// TestOverlongTailIsMovedAside: a journal ending in 2 GB without a newline (a sparse file) is
// moved aside whole, nothing deleted, and a new journal starts with the events of the write,
// which leaves nothing to warn about.
func TestOverlongTailIsMovedAside(t *testing.T) {
	l1, _ := Encode(Event{Seq: 1, Time: t0, Type: Mark, Task: 1, New: "complete"})
	p := write(t, string(l1)+"{")
	if err := os.Truncate(p, 2<<30); err != nil {
		t.Skipf("no sparse file here: %v", err)
	}
	var given []bool
	probs, err := Record(p, func(last Event, ok bool) []Event {
		given = append(given, ok)
		return []Event{{Seq: last.Seq + 1, Time: t0, Type: Reconcile, Note: "the journal starts here"}}
	})
	if err != nil || len(probs) != 1 || !probs[0].Repaired || !strings.Contains(probs[0].Message, "moved to journal.damaged.jsonl") {
		t.Fatalf("problems %v err %v", probs, err)
	}
	if len(given) != 1 || given[0] {
		t.Errorf("build was given a last event: %v", given)
	}
	if fi, err := os.Stat(filepath.Join(filepath.Dir(p), "journal.damaged.jsonl")); err != nil || fi.Size() != 2<<30 {
		t.Errorf("the damaged journal was not kept whole: %v", err)
	}
	data, _ := os.ReadFile(p)
	if evs, probs := Parse(data); len(evs) != 1 || evs[0].Seq != 1 || len(probs) != 0 {
		t.Errorf("new journal %q: %v %v", data, evs, probs)
	}
}

// TestSeqOutOfRangeIsGarbage: a line whose seq is the largest int64 is garbage, not the last
// event: the next event follows the last real one and the history stays replayable; at
// MaxSeq numbers stop growing, and events keep their order by their parents.
func TestSeqOutOfRangeIsGarbage(t *testing.T) {
	boot := []byte("<!-- s -->\n")
	l1, _ := Encode(Event{Seq: 5, Time: t0, Type: Bootstrap, Session: string(boot), SHA256: Hash(boot, true)})
	hostile := strings.Replace(string(l1), `"seq":5`, `"seq":9223372036854775807`, 1)
	p := write(t, string(l1)+hostile)
	probs, err := Record(p, func(last Event, ok bool) []Event {
		if !ok || last.Seq != 5 {
			t.Errorf("build given %+v %v, want seq 5", last, ok)
		}
		return []Event{{Seq: NextSeq(last.Seq), Time: t0, Type: Snapshot, SHA256: last.SHA256}}
	})
	if err != nil || len(probs) != 1 || !strings.Contains(probs[0].Message, "out of range") {
		t.Fatalf("problems %v err %v", probs, err)
	}
	data, _ := os.ReadFile(p)
	evs, _ := Parse(data)
	if len(evs) != 2 || evs[1].Seq != 6 {
		t.Fatalf("events %+v", evs)
	}
	if st, err := Replay(evs, nil); err != nil || st.Seq != 6 || !bytes.Equal(st.Session, boot) {
		t.Errorf("replay: %+v %v", st, err)
	}
	if NextSeq(MaxSeq) != MaxSeq || NextSeq(MaxSeq-1) != MaxSeq || NextSeq(-3) != 1 {
		t.Errorf("NextSeq does not hold to 1..MaxSeq")
	}
	// At MaxSeq, order follows the parents, not the IDs.
	chain, _ := Encode(Event{Seq: MaxSeq, Time: t0, Type: Bootstrap, Session: string(boot), SHA256: Hash(boot, true)})
	var journal []byte
	journal = append(journal, chain...)
	for i := 0; i < 20; i++ {
		evs, _ := Parse(journal)
		line, _ := Encode(Event{Seq: MaxSeq, Prev: evs[len(evs)-1].ID, Time: t0, Type: Snapshot, Snapshot: string(rune('a' + i)), SHA256: Hash(boot, true)})
		journal = append(journal, line...)
	}
	evs, probs2 := Parse(journal)
	ordered := Order(evs)
	for i := range ordered {
		if ordered[i].ID != evs[i].ID || len(probs2) != 0 {
			t.Fatalf("saturated events out of their written order at %d", i)
		}
	}
}

// session is one writer's view of a session and its journal, writing as gsd does: a
// reconcile when the session is not what the journal ends with, then the event.
type session struct {
	t     *testing.T
	path  string
	cur   []byte
	truth map[string][]byte // event ID -> the session after it
	clock time.Time
}

func (s *session) write(next []byte, ev Event) {
	s.t.Helper()
	_, err := Record(s.path, func(last Event, ok bool) []Event {
		var out []Event
		if h := Hash(s.cur, true); ok && last.SHA256 != h || !ok && s.cur != nil {
			out = append(out, Event{Type: Reconcile, Session: string(s.cur), SHA256: h})
		}
		ev.SHA256 = Hash(next, true)
		out = append(out, ev)
		seq := last.Seq
		for i := range out {
			seq = NextSeq(seq)
			s.clock = s.clock.Add(time.Second)
			out[i].Seq, out[i].Time = seq, s.clock
		}
		return out
	})
	if err != nil {
		s.t.Fatal(err)
	}
	s.cur = next
	s.record()
}

// record notes the session after every event of the journal not seen yet.
func (s *session) record() {
	data, _ := os.ReadFile(s.path)
	evs, _ := Parse(data)
	for _, ev := range evs {
		if _, ok := s.truth[ev.ID]; !ok {
			s.truth[ev.ID] = s.cur
		}
	}
}

func (s *session) mark(n int, st planfile.Status) {
	s.t.Helper()
	out, err := planfile.SetStatus(s.cur, n, st)
	if err != nil {
		s.t.Fatal(err)
	}
	s.write(out, Event{Type: Mark, Task: n, New: string(st)})
}

func (s *session) fork(path string) *session {
	data, _ := os.ReadFile(s.path)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		s.t.Fatal(err)
	}
	return &session{t: s.t, path: path, cur: s.cur, truth: s.truth, clock: s.clock}
}

// union is what git's union merge makes of a journal both branches appended to: the lines they
// share, then ours, then theirs.
func union(base, ours, theirs []byte) []byte {
	out := append([]byte(nil), base...)
	out = append(out, ours[len(base):]...)
	return append(out, theirs[len(base):]...)
}

// TestUnionMergeReplays: the same user worked on two branches; git's union merge of their
// journals holds seqs 1 2 3 2 3. Every event is read exactly once, in an order that does not
// depend on which branch was merged into which, and each replays to the session of its own
// branch. The same holds for journals written before events named their parent, and for a
// line both branches hold. The next write continues the history with nothing to warn about.
func TestUnionMergeReplays(t *testing.T) {
	dir := t.TempDir()
	boot, err := planfile.Bootstrap([]byte(fuzzPlan), "ann", ".planning/phases/01-x/01-01-PLAN.md", t0)
	if err != nil {
		t.Fatal(err)
	}
	main := &session{t: t, path: filepath.Join(dir, "base.jsonl"), truth: map[string][]byte{}, clock: t0}
	main.write(boot, Event{Type: Bootstrap, Session: string(boot)})
	main.mark(1, planfile.InProgress)
	a, b := main.fork(filepath.Join(dir, "a.jsonl")), main.fork(filepath.Join(dir, "b.jsonl"))
	a.mark(1, planfile.Complete)
	a.mark(2, planfile.InProgress)
	b.mark(3, planfile.Complete)
	b.mark(4, planfile.InProgress)
	read := func(p string) []byte { data, _ := os.ReadFile(p); return data }
	base, ours, theirs := read(main.path), read(a.path), read(b.path)
	legacy := func(data []byte) []byte {
		var out [][]byte
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if i := bytes.Index(l, []byte(`"prev":"`)); i >= 0 {
				l = append(l[:i:i], l[i+len(`"prev":"0123456789abcdef",`):]...)
			}
			out = append(out, l)
		}
		return bytes.Join(out, nil)
	}
	// The session after each event, by what the event says (legacy lines have other IDs).
	key := func(ev Event) string { return fmt.Sprint(ev.Seq, ev.Time.Unix(), ev.Type, ev.Task, ev.New) }
	byContent := map[string][]byte{}
	for _, data := range [][]byte{ours, theirs} {
		evs, _ := Parse(data)
		for _, ev := range evs {
			byContent[key(ev)] = main.truth[ev.ID]
		}
	}
	for _, tc := range []struct {
		name string
		ab   []byte
		ba   []byte
	}{
		{"prev", union(base, ours, theirs), union(base, theirs, ours)},
		{"legacy", union(legacy(base), legacy(ours), legacy(theirs)), union(legacy(base), legacy(theirs), legacy(ours))},
	} {
		evsAB, probs := Parse(tc.ab)
		evsBA, probs2 := Parse(tc.ba)
		if len(probs)+len(probs2) != 0 {
			t.Fatalf("%s: problems %v %v", tc.name, probs, probs2)
		}
		ab, ba := Order(evsAB), Order(evsBA)
		var seqs []int64
		for i := range ab {
			seqs = append(seqs, ab[i].Seq)
			if ab[i].Seq != ba[i].Seq || !ab[i].Time.Equal(ba[i].Time) || ab[i].Type != ba[i].Type || ab[i].Task != ba[i].Task {
				t.Fatalf("%s: the order depends on the merge's direction at %d: %+v / %+v", tc.name, i, ab[i], ba[i])
			}
		}
		if len(ab) != 6 || len(ba) != 6 {
			t.Fatalf("%s: %d and %d events, want 6 (seqs %v)", tc.name, len(ab), len(ba), seqs)
		}
		for i, ev := range ab {
			st, err := Replay(ab, func(e Event) bool { return indexOf(ab, e.ID) > i })
			if err != nil {
				t.Fatalf("%s: replay to event %d (seq %d): %v", tc.name, i, ev.Seq, err)
			}
			want := byContent[key(ev)]
			if !bytes.Equal(st.Session, want) {
				t.Errorf("%s: event %d (seq %d) replays to\n%s\nwant\n%s", tc.name, i, ev.Seq, st.Session, want)
			}
			if st.Seq != ev.Seq {
				t.Errorf("%s: replay to event %d stopped at seq %d", tc.name, i, st.Seq)
			}
		}
		// A line both sides hold is one event.
		lines := bytes.SplitAfter(tc.ab, []byte("\n"))
		dup := append(append([]byte(nil), tc.ab...), lines[2]...)
		evsDup, _ := Parse(dup)
		if n := len(Order(evsDup)); n != 6 {
			t.Errorf("%s: a duplicated line makes %d events", tc.name, n)
		}
	}
	// The next write after the merge: a reconcile with the merged session, then the mark; the
	// whole history replays, without a problem.
	merged := &session{t: t, path: filepath.Join(dir, "merged.jsonl"), truth: main.truth, clock: t0.Add(time.Hour)}
	if err := os.WriteFile(merged.path, union(base, ours, theirs), 0o644); err != nil {
		t.Fatal(err)
	}
	merged.cur = a.cur // git kept branch a's session file
	merged.mark(3, planfile.InProgress)
	evs, probs := Parse(read(merged.path))
	st, err := Replay(evs, nil)
	if len(probs) != 0 || err != nil || !bytes.Equal(st.Session, merged.cur) || len(Order(evs)) != 8 {
		t.Fatalf("after the merge: %v %v, %d events\n%s", probs, err, len(Order(evs)), st.Session)
	}
}

func indexOf(evs []Event, id string) int {
	for i, ev := range evs {
		if ev.ID == id {
			return i
		}
	}
	return -1
}
