package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"time"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// RehydrateRequest is the ClaudeBench seed's session.rehydrate request, for a gsd user.
type RehydrateRequest struct {
	Instance   string    // the agent instance taking the session up
	SnapshotID string    // a snapshot to read the context from ("": the current session)
	From       time.Time // also list the journal events after it (zero: none)
	Source     string    // what asked ("mcp"), journaled as the rehydration's source
}

// RehydrateResult is the seed's response: the session, the snapshot it was read from, and the
// context an agent needs to carry on.
type RehydrateResult struct {
	SessionID  string           `json:"sessionId"`
	InstanceID string           `json:"instanceId"`
	Rehydrated bool             `json:"rehydrated"` // false when the user has no session
	Snapshot   RehydrateSnap    `json:"snapshot"`
	Context    RehydrateContext `json:"context"`
}

// maxRecentEvents bounds the journal events a rehydration lists (the latest).
const maxRecentEvents = 100

// RehydrateSnap is the state the context was read from: the current session (id
// "current-plan.md") or a snapshot, with its time (Unix milliseconds, as the seed has it) and the
// number of journal events up to it.
type RehydrateSnap struct {
	ID         string `json:"id"`
	Timestamp  int64  `json:"timestamp"`
	EventCount int    `json:"eventCount"`
}

// RehydrateContext is what the seed calls the pre-computed session context, for a GSD session:
// the seed's fields (lastTasks, activeTodos) in its shape with gsd's values, and gsd's own fields
// by the rules of gsd's JSON (null for what is unknown).
type RehydrateContext struct {
	Plan         *string        `json:"plan"` // null without a session
	State        SessionState   `json:"state"`
	LastTasks    []ContextTask  `json:"lastTasks"`
	ActiveTodos  []ContextTodo  `json:"activeTodos"`
	ResumeTask   *int           `json:"resumeTask"` // null when there is none
	Interrupted  bool           `json:"interrupted"`
	StaleReasons []string       `json:"staleReasons"`
	RecentEvents []ContextEvent `json:"recentEvents"` // journal events after fromTimestamp, the last maxRecentEvents of them
	// RecentOmitted counts the earlier events after fromTimestamp left out of RecentEvents.
	RecentOmitted int `json:"recentEventsOmitted"`
	// The agent's own context, as the hooks captured it from its transcript: the seed's
	// lastPrompt and lastTools, and TodoSource, the agent's tool that wrote ActiveTodos
	// (TodoWrite, Task, update_plan, write_todos), or "plan" when they are the session's tasks
	// (no list captured, or a stale capture). AgentContext is the whole capture (null: none).
	LastPrompt   *string       `json:"lastPrompt"`
	LastTools    []string      `json:"lastTools"`
	TodoSource   string        `json:"todoSource"`
	AgentContext *AgentContext `json:"agentContext"`
	// Work is what the tasks' commits show of the plan (hydrate's Work): a valid current
	// session takes the statuses they show as hydrate does, so LastTasks and ResumeTask follow
	// the commits. Null for a snapshot, or without a session.
	Work *Work `json:"work"`
}

// ContextTask is one task of the session, in the seed's shape (its id a string) with gsd's values.
type ContextTask struct {
	ID     string          `json:"id"` // the task number, "1" for task 1
	Text   string          `json:"text"`
	Status planfile.Status `json:"status"` // complete, in-progress, pending, as everywhere in gsd
}

// ContextTodo is a task still to do, in the seed's shape with gsd's values: an item of the
// agent's own todo list, or a task of the session's plan.
type ContextTodo struct {
	Content    string          `json:"content"`
	Status     planfile.Status `json:"status"`               // in-progress or pending
	ActiveForm string          `json:"activeForm,omitempty"` // the agent's: what it shows while doing it
}

// ContextEvent is one journal event, briefly.
type ContextEvent struct {
	Seq       int64  `json:"seq"`
	Timestamp int64  `json:"timestamp"`
	Type      string `json:"type"`
	Task      int    `json:"task,omitempty"`
	Name      string `json:"name,omitempty"`
	Old       string `json:"old,omitempty"`
	New       string `json:"new,omitempty"`
	Note      string `json:"note,omitempty"`
	Instance  string `json:"instance,omitempty"`
}

// Rehydrate is the seed's session.rehydrate (the MCP session_rehydrate): it reads the user's
// session (or one of its snapshots) into the seed's context and, when a session exists, journals
// that the instance took it up (Attach). Unlike Hydrate, which runs the spec's hydration and may
// bootstrap, it only reads: it never bootstraps a session.
func (a Agents) Rehydrate(req RehydrateRequest) (*RehydrateResult, error) {
	e := a.e
	res := &RehydrateResult{SessionID: e.User.User, InstanceID: req.Instance}
	res.Context.LastTasks, res.Context.ActiveTodos = []ContextTask{}, []ContextTodo{}
	res.Context.StaleReasons, res.Context.RecentEvents = []string{}, []ContextEvent{}
	res.Context.LastTools, res.Context.TodoSource = []string{}, TodoSourcePlan
	lr, err := e.readJournal()
	if err != nil {
		return nil, err
	}
	var s *Session
	if req.SnapshotID != "" {
		t, _, _, ok := parseSnapshotID(req.SnapshotID)
		if !ok {
			return nil, &ArgError{Err: fmt.Errorf("snapshotId %s: %w", textfmt.Quote(req.SnapshotID), ErrNoSuchSnapshot)}
		}
		rel := path.Join(path.Dir(e.SessionPath()), req.SnapshotID)
		src, err := e.readFile(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &ArgError{Err: fmt.Errorf("snapshotId %s: %w", textfmt.Quote(req.SnapshotID), ErrNoSuchSnapshot)}
		}
		if err != nil {
			return nil, err
		}
		if s, err = e.inspectBytes(rel, src); err != nil {
			return nil, err
		}
		res.Snapshot = RehydrateSnap{ID: req.SnapshotID, Timestamp: t.UnixMilli()}
		for _, ev := range lr.Events {
			// The snapshot's name has whole seconds: the events of that second are before it.
			if ev.Time.Before(t.Add(time.Second)) {
				res.Snapshot.EventCount++
			}
		}
	} else {
		if s, err = e.Inspect(); err != nil {
			return nil, err
		}
		if s.Valid() {
			// What the tasks' commits show, taken as hydrate takes it (journaled, undoable).
			r := &Result{Session: s, Found: s.State}
			if err := e.observe(r, true); err != nil {
				return nil, err
			}
			e.interrupted(r)
			s, res.Context.Work = r.Session, r.Work
			if lr, err = e.readJournal(); err != nil {
				return nil, err
			}
		}
		res.Snapshot = RehydrateSnap{ID: SessionFileName, EventCount: len(lr.Events)}
		if n := len(lr.Events); n > 0 {
			res.Snapshot.Timestamp = lr.Events[n-1].Time.UnixMilli()
		} else if fi, err := fs.Stat(e.FS, e.SessionPath()); err == nil {
			res.Snapshot.Timestamp = fi.ModTime().UnixMilli()
		}
	}
	c := &res.Context
	c.State, c.Interrupted = s.State, s.Interrupted
	if s.Plan != "" {
		c.Plan = &s.Plan
	}
	if s.ResumeTask != 0 {
		c.ResumeTask = &s.ResumeTask
	}
	c.StaleReasons = append(append(c.StaleReasons, s.CorruptReasons...), s.StaleReasons...)
	for _, t := range s.Tasks {
		c.LastTasks = append(c.LastTasks, ContextTask{ID: fmt.Sprint(t.Number), Text: t.Name, Status: t.Status})
		if t.Status != planfile.Complete {
			c.ActiveTodos = append(c.ActiveTodos, ContextTodo{Content: t.Name, Status: t.Status})
		}
	}
	c.agentContext(a.AgentContext(AgentContextOptions{}))
	if !req.From.IsZero() {
		evs := lr.Events
		if i := len(evs) - maxRecentEvents; i > 0 && evs[i-1].Time.After(req.From) {
			// Only the latest: a result an agent reads has a size limit.
			for _, ev := range evs[:i] {
				if ev.Time.After(req.From) {
					c.RecentOmitted++
				}
			}
			evs = evs[i:]
		}
		for _, ev := range evs {
			if ev.Time.After(req.From) {
				c.RecentEvents = append(c.RecentEvents, ContextEvent{Seq: ev.Seq, Timestamp: ev.Time.UnixMilli(), Type: ev.Type,
					Task: ev.Task, Name: ev.Name, Old: ev.Old, New: ev.New, Note: ev.Note, Instance: ev.Instance})
			}
		}
	}
	if !s.Exists {
		return res, nil
	}
	src := req.Source
	if req.SnapshotID != "" {
		src += " from " + req.SnapshotID
	}
	ok, err := e.Agents().Attach(src, 0)
	if err != nil {
		return nil, err
	}
	res.Rehydrated = ok
	return res, nil
}

// TodoSourcePlan is the todoSource of a rehydration whose activeTodos are the session's tasks.
const TodoSourcePlan = "plan"

// agentContext puts the agent's own context in c: the seed's lastPrompt and lastTools, and the
// agent's todo list as activeTodos in place of the plan's tasks, when the agent kept one. A
// stale capture is listed, and none of it used.
func (c *RehydrateContext) agentContext(ac *AgentContext) {
	c.AgentContext = ac
	if ac == nil || ac.Stale {
		return
	}
	c.LastPrompt, c.LastTools = ac.LastPrompt, ac.LastTools
	if ac.TodoSource == nil {
		return
	}
	c.TodoSource, c.ActiveTodos = *ac.TodoSource, []ContextTodo{}
	for _, t := range ac.Todos {
		if st := planfile.Status(t.Status); st == planfile.InProgress || st == planfile.Pending {
			c.ActiveTodos = append(c.ActiveTodos, ContextTodo{Content: t.Content, Status: st, ActiveForm: t.ActiveForm})
		}
	}
}
