package journal

import (
	"container/heap"
	"fmt"
	"slices"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// State is a session as replay rebuilt it.
type State struct {
	Exists  bool
	Session []byte
	Seq     int64 // the last event applied
	Base    Event // the event replay started from (the last one that sets the whole session)
	Applied int   // the status changes applied after Base
}

// Order puts events (as Parse returns them) in the order gsd shows and replays them, the same
// whatever order the lines are in: each event after its parent, and otherwise by sequence
// number, time and ID. An event that appears twice (the same line on two merged branches) is
// kept once. A journal that is one chain, as a single writer makes it, keeps its order.
func Order(evs []Event) []Event {
	link(evs)
	linear := true
	for i := 1; i < len(evs) && linear; i++ {
		linear = evs[i].Prev == evs[i-1].ID
	}
	if linear {
		return evs
	}
	// Kahn's topological sort, taking the least ready event each time.
	byID := make(map[string]int, len(evs))
	uniq := evs[:0:0]
	for _, ev := range evs {
		if _, dup := byID[ev.ID]; dup {
			continue
		}
		byID[ev.ID] = len(uniq)
		uniq = append(uniq, ev)
	}
	children := make([][]int, len(uniq))
	waiting := make([]int, len(uniq))
	for i, ev := range uniq {
		if p, ok := byID[ev.Prev]; ok && p != i {
			children[p] = append(children[p], i)
			waiting[i] = 1
		}
	}
	ready := &eventHeap{evs: uniq}
	for i := range uniq {
		if waiting[i] == 0 {
			heap.Push(ready, i)
		}
	}
	out := make([]Event, 0, len(uniq))
	for len(out) < len(uniq) {
		if ready.Len() == 0 {
			// Parents that name each other (a loop no writer makes, and Parse refuses: each
			// event is numbered one past its parent): the least event left goes next, as if it
			// had no parent, so that no event is ever left out.
			least := -1
			for i := range uniq {
				if waiting[i] > 0 && (least < 0 || eventLess(uniq[i], uniq[least])) {
					least = i
				}
			}
			waiting[least] = 0
			heap.Push(ready, least)
		}
		i := heap.Pop(ready).(int)
		out = append(out, uniq[i])
		for _, c := range children[i] {
			if waiting[c] > 0 {
				if waiting[c]--; waiting[c] == 0 {
					heap.Push(ready, c)
				}
			}
		}
	}
	return out
}

// eventLess orders events that are ready at once: by sequence number, time and ID.
func eventLess(a, b Event) bool {
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	return a.ID < b.ID
}

// eventHeap orders ready events by sequence number, time and ID.
type eventHeap struct {
	evs []Event
	idx []int
}

func (h *eventHeap) Len() int           { return len(h.idx) }
func (h *eventHeap) Less(i, j int) bool { return eventLess(h.evs[h.idx[i]], h.evs[h.idx[j]]) }
func (h *eventHeap) Swap(i, j int)      { h.idx[i], h.idx[j] = h.idx[j], h.idx[i] }
func (h *eventHeap) Push(x any)         { h.idx = append(h.idx, x.(int)) }
func (h *eventHeap) Pop() any {
	n := len(h.idx) - 1
	x := h.idx[n]
	h.idx = h.idx[:n]
	return x
}

// Replay rebuilds the session after the events of evs (in any order: Order orders them) up to
// the first event for which stop returns true (nil: all of them), that is after the last event
// before it. It walks back from that event along the parents (Prev) to the nearest event that
// carries the whole session (bootstrap, carry, restore, reconcile) or removes it (archive), then
// applies the status changes on that path, checking each result against the event's hash. On
// a history merged from two branches each event thus replays along its own branch. A hash that
// disagrees, or a parent that is missing, is an error: replay never guesses.
func Replay(evs []Event, stop func(Event) bool) (State, error) {
	evs = Order(evs)
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
	if end == 0 {
		return State{}, nil
	}
	path, err := ancestry(evs, end-1)
	if err != nil {
		return State{}, err
	}
	b := path[0]
	st := State{Exists: b.Type != Archive && b.SHA256 != "", Session: []byte(b.Session), Seq: b.Seq, Base: b}
	if st.Exists && Hash(st.Session, true) != b.SHA256 {
		return st, fmt.Errorf("seq %d: the recorded session does not match its hash", b.Seq)
	}
	rest := path[1:]
	for _, ev := range rest {
		if ev.Type == Mark {
			st.Applied++
		}
	}
	if fast, ok := replayFast(st, rest); ok {
		return fast, nil
	}
	// The fast way did not give the recorded hash: step by step, to name the event that
	// does not agree.
	for _, ev := range rest {
		if st, err = Apply(st, ev); err != nil {
			return st, err
		}
	}
	return st, nil
}

// ancestry is the path from the nearest base event before evs[i], along the parents, to evs[i].
func ancestry(evs []Event, i int) ([]Event, error) {
	byID := make(map[string]int, i+1)
	for j := 0; j <= i; j++ {
		if _, dup := byID[evs[j].ID]; !dup {
			byID[evs[j].ID] = j
		}
	}
	var path []Event
	for j := i; ; {
		path = append(path, evs[j])
		if IsBase(evs[j]) {
			break
		}
		p, ok := byID[evs[j].Prev]
		if !ok || p >= j || len(path) > i+1 {
			if evs[j].Prev != "" && !ok {
				return nil, fmt.Errorf("seq %d: the event before it (%s) is not in the journal", evs[j].Seq, evs[j].Prev)
			}
			return nil, fmt.Errorf("seq %d: no event before it records the whole session", evs[i].Seq)
		}
		j = p
	}
	slices.Reverse(path)
	return path, nil
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
	st.Session, st.Seq = out, end.Seq
	return st, true
}

// IsBase says whether ev determines the session by itself (or that there is none): replay
// starts from the last such event.
func IsBase(ev Event) bool {
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

// ReplayBranches rebuilds the session that branches of one history which went on separately
// (two machines' journals, merged) come to together. heads are the IDs of the events each
// branch ends with. The result is the session of the branch whose last event that records the
// whole session comes last in Order, with each task's status taken from the branch that changed
// it last in Order: a three-way merge, task by task, whose common ancestor need not be named.
// Each branch is walked along its parents from its first event, so an event that records the
// whole session changes only the tasks whose status it changes (a merge's reconcile restates
// the rest, and must not undo a change the other branch made meanwhile); the first event, or
// one on another plan or with another number of tasks, changes them all. Hashes are not checked
// (they follow each branch's own line), and the result is the same whichever order evs and
// heads are in. ok is false when a head is not in evs, a branch does not begin with an event
// that records the whole session or ends with none, or the branches' sessions have different
// numbers of tasks.
func ReplayBranches(evs []Event, heads ...string) ([]byte, bool) {
	evs = Order(evs)
	pos := make(map[string]int, len(evs))
	for i, ev := range evs {
		if _, dup := pos[ev.ID]; !dup {
			pos[ev.ID] = i
		}
	}
	type branch struct {
		base      int // where its last event that records the whole session is in evs
		plan      string
		sts       []planfile.Status
		changedAt []int // where each task's status last changed
	}
	var bs []branch
	for _, h := range heads {
		i, ok := pos[h]
		if !ok {
			return nil, false
		}
		var line []int // the branch, from its first event to the head
		for j := i; ; {
			line = append(line, j)
			p, ok := pos[evs[j].Prev]
			if !ok || p >= j || len(line) > len(evs) {
				break
			}
			j = p
		}
		slices.Reverse(line)
		b := branch{base: -1}
		for _, j := range line {
			ev := evs[j]
			switch {
			case ev.Type == Archive || IsBase(ev) && ev.SHA256 == "":
				b = branch{base: -1}
			case IsBase(ev):
				sts, err := planfile.Scan([]byte(ev.Session)).Statuses()
				if err != nil || len(sts) == 0 {
					return nil, false
				}
				plan := planfile.ReadHeader([]byte(ev.Session)).Plan
				if b.base < 0 || plan != b.plan || len(sts) != len(b.sts) {
					b.changedAt = make([]int, len(sts))
					for k := range b.changedAt {
						b.changedAt[k] = j
					}
				} else {
					for k := range sts {
						if sts[k] != b.sts[k] {
							b.changedAt[k] = j
						}
					}
				}
				b.base, b.plan, b.sts = j, plan, sts
			case ev.Type == Mark && b.base >= 0:
				st, ok := planfile.ParseStatus(ev.New)
				if ok && ev.Task >= 1 && ev.Task <= len(b.sts) && b.sts[ev.Task-1] != st {
					b.sts[ev.Task-1], b.changedAt[ev.Task-1] = st, j
				}
			}
		}
		if b.base < 0 || len(bs) > 0 && len(b.sts) != len(bs[0].sts) {
			return nil, false
		}
		bs = append(bs, b)
	}
	if len(bs) == 0 {
		return nil, false
	}
	from := 0
	for k := range bs {
		if bs[k].base > bs[from].base {
			from = k
		}
	}
	out := []byte(evs[bs[from].base].Session)
	for task := range bs[from].sts {
		win := 0
		for k := range bs {
			if bs[k].changedAt[task] > bs[win].changedAt[task] {
				win = k
			}
		}
		next, err := planfile.SetStatus(out, task+1, bs[win].sts[task])
		switch {
		case err == planfile.ErrUnchanged:
		case err != nil:
			return nil, false
		default:
			out = next
		}
	}
	return out, true
}
