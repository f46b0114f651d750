package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Tool is a tool as tools/list describes it.
type Tool struct {
	Name         string         `json:"name"`
	Title        string         `json:"title,omitempty"`
	Description  string         `json:"description"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema,omitempty"`
	Annotations  map[string]any `json:"annotations,omitempty"`
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

func boolean(desc string) map[string]any {
	return map[string]any{"type": "boolean", "description": desc}
}

func object(props map[string]any, required ...string) map[string]any {
	o := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

// hints are a tool's annotations, every hint given (a client assumes the worst of one left
// out): whether it writes nothing, whether what it writes replaces the user's session (kept as
// a snapshot, but no longer the one they work in: a client may ask first), and whether calling
// it again with the same arguments changes nothing more. Every tool acts on the project alone,
// never on the world beyond it.
func hints(readOnly, destructive, idempotent bool) map[string]any {
	return map[string]any{"readOnlyHint": readOnly, "destructiveHint": destructive, "idempotentHint": idempotent, "openWorldHint": false}
}

var (
	readOnly = hints(true, false, true)
	// writes: a tool that adds to the project (a journal line, a snapshot, a fresh session where
	// there was none or only an unusable one), never replacing the user's session.
	writes = hints(false, false, false)
)

// The gsd user a tool acts for is the argument user. Its old name, sessionId, is still read:
// it was easy to take for the agent's own conversation (the session_id of the hooks' input),
// which it is not.
const (
	userArg       = "user"
	oldUserArg    = "sessionId"
	userDesc      = "the gsd user whose session it is (a directory under .planning/sessions; `user` in the output), not the agent's conversation; default: the server's user"
	oldUserDesc   = "the old name of user, still read (give one of the two)"
	planDesc      = "the plan to start from: a path relative to the project root, or a plan id such as 03-02; default: the active plan"
	maxPhasesFrom = 1 << 20
)

// withUser is props with the user argument and its old name.
func withUser(props map[string]any) map[string]any {
	props[userArg] = str(userDesc)
	props[oldUserArg] = str(oldUserDesc)
	return props
}

var statusNames = []string{string(planfile.Complete), string(planfile.InProgress), string(planfile.Pending)}

// toolList is every tool, with the schema of its arguments and of its result.
func (s *Server) toolList() []Tool {
	hydrateOut := report.Schema(reflect.TypeFor[report.Hydrate]())
	return []Tool{
		{
			Name:  "session_rehydrate",
			Title: "Rehydrate a session (the seed's session.rehydrate)",
			Description: "Rehydrate a gsd session for an agent instance taking it up: the plan, every task with its status, " +
				"the tasks still to do, the resume point and staleness, read from the session (or from snapshotId), " +
				"plus the journal events after fromTimestamp. Journals the rehydration. Never starts a session " +
				"(rehydrated is false without one: session_hydrate or session_start starts it). The seed's field names and " +
				"types (times in Unix milliseconds, task ids as strings), gsd's values (status in-progress, the task's number).",
			InputSchema: object(map[string]any{
				"sessionId":     str("the gsd user whose session to rehydrate (the seed's name; user is the same and clearer): not the agent's conversation, which is instanceId"),
				userArg:         str("the gsd user whose session to rehydrate (sessionId's other name; give one of the two)"),
				"instanceId":    str("the agent instance taking the session up (its conversation: the hooks' session_id)"),
				"snapshotId":    str("a snapshot id (gsd snapshots lists them) to read the context from instead of the current session"),
				"fromTimestamp": map[string]any{"type": "number", "description": "also list the journal events after this time (Unix milliseconds)"},
			}, "instanceId"),
			OutputSchema: report.Schema(reflect.TypeFor[hydrate.RehydrateResult]()),
			Annotations:  writes, // a journal line
		},
		{
			Name:  "session_state_get",
			Title: "A session's state (gsd hydrate --no-bootstrap --json)",
			Description: "A gsd session's state without changing anything, as gsd hydrate --no-bootstrap --json prints it: " +
				"plan, tasks with status, counts, the resume task, why it is stale or corrupt, and for a missing, " +
				"stale or corrupt one what session_hydrate would do, with the position's confidence and alternatives.",
			InputSchema:  object(withUser(map[string]any{})),
			OutputSchema: hydrateOut,
			Annotations:  readOnly,
		},
		{
			Name:  "session_hydrate",
			Title: "Find, check or start a session (gsd hydrate --json)",
			Description: "Hydrate a gsd session as gsd hydrate --json does: keep a valid session, or archive a missing, stale or " +
				"corrupt one and start a fresh one from plan (default: the active plan the position chose, with its " +
				"confidence and alternatives). A valid session is kept even when plan names another (session_start switches).",
			InputSchema:  object(withUser(map[string]any{"plan": str(planDesc)})),
			OutputSchema: hydrateOut,
			// Again, a valid session is kept: nothing more changes.
			Annotations: hints(false, false, true),
		},
		{
			Name:  "session_start",
			Title: "Start a fresh session from a plan (gsd start --json)",
			Description: "Start a fresh gsd session from plan (default: the active plan) as gsd start --json does; the session it " +
				"replaces is kept as a snapshot. A plan that already has its SUMMARY is refused unless force.",
			InputSchema: object(withUser(map[string]any{
				"plan":  str(planDesc),
				"force": boolean("start a plan that already has its SUMMARY (gsd start --force)"),
			})),
			OutputSchema: hydrateOut,
			Annotations:  hints(false, true, false), // replaces the user's session
		},
		{
			Name:  "project_progress",
			Title: "The project's position and progress (gsd progress --json)",
			Description: "The project's position and progress as gsd progress --json prints it: milestone, current phase, active " +
				"plan, the rule that chose them with its evidence, confidence and alternatives, counts, phases, every " +
				"session, STATE.md's agreement and problems. all lists every milestone's phases (--all). A report over " +
				"64 KiB comes in pages of whole phases: each page is the whole report but for phases, which holds some of " +
				"them, and page {from, count, total, next} says which; call again with phasesFrom: page.next (and the same " +
				"all) until next is null to have every phase. compact leaves out phases, sessions, state and problems: " +
				"the position and the counts in one small result.",
			InputSchema: object(map[string]any{
				"all":     boolean("list the phases of every milestone, not only the current one (gsd progress --all)"),
				"compact": boolean("only the position and the counts: leave out phases, sessions, state and problems"),
				"phasesFrom": map[string]any{"type": "integer", "minimum": 0, "maximum": maxPhasesFrom,
					"description": "the page of phases from this one on (0-based): the previous page's page.next"},
			}),
			OutputSchema: progressSchema(report.Schema(reflect.TypeFor[report.Progress]())),
			Annotations:  readOnly,
		},
		{
			Name:         "session_snapshot_create",
			Title:        "Snapshot a session (gsd snapshot --json)",
			Description:  "Keep a manual snapshot of a gsd session (never deleted by gsd), as gsd snapshot --json: its id (for session_rehydrate's snapshotId or gsd restore) and path.",
			InputSchema:  object(withUser(map[string]any{"reason": str("why, recorded in the journal")})),
			OutputSchema: report.Schema(reflect.TypeFor[report.Snapshot]()),
			Annotations:  writes, // a new snapshot each time
		},
		{
			Name:  "list_sessions",
			Title: "Every user's session (gsd sessions --json)",
			Description: "Every user's gsd session with its state, as gsd sessions --json: active, idle (no activity within idleAfter; with a " +
				"task in progress, an orphaned agent), stale, complete, corrupt, no-session; the agent instance attached, snapshot counts, " +
				"teammates' sessions gsd sync fetched.",
			InputSchema: object(map[string]any{
				"state": map[string]any{"type": "array", "description": "only sessions in these states (gsd sessions --state); default: all",
					"items": map[string]any{"type": "string", "enum": hydrate.TeamStates}},
			}),
			OutputSchema: report.Schema(reflect.TypeFor[report.Sessions]()),
			Annotations:  readOnly,
		},
		{
			Name:  "session_resume",
			Title: "Take a teammate's session over (gsd resume --json)",
			Description: "Take a teammate's gsd session over, as gsd resume FROM --json: copy from's session into user's (default: the " +
				"server's user), keeping the replaced one as a pre-resume snapshot. Journaled in both.",
			InputSchema: object(withUser(map[string]any{
				"from":  str("the teammate whose session to take over (USER, or USER@REMOTE for one gsd sync fetched; list_sessions names them)"),
				"force": boolean("take over a fetched session even when it is active (gsd resume --force)"),
			}), "from"),
			OutputSchema: report.Schema(reflect.TypeFor[report.Resume]()),
			Annotations:  hints(false, true, false), // replaces the user's session
		},
		{
			Name:        "task_status_set",
			Title:       "Set a task's status (gsd mark-* --json)",
			Description: "Set one task's status in a gsd session, as gsd mark-complete, mark-in-progress or mark-pending N --json (only that attribute's bytes change): in-progress when starting it, complete when its verify step passes.",
			InputSchema: object(withUser(map[string]any{
				"task":   map[string]any{"type": "integer", "minimum": 1, "maximum": planfile.MaxTasks, "description": "the task number (1-based)"},
				"status": map[string]any{"type": "string", "enum": statusNames},
			}), "task", "status"),
			OutputSchema: report.Schema(reflect.TypeFor[report.Mark]()),
			// One attribute's bytes, journaled: setting the status it has writes nothing.
			Annotations: hints(false, false, true),
		},
	}
}

// compactFields are what project_progress's compact form leaves out.
var compactFields = []string{"phases", "sessions", "state", "problems"}

// progressSchema is the schema of gsd progress --json with compactFields no longer required,
// and the page of a paged report.
func progressSchema(schema map[string]any) map[string]any {
	if req, ok := schema["required"].([]string); ok {
		schema["required"] = slices.DeleteFunc(slices.Clone(req), func(f string) bool { return slices.Contains(compactFields, f) })
	}
	if props, ok := schema["properties"].(map[string]any); ok {
		page := report.Schema(reflect.TypeFor[Page]())
		page["description"] = "which phases a page of a report too long for one result holds (absent when it is whole)"
		props["page"] = page
	}
	return schema
}

// args are a tool call's arguments.
type args map[string]any

// Bounds of the arguments: a string longer than its bound, or a number outside its range, is
// invalid params (never echoed back whole, never wrapped around).
const (
	maxIDArg     = 256  // sessionId, instanceId, snapshotId, from
	maxReasonArg = 4096 // reason, plan
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
	if key == "reason" || key == "plan" {
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

// boolean returns the boolean argument key (false when absent).
func (a args) boolean(key string) (bool, *Error) {
	v, ok := a[key]
	if !ok || v == nil {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, invalidParams("%s must be true or false", key)
	}
	return b, nil
}

// maxStates bounds list_sessions' state list.
const maxStates = 16

// states returns the state argument: a list of session states, or one.
func (a args) states(key string) ([]string, *Error) {
	var list []any
	switch v := a[key].(type) {
	case nil:
		return nil, nil
	case string:
		list = []any{v}
	case []any:
		list = v
	default:
		return nil, invalidParams("%s must be a list of states", key)
	}
	if len(list) > maxStates {
		return nil, invalidParams("%s lists %d states, more than the %d there are", key, len(list), maxStates)
	}
	var out []string
	for _, v := range list {
		st, ok := v.(string)
		if !ok || !slices.Contains(hydrate.TeamStates, st) {
			return nil, invalidParams("%s: each must be one of %s", key, strings.Join(hydrate.TeamStates, ", "))
		}
		out = append(out, st)
	}
	return out, nil
}

// noted is a tool's result with notes for the agent: what the command line says on stderr.
type noted struct {
	v     any
	notes []string
}

// textResult is a CallToolResult carrying v as structured content and as its JSON text, the
// bytes the command line prints; each note follows as a text of its own. A text over MaxResult
// is a tool error saying so instead (project_progress pages its report before it gets here).
func textResult(v any) map[string]any {
	var notes []string
	if n, ok := v.(noted); ok {
		v, notes = n.v, n.notes
	}
	text, err := marshalText(v)
	if err != nil {
		return toolError(err)
	}
	if len(text) > MaxResult {
		return toolError(fmt.Errorf("the result is %d bytes, over the %d an MCP result may hold (gsd on the command line prints it whole)", len(text), MaxResult))
	}
	content := []map[string]any{{"type": "text", "text": text}}
	for _, n := range notes {
		content = append(content, map[string]any{"type": "text", "text": textfmt.Excerpt("gsd: warning: " + n)})
	}
	return map[string]any{"content": content, "structuredContent": v, "isError": false}
}

// marshalText is v as the command line's --json prints it (without the final newline).
func marshalText(v any) (string, error) {
	var b strings.Builder
	if err := report.Write(&b, v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// quoteArgs is err with every long string argument it names whole (a path in a file system
// error, say) quoted as every message quotes an input: at most 120 characters of it.
func quoteArgs(err error, a args) error {
	msg := err.Error()
	for _, v := range a {
		if s, ok := v.(string); ok {
			if s = strings.TrimSpace(s); len(s) > 120 && strings.Contains(msg, s) {
				msg = strings.ReplaceAll(msg, s, textfmt.Quote(s))
			}
		}
	}
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
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
	case "session_hydrate":
		fn = s.hydrateTool
	case "session_start":
		fn = s.start
	case "project_progress":
		fn = s.progress
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
	s.opened = nil
	v, err := fn(a)
	var rpcErr *Error
	switch {
	case errors.As(err, &rpcErr):
		// Arguments that do not fit the tool's inputSchema: a malformed request.
		return nil, rpcErr
	case err != nil:
		// Whatever the domain refused (no such teammate, task, snapshot or plan) or failed at.
		return toolError(quoteArgs(err, a)), nil
	}
	// What the command line says on stderr after the command (a repaired journal, a bad
	// setting used as its default) reaches the agent as the call's notes.
	var notes []string
	for _, env := range s.opened {
		notes = append(notes, env.History().HistoryWarnings()...)
		notes = append(notes, env.SettingsWarnings()...)
	}
	if len(notes) > 0 {
		n, _ := v.(noted)
		if n.v == nil {
			n.v = v
		}
		v = noted{n.v, append(n.notes, notes...)}
	}
	return textResult(v), nil
}

// openEnv is Open, keeping the project for the call's notes.
func (s *Server) openEnv(user, instance string) (*hydrate.Env, error) {
	env, err := s.Open(user, instance)
	if env != nil {
		s.opened = append(s.opened, env)
	}
	return env, err
}

// withEnv opens the project for the user argument (or the server's user), runs use on it, and
// closes it: use answers with the command line's --json object (a report of cmd/report).
func (s *Server) withEnv(a args, use func(*hydrate.Env) (any, error)) (any, error) {
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	return use(env)
}

// open opens the project for the user argument (or the server's user).
func (s *Server) open(a args, instance string) (*hydrate.Env, error) {
	user, perr := a.user()
	if perr != nil {
		return nil, perr
	}
	return s.openEnv(user, instance)
}

// user is the gsd user argument, under its name or its old one (sessionId); "" when neither is
// given. Both, naming different users, is invalid.
func (a args) user() (string, *Error) {
	user, perr := a.string(userArg)
	if perr != nil {
		return "", perr
	}
	old, perr := a.string(oldUserArg)
	if perr != nil {
		return "", perr
	}
	if user != "" && old != "" && user != old {
		return "", invalidParams("%s and %s (its old name) name different users: give one", userArg, oldUserArg)
	}
	if user == "" {
		user = old
	}
	return user, nil
}

func (s *Server) rehydrate(a args) (any, error) {
	user, e1 := a.user()
	inst, e2 := a.string("instanceId")
	snap, e3 := a.string("snapshotId")
	from, hasFrom, e4 := a.number("fromTimestamp", 0, maxTimestamp)
	for _, e := range []*Error{e1, e2, e3, e4} {
		if e != nil {
			return nil, e
		}
	}
	if user == "" || inst == "" {
		return nil, invalidParams("sessionId (or user) and instanceId are required")
	}
	env, err := s.openEnv(user, inst)
	if err != nil {
		return nil, err
	}
	defer env.Close()
	req := hydrate.RehydrateRequest{Instance: inst, SnapshotID: snap, Source: "mcp"}
	if hasFrom {
		req.From = time.UnixMilli(int64(from)).UTC()
	}
	return env.Agents().Rehydrate(req)
}

// stateGet is gsd hydrate --no-bootstrap --json: the session judged, nothing written.
func (s *Server) stateGet(a args) (any, error) {
	return s.withEnv(a, func(env *hydrate.Env) (any, error) {
		res, err := env.Hydrate(hydrate.Options{})
		if err != nil {
			return nil, err
		}
		return report.HydrateOf(env, res), nil
	})
}

// plan returns the plan argument resolved as gsd resolves a PLAN, relative to the project root.
func plan(env *hydrate.Env, a args) (string, error) {
	p, perr := a.string("plan")
	if perr != nil {
		return "", perr
	}
	if p == "" {
		return "", nil
	}
	rel, err := env.ResolvePlan(env.Root, p)
	if err != nil {
		return "", fmt.Errorf("plan: %w", err)
	}
	return rel, nil
}

// hydrateTool is gsd hydrate [--plan PLAN] --json.
func (s *Server) hydrateTool(a args) (any, error) {
	if _, perr := a.string("plan"); perr != nil {
		return nil, perr
	}
	env, err := s.open(a, "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	opts := hydrate.Options{Bootstrap: true}
	if opts.Plan, err = plan(env, a); err != nil {
		return nil, err
	}
	res, err := env.Hydrate(opts)
	if err != nil {
		return nil, err
	}
	v := report.HydrateOf(env, res)
	if !res.PlanIgnored {
		return v, nil
	}
	return noted{v, []string{"a valid session exists; plan ignored (session_start with that plan switches)"}}, nil
}

// start is gsd start [PLAN] [--force] --json.
func (s *Server) start(a args) (any, error) {
	force, perr := a.boolean("force")
	if perr == nil {
		_, perr = a.string("plan")
	}
	if perr != nil {
		return nil, perr
	}
	return s.withEnv(a, func(env *hydrate.Env) (any, error) {
		rel, err := plan(env, a)
		if err != nil {
			return nil, err
		}
		res, err := env.StartWith(rel, hydrate.StartOptions{Force: force})
		if err != nil {
			return nil, err
		}
		return report.HydrateOf(env, res), nil
	})
}

// progress is gsd progress [--all] --json, or its compact form. A report over MaxResult (the
// phases of a long-lived project) comes in pages of whole phases, each the report with a part of
// its phases and a "page" member saying which; phasesFrom asks for the page from that phase on.
func (s *Server) progress(a args) (any, error) {
	all, perr := a.boolean("all")
	compact, perr2 := a.boolean("compact")
	from, paged, perr3 := a.number("phasesFrom", 0, maxPhasesFrom)
	for _, e := range []*Error{perr, perr2, perr3} {
		if e != nil {
			return nil, e
		}
	}
	if compact && paged {
		return nil, invalidParams("compact has no phases to page: give compact or phasesFrom")
	}
	env, err := s.openEnv("", "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	r, err := env.Project().Progress()
	if err != nil {
		return nil, err
	}
	v := report.ProgressOf(r, all)
	if !compact && !paged {
		if text, err := marshalText(v); err != nil || len(text) <= MaxResult {
			return v, err
		}
		// Too long whole: its first page.
	}
	// Cut down through JSON, so it stays the command's object field for field, in its order.
	o, err := objectOf(v)
	if err != nil {
		return nil, err
	}
	if compact {
		return o.without(compactFields...), nil
	}
	return pageOf(o, "phases", int(from))
}

// snapshotCreate is gsd snapshot [--reason REASON] --json.
func (s *Server) snapshotCreate(a args) (any, error) {
	reason, perr := a.string("reason")
	if perr != nil {
		return nil, perr
	}
	return s.withEnv(a, func(env *hydrate.Env) (any, error) {
		res, err := env.History().Snapshot(reason)
		if err != nil {
			return nil, err
		}
		return report.SnapshotOf(res), nil
	})
}

// listSessions is gsd sessions [--state STATE,...] --json.
func (s *Server) listSessions(a args) (any, error) {
	states, perr := a.states("state")
	if perr != nil {
		return nil, perr
	}
	env, err := s.openEnv("", "")
	if err != nil {
		return nil, err
	}
	defer env.Close()
	res, err := env.Team().Sessions(0)
	if err != nil {
		return nil, err
	}
	return report.SessionsOf(res, states), nil
}

// resume is gsd resume FROM [--force] --json.
func (s *Server) resume(a args) (any, error) {
	if _, old := a["session_id"]; old {
		return nil, invalidParams("session_id is now from: the teammate whose session to take over")
	}
	from, perr := a.string("from")
	if perr != nil {
		return nil, perr
	}
	force, perr := a.boolean("force")
	if perr != nil {
		return nil, perr
	}
	if from == "" {
		return nil, invalidParams("from is required")
	}
	host, _ := os.Hostname()
	return s.withEnv(a, func(env *hydrate.Env) (any, error) {
		res, err := env.Team().TakeOver(from, hydrate.TakeOverOptions{Force: force, Host: host})
		if err != nil {
			return nil, err
		}
		return report.ResumeOf(res), nil
	})
}

// taskStatusSet is gsd mark-STATUS N --json.
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
	return s.withEnv(a, func(env *hydrate.Env) (any, error) {
		res, err := env.Mark(int(n), st)
		if err != nil {
			return nil, err
		}
		if len(res.Warnings) > 0 {
			return noted{report.MarkOf(res), res.Warnings}, nil // what gsd mark-* says on stderr
		}
		return report.MarkOf(res), nil
	})
}
