package hydrate

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/rootfs"
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
func (e *Env) readJournal() (*LogResult, error) { return e.readJournalAt(e.journalPath()) }

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

// Log returns the journal events q selects, oldest first. It writes nothing. It holds every
// event selected: gsd log streams them instead (LogStream).
func (h SessionHistory) Log(q LogQuery) (*LogResult, error) {
	js, err := h.LogStream(q)
	if err != nil {
		return nil, err
	}
	res := &LogResult{Path: js.Path, Problems: js.Problems}
	err = js.Each(func(ev journal.Event) error {
		res.Events = append(res.Events, ev)
		return nil
	})
	return res, err
}

// LogStream opens the user's journal for the events q selects (Each hands them on, oldest
// first); its Problems are known at once. It writes nothing.
func (h SessionHistory) LogStream(q LogQuery) (*JournalStream, error) {
	e := h.e
	js, err := e.openJournal(e.journalPath())
	if err != nil {
		return nil, err
	}
	all := js.each
	js.each = func(fn func(journal.Event) error) error {
		status := "" // task q.Task's status after each event, when q.Task is asked about
		return all(func(ev journal.Event) error {
			before := status
			if q.Task != 0 {
				status = statusAfter(ev, q.Task, status)
			}
			if !q.Since.IsZero() && ev.Time.Before(q.Since) {
				return nil
			}
			if q.Task != 0 && !aboutTask(ev, q.Task) && status == before {
				return nil
			}
			return fn(ev)
		})
	}
	return js, nil
}

// JournalStream is a journal opened for reading its events one at a time: its path and the
// lines it skips (as LogResult has them), and Each.
type JournalStream struct {
	Path     string
	Problems []string
	// MaxSeq and Writers are what the first reading learnt, for a reader that lays out columns
	// without reading the journal twice more: the highest sequence number, and each distinct
	// writer (source and agent instance) in the order they first wrote.
	MaxSeq  int64
	Writers []Writer
	// Last is the last event in gsd's order, without its session text (HasLast false when
	// there is none), and Instance the agent instance attached at its end (attached): what a
	// listing of sessions needs, without reading the journal again.
	Last     journal.Event
	HasLast  bool
	Instance string
	// Own is the last event of the user's own doing, without its session text (HasOwn false
	// when there is none): a handed-over event is a teammate's, not the user's activity.
	Own    journal.Event
	HasOwn bool
	each   func(fn func(journal.Event) error) error
}

// attached is the agent instance attached to a session after event ev, cur before it: the
// instance of the last event that had one, until it (or an event of no instance) detaches.
func attached(cur string, ev journal.Event) string {
	switch {
	case ev.Type == journal.Detach && (ev.Instance == cur || ev.Instance == ""):
		return ""
	case ev.Instance != "":
		return ev.Instance
	}
	return cur
}

// Writer is who wrote a journal event: its source (cli, hook, mcp) and agent instance.
type Writer struct{ Source, Instance string }

// note records what the first reading learns of ev.
func (js *JournalStream) note(ev journal.Event, seen map[Writer]bool) {
	js.Instance = attached(js.Instance, ev)
	ev.Session = ""
	js.Last, js.HasLast = ev, true
	if ev.Type != journal.HandedOver {
		js.Own, js.HasOwn = ev, true
	}
	js.MaxSeq = max(js.MaxSeq, ev.Seq)
	if w := (Writer{ev.Source, ev.Instance}); !seen[w] {
		seen[w] = true
		js.Writers = append(js.Writers, w)
	}
}

// Each hands fn the journal's events in the order gsd shows them (journal.Order), stopping at
// fn's first error.
func (js *JournalStream) Each(fn func(journal.Event) error) error { return js.each(fn) }

// openJournal opens the journal rel (a missing one has no events) under the rules of every file
// gsd reads (a regular file, inside the project, at most MaxJournalSize). A journal that is one
// chain, as a single writer leaves it, is read once here for its problems and order and once
// more by Each, never held whole: gsd log, stats and sessions keep a flat memory on a journal of
// any length. One joined by a union merge is read whole and ordered (journal.Order).
func (e *Env) openJournal(rel string) (*JournalStream, error) {
	js := &JournalStream{Path: rel, each: func(func(journal.Event) error) error { return nil }}
	fi, err := fs.Stat(e.FS, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return js, nil
	}
	if err == nil {
		switch {
		case fi.IsDir():
			err = &fs.PathError{Op: "read", Path: rel, Err: rootfs.ErrIsDir}
		case !fi.Mode().IsRegular():
			err = &fs.PathError{Op: "read", Path: rel, Err: &rootfs.NotRegularError{Type: fi.Mode().Type()}}
		case fi.Size() > MaxJournalSize:
			err = &fs.PathError{Op: "read", Path: rel, Err: rootfs.ErrTooLarge}
		}
	}
	if err != nil {
		return nil, readError(rel, err, MaxJournalSize)
	}
	var size int64
	seen := map[Writer]bool{}
	linear, probs, err := e.streamFile(rel, -1, &size, func(ev journal.Event) error {
		js.note(ev, seen)
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range probs {
		js.Problems = append(js.Problems, fmt.Sprintf("%s:%d: skipped: %s", rel, p.Line, p.Message))
	}
	if linear {
		// The bytes read the first time, no more: a line a hook appends meanwhile is the
		// next reading's.
		js.each = func(fn func(journal.Event) error) error {
			_, _, err := e.streamFile(rel, size, nil, fn)
			return err
		}
		return js, nil
	}
	lr, err := e.readJournalAt(rel)
	if err != nil {
		return nil, err
	}
	js.Problems = lr.Problems
	js.MaxSeq, js.Writers, js.Last, js.HasLast, js.Instance = 0, nil, journal.Event{}, false, ""
	js.Own, js.HasOwn = journal.Event{}, false
	clear(seen)
	for _, ev := range lr.Events {
		js.note(ev, seen)
	}
	js.each = func(fn func(journal.Event) error) error {
		for _, ev := range lr.Events {
			if err := fn(ev); err != nil {
				return err
			}
		}
		return nil
	}
	return js, nil
}

// streamFile runs journal.Stream on the first limit bytes of rel (all of it: -1), counting the
// bytes read into *size when size is not nil.
func (e *Env) streamFile(rel string, limit int64, size *int64, fn func(journal.Event) error) (bool, []journal.Problem, error) {
	f, err := e.FS.Open(rel)
	if err != nil {
		return false, nil, readError(rel, err, MaxJournalSize)
	}
	defer f.Close()
	var r io.Reader = f
	if limit >= 0 {
		r = io.LimitReader(f, limit)
	}
	cr := &countingReader{r: r}
	var fnErr error // fn's own error (a write to stdout), not the journal's
	each := fn
	if fn != nil {
		each = func(ev journal.Event) error {
			fnErr = fn(ev)
			return fnErr
		}
	}
	linear, probs, err := journal.Stream(cr, each)
	if size != nil {
		*size = cr.n
	}
	if fnErr != nil {
		return false, nil, fnErr
	}
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "read", Path: rel, Err: err}
		}
		return false, nil, readError(rel, err, MaxJournalSize)
	}
	return linear, probs, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
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
func (h SessionHistory) At(seq int64, t time.Time) (*AtResult, error) {
	e := h.e
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
