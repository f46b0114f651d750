package teamsync

import (
	"bytes"
	"slices"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

// The snapshot kinds a merge keeps the two sides of a disagreement as.
const (
	KindSyncLocal  = "sync-local"  // this machine's session, when another machine's disagreed
	KindSyncRemote = "sync-remote" // the other machine's session, when this one's disagreed
	// KindSyncForeign is a version of the user's ref that was not merged: written by someone
	// else, or holding more than gsd reads. gsd never deletes it.
	KindSyncForeign = "sync-foreign"
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
// names as the one before it (then sequence number, time and identity), and the lines that are
// no event gsd replays (torn, garbage, a newer schema, a sequence number that follows nothing)
// follow them, sorted: the result is a function of the two sets of lines, the same bytes
// whichever side is local, and no machine's clock decides it. onlyLocal and onlyRemote count the
// lines only one side had.
func MergeJournals(local, remote []byte) (merged []byte, onlyLocal, onlyRemote int) {
	a, b := journalLines(local), journalLines(remote)
	inA := make(map[string]bool, len(a))
	for _, l := range a {
		inA[string(l)] = true
	}
	inB := make(map[string]bool, len(b))
	for _, l := range b {
		if !inA[string(l)] && !inB[string(l)] {
			onlyRemote++
		}
		inB[string(l)] = true
	}
	for _, l := range a {
		if !inB[string(l)] {
			onlyLocal++
			inB[string(l)] = true // counted once
		}
	}
	// The lines in one order whichever side is local: the side whose bytes sort first, then
	// the other's. Order needs nothing more; a journal written before events named their
	// parent is linked by the order of its lines (journal.Parse), each side's kept.
	first, second := a, b
	if bytes.Compare(local, remote) > 0 {
		first, second = b, a
	}
	seen := make(map[string]bool, len(a)+len(b))
	var union bytes.Buffer
	var lines [][]byte
	for _, l := range append(slices.Clip(first), second...) {
		if seen[string(l)] {
			continue
		}
		seen[string(l)] = true
		lines = append(lines, l)
		union.Write(l)
		union.WriteByte('\n')
	}
	evs, _ := journal.Parse(union.Bytes())
	kept := make(map[string]bool, len(evs))
	for _, ev := range evs {
		kept[ev.ID] = true
	}
	raw := make(map[string][]byte, len(evs))
	var other [][]byte
	for _, l := range lines {
		if id := journal.IDOf(l); kept[id] {
			raw[id] = l
		} else {
			other = append(other, l)
		}
	}
	slices.SortFunc(other, bytes.Compare)
	out := make([]byte, 0, union.Len())
	for _, ev := range journal.Order(evs) {
		out = append(append(out, raw[ev.ID]...), '\n')
	}
	for _, l := range other {
		out = append(append(out, l...), '\n')
	}
	return out, onlyLocal, onlyRemote
}

// Side is one machine's copy of a user's session directory: the session file and the journal.
type Side struct {
	Session []byte
	Exists  bool
	Journal []byte
	// Corrupt says why Session is not a session gsd reads ("" when it is): such a session is
	// never taken from the other machine, only kept as a snapshot.
	Corrupt string
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
// separately on one plan without disagreeing (at most one set of tasks in progress), it is both
// branches of the merged journal replayed (journal.ReplayBranches: each task as the branch that
// set it last has it); when they disagree (different plans, different tasks in progress), it is
// the side whose last event comes later in the merged journal's order (sequence number, then
// time), and both are kept as snapshots. A remote session that is not one gsd reads is never
// taken. The decision is the same whichever side is local.
func Merge(local, remote Side) Result {
	r := Result{}
	r.Journal, r.OnlyLocal, r.OnlyRemote = MergeJournals(local.Journal, remote.Journal)
	take := func(s Side, took string) Result {
		r.Session, r.Exists, r.Took = s.Session, s.Exists, took
		if took == TookRemote && remote.Exists && remote.Corrupt != "" {
			r.Session, r.Exists, r.Took = local.Session, local.Exists, TookLocal
			r.Conflict = "the other machine's session is not one gsd reads (" + remote.Corrupt + ")"
			r.KeepLocal, r.KeepRemote = false, true
		}
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
	evs, _ := journal.Parse(r.Journal)
	lh, rh := head(local.Journal), head(remote.Journal)
	if why := disagree(local, remote); why == "" {
		if s, ok := journal.ReplayBranches(evs, lh, rh); ok && local.Corrupt == "" && remote.Corrupt == "" {
			r.Session, r.Exists, r.Took = s, true, TookMerged
			r.KeepLocal = !bytes.Equal(s, local.Session) && local.Exists
			return r
		}
		r.Conflict = "the merged history does not replay"
	} else {
		r.Conflict = why
	}
	r.KeepLocal, r.KeepRemote = local.Exists, remote.Exists
	if later(evs, rh, lh) && remote.Corrupt == "" {
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

// head is the ID of the event a journal ends with in journal.Order's order, "" when it has none.
func head(data []byte) string {
	evs, _ := journal.Parse(data)
	if evs = journal.Order(evs); len(evs) > 0 {
		return evs[len(evs)-1].ID
	}
	return ""
}

// later says whether the event a comes after the event b in evs's order (journal.Order): the
// branch further along. An event that is not there comes first.
func later(evs []journal.Event, a, b string) bool {
	ia, ib := -1, -1
	for i, ev := range journal.Order(evs) {
		switch ev.ID {
		case a:
			ia = i
		case b:
			ib = i
		}
	}
	return ia > ib
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
