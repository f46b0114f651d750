package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	"github.com/gsd-tools/gsd/hydrate/journal"
)

// DefaultKeepSnapshots is how many automatic snapshots (pre-restore, pre-compact, carried) are
// kept per user.
const DefaultKeepSnapshots = 10

// History configures the session journal and snapshots.
type History struct {
	NoJournal     bool   // record nothing (config "journal": false)
	KeepSnapshots int    // automatic snapshots kept; 0 means DefaultKeepSnapshots
	Source        string // who writes: "cli", "hook", "mcp"
	Instance      string // the agent session, when known
}

// JournalPath is the user's journal, relative to the root.
func (h SessionHistory) JournalPath() string { return h.e.journalPath() }

// journalPath is JournalPath for the user e has (a copy of e for a teammate has the teammate's).
func (e *Env) journalPath() string {
	return path.Join(SessionsDir, e.User.User, journal.FileName)
}

// journalFile returns the absolute path of the user's journal after checking, as sessionDir does
// for the session, that its directory resolves to a place inside the project: a sessions
// directory that is a symlink to somewhere else is refused, for reading the journal as for
// appending to it. It creates nothing.
func (e *Env) journalFile() (string, error) {
	rel := path.Dir(e.journalPath())
	dir := e.abs(rel)
	if err := e.inside(rel, dir); err != nil {
		return "", err
	}
	return filepath.Join(dir, journal.FileName), nil
}

// HistoryWarnings are the problems the journal had during this command (a torn line skipped, a
// journal that is not a file): worth saying, never a reason to fail a write.
func (h SessionHistory) HistoryWarnings() []string { return h.e.histWarn }

func (e *Env) historyWarn(format string, args ...any) {
	e.histWarn = append(e.histWarn, fmt.Sprintf(format, args...))
}

// record appends evs to the user's journal after a write, under the lock the write held. before
// is the session as the write found it: when its hash is not the one the journal ends with (a
// crash between the session and the journal, or a hand edit), a reconcile event carrying it is
// appended first. Failures are warnings: the session write has happened and stands.
func (e *Env) record(before []byte, beforeExists bool, evs ...journal.Event) {
	if len(evs) > 0 {
		e.appendEvents(before, beforeExists, reconcileNote, evs)
	}
}

// reconcile appends to the user's journal, when it does not end with the session src (exists
// false: none), a reconcile event that records it, with note: so that the journal replays to
// the session on disk after a write that changed the session but was cut short before its own
// event, or after a merge. The caller holds the lock; failures are warnings, as record's.
func (e *Env) reconcile(src []byte, exists bool, note string) {
	e.appendEvents(src, exists, note, nil)
}

// appendEvents is record and reconcile: a reconcile event (with note) when the journal does not
// end with the session before, then evs, numbered after the journal's last event.
func (e *Env) appendEvents(before []byte, beforeExists bool, note string, evs []journal.Event) {
	if e.hist.NoJournal {
		return
	}
	rel := e.journalPath()
	p, err := e.journalFile()
	if err != nil {
		e.historyWarn("%s: the event was not recorded: %v", rel, err)
		return
	}
	probs, err := journal.Record(p, func(last journal.Event, ok bool) []journal.Event {
		now := e.now().UTC()
		seq := last.Seq
		var out []journal.Event
		if !ok && note == reconcileNote {
			note = "the journal starts here"
		}
		if rec, need := reconcileEvent(last, ok, before, beforeExists, note); need {
			out = append(out, rec)
		}
		out = append(out, evs...)
		for i := range out {
			seq = journal.NextSeq(seq)
			out[i].Seq, out[i].Time = seq, now
			out[i].Source, out[i].Instance = e.hist.Source, e.hist.Instance
		}
		return out
	})
	for _, pr := range probs {
		if pr.Repaired {
			e.historyWarn("%s: repaired: %s", rel, pr.Message)
		} else {
			e.historyWarn("%s: skipped an unreadable line at its end (%s)", rel, pr.Message)
		}
	}
	var notJournal *journal.FileTypeError
	switch {
	case errors.As(err, &notJournal):
		e.historyWarn("%v", relErr(rel, p, err))
	case err != nil:
		e.historyWarn("%s: the event was not recorded: %v", rel, relErr(rel, p, err))
	}
}

// reconcileNote is the note of a reconcile event that records a session the journal did not
// end with.
const reconcileNote = "the session was changed outside gsd (or a write was cut short)"

// reconcileEvent is the event that records the session src (exists false: none) when the
// journal, whose last event is last (ok false: it has none), does not end with it; need is
// false when it does. It is the one rule for when the journal and the session disagree.
func reconcileEvent(last journal.Event, ok bool, src []byte, exists bool, note string) (rec journal.Event, need bool) {
	h := journal.Hash(src, exists)
	if ok && last.SHA256 == h || !ok && !exists {
		return journal.Event{}, false
	}
	rec = journal.Event{Type: journal.Reconcile, Note: note, SHA256: h}
	if exists {
		rec.Session = string(src)
	}
	return rec, true
}

// relErr replaces the absolute journal path in err's text with the root-relative one.
func relErr(rel, abs string, err error) error {
	if fe, ok := err.(*journal.FileTypeError); ok {
		c := *fe
		c.Path = rel
		return &c
	}
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == abs {
		return fmt.Errorf("%s: %w", pe.Op, pe.Err) // the message names rel already
	}
	return err
}

// snapshotID is the id (file name) of a snapshot given by its root-relative path.
func snapshotID(rel string) string { return filepath.Base(filepath.FromSlash(rel)) }
