package journal

import (
	"fmt"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
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
	rest := evs[base+1:]
	if fast, ok := replayFast(st, rest); ok {
		return fast, nil
	}
	// The fast way did not give the recorded hash: step by step, to name the event that
	// does not agree.
	for _, ev := range rest {
		var err error
		if st, err = Apply(st, ev); err != nil {
			return st, err
		}
	}
	return st, nil
}

// replayFast applies the status changes evs (none of them a base event) to st at once: a status
// change touches only its task's attribute, so the result is st with each task set to its last
// status. ok is false when that result's hash is not the one the last event recorded.
func replayFast(st State, evs []Event) (State, bool) {
	if len(evs) == 0 {
		return st, true
	}
	if !st.Exists {
		return st, false
	}
	last := map[int]string{}
	var order []int
	for _, ev := range evs {
		if ev.Type != Mark {
			continue
		}
		if _, seen := last[ev.Task]; !seen {
			order = append(order, ev.Task)
		}
		last[ev.Task] = ev.New
	}
	out := st.Session
	for _, n := range order {
		status, ok := planfile.ParseStatus(last[n])
		if !ok {
			return st, false
		}
		next, err := planfile.SetStatus(out, n, status)
		switch {
		case err == planfile.ErrUnchanged:
		case err != nil:
			return st, false
		default:
			out = next
		}
	}
	end := evs[len(evs)-1]
	if Hash(out, true) != end.SHA256 {
		return st, false
	}
	return State{Exists: true, Session: out, Seq: end.Seq}, true
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
			return st, fmt.Errorf("seq %d: invalid status %s", ev.Seq, textfmt.Quote(ev.New))
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
