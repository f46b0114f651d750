package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// LogQuery selects journal events.
type LogQuery struct {
	Since time.Time // events at or after it (zero: all)
	Task  int       // events about task n (0: all)
}

// LogResult is the user's journal, as far as it could be read.
type LogResult struct {
	Path     string // root-relative journal
	Events   []journal.Event
	Problems []string // lines skipped
}

// MaxJournalSize bounds the journals gsd reads whole (gsd log, tasks --at, stats, sessions):
// some 300,000 events.
const MaxJournalSize = 64 << 20

// readJournal reads and parses the user's whole journal; a missing one has no events.
func (e *Env) readJournal() (*LogResult, error) { return e.readJournalAt(e.JournalPath()) }

// readJournalAt reads and parses the whole journal rel; a missing one has no events.
func (e *Env) readJournalAt(rel string) (*LogResult, error) {
	res := &LogResult{Path: rel}
	data, err := e.readFileUpTo(rel, MaxJournalSize)
	if errors.Is(err, fs.ErrNotExist) {
		return res, nil
	}
	if err != nil {
		return nil, err
	}
	evs, probs := journal.Parse(data)
	res.Events = journal.Order(evs)
	for _, p := range probs {
		res.Problems = append(res.Problems, fmt.Sprintf("%s:%d: skipped: %s", rel, p.Line, p.Message))
	}
	return res, nil
}

// Log returns the journal events q selects, oldest first. It writes nothing.
func (e *Env) Log(q LogQuery) (*LogResult, error) {
	res, err := e.readJournal()
	if err != nil {
		return nil, err
	}
	kept := res.Events[:0]
	status := "" // task q.Task's status after each event, when q.Task is asked about
	for _, ev := range res.Events {
		before := status
		if q.Task != 0 {
			status = statusAfter(ev, q.Task, status)
		}
		if !q.Since.IsZero() && ev.Time.Before(q.Since) {
			continue
		}
		if q.Task != 0 && !aboutTask(ev, q.Task) && status == before {
			continue
		}
		kept = append(kept, ev)
	}
	res.Events = kept
	return res, nil
}

// statusAfter is task n's status after ev, given what it was before: a mark of it sets it; an
// event that records the whole session (bootstrap, restore, carry, reconcile, resume) says it.
// So a restore that changed task n is about task n, though it names no task.
func statusAfter(ev journal.Event, n int, before string) string {
	switch {
	case ev.Type == journal.Mark && ev.Task == n:
		return ev.New
	case ev.Session != "":
		sts, err := planfile.Scan([]byte(ev.Session)).Statuses()
		if err != nil || n > len(sts) {
			return ""
		}
		return string(sts[n-1])
	case ev.Type == journal.Archive:
		return ""
	}
	return before
}

// aboutTask says whether ev concerns task n: a status change of it, or a carry-over to it.
func aboutTask(ev journal.Event, n int) bool {
	if ev.Task == n {
		return true
	}
	for _, c := range ev.Carried {
		if c.Task == n {
			return true
		}
	}
	return false
}

// ParseWhen reads a point in history: a sequence number ("42") or a time (RFC 3339, or
// "2006-01-02T15:04:05" and "2006-01-02 15:04" and "2006-01-02" taken as UTC).
func ParseWhen(s string) (seq int64, t time.Time, err error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n > 0 && n <= journal.MaxSeq && len(s) < 9 {
		return n, time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return 0, t.UTC(), nil
		}
	}
	return 0, time.Time{}, fmt.Errorf("%s is neither a sequence number nor a time (such as 2026-02-03T10:00:00Z)", textfmt.Quote(s))
}

// AtResult is the session as it was at a point in history.
type AtResult struct {
	Session *Session
	Seq     int64 // the last event applied
	Time    time.Time
	Base    journal.Event // the event replay started from
	Applied int           // status changes applied after it
	Journal *LogResult
}

// At rebuilds the user's session as it was at sequence number seq, or (seq 0) at time t: the
// nearest event before it that records the whole session, plus the status changes after it,
// each checked against its recorded hash. It writes nothing.
func (e *Env) At(seq int64, t time.Time) (*AtResult, error) {
	lr, err := e.readJournal()
	if err != nil {
		return nil, err
	}
	if len(lr.Events) == 0 {
		return nil, fmt.Errorf("%s: no history recorded yet", lr.Path)
	}
	stop := func(ev journal.Event) bool {
		if seq > 0 {
			return ev.Seq > seq
		}
		return ev.Time.After(t)
	}
	if last := lr.Events[len(lr.Events)-1].Seq; seq > last {
		return nil, fmt.Errorf("%s: no event %d: the history ends at seq %d (%s)", lr.Path, seq, last, lr.Events[len(lr.Events)-1].Time.UTC().Format(time.RFC3339))
	}
	st, err := journal.Replay(lr.Events, stop)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", lr.Path, err)
	}
	if st.Seq == 0 {
		return nil, fmt.Errorf("%s: the history starts later (seq %d at %s)", lr.Path, lr.Events[0].Seq, lr.Events[0].Time.Format(time.RFC3339))
	}
	res := &AtResult{Seq: st.Seq, Journal: lr, Base: st.Base, Applied: st.Applied}
	for _, ev := range lr.Events {
		if stop(ev) {
			break
		}
		res.Time = ev.Time
	}
	s := &Session{Path: e.SessionPath()}
	if !st.Exists {
		s.State = StateNoSession
		res.Session = s
		return res, nil
	}
	if err := s.read(st.Session); err != nil {
		return nil, err
	}
	res.Session = s
	return res, nil
}
