package hydrate

import (
	"bytes"
	"io"
	"io/fs"
	"iter"
	"slices"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
)

// A session is taken over when a teammate copied it (gsd resume) and its owner has not changed
// it since: their agent continues the plan, and the owner's would duplicate the work. The
// owner's journal says so: a handed-over event, written by the teammate's gsd resume on this
// checkout, or by the owner's gsd sync when it saw the teammate's published takeover. The
// takeover holds while every later event left the session as the handover found it (an agent
// taking the session up again changes nothing; a mark, a start or a restore does) and the
// session file is still those bytes.

// takeoverTail bounds how much of the end of a journal takeovers reads: the handed-over events
// and the events after them that left the session unchanged are a few hundred bytes each, and
// the first event that changed it ends the search.
const takeoverTail = 64 << 10

// takeovers are the takeovers of user's session, whose bytes are src, that still hold, oldest
// first; nil when there are none or the journal cannot be read (gsd log reports that).
func (e *Env) takeovers(user string, src []byte) []TakenOver {
	other := *e
	other.User.User = user
	rel := other.journalPath()
	f, err := e.FS.Open(rel)
	if err != nil {
		return nil
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	buf, err := tail(f, fi.Size(), takeoverTail)
	if err != nil || !bytes.Contains(buf, []byte(`"`+journal.HandedOver+`"`)) {
		return nil // no takeover in sight: nothing to parse (hydrate runs on every turn)
	}
	return heldTakeovers(lastEvents(buf), journal.Hash(src, true))
}

// lastEvents parses the lines of buf from the last back, lazily: heldTakeovers stops at the
// first event that changed the session, usually the one before the last, and the older lines
// (a bootstrap's holds the whole session) are never parsed.
func lastEvents(buf []byte) iter.Seq[journal.Event] {
	return func(yield func(journal.Event) bool) {
		for end := len(buf); end > 0; {
			start := bytes.LastIndexByte(buf[:end-1], '\n') + 1
			evs, _ := journal.Parse(buf[start:end]) // a line that is no event is skipped
			if len(evs) == 1 && !yield(evs[0]) {
				return
			}
			end = start
		}
	}
}

// tail reads the last n bytes of the size bytes of f, from the start of a line.
func tail(f fs.File, size, n int64) ([]byte, error) {
	n = min(n, size)
	buf := make([]byte, n)
	if ra, ok := f.(io.ReaderAt); ok {
		if _, err := ra.ReadAt(buf, size-n); err != nil && err != io.EOF {
			return nil, err
		}
	} else {
		all, err := io.ReadAll(io.LimitReader(f, size))
		if err != nil {
			return nil, err
		}
		buf = all[max(0, int64(len(all))-n):]
	}
	if n < size {
		// The first line may have begun before the window: drop what is left of it.
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return nil, nil
		}
		buf = buf[i+1:]
	}
	return buf, nil
}

// heldTakeovers walks events from the last back: the handed-over events after the last change
// of the session, when the session is still what they saw (hash).
func heldTakeovers(backwards iter.Seq[journal.Event], hash string) []TakenOver {
	var out []TakenOver
	for ev := range backwards {
		if ev.SHA256 != hash {
			break // the session was changed here: takeovers before it were answered
		}
		if t, ok := handedOverTo(ev); ok {
			out = append(out, t)
		}
	}
	slices.Reverse(out)
	return out
}

// mergeTakeovers adds to have the takeovers of more that it does not hold yet (the same teammate
// at the same time), and keeps them in time order.
func mergeTakeovers(have, more []TakenOver) []TakenOver {
	for _, t := range more {
		if !slices.ContainsFunc(have, func(h TakenOver) bool { return h.By == t.By && h.Time.Equal(t.Time) }) {
			have = append(have, t)
		}
	}
	slices.SortStableFunc(have, func(a, b TakenOver) int { return a.Time.Compare(b.Time) })
	return have
}

// takeoversSince are the takeovers at or after t.
func takeoversSince(ts []TakenOver, t time.Time) []TakenOver {
	var out []TakenOver
	for _, x := range ts {
		if !x.Time.Before(t) {
			out = append(out, x)
		}
	}
	return out
}

// ownTakeovers adds to takeovers (by user taken over) the fetched sessions the user took over
// here and has not published yet: their resume events ("from USER@REMOTE on HOST"). Without
// them, the teammate's fetched session would look worked on until the user's next gsd sync.
func (e *Env) ownTakeovers(fetched []teamsync.Fetched, takeovers map[string][]TakenOver) {
	if len(fetched) == 0 || e.User.User == "" {
		return
	}
	lr, err := e.readJournal()
	if err != nil {
		return
	}
	for _, ev := range lr.Events {
		h, ok := parseHandover(ev, e.User.User)
		if !ok {
			continue
		}
		t := TakenOver{By: h.By, Remote: h.Remote, Time: h.Time}
		if h.Host != "" {
			t.Host = &h.Host
		}
		takeovers[h.User] = mergeTakeovers(takeovers[h.User], []TakenOver{t})
	}
}

// String says who took the session over, where and when: "bob on vm at
// 2026-02-04T10:10:00Z (origin)", or "(this checkout)" for a takeover made here.
func (t TakenOver) String() string {
	s := t.By
	if t.Host != nil {
		s += " on " + *t.Host
	}
	where := "this checkout"
	if t.Remote != "" {
		where = t.Remote
	}
	return s + " at " + t.Time.UTC().Format(time.RFC3339) + " (" + where + ")"
}

// TakeBack is the argument of gsd resume that takes the session back from whoever took it over
// last: "bob@origin", or "bob" on this checkout.
func (t TakenOver) TakeBack() string {
	if t.Remote != "" {
		return t.By + "@" + t.Remote
	}
	return t.By
}
