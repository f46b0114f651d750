package teamsync

import (
	"bytes"
	"slices"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

// The snapshot kinds a merge keeps the two sides of a disagreement as.
const (
	KindSyncLocal  = "sync-local"  // this machine's session, when another machine's disagreed
	KindSyncRemote = "sync-remote" // the other machine's session, when this one's disagreed
)

// journalLines splits a journal into its non-blank lines, without their line ends.
func journalLines(data []byte) [][]byte {
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if l = bytes.TrimRight(l, "\r"); len(bytes.TrimSpace(l)) > 0 {
			out = append(out, l)
		}
	}
	return out
}

// MergeJournals is the union of two journals of one user (two machines' copies): each line of
// either, once. A line is an event's identity (journal.IDOf hashes it), so a line both have is
// one event. The events are written in journal.Order's order, which follows what each event
// names as the one before it (then sequence number, time and identity), so the result is the
// same whichever side is local, and no machine's clock decides it; lines that are no event
// (torn, garbage) follow them. onlyLocal and onlyRemote count the lines only one side had.
func MergeJournals(local, remote []byte) (merged []byte, onlyLocal, onlyRemote int) {
	a, b := journalLines(local), journalLines(remote)
	inA := make(map[string]bool, len(a))
	for _, l := range a {
		inA[string(l)] = true
	}
	inB := make(map[string]bool, len(b))
	union := slices.Clone(a)
	for _, l := range b {
		k := string(l)
		if !inA[k] && !inB[k] {
			union = append(union, l)
			onlyRemote++
		}
		inB[k] = true
	}
	for _, l := range a {
		if !inB[string(l)] {
			onlyLocal++
		}
	}
	var evs []journal.Event
	raw := map[string][]byte{}
	var garbage [][]byte
	for _, l := range union {
		if e, _ := journal.Parse(l); len(e) == 1 {
			evs = append(evs, e[0])
			raw[e[0].ID] = l
		} else {
			garbage = append(garbage, l)
		}
	}
	out := make([]byte, 0, len(local)+len(remote))
	for _, ev := range journal.Order(evs) {
		out = append(append(out, raw[ev.ID]...), '\n')
	}
	for _, l := range garbage {
		out = append(append(out, l...), '\n')
	}
	return out, onlyLocal, onlyRemote
}

// Side is one machine's copy of a user's session directory: the session file and the journal.
type Side struct {
	Session []byte
	Exists  bool
	Journal []byte
}

// Which side a merge took the session from.
const (
	TookLocal  = "local"
	TookRemote = "remote"
	TookMerged = "merged" // the statuses of both, replayed from the merged journal
)

// Result is what Merge decided.
type Result struct {
	Journal    []byte // the merged journal
	Session    []byte // the session after the merge
	Exists     bool
	Took       string // TookLocal, TookRemote or TookMerged
	Conflict   string // why the two could not be merged, "" when they could
	KeepLocal  bool   // keep the local session as a KindSyncLocal snapshot
	KeepRemote bool   // keep the remote session as a KindSyncRemote snapshot
	OnlyLocal  int    // journal lines only the local side had
	OnlyRemote int    // journal lines only the remote side had
}

// Merge merges two machines' copies of one user's session. The journals are united
// (MergeJournals). The session is the side that has all the other's history; when both went on
// separately on one plan without disagreeing (at most one set of tasks in progress), it is the
// merged journal's statuses replayed, task by task in time order; when they disagree (different
// plans, different tasks in progress), it is the side with the latest event, and both are kept
// as snapshots.
func Merge(local, remote Side) Result {
	r := Result{}
	r.Journal, r.OnlyLocal, r.OnlyRemote = MergeJournals(local.Journal, remote.Journal)
	take := func(s Side, took string) Result {
		r.Session, r.Exists, r.Took = s.Session, s.Exists, took
		return r
	}
	localNew := r.OnlyLocal > 0 || dirty(local)
	remoteNew := r.OnlyRemote > 0 || dirty(remote)
	switch {
	case local.Exists == remote.Exists && bytes.Equal(local.Session, remote.Session):
		return take(local, TookLocal)
	case !remote.Exists && !remoteNew:
		return take(local, TookLocal)
	case !local.Exists && !localNew:
		return take(remote, TookRemote)
	case !remoteNew:
		return take(local, TookLocal)
	case !localNew:
		return take(remote, TookRemote)
	}
	// Both went on without the other.
	if why := disagree(local, remote); why == "" {
		if s, ok := replayLenient(r.Journal); ok {
			r.Session, r.Exists, r.Took = s, true, TookMerged
			if !bytes.Equal(s, local.Session) {
				r.KeepLocal = local.Exists
			}
			return r
		}
		r.Conflict = "the merged history does not replay"
	} else {
		r.Conflict = why
	}
	r.KeepLocal, r.KeepRemote = local.Exists, remote.Exists
	if latest(remote.Journal).After(latest(local.Journal)) {
		r.Session, r.Exists, r.Took = remote.Session, remote.Exists, TookRemote
	} else {
		r.Session, r.Exists, r.Took = local.Session, local.Exists, TookLocal
	}
	return r
}

// dirty says whether a side's session is not what its journal ends with (changed by hand, or
// by a gsd that journals nothing): a change the journal cannot tell the other side about.
func dirty(s Side) bool {
	last, ok, _, err := journal.LastOf(bytes.NewReader(s.Journal), int64(len(s.Journal)))
	if err != nil || !ok {
		return s.Exists
	}
	return last.SHA256 != journal.Hash(s.Session, s.Exists)
}

// latest is the time of a journal's latest event.
func latest(data []byte) time.Time {
	evs, _ := journal.Parse(data)
	var t time.Time
	for _, ev := range evs {
		if ev.Time.After(t) {
			t = ev.Time
		}
	}
	return t
}

// disagree says why two sessions cannot be merged task by task: "" when they can (one plan, and
// not two different sets of tasks in progress).
func disagree(a, b Side) string {
	if !a.Exists || !b.Exists {
		return "one machine has a session, the other archived it"
	}
	pa, pb := planfile.ReadHeader(a.Session).Plan, planfile.ReadHeader(b.Session).Plan
	if pa != pb {
		return "two machines follow different plans (" + pa + ", " + pb + ")"
	}
	ia, ib := inProgress(a.Session), inProgress(b.Session)
	if len(ia) > 0 && len(ib) > 0 && !equalInts(ia, ib) {
		return "two machines have different tasks in progress on " + pa
	}
	return ""
}

func inProgress(src []byte) []int {
	sts, err := planfile.Scan(src).Statuses()
	if err != nil {
		return nil
	}
	var out []int
	for i, s := range sts {
		if s == planfile.InProgress {
			out = append(out, i+1)
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// replayLenient rebuilds the session from a merged journal, in journal.Order's order (each
// machine's events after the ones they name as before them): the last event that records the
// whole session, then every status change after it, whichever machine made it. The recorded
// hashes are not checked (they follow each machine's own line); ok is false when no event
// records a session, or the last that says what the session is says there is none.
func replayLenient(data []byte) ([]byte, bool) {
	evs, _ := journal.Parse(data)
	evs = journal.Order(evs)
	base := -1
	for i := len(evs) - 1; i >= 0 && base < 0; i-- {
		if !journal.IsBase(evs[i]) {
			continue
		}
		if evs[i].Type == journal.Archive || evs[i].SHA256 == "" {
			return nil, false // as journal.Apply has it: no session
		}
		base = i
	}
	if base < 0 {
		return nil, false
	}
	out := []byte(evs[base].Session)
	for _, ev := range evs[base+1:] {
		if ev.Type != journal.Mark {
			continue
		}
		st, ok := planfile.ParseStatus(ev.New)
		if !ok {
			continue
		}
		if next, err := planfile.SetStatus(out, ev.Task, st); err == nil {
			out = next
		}
	}
	return out, true
}
