package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Tool is a tool as tools/list describes it.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	InputSchema map[string]any `json:"inputSchema"`
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func object(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

const sessionIDDesc = "the gsd user whose session it is (a directory under .planning/sessions); default: the server's user"

var statusNames = []string{string(planfile.Complete), string(planfile.InProgress), string(planfile.Pending)}

func toolList() []Tool {
	return []Tool{
		{
			Name: "session_rehydrate",
			Description: "Rehydrate a gsd session for an agent instance taking it up: the plan, every task with its status, " +
				"the tasks still to do, the resume point and staleness, read from the session (or from snapshotId), " +
				"plus the journal events after fromTimestamp. Journals the rehydration. Never starts a session.",
			InputSchema: object(map[string]any{
				"sessionId":     str("the gsd user whose session to rehydrate"),
				"instanceId":    str("the agent instance taking the session up"),
				"snapshotId":    str("a snapshot id (gsd snapshots lists them) to read the context from instead of the current session"),
				"fromTimestamp": map[string]any{"type": "number", "description": "also list the journal events after this time (Unix milliseconds)"},
			}, "sessionId", "instanceId"),
		},
		{
			Name:        "session_state_get",
			Description: "A gsd session's state without rehydrating it: plan, tasks with status, counts, the resume task, and why it is stale or corrupt.",
			InputSchema: object(map[string]any{"sessionId": str(sessionIDDesc)}),
		},
		{
			Name:        "session_snapshot_create",
			Description: "Keep a manual snapshot of a gsd session (never deleted by gsd); returns its id for session_rehydrate or gsd restore.",
			InputSchema: object(map[string]any{"sessionId": str(sessionIDDesc), "reason": str("why, recorded in the journal")}),
		},
		{
			Name: "list_sessions",
			Description: "Every user's gsd session with its state: active, idle (no activity within the idle threshold; with a " +
				"task in progress, an orphaned agent), stale, complete, corrupt, no-session; the agent instance attached, snapshot counts.",
			InputSchema: object(map[string]any{
				"state": map[string]any{"type": "string", "description": "only sessions in this state", "enum": append(slices.Clone(hydrate.TeamStates), "all")},
			}),
		},
		{
			Name: "session_resume",
			Description: "Take a teammate's gsd session over: copy session_id's session into sessionId's (default: the server's user), " +
				"keeping the replaced one as a pre-resume snapshot. Journaled in both.",
			InputSchema: object(map[string]any{
				"session_id": str("the teammate whose session to take over"),
				"sessionId":  str(sessionIDDesc),
			}, "session_id"),
		},
		{
			Name:        "task_status_set",
			Description: "Set one task's status in a gsd session (only that attribute's bytes change): in-progress when starting it, complete when its verify step passes.",
			InputSchema: object(map[string]any{
				"sessionId": str(sessionIDDesc),
				"task":      map[string]any{"type": "integer", "minimum": 1, "description": "the task number (1-based)"},
				"status":    map[string]any{"type": "string", "enum": statusNames},
			}, "task", "status"),
		},
	}
}

// args are a tool call's arguments.
type args map[string]any

// Bounds of the arguments: a string longer than its bound, or a number outside its range, is
// invalid params (never echoed back whole, never wrapped around).
const (
	maxIDArg     = 256  // sessionId, instanceId, snapshotId, session_id, state
	maxReasonArg = 4096 // reason
	// maxTimestamp is the last millisecond of the year 9999.
	maxTimestamp = 253402300799999
)

// string returns the string argument key ("" when absent), or an error when it is not a string
// or is longer than its bound.
func (a args) string(key string) (string, *Error) {
	v, ok := a[key]
	if !ok || v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", invalidParams("%s must be a string", key)
	}
	limit := maxIDArg
	if key == "reason" {
		limit = maxReasonArg
	}
	if len(s) > limit {
		return "", invalidParams("%s is %d bytes, more than the %d it may be", key, len(s), limit)
	}
	return strings.TrimSpace(s), nil
}

// number returns the number argument key, which must be a whole number from min to max.
func (a args) number(key string, min, max float64) (float64, bool, *Error) {
	v, ok := a[key]
	if !ok || v == nil {
		return 0, false, nil
	}
	n, ok := v.(float64)
	if !ok || math.IsNaN(n) || math.IsInf(n, 0) || n != math.Trunc(n) || n < min || n > max {
		return 0, false, invalidParams("%s must be a whole number from %.0f to %.0f", key, min, max)
	}
	return n, true, nil
}

// textResult is a CallToolResult carrying v as structured content and as its JSON text; a
// text over MaxResult is a tool error saying so instead.
func textResult(v any) map[string]any {
	b, _ := json.MarshalIndent(v, "", "  ")
	if len(b) > MaxResult {
		return toolError(fmt.Errorf("the result is %d bytes, over the %d an MCP result may hold (gsd on the command line prints it whole)", len(b), MaxResult))
	}
	return map[string]any{"content": []map[string]any{{"type": "text", "text": string(b)}}, "structuredContent": v, "isError": false}
}

// toolError is a tool that ran and failed: the agent reads why, in at most MaxResult bytes.
func toolError(err error) map[string]any {
	text := "gsd: " + err.Error()
	if len(text) > MaxResult {
		text = textfmt.Excerpt(text)
	}
	return map[string]any{"content": []map[string]any{{"type": "text", "text": text}}, "isError": true}
}

func (s *Server) call(name string, raw json.RawMessage) (any, *Error) {
	a := args{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, invalidParams("arguments must be an object")
		}
	}
	var fn func(args) (any, error)
	switch name {
	case "session_rehydrate":
		fn = s.rehydrate
	case "session_state_get":
		fn = s.stateGet
	case "session_snapshot_create":
		fn = s.snapshotCreate
	case "list_sessions":
		fn = s.listSessions
	case "session_resume":
		fn = s.resume
	case "task_status_set":
		fn = s.taskStatusSet
	default:
		return nil, &Error{Code: CodeInvalidParams, Message: "Unknown tool: " + textfmt.Excerpt(name), Data: map[string]string{"validation": "unknown tool " + textfmt.Excerpt(name)}}
	}
	v, err := fn(a)
	var rpcErr *Error
	var argErr *hydrate.ArgError
	switch {
	case errors.As(err, &rpcErr):
		return nil, rpcErr
	case errors.As(err, &argErr):
		return nil, invalidParams("%s", argErr.Error())
	case err != nil:
		return toolError(err), nil
	}
	return textResult(v), nil
}

// open opens the project for the sessionId argument (or the server's user).
func (s *Server) open(a args, instance string) (*hydrate.Env, error) {
	user, perr := a.string("sessionId")
	if perr != nil {
		return nil, perr
	}
	return s.Open(user, instance)
}

func (s *Server) rehydrate(a args) (any, error) {
	user, e1 := a.string("sessionId")
	inst, e2 := a.string("instanceId")
	snap, e3 := a.string("snapshotId")
	from, hasFrom, e4 := a.number("fromTimestamp", 0, maxTimestamp)
	for _, e := range []*Error{e1, e2, e3, e4} {
		if e != nil {
			return nil, e
		}
	}
	if user == "" || inst == "" {
		return nil, invalidParams("sessionId and instanceId are required")
	}
	env, err := s.Open(user, inst)
	if err != nil {
		return nil, err
	}
	defer env.Close()
	req := hydrate.RehydrateRequest{Instance: inst, SnapshotID: snap, Source: "mcp"}
	if hasFrom {
		req.From = time.UnixMilli(int64(from)).UTC()
	}
	return env.Rehydrate(req)
}

func (s *Server) stateGet(a args) (any, error) {
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	ss, err := env.Inspect()
	if err != nil {
		return nil, err
	}
	tasks := make([]map[string]any, len(ss.Tasks))
	for i, t := range ss.Tasks {
		tasks[i] = map[string]any{"number": t.Number, "name": t.Name, "type": t.Type, "status": t.Status}
	}
	return map[string]any{
		"sessionId": env.User.User, "path": ss.Path, "exists": ss.Exists, "state": ss.State, "plan": ss.Plan,
		"started": ss.Started, "tasks": tasks, "counts": ss.Counts, "resumeTask": ss.ResumeTask,
		"interrupted": ss.Interrupted, "staleReasons": nonNil(ss.StaleReasons), "corruptReasons": nonNil(ss.CorruptReasons),
	}, nil
}

func (s *Server) snapshotCreate(a args) (any, error) {
	reason, perr := a.string("reason")
	if perr != nil {
		return nil, perr
	}
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	res, err := env.Snapshot(reason)
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessionId": env.User.User, "id": res.ID, "path": res.Path}, nil
}

func (s *Server) listSessions(a args) (any, error) {
	state, perr := a.string("state")
	if perr != nil {
		return nil, perr
	}
	if state != "" && state != "all" && !slices.Contains(hydrate.TeamStates, state) {
		return nil, invalidParams("state must be one of %s or all", strings.Join(hydrate.TeamStates, ", "))
	}
	env, err := s.Open("", "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	res, err := env.Sessions(0)
	if err != nil {
		return nil, err
	}
	list := []hydrate.SessionSummary{}
	for _, ss := range res.Sessions {
		if state == "" || state == "all" || ss.State == state {
			list = append(list, ss)
		}
	}
	return map[string]any{"sessions": list, "warnings": nonNil(res.Warnings), "idleAfter": textfmt.Duration(res.IdleAfter)}, nil
}

func (s *Server) resume(a args) (any, error) {
	from, perr := a.string("session_id")
	if perr != nil {
		return nil, perr
	}
	if from == "" {
		return nil, invalidParams("session_id is required")
	}
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	res, err := env.Resume(from)
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessionId": env.User.User, "from": res.From, "plan": res.Plan, "archived": res.Archived,
		"changed": !res.Identical, "counts": res.Session.Counts, "resumeTask": res.Session.ResumeTask}, nil
}

func (s *Server) taskStatusSet(a args) (any, error) {
	n, ok, perr := a.number("task", 1, planfile.MaxTasks)
	if perr != nil {
		return nil, perr
	}
	if !ok {
		return nil, invalidParams("task must be a task number (1-based)")
	}
	name, perr := a.string("status")
	if perr != nil {
		return nil, perr
	}
	st, valid := planfile.ParseStatus(name)
	if !valid {
		return nil, invalidParams("status must be one of %s", strings.Join(statusNames, ", "))
	}
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	res, err := env.Mark(int(n), st)
	if err != nil {
		return nil, err
	}
	return map[string]any{"sessionId": env.User.User, "task": res.Task.Number, "name": res.Task.Name, "from": res.From,
		"status": res.Task.Status, "changed": res.Changed, "counts": res.Session.Counts, "resumeTask": res.Session.ResumeTask}, nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
