package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpProject copies the demo project to a temporary directory, with sessions for ann (fresh) and
// bob (task 1 in progress), and isolates the test from the user's own configuration.
func mcpProject(t *testing.T) string {
	t.Helper()
	mcpEnv(t)
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "ann", "hydrate")
	run(t, dir, "bob", "hydrate")
	run(t, dir, "bob", "mark-in-progress", "1")
	return dir
}

// mcpEnv isolates the test from the user's own configuration, at a fixed time.
func mcpEnv(t *testing.T) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GSD_USER", "")
	t.Setenv("GSD_INSTANCE", "")
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800") // 2026-02-03T10:00:00Z
}

// run runs gsd as user in dir and fails the test unless it succeeds.
func run(t *testing.T, dir, user string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := Main(append([]string{"-C", dir, "--user", user}, args...), strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("gsd %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// connect starts gsd mcp (as ann) on pipes and connects the official SDK's client to it.
func connect(t *testing.T, dir string) *sdk.ClientSession {
	t.Helper()
	toServerR, toServerW := io.Pipe()
	fromServerR, fromServerW := io.Pipe()
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		code := Main([]string{"-C", dir, "--user", "ann", "mcp"}, toServerR, fromServerW, &stderr)
		fromServerW.Close()
		done <- code
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "gsd-test", Version: "1"}, nil)
	// The client's Close must not close the server's stdout: a decoder that has its message may
	// not yet have read the newline after it, and the server would fail writing it.
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: keepOpen{fromServerR}, Writer: toServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		toServerW.Close()
		go io.Copy(io.Discard, fromServerR)
		if code := <-done; code != 0 {
			t.Errorf("gsd mcp exited %d: %s", code, stderr.String())
		}
	})
	return cs
}

// keepOpen is a reader whose Close does nothing.
type keepOpen struct{ io.Reader }

func (keepOpen) Close() error { return nil }

// call calls a tool and decodes its structured content into out; a tool error fails the test.
// The structured content must fit the tool's outputSchema, and the text content be the same
// object.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if res.IsError {
		t.Fatalf("%s: tool error: %v", name, res.Content)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
	checkOutputSchema(t, cs, name, res.StructuredContent)
	// The text content is the same object, for clients that read only text; notes may follow.
	if len(res.Content) < 1 {
		t.Fatalf("%s: no content", name)
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok {
		t.Fatalf("%s: content is not text: %#v", name, res.Content[0])
	}
	var fromText, fromStruct any
	if err := json.Unmarshal([]byte(text.Text), &fromText); err != nil {
		t.Fatalf("%s: the text is not JSON: %v", name, err)
	}
	_ = json.Unmarshal(b, &fromStruct)
	if !reflect.DeepEqual(fromText, fromStruct) {
		t.Fatalf("%s: the text and the structured content differ:\n%s\n%s", name, text.Text, b)
	}
}

// toolLists holds each client session's tools/list.
var toolLists sync.Map

// checkOutputSchema validates a tool's structured content against the outputSchema tools/list
// declares for it.
func checkOutputSchema(t *testing.T, cs *sdk.ClientSession, name string, content any) {
	t.Helper()
	list, ok := toolLists.Load(cs)
	if !ok {
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		list, _ = toolLists.LoadOrStore(cs, res.Tools)
	}
	for _, tl := range list.([]*sdk.Tool) {
		if tl.Name != name {
			continue
		}
		if tl.OutputSchema == nil {
			t.Fatalf("%s declares no outputSchema", name)
		}
		b, _ := json.Marshal(tl.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatalf("%s: outputSchema: %v", name, err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: outputSchema: %v", name, err)
		}
		var instance any
		cb, _ := json.Marshal(content)
		_ = json.Unmarshal(cb, &instance)
		if err := resolved.Validate(instance); err != nil {
			t.Fatalf("%s: the result does not fit its outputSchema: %v\n%s", name, err, cb)
		}
		return
	}
	t.Fatalf("no tool %s", name)
}

// toolError calls a tool and wants a tool error (isError), returning its text.
func toolError(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: got %v, want a tool error", name, args, err)
	}
	if !res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
		t.Fatalf("%s %v: got %+v, want a tool error", name, args, res)
	}
	return res.Content[0].(*sdk.TextContent).Text
}

// invalidParams calls a tool and wants the seed's -32602 error, returning its validation text.
func invalidParams(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32602 || !strings.HasPrefix(we.Message, "Invalid params: ") {
		t.Fatalf("%s %v: got %v, want error -32602 Invalid params: why", name, args, err)
	}
	var data struct {
		Validation string `json:"validation"`
	}
	if err := json.Unmarshal(we.Data, &data); err != nil || data.Validation == "" {
		t.Fatalf("%s: data %s is not {validation}", name, we.Data)
	}
	// The SDK shows the message alone: the reason must be in it, as in data.
	if we.Message != "Invalid params: "+data.Validation {
		t.Fatalf("%s: message %q does not say why (%q)", name, we.Message, data.Validation)
	}
	return data.Validation
}

func journalOf(t *testing.T, dir, user string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".planning", "sessions", user, "journal.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMCPConformance drives gsd mcp with the official Go SDK's client: initialize, ping, list the
// tools, call each one, and the errors: arguments that do not fit a tool's inputSchema are
// JSON-RPC's -32602, what the domain refuses (no such teammate, task, snapshot or plan) a tool
// result with isError.
func TestMCPConformance(t *testing.T) {
	dir := mcpProject(t)
	cs := connect(t, dir)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "gsd" || init.Capabilities.Tools == nil || init.ProtocolVersion != "2025-11-25" {
		t.Fatalf("initialize: %+v", init)
	}
	if err := cs.Ping(ctx, nil); err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		if tl.OutputSchema == nil || tl.InputSchema == nil {
			t.Errorf("%s: no input or output schema", tl.Name)
		}
	}
	slices.Sort(names)
	want := []string{"list_sessions", "project_progress", "session_hydrate", "session_rehydrate", "session_resume",
		"session_snapshot_create", "session_start", "session_state_get", "task_status_set"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}

	// session_rehydrate: the seed's response, and the rehydration journaled for the instance.
	var rh struct {
		SessionID  string `json:"sessionId"`
		Rehydrated bool   `json:"rehydrated"`
		Snapshot   struct {
			ID         string `json:"id"`
			Timestamp  int64  `json:"timestamp"`
			EventCount int    `json:"eventCount"`
		} `json:"snapshot"`
		Context struct {
			LastTasks []struct {
				ID, Text, Status string
			} `json:"lastTasks"`
			ActiveTodos []struct {
				Content, Status string
			} `json:"activeTodos"`
			RecentEvents []struct {
				Type string `json:"type"`
			} `json:"recentEvents"`
		} `json:"context"`
	}
	call(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "worker-2", "fromTimestamp": 0}, &rh)
	if rh.SessionID != "bob" || !rh.Rehydrated || rh.Snapshot.ID != "current-plan.md" || rh.Snapshot.EventCount != 2 ||
		rh.Snapshot.Timestamp != 1770112800000 || len(rh.Context.LastTasks) != 3 || rh.Context.LastTasks[0].Status != "in-progress" ||
		len(rh.Context.ActiveTodos) != 3 || len(rh.Context.RecentEvents) != 2 {
		t.Fatalf("session_rehydrate: %+v", rh)
	}
	if j := journalOf(t, dir, "bob"); !strings.Contains(j, `"type":"rehydrated","source":"mcp","instance":"worker-2"`) {
		t.Fatalf("bob's journal has no rehydration by worker-2:\n%s", j)
	}
	if v := invalidParams(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob"}); v != "sessionId (or user) and instanceId are required" {
		t.Errorf("validation %q", v)
	}
	invalidParams(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "w", "fromTimestamp": "yesterday"})
	if e := toolError(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "w", "snapshotId": "current-plan.20990101000000.manual"}); !strings.Contains(e, "no such snapshot") {
		t.Errorf("no such snapshot: %s", e)
	}

	// session_snapshot_create, then rehydrate from that snapshot.
	var snap struct{ ID string }
	call(t, cs, "session_snapshot_create", map[string]any{"sessionId": "bob", "reason": "before the handover"}, &snap)
	if snap.ID != "current-plan.20260203100000.manual" {
		t.Fatalf("snapshot %q", snap.ID)
	}
	call(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "worker-3", "snapshotId": snap.ID}, &rh)
	if rh.Snapshot.ID != snap.ID || len(rh.Context.LastTasks) != 3 || rh.Snapshot.EventCount < 3 {
		t.Fatalf("rehydrate from a snapshot: %+v", rh)
	}

	// task_status_set and session_state_get; the server re-reads the disk on every call.
	var mark struct {
		Changed bool
		Task    struct{ Number int }
		Status  string `json:"-"`
	}
	call(t, cs, "task_status_set", map[string]any{"task": 2, "status": "in-progress"}, &mark)
	if !mark.Changed || mark.Task.Number != 2 {
		t.Fatalf("task_status_set: %+v", mark)
	}
	run(t, dir, "ann", "mark-complete", "2")
	var state struct {
		User  string `json:"user"`
		Tasks []struct{ Status string }
	}
	call(t, cs, "session_state_get", nil, &state)
	if state.User != "ann" || state.Tasks[1].Status != "complete" {
		t.Fatalf("session_state_get does not see the CLI's write: %+v", state)
	}
	invalidParams(t, cs, "task_status_set", map[string]any{"task": 2, "status": "done"})
	invalidParams(t, cs, "task_status_set", map[string]any{"task": 1.5, "status": "complete"})
	if e := toolError(t, cs, "task_status_set", map[string]any{"task": 9, "status": "complete"}); !strings.Contains(e, "9") {
		t.Errorf("no task 9: %s", e)
	}

	// list_sessions with a state filter.
	var list struct {
		Sessions  []struct{ User, State string }
		Warnings  []string
		IdleAfter string
	}
	call(t, cs, "list_sessions", map[string]any{"state": []string{"active"}}, &list)
	if len(list.Sessions) != 2 || len(list.Warnings) != 1 || !strings.Contains(list.Warnings[0], "same plan") || list.IdleAfter != "2h" {
		t.Fatalf("list_sessions: %+v", list)
	}
	invalidParams(t, cs, "list_sessions", map[string]any{"state": []string{"busy"}})

	// session_resume: ann takes bob's session over; both journals say so.
	var rs struct {
		From     string
		Archived string
		Changed  bool
	}
	call(t, cs, "session_resume", map[string]any{"from": "bob"}, &rs)
	if rs.From != "bob" || !rs.Changed || !strings.HasSuffix(rs.Archived, ".pre-resume") {
		t.Fatalf("session_resume: %+v", rs)
	}
	if !strings.Contains(journalOf(t, dir, "ann"), `"type":"resume","source":"mcp"`) || !strings.Contains(journalOf(t, dir, "bob"), `"type":"handed-over"`) {
		t.Fatal("the resume is not journaled in both")
	}
	// An unknown teammate is refused by the domain, as no task 9 is: a tool error, one way.
	toolError(t, cs, "session_resume", map[string]any{"from": "nobody"})
	toolError(t, cs, "session_resume", map[string]any{"from": "no body"})
	invalidParams(t, cs, "session_resume", map[string]any{})
	if v := invalidParams(t, cs, "session_resume", map[string]any{"session_id": "bob"}); !strings.Contains(v, "from") {
		t.Errorf("the old argument name: %s", v)
	}

	// Starting work: a plan that names nothing, or one already done, is the domain's refusal.
	toolError(t, cs, "session_start", map[string]any{"sessionId": "carol", "plan": "09-09"})
	if e := toolError(t, cs, "session_start", map[string]any{"sessionId": "carol", "plan": "02-01"}); !strings.Contains(e, "SUMMARY") {
		t.Errorf("a plan with its SUMMARY: %s", e)
	}
	if e := toolError(t, cs, "session_start", map[string]any{"sessionId": "carol", "plan": ".planning/sessions/ann/current-plan.md"}); !strings.Contains(e, "where sessions and their snapshots live") {
		t.Errorf("a session as the plan: %s", e)
	}
	invalidParams(t, cs, "session_start", map[string]any{"force": "yes"})
	invalidParams(t, cs, "project_progress", map[string]any{"all": 1})

	// An unknown tool is a protocol error.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "rm_rf", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an unknown tool succeeded")
	}
}

// twins are two copies of one project in one state: a tool acts on the first, the command line
// on the second, and their answers must be the same object.
type twins struct {
	t          *testing.T
	mcp, cli   string
	cs         *sdk.ClientSession
	serverUser string
}

func newTwins(t *testing.T, setup func(t *testing.T) string) *twins {
	a, b := setup(t), setup(t)
	return &twins{t: t, mcp: a, cli: b, cs: connect(t, a), serverUser: "ann"}
}

// same calls tool with args on one twin and runs gsd --json as user with cliArgs on the other,
// and wants the same object, field by field; it returns the tool's.
func (w *twins) same(tool string, args map[string]any, user string, cliArgs ...string) map[string]any {
	w.t.Helper()
	var got map[string]any
	call(w.t, w.cs, tool, args, &got)
	if user == "" {
		user = w.serverUser
	}
	var want map[string]any
	out := run(w.t, w.cli, user, append(cliArgs, "--json")...)
	if err := json.Unmarshal([]byte(out), &want); err != nil {
		w.t.Fatalf("gsd %s --json: %v\n%s", strings.Join(cliArgs, " "), err, out)
	}
	sameFields(w.t, tool+" / gsd "+strings.Join(cliArgs, " "), got, want)
	return got
}

// sameFields compares two JSON objects field by field, naming each field that differs.
func sameFields(t *testing.T, what string, got, want map[string]any) {
	t.Helper()
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	for k := range keys {
		g, inGot := got[k]
		w, inWant := want[k]
		switch {
		case !inGot:
			t.Errorf("%s: the tool has no %q (the CLI: %v)", what, k, w)
		case !inWant:
			t.Errorf("%s: the CLI has no %q (the tool: %v)", what, k, g)
		case !reflect.DeepEqual(g, w):
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			t.Errorf("%s: %q differs:\ntool: %s\ncli:  %s", what, k, gb, wb)
		}
	}
}

// TestMCPMatchesCLI: every tool but session_rehydrate answers with the object the command line's
// --json prints for the same state, field for field, through the official SDK's client; and
// session_rehydrate speaks gsd's values in the seed's shape.
func TestMCPMatchesCLI(t *testing.T) {
	w := newTwins(t, mcpProject)

	// Carol has no session: she can see what would happen, then start work, all through MCP.
	st := w.same("session_state_get", map[string]any{"sessionId": "carol"}, "carol", "hydrate", "--no-bootstrap")
	if st["state"] != "no-session" || st["plan"] != nil || st["resumeTask"] != nil {
		t.Errorf("no session: %v", st)
	}
	h := w.same("session_hydrate", map[string]any{"sessionId": "carol"}, "carol", "hydrate")
	if h["state"] != "resume" || h["plan"] != ".planning/phases/02-task-api/02-02-PLAN.md" || h["confidence"] != "high" {
		t.Errorf("session_hydrate: %v", h)
	}
	w.same("session_hydrate", map[string]any{"sessionId": "carol"}, "carol", "hydrate")
	m := w.same("task_status_set", map[string]any{"sessionId": "carol", "task": 1, "status": "in-progress"}, "carol", "mark-in-progress", "1")
	if task, _ := m["task"].(map[string]any); task["status"] != "in-progress" || task["number"] != float64(1) {
		t.Errorf("task_status_set: %v", m)
	}
	w.same("task_status_set", map[string]any{"sessionId": "carol", "task": 1, "status": "complete"}, "carol", "mark-complete", "1")
	w.same("task_status_set", map[string]any{"sessionId": "carol", "task": 3, "status": "pending"}, "carol", "mark-pending", "3")
	w.same("session_state_get", map[string]any{"sessionId": "carol"}, "carol", "hydrate", "--no-bootstrap")

	// A plan by id, by path, and one that already has its SUMMARY, forced.
	w.same("session_start", map[string]any{"sessionId": "dave", "plan": "02-03"}, "dave", "start", "02-03")
	w.same("session_start", map[string]any{"sessionId": "dave", "plan": ".planning/phases/02-task-api/02-02-PLAN.md"}, "dave", "start", ".planning/phases/02-task-api/02-02-PLAN.md")
	w.same("session_start", map[string]any{"sessionId": "erin", "plan": "02-01", "force": true}, "erin", "start", "02-01", "--force")
	w.same("session_start", map[string]any{"sessionId": "erin"}, "erin", "start")
	w.same("session_hydrate", map[string]any{"sessionId": "fay", "plan": "02-03"}, "fay", "hydrate", "--plan", "02-03")

	// The project: the full report, --all, and the compact form (the same fields, fewer). A
	// session's "changed" is its file's modification time, which the copies must share.
	sameTimes(t, w.mcp, w.cli)
	full := w.same("project_progress", nil, "", "progress")
	w.same("project_progress", map[string]any{"all": true}, "", "progress", "--all")
	var compact map[string]any
	call(t, w.cs, "project_progress", map[string]any{"compact": true}, &compact)
	for _, f := range []string{"phases", "sessions", "state", "problems"} {
		if _, ok := compact[f]; ok {
			t.Errorf("compact has %s", f)
		}
		delete(full, f)
	}
	sameFields(t, "project_progress compact", compact, full)

	// Snapshots, sessions, resume.
	w.same("session_snapshot_create", map[string]any{"sessionId": "bob", "reason": "handover"}, "bob", "snapshot", "--reason", "handover")
	w.same("list_sessions", nil, "", "sessions")
	w.same("list_sessions", map[string]any{"state": []string{"active", "idle"}}, "", "sessions", "--state", "active,idle")
	w.same("session_resume", map[string]any{"from": "bob"}, "", "resume", "bob")
	w.same("session_resume", map[string]any{"from": "carol", "sessionId": "gus"}, "gus", "resume", "carol")

	// session_rehydrate keeps the seed's names and types with gsd's values: its tasks are the
	// CLI's tasks, its plan and resume task the CLI's (null when unknown).
	var rh map[string]any
	call(t, w.cs, "session_rehydrate", map[string]any{"sessionId": "carol", "instanceId": "w-1"}, &rh)
	ctxt := rh["context"].(map[string]any)
	cli := map[string]any{}
	if err := json.Unmarshal([]byte(run(t, w.mcp, "carol", "hydrate", "--no-bootstrap", "--json")), &cli); err != nil {
		t.Fatal(err)
	}
	if ctxt["plan"] != cli["plan"] || !reflect.DeepEqual(ctxt["resumeTask"], cli["resumeTask"]) || ctxt["state"] != cli["state"] {
		t.Errorf("session_rehydrate's context %v, the CLI %v", ctxt, cli)
	}
	cliTasks := cli["tasks"].([]any)
	lastTasks := ctxt["lastTasks"].([]any)
	if len(lastTasks) != len(cliTasks) {
		t.Fatalf("%d lastTasks, %d tasks", len(lastTasks), len(cliTasks))
	}
	for i, lt := range lastTasks {
		lt, ct := lt.(map[string]any), cliTasks[i].(map[string]any)
		if lt["id"] != fmt.Sprint(ct["number"]) || lt["text"] != ct["name"] || lt["status"] != ct["status"] {
			t.Errorf("lastTasks[%d] %v, the CLI's task %v", i, lt, ct)
		}
	}
	call(t, w.cs, "session_rehydrate", map[string]any{"sessionId": "nobody", "instanceId": "w-1"}, &rh)
	if ctxt := rh["context"].(map[string]any); rh["rehydrated"] != false || ctxt["plan"] != nil || ctxt["resumeTask"] != nil {
		t.Errorf("session_rehydrate without a session: %v", rh)
	}
}

// TestMCPStartsWhereTheCLIWould: a position that is not sure (STATE.md lags behind the work)
// reaches an agent through MCP as through the command line: the same confidence and
// alternatives, and the other reading started by its plan id.
func TestMCPStartsWhereTheCLIWould(t *testing.T) {
	w := newTwins(t, lagsProject)
	sameTimes(t, w.mcp, w.cli)
	p := w.same("project_progress", nil, "", "progress")
	if p["confidence"] != "medium" || len(p["alternatives"].([]any)) == 0 {
		t.Fatalf("project_progress: confidence %v, alternatives %v", p["confidence"], p["alternatives"])
	}
	w.same("session_state_get", nil, "", "hydrate", "--no-bootstrap")
	h := w.same("session_hydrate", nil, "", "hydrate")
	if h["plan"] != ".planning/phases/58-export/58-01-PLAN.md" || h["confidence"] != "medium" || len(h["alternatives"].([]any)) == 0 {
		t.Fatalf("session_hydrate: %v", h)
	}
	alt := h["alternatives"].([]any)[0].(map[string]any)
	if alt["plan"] != ".planning/phases/55-search/55-01-PLAN.md" {
		t.Fatalf("alternative %v", alt)
	}
	// A valid session is kept when hydrate names another plan, and the agent is told so.
	res, err := w.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "session_hydrate", Arguments: map[string]any{"plan": "55-01"}})
	if err != nil || res.IsError || len(res.Content) != 2 || !strings.Contains(res.Content[1].(*sdk.TextContent).Text, "plan ignored") {
		t.Fatalf("session_hydrate with another plan: %v %+v", err, res)
	}
	s := w.same("session_start", map[string]any{"plan": "55-01"}, "", "start", "55-01")
	if s["plan"] != ".planning/phases/55-search/55-01-PLAN.md" {
		t.Fatalf("session_start: %v", s)
	}
	sameTimes(t, w.mcp, w.cli)
	w.same("project_progress", map[string]any{"all": true}, "", "progress", "--all")
}

// sameTimes gives every file of the two projects one modification time.
func sameTimes(t *testing.T, dirs ...string) {
	t.Helper()
	when := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			return os.Chtimes(p, when, when)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// lagsProject is a project whose STATE.md lags behind the work: the position follows the work
// with medium confidence, STATE.md's phase the other reading.
func lagsProject(t *testing.T) string {
	t.Helper()
	mcpEnv(t)
	dir := t.TempDir()
	tasks := func(names ...string) string {
		s := "<tasks>\n"
		for i, n := range names {
			s += fmt.Sprintf("<task type=\"auto\"><name>Task %d: %s</name><action>a</action></task>\n", i+1, n)
		}
		return s + "</tasks>\n"
	}
	for name, content := range map[string]string{
		"ROADMAP.md": "# Roadmap: Atlas\n\n## Phases\n\n- [ ] **Phase 55: Search** - search\n- [x] **Phase 56: Filters** - filters\n" +
			"- [x] **Phase 57: Sorting** - sorting\n- [ ] **Phase 58: Export** - export\n",
		"STATE.md": "---\ngsd_state_version: 1.0\nstopped_at: Completed 57-02-PLAN.md\nlast_updated: \"2026-03-05T10:00:00Z\"\n---\n" +
			"# Project State\n\n## Current Position\n\nPhase: 55 (Search) — EXECUTING\nPlan: 1 of 1\n",
		"phases/55-search/55-01-PLAN.md":     tasks("index"),
		"phases/56-filters/56-01-PLAN.md":    "",
		"phases/56-filters/56-01-SUMMARY.md": "",
		"phases/57-sorting/57-01-PLAN.md":    "",
		"phases/57-sorting/57-01-SUMMARY.md": "---\ncompleted: 2026-03-04\n---\n",
		"phases/57-sorting/57-02-PLAN.md":    "",
		"phases/57-sorting/57-02-SUMMARY.md": "---\ncompleted: 2026-03-05\n---\n",
		"phases/58-export/58-01-PLAN.md":     tasks("csv", "json"),
	} {
		p := filepath.Join(dir, ".planning", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestMCPWire checks what the SDK client hides: notifications get no answer, garbage gets a parse
// error, and a session that ends mid-line ends the server cleanly.
func TestMCPWire(t *testing.T) {
	dir := mcpProject(t)
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2099-01-01","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`not json`,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/unknown"}`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"session_state_get","arguments":{"sessionId":"bob"}}}`,
		`{"jsonrpc":"2.0","id":5,"meth`,
	}, "\n")
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-C", dir, "--user", "ann", "mcp"}, strings.NewReader(in), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	wants := []string{
		`"id":1,"result":{"capabilities":{"tools":{"listChanged":false}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batches are not supported"}}`,
		`{"jsonrpc":"2.0","id":"a","error":{"code":-32601,"message":"Method not found: tools/unknown"}}`,
		`{"jsonrpc":"2.0","id":3,"result":{}}`,
		`"id":4,"result":{"content":[{"text":`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
	}
	if len(lines) != len(wants) {
		t.Fatalf("%d responses, want %d:\n%s", len(lines), len(wants), stdout.String())
	}
	for i, w := range wants {
		if !strings.Contains(lines[i], w) {
			t.Errorf("response %d:\n%s\nwant it to contain\n%s", i+1, lines[i], w)
		}
	}
	if !strings.Contains(lines[0], `"protocolVersion":"2025-11-25"`) {
		t.Errorf("an unknown protocol version gets the newest: %s", lines[0])
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestMCPClosesWhatItOpens: the server opens the project on every call and must close it, or a
// long agent session runs out of file descriptors.
func TestMCPClosesWhatItOpens(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts descriptors in /proc/self/fd")
	}
	dir := mcpProject(t)
	var calls []string
	for i := range 400 {
		name := []string{"session_state_get", "list_sessions", "session_snapshot_create"}[i%3]
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":{"sessionId":"ann"}}}`, i+1, name))
	}
	fds := func() int {
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(ents)
	}
	before := fds()
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-C", dir, "--user", "ann", "mcp"}, strings.NewReader(strings.Join(calls, "\n")), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), `"isError":false`); n != len(calls) {
		t.Fatalf("%d of %d calls succeeded:\n%.2000s", n, len(calls), stdout.String())
	}
	// The CLI's own open (for -C's project, once) may stay; one per call may not.
	if after := fds(); after > before+8 {
		t.Errorf("%d descriptors open after %d calls, %d before", after, len(calls), before)
	}
}

// TestMCPCallNotes: what the command line says on stderr after a command (here, a bad setting
// used as its default) reaches the agent with each call's result, not once on the server's
// stderr when it ends.
func TestMCPCallNotes(t *testing.T) {
	dir := mcpProject(t)
	if err := os.WriteFile(filepath.Join(dir, ".planning", "config.json"), []byte(`{"gsd": {"idleAfter": "soon"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var calls []string
	for i := range 2 {
		calls = append(calls, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"session_state_get","arguments":{"sessionId":"ann"}}}`, i+1))
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-C", dir, "--user", "ann", "mcp"}, strings.NewReader(strings.Join(calls, "\n")), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if n := strings.Count(stdout.String(), `gsd: warning: .planning/config.json: gsd.idleAfter: \"soon\"`); n != 2 {
		t.Errorf("%d results carry the settings warning, want 2:\n%.3000s", n, stdout.String())
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// TestMCPAnnotations: every tool says whether it writes, whether what it writes replaces the
// user's session, and whether calling it again changes anything more, each hint given.
func TestMCPAnnotations(t *testing.T) {
	cs := connect(t, mcpProject(t))
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hint struct{ readOnly, destructive, idempotent bool }
	want := map[string]hint{
		"session_state_get":       {true, false, true},
		"project_progress":        {true, false, true},
		"list_sessions":           {true, false, true},
		"session_hydrate":         {false, false, true},
		"task_status_set":         {false, false, true},
		"session_rehydrate":       {false, false, false},
		"session_snapshot_create": {false, false, false},
		"session_start":           {false, true, false},
		"session_resume":          {false, true, false},
	}
	for _, tl := range tools.Tools {
		a := tl.Annotations
		if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: annotations %+v: every hint must be given", tl.Name, a)
			continue
		}
		got := hint{a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint}
		if w, ok := want[tl.Name]; !ok || got != w || *a.OpenWorldHint {
			t.Errorf("%s: hints %+v (open world %v), want %+v", tl.Name, got, *a.OpenWorldHint, w)
		}
	}
}

// TestMCPUserArgument: the gsd user a tool acts for is the argument user, which cannot be taken
// for the agent's conversation (the hooks' session_id); its old name, sessionId, still works.
func TestMCPUserArgument(t *testing.T) {
	dir := mcpProject(t)
	cs := connect(t, dir)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		b, _ := json.Marshal(tl.InputSchema)
		var schema struct {
			Properties map[string]struct{ Description string } `json:"properties"`
		}
		_ = json.Unmarshal(b, &schema)
		if _, old := schema.Properties["sessionId"]; old {
			if u, ok := schema.Properties["user"]; !ok || !strings.Contains(u.Description, "gsd user") {
				t.Errorf("%s takes sessionId but no user: %s", tl.Name, b)
			}
		}
	}
	var st struct {
		User  string `json:"user"`
		Tasks []struct{ Status string }
	}
	call(t, cs, "session_state_get", map[string]any{"user": "bob"}, &st)
	if st.User != "bob" || st.Tasks[0].Status != "in-progress" {
		t.Fatalf("user bob: %+v", st)
	}
	call(t, cs, "session_state_get", map[string]any{"sessionId": "bob"}, &st)
	if st.User != "bob" {
		t.Fatalf("sessionId bob: %+v", st)
	}
	call(t, cs, "session_state_get", map[string]any{"sessionId": "bob", "user": "bob"}, &st)
	if v := invalidParams(t, cs, "session_state_get", map[string]any{"sessionId": "bob", "user": "ann"}); !strings.Contains(v, "different users") {
		t.Errorf("user and sessionId differ: %s", v)
	}
	// A second task in progress is set, with what gsd mark-in-progress says on stderr as a note.
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "task_status_set", Arguments: map[string]any{"user": "bob", "task": 2, "status": "in-progress"}})
	if err != nil || res.IsError || len(res.Content) != 2 || !strings.Contains(res.Content[1].(*sdk.TextContent).Text, "gsd: warning: task 1 is in progress too") {
		t.Fatalf("a second task in progress: %v %+v", err, res)
	}
	var mark struct{ Changed bool }
	call(t, cs, "task_status_set", map[string]any{"user": "bob", "task": 1, "status": "complete"}, &mark)
	if !mark.Changed || !strings.Contains(journalOf(t, dir, "bob"), `"type":"mark","source":"mcp"`) {
		t.Fatalf("task_status_set for user bob: %+v", mark)
	}
	var rh struct {
		SessionID  string `json:"sessionId"`
		Rehydrated bool   `json:"rehydrated"`
	}
	call(t, cs, "session_rehydrate", map[string]any{"user": "bob", "instanceId": "w-9"}, &rh)
	if rh.SessionID != "bob" || !rh.Rehydrated {
		t.Fatalf("session_rehydrate for user bob: %+v", rh)
	}
}

// TestMCPProgressPages: a report over the 64 KiB a result may hold comes in pages of whole
// phases, each the command's report but for the phases it holds, and following page.next
// gives every phase, in order, once.
func TestMCPProgressPages(t *testing.T) {
	w := newTwins(t, bigProject)
	sameTimes(t, w.mcp, w.cli)
	var whole map[string]any
	if err := json.Unmarshal([]byte(run(t, w.cli, "ann", "progress", "--all", "--json")), &whole); err != nil {
		t.Fatal(err)
	}
	wholePhases := whole["phases"].([]any)
	var phases []any
	pages := 0
	for from := any(nil); ; pages++ {
		args := map[string]any{"all": true}
		if from != nil {
			args["phasesFrom"] = from
		}
		res, err := w.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "project_progress", Arguments: args})
		if err != nil || res.IsError {
			t.Fatalf("page %d: %v %v", pages+1, err, res)
		}
		if text := res.Content[0].(*sdk.TextContent).Text; len(text) > 64<<10 {
			t.Fatalf("page %d: %d bytes", pages+1, len(text))
		}
		var page map[string]any
		call(t, w.cs, "project_progress", args, &page)
		p := page["page"].(map[string]any)
		got := page["phases"].([]any)
		if p["from"] != float64(len(phases)) || p["count"] != float64(len(got)) || p["total"] != float64(len(wholePhases)) || len(got) == 0 {
			t.Fatalf("page %d: %v with %d phases, after %d", pages+1, p, len(got), len(phases))
		}
		phases = append(phases, got...)
		delete(page, "page")
		page["phases"] = wholePhases
		sameFields(t, fmt.Sprintf("page %d", pages+1), page, whole)
		if from = p["next"]; from == nil {
			break
		}
	}
	if pages < 1 || !reflect.DeepEqual(phases, wholePhases) {
		t.Fatalf("%d pages gave %d phases, want the %d of gsd progress --all", pages+1, len(phases), len(wholePhases))
	}
	// The phases' order is the command's; so is every other member's.
	res, _ := w.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "project_progress", Arguments: map[string]any{"all": true}})
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.HasPrefix(text, "{\n  \"schemaVersion\": 1,\n  \"planningDir\"") {
		t.Errorf("a page's members are not in the command's order:\n%.200s", text)
	}
	if e := toolError(t, w.cs, "project_progress", map[string]any{"all": true, "phasesFrom": 5000}); !strings.Contains(e, "past the") {
		t.Errorf("phasesFrom past the end: %s", e)
	}
	invalidParams(t, w.cs, "project_progress", map[string]any{"compact": true, "phasesFrom": 1})
	invalidParams(t, w.cs, "project_progress", map[string]any{"phasesFrom": -1})
}

// bigProject is a project whose gsd progress --all --json is well over 64 KiB: 90 finished
// phases of 6 plans each, and one to do.
func bigProject(t *testing.T) string {
	t.Helper()
	mcpEnv(t)
	dir := t.TempDir()
	var roadmap strings.Builder
	roadmap.WriteString("# Roadmap: Big\n\n## Phases\n\n")
	write := func(name, content string) {
		p := filepath.Join(dir, ".planning", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for n := 1; n <= 91; n++ {
		box := "x"
		if n == 91 {
			box = " "
		}
		fmt.Fprintf(&roadmap, "- [%s] **Phase %d: Subsystem number %d of the big project**\n", box, n, n)
		phaseDir := fmt.Sprintf("phases/%02d-subsystem-number-%d-of-the-big-project", n, n)
		for p := 1; p <= 6; p++ {
			id := fmt.Sprintf("%02d-%02d", n, p)
			write(phaseDir+"/"+id+"-PLAN.md", "<tasks>\n<task type=\"auto\"><name>Task 1: Build it</name><action>a</action></task>\n</tasks>\n")
			if n < 91 {
				write(phaseDir+"/"+id+"-SUMMARY.md", "")
			}
		}
	}
	write("ROADMAP.md", roadmap.String())
	return dir
}
