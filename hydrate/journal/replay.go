package journal

import (
	"fmt"

	"github.com/gsd-tools/gsd/planfile"
)

// State is a session as replay rebuilt it.
type State struct {
	Exists  bool
	Session []byte
	Seq     int64 // the last event applied
}

// Replay rebuilds the session after the events of evs up to and including the first event for
// which stop returns true (nil: all of them). It starts from the last event at or before that
// point that carries the whole session (bootstrap, carry, restore, reconcile) or removes it
// (archive), then applies the status changes after it, checking each result against the
// event's hash. A hash that disagrees is an error: replay never guesses.
func Replay(evs []Event, stop func(Event) bool) (State, error) {
	end := len(evs)
	if stop != nil {
		end = 0
		for i, ev := range evs {
			if stop(ev) {
				break
			}
			end = i + 1
		}
	}
	evs = evs[:end]
	base := -1
	for i := len(evs) - 1; i >= 0; i-- {
		if isBase(evs[i]) {
			base = i
			break
		}
	}
	var st State
	if base < 0 {
		if len(evs) == 0 {
			return st, nil
		}
		return st, fmt.Errorf("seq %d: no event before it records the whole session", evs[0].Seq)
	}
	st = State{Exists: evs[base].Type != Archive && evs[base].SHA256 != "", Session: []byte(evs[base].Session), Seq: evs[base].Seq}
	if st.Exists && Hash(st.Session, true) != evs[base].SHA256 {
		return st, fmt.Errorf("seq %d: the recorded session does not match its hash", evs[base].Seq)
	}
	for _, ev := range evs[base+1:] {
		var err error
		if st, err = Apply(st, ev); err != nil {
			return st, err
		}
	}
	return st, nil
}

// isBase says whether ev determines the session by itself.
func isBase(ev Event) bool {
	switch ev.Type {
	case Bootstrap, Carry, Restore, Reconcile, Archive, Resume:
		return true
	}
	return false
}

// Apply applies one event to st.
func Apply(st State, ev Event) (State, error) {
	switch ev.Type {
	case Bootstrap, Carry, Restore, Reconcile, Resume:
		// A reconcile with no hash found no session.
		st = State{Exists: ev.SHA256 != "", Session: []byte(ev.Session), Seq: ev.Seq}
	case Archive:
		st = State{Seq: ev.Seq}
	case Mark:
		if !st.Exists {
			return st, fmt.Errorf("seq %d: a mark without a session", ev.Seq)
		}
		status, ok := planfile.ParseStatus(ev.New)
		if !ok {
			return st, fmt.Errorf("seq %d: invalid status %q", ev.Seq, ev.New)
		}
		out, err := planfile.SetStatus(st.Session, ev.Task, status)
		switch {
		case err == planfile.ErrUnchanged:
		case err != nil:
			return st, fmt.Errorf("seq %d: %v", ev.Seq, err)
		default:
			st.Session = out
		}
		st.Seq = ev.Seq
	default:
		// Snapshots and events of later versions leave the session as it is.
		st.Seq = ev.Seq
	}
	if got := Hash(st.Session, st.Exists); got != ev.SHA256 {
		return st, fmt.Errorf("seq %d (%s): the replayed session does not match the recorded hash", ev.Seq, ev.Type)
	}
	return st, nil
}
