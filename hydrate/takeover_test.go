package hydrate

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
)

// TestHandedOverTo: a handed-over event's note is read back into who took the session, where
// and when, for both notes gsd writes, and nothing else is.
func TestHandedOverTo(t *testing.T) {
	at := time.Date(2026, 2, 4, 10, 0, 0, 0, time.UTC)
	seen := time.Date(2026, 2, 4, 10, 10, 0, 0, time.UTC)
	synced := takenOverNote(teamsync.Handover{User: "ann", Remote: "origin", By: "bob", Host: "laptop", Time: seen})
	for _, tc := range []struct {
		ev   journal.Event
		want string
	}{
		{journal.Event{Type: journal.HandedOver, Time: at, Note: synced}, "bob on laptop at 2026-02-04T10:10:00Z (origin) bob@origin"},
		{journal.Event{Type: journal.HandedOver, Time: at, Note: "resumed by bob at 2026-02-04T10:10:00Z (seen through up-stream)"}, "bob at 2026-02-04T10:10:00Z (up-stream) bob@up-stream"},
		{journal.Event{Type: journal.HandedOver, Time: at, Note: "resumed by ann"}, "ann at 2026-02-04T10:00:00Z (this checkout) ann"},
		{journal.Event{Type: journal.HandedOver, Time: at, Note: "something else"}, "-"},
		{journal.Event{Type: journal.Resume, Time: at, Note: "resumed by ann"}, "-"},
	} {
		got := "-"
		if to, ok := handedOverTo(tc.ev); ok {
			got = to.String() + " " + to.TakeBack()
		}
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.ev.Note, got, tc.want)
		}
	}
}

// TestHeldTakeovers: a takeover holds while every later event left the session as it found it
// (an agent taking it up again, a snapshot), and the session is still those bytes.
func TestHeldTakeovers(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 2, 4, 10, m, 0, 0, time.UTC) }
	ev := func(typ, sha, note string, m int) journal.Event {
		return journal.Event{Type: typ, SHA256: sha, Note: note, Time: at(m)}
	}
	base := []journal.Event{ev(journal.Bootstrap, "h1", "", 0), ev(journal.Mark, "h2", "", 1)}
	handed := ev(journal.HandedOver, "h2", "resumed by bob", 2)
	for _, tc := range []struct {
		name string
		evs  []journal.Event
		hash string
		want int
	}{
		{"handed over last", append(base, handed), "h2", 1},
		{"taken up again since", append(base, handed, ev(journal.Rehydrated, "h2", "clear", 3), ev(journal.Detach, "h2", "", 4)), "h2", 1},
		{"twice", append(base, handed, ev(journal.HandedOver, "h2", "resumed by cy", 5)), "h2", 2},
		{"marked since", append(base, handed, ev(journal.Mark, "h3", "", 3)), "h3", 0},
		{"changed by hand since", append(base, handed), "h9", 0},
		{"an earlier takeover, answered", append(base[:1], ev(journal.HandedOver, "h1", "resumed by bob", 1), base[1]), "h2", 0},
	} {
		backwards := func(yield func(journal.Event) bool) {
			for _, ev := range slices.Backward(tc.evs) {
				if !yield(ev) {
					return
				}
			}
		}
		if got := heldTakeovers(backwards, tc.hash); len(got) != tc.want {
			t.Errorf("%s: %d takeovers %v, want %d", tc.name, len(got), got, tc.want)
		}
	}
}

// TestTakeoversReadsTheTail: only the end of a long journal is read, from a line start.
func TestTakeoversReadsTheTail(t *testing.T) {
	src := []byte("<!-- Plan: p.md -->\n")
	h := journal.Hash(src, true)
	var b strings.Builder
	for i := range 2000 { // about 300 KiB: more than takeoverTail
		fmt.Fprintf(&b, `{"schemaVersion":1,"seq":%d,"time":"2026-02-04T10:00:00Z","type":"rehydrated","note":"%s","sha256":"%s"}`+"\n", i+1, strings.Repeat("x", 60), h)
	}
	fmt.Fprintf(&b, `{"schemaVersion":1,"seq":2001,"time":"2026-02-04T10:00:00Z","type":"handed-over","note":"resumed by bob","sha256":"%s"}`+"\n", h)
	if b.Len() <= takeoverTail {
		t.Fatalf("the journal is %d bytes, not more than the tail", b.Len())
	}
	e := &Env{FS: fstest.MapFS{".planning/sessions/ann/journal.jsonl": {Data: []byte(b.String())}}}
	got := e.takeovers("ann", src)
	if len(got) != 1 || got[0].By != "bob" {
		t.Errorf("takeovers = %v", got)
	}
}
