package journal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func enc(t *testing.T, ev Event) string {
	t.Helper()
	b, err := Encode(ev)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func idOf(line string) string { return IDOf([]byte(strings.TrimSuffix(line, "\n"))) }

// A line that claims a sequence number far past the event before it is not gsd's: readers skip
// it with a warning, and the next write numbers its event after the event before it, not after
// the claim. Stream and the tail a writer reads agree with Parse.
func TestAbsurdSequenceNumberIsNotFollowed(t *testing.T) {
	boot := enc(t, Event{Seq: 1, Time: t0, Type: Bootstrap, Session: "x", SHA256: Hash([]byte("x"), true)})
	mark := enc(t, Event{Seq: 2, Prev: idOf(boot), Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)})
	absurd := enc(t, Event{Seq: MaxSeq, Prev: idOf(mark), Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)})
	orphan := enc(t, Event{Seq: 500, Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)}) // no parent, no event 499
	for name, bad := range map[string]string{"with a parent": absurd, "without one": orphan} {
		data := boot + mark + bad
		evs, probs := Parse([]byte(data))
		if len(evs) != 2 || len(probs) != 1 || probs[0].Line != 3 || !strings.Contains(probs[0].Message, "not written by gsd") {
			t.Errorf("%s: Parse: %d events, problems %v", name, len(evs), probs)
		}
		linear, sprobs, err := Stream(strings.NewReader(data), nil)
		if err != nil || !linear || len(sprobs) != 1 || sprobs[0] != probs[0] {
			t.Errorf("%s: Stream: %v %v %v", name, linear, sprobs, err)
		}
		p := filepath.Join(t.TempDir(), FileName)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		var got Event
		if _, err := Record(p, func(last Event, ok bool) []Event {
			got = last
			return []Event{{Seq: NextSeq(last.Seq), Time: t0, Type: Snapshot, SHA256: last.SHA256}}
		}); err != nil {
			t.Fatal(err)
		}
		if got.Seq != 2 {
			t.Errorf("%s: a write follows seq %d", name, got.Seq)
		}
		after, _ := os.ReadFile(p)
		evs, probs = Parse(after)
		if len(evs) != 3 || evs[2].Seq != 3 || evs[2].Prev != idOf(mark) || len(probs) != 1 {
			t.Errorf("%s: after the write: %+v %v", name, evs, probs)
		}
	}
}

// Parents that loop through an inferred parent (the first line names the second, which names
// none and is numbered one past the first) hide no event: the line that breaks the numbering is
// reported, and every other event, later ones included, is there in Order.
func TestParentLoopHidesNothing(t *testing.T) {
	a := Event{Seq: 5, Time: t0, Type: Bootstrap, Session: "x", SHA256: Hash([]byte("x"), true)}
	b := enc(t, Event{Seq: 6, Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)})
	a.Prev = idOf(b)
	lineA := enc(t, a)
	c := enc(t, Event{Seq: 7, Prev: idOf(b), Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)})
	d := enc(t, Event{Seq: 8, Prev: idOf(c), Time: t0, Type: Snapshot, SHA256: Hash([]byte("x"), true)})
	evs, probs := Parse([]byte(lineA + b + c + d))
	if len(probs) != 1 || probs[0].Line != 1 {
		t.Errorf("problems %v, want line 1 reported", probs)
	}
	if got := Order(evs); len(got) != 3 || got[2].Seq != 8 {
		t.Errorf("Order: %+v", got)
	}
	// A loop Parse would not make (events built in memory): Order still emits every event.
	x := Event{ID: "x", Prev: "y", Seq: 3, Type: Snapshot}
	y := Event{ID: "y", Prev: "x", Seq: 3, Type: Snapshot}
	z := Event{ID: "z", Prev: "y", Seq: 4, Type: Snapshot}
	if got := Order([]Event{z, x, y}); len(got) != 3 || got[0].ID != "x" || got[2].ID != "z" {
		t.Errorf("a loop: %+v", got)
	}
}
