package teamsync

import (
	"bytes"
	"sort"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

// The snapshot kinds a merge keeps the two sides of a disagreement as.
const (
	KindSyncLocal  = "sync-local"  // this machine's session, when another machine's disagreed
	KindSyncRemote = "sync-remote" // the other machine's session, when this one's disagreed
)

// jline is one line of a journal with what orders it.
type jline struct {
	raw  []byte
	time time.Time
	seq  int64
}

func (a jline) less(b jline) bool {
	if !a.time.Equal(b.time) {
		return a.time.Before(b.time)
	}
	if a.seq != b.seq {
		return a.seq < b.seq
	}
	return bytes.Compare(a.raw, b.raw) < 0
}

// splitJournal splits a journal into its lines, each with its event's time and sequence number;
// a line that is not an event (torn, garbage) takes its predecessor's, so it stays where it was.
func splitJournal(data []byte) []jline {
	var out []jline
	var prev jline
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		var l []byte
		if i < 0 {
			l, data = data, nil
		} else {
			l, data = data[:i], data[i+1:]
		}
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		cur := jline{raw: l, time: prev.time, seq: prev.seq}
		if evs, _ := journal.Parse(l); len(evs) == 1 {
			cur.time, cur.seq = evs[0].Time, evs[0].Seq
		}
		out = append(out, cur)
		prev = cur
	}
	return out
}

// MergeJournals is the union of two journals of one user (two machines' copies): every line of
// either, once (two lines are one event when their bytes are equal: journals do not yet give
// events an identity of their own), each journal's own order kept, and lines of the two
// interleaved by (time, sequence number, content). onlyLocal and onlyRemote count the lines
// that only one side had.
func MergeJournals(local, remote []byte) (merged []byte, onlyLocal, onlyRemote int) {
	a, b := splitJournal(local), splitJournal(remote)
	inA := make(map[string]bool, len(a))
	for _, l := range a {
		inA[string(l.raw)] = true
	}
	inB := make(map[string]bool, len(b))
	var nb []jline
	for _, l := range b {
		k := string(l.raw)
		if !inA[k] && !inB[k] {
			nb = append(nb, l)
		}
		inB[k] = true
	}
	for _, l := range a {
		if !inB[string(l.raw)] {
			onlyLocal++
		}
	}
	onlyRemote = len(nb)
	out := make([]byte, 0, len(local)+len(remote))
	i, j := 0, 0
	for i < len(a) || j < len(nb) {
		if j == len(nb) || i < len(a) && !nb[j].less(a[i]) {
			out = append(append(out, a[i].raw...), '\n')
			i++
		} else {
			out = append(append(out, nb[j].raw...), '\n')
			j++
		}
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
	if latest(splitJournal(remote.Journal)).After(latest(splitJournal(local.Journal))) {
		r.Session, r.Exists, r.Took = remote.Session, remote.Exists, TookRemote
	} else {
		r.Session, r.Exists, r.Took = local.Session, local.Exists, TookLocal
	}
	return r
}

// dirty says whether a side's session is not what its journal ends with (changed by hand, or
// by a gsd that journals nothing): a change the journal cannot tell the other side about.
func dirty(s Side) bool {
	ls := splitJournal(s.Journal)
	for i := len(ls) - 1; i >= 0; i-- {
		if evs, _ := journal.Parse(ls[i].raw); len(evs) == 1 {
			return evs[0].SHA256 != journal.Hash(s.Session, s.Exists)
		}
	}
	return s.Exists
}

func latest(ls []jline) time.Time {
	var t time.Time
	for _, l := range ls {
		if l.time.After(t) {
			t = l.time
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

// replayLenient rebuilds the session from a merged journal: the last event that records the
// whole session, then every status change after it in order, whichever machine made it. The
// recorded hashes are not checked (they follow each machine's own line); ok is false when no
// event records a session.
func replayLenient(data []byte) ([]byte, bool) {
	var evs []journal.Event
	for _, l := range splitJournal(data) {
		if e, _ := journal.Parse(l.raw); len(e) == 1 {
			evs = append(evs, e[0])
		}
	}
	base := -1
	for i := len(evs) - 1; i >= 0 && base < 0; i-- {
		switch evs[i].Type {
		case journal.Bootstrap, journal.Carry, journal.Restore, journal.Reconcile, journal.Resume:
			if evs[i].SHA256 != "" && evs[i].Session != "" {
				base = i
			}
		case journal.Archive:
			return nil, false
		}
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

// sortedNames is the keys of m, sorted.
func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
