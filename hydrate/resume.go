package hydrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// KindPreResume is the snapshot of the session a resume replaced; gsd never deletes it.
const KindPreResume = "pre-resume"

// ResumeResult is what Resume did.
type ResumeResult struct {
	From      string   // the teammate whose session was copied
	Plan      string   // its plan
	Archived  string   // the snapshot id the replaced session was kept as ("" when there was none)
	Identical bool     // the session already was the teammate's: nothing written
	Session   *Session // the session after
}

// isUserDirName reports whether s is a session directory name: a name identity.Sanitize leaves
// as it is.
func isUserDirName(s string) bool { return s != "" && identity.Sanitize(s) == s }

// Resume takes a teammate's session over: their session file is copied into the user's (the
// header naming the user), the user's own session kept first as a pre-resume snapshot. Both
// journals record it: a resume event in the user's, a handed-over event in the teammate's. The
// teammate's session itself is left as it is.
func (e *Env) Resume(from string) (*ResumeResult, error) {
	if !isUserDirName(from) {
		return nil, &ArgError{Err: fmt.Errorf("%s is not a user name as gsd writes them (gsd sessions lists them)", textfmt.Quote(from))}
	}
	if from == e.User.User {
		return nil, &ArgError{Err: fmt.Errorf("%s is you: gsd resume takes over a teammate's session", from)}
	}
	other := *e
	other.User.User = from
	other.histWarn = nil
	res := &ResumeResult{From: from}
	err := e.withLock(func() error {
		theirs, err := e.readFile(other.SessionPath())
		if errors.Is(err, fs.ErrNotExist) {
			return &ArgError{Err: fmt.Errorf("%s: no session for %s (gsd sessions lists them)", other.SessionPath(), from)}
		}
		if err != nil {
			return err
		}
		check := &Session{Path: other.SessionPath()}
		if err := check.read(theirs); err != nil {
			return err
		}
		if check.State == StateCorrupt {
			return fmt.Errorf("%s: not a valid session (%s); nothing to take over", other.SessionPath(), joinReasons(check.CorruptReasons))
		}
		res.Plan = check.Plan
		data := renameHeader(theirs, from, e.User.User)
		rel := e.SessionPath()
		mine, err := e.readFile(rel)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if exists && bytes.Equal(mine, data) {
			res.Identical = true
			return nil
		}
		dir, err := e.writableSessionDir()
		if err != nil {
			return err
		}
		var evs []journal.Event
		if exists {
			to, err := e.archiveIn(dir, mine, KindPreResume)
			if err != nil {
				return err
			}
			res.Archived = snapshotID(to)
			evs = append(evs, journal.Event{Type: journal.Snapshot, Snapshot: res.Archived, Note: KindPreResume, SHA256: journal.Hash(mine, true)})
		}
		if err := e.writeSessionIn(dir, data); err != nil {
			e.record(mine, exists, evs...)
			return err
		}
		e.record(mine, exists, append(evs, journal.Event{Type: journal.Resume, Plan: res.Plan,
			Note: "from " + from, Session: string(data), SHA256: journal.Hash(data, true)})...)
		other.record(theirs, true, journal.Event{Type: journal.HandedOver, Plan: res.Plan,
			Note: "resumed by " + e.User.User, SHA256: journal.Hash(theirs, true)})
		e.histWarn = append(e.histWarn, other.histWarn...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s, err := e.Inspect()
	if err != nil {
		return nil, err
	}
	res.Session = s
	return res, nil
}

// renameHeader makes a copied session say whose it now is: the first
// "<!-- Session progress for FROM -->" names to instead. Nothing else changes.
func renameHeader(src []byte, from, to string) []byte {
	old := []byte("<!-- Session progress for " + from + " -->")
	i := bytes.Index(src, old)
	if i < 0 {
		return src
	}
	out := make([]byte, 0, len(src)+len(to)-len(from))
	out = append(out, src[:i]...)
	out = append(out, "<!-- Session progress for "+to+" -->"...)
	return append(out, src[i+len(old):]...)
}
