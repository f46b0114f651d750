package cmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpProject copies the demo project to a temporary directory, with sessions for ann (fresh) and
// bob (task 1 in progress), and isolates the test from the user's own configuration.
func mcpProject(t *testing.T) string {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GSD_USER", "")
	t.Setenv("GSD_INSTANCE", "")
	t.Setenv("SOURCE_DATE_EPOCH", "1770112800") // 2026-02-03T10:00:00Z
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	run(t, dir, "ann", "hydrate")
	run(t, dir, "bob", "hydrate")
	run(t, dir, "bob", "mark-in-progress", "1")
	return dir
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
	cs, err := client.Connect(ctx, &sdk.IOTransport{Reader: fromServerR, Writer: toServerW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		toServerW.Close()
		if code := <-done; code != 0 {
			t.Errorf("gsd mcp exited %d: %s", code, stderr.String())
		}
	})
	return cs
}

// call calls a tool and decodes its structured content into out; a tool error fails the test.
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
	// The text content is the same object, for clients that read only text.
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks", name, len(res.Content))
	}
	text, ok := res.Content[0].(*sdk.TextContent)
	if !ok || !json.Valid([]byte(text.Text)) {
		t.Fatalf("%s: content is not JSON text: %#v", name, res.Content[0])
	}
}

// invalidParams calls a tool and wants the seed's -32602 error, returning its validation text.
func invalidParams(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) string {
	t.Helper()
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != -32602 || we.Message != "Invalid params" {
		t.Fatalf("%s %v: got %v, want error -32602 Invalid params", name, args, err)
	}
	var data struct {
		Validation string `json:"validation"`
	}
	if err := json.Unmarshal(we.Data, &data); err != nil || data.Validation == "" {
		t.Fatalf("%s: data %s is not {validation}", name, we.Data)
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
// tools, call each one, and the errors.
func TestMCPConformance(t *testing.T) {
	dir := mcpProject(t)
	cs := connect(t, dir)
	ctx := context.Background()

	init := cs.InitializeResult()
	if init.ServerInfo.Name != "gsd" || init.Capabilities.Tools == nil {
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
	}
	slices.Sort(names)
	want := []string{"list_sessions", "session_rehydrate", "session_resume", "session_snapshot_create", "session_state_get", "task_status_set"}
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
		rh.Snapshot.Timestamp != 1770112800000 || len(rh.Context.LastTasks) != 3 || rh.Context.LastTasks[0].Status != "in_progress" ||
		len(rh.Context.ActiveTodos) != 3 || len(rh.Context.RecentEvents) != 2 {
		t.Fatalf("session_rehydrate: %+v", rh)
	}
	if j := journalOf(t, dir, "bob"); !strings.Contains(j, `"type":"rehydrated","source":"mcp","instance":"worker-2"`) {
		t.Fatalf("bob's journal has no rehydration by worker-2:\n%s", j)
	}
	if v := invalidParams(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob"}); v != "sessionId and instanceId are required" {
		t.Errorf("validation %q", v)
	}
	invalidParams(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "w", "fromTimestamp": "yesterday"})
	invalidParams(t, cs, "session_rehydrate", map[string]any{"sessionId": "bob", "instanceId": "w", "snapshotId": "current-plan.20990101000000.manual"})

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
		Status  string
	}
	call(t, cs, "task_status_set", map[string]any{"task": 2, "status": "in-progress"}, &mark)
	if !mark.Changed || mark.Status != "in-progress" {
		t.Fatalf("task_status_set: %+v", mark)
	}
	run(t, dir, "ann", "mark-complete", "2")
	var state struct {
		SessionID string `json:"sessionId"`
		Tasks     []struct{ Status string }
	}
	call(t, cs, "session_state_get", nil, &state)
	if state.SessionID != "ann" || state.Tasks[1].Status != "complete" {
		t.Fatalf("session_state_get does not see the CLI's write: %+v", state)
	}
	invalidParams(t, cs, "task_status_set", map[string]any{"task": 2, "status": "done"})
	invalidParams(t, cs, "task_status_set", map[string]any{"task": 1.5, "status": "complete"})
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "task_status_set", Arguments: map[string]any{"task": 9, "status": "complete"}}); err != nil || !res.IsError {
		t.Fatalf("no task 9: want a tool error, got %v %v", res, err)
	}

	// list_sessions with a state filter.
	var list struct {
		Sessions []struct{ User, State string }
		Warnings []string
	}
	call(t, cs, "list_sessions", map[string]any{"state": "active"}, &list)
	if len(list.Sessions) != 2 || len(list.Warnings) != 1 || !strings.Contains(list.Warnings[0], "same plan") {
		t.Fatalf("list_sessions: %+v", list)
	}
	invalidParams(t, cs, "list_sessions", map[string]any{"state": "busy"})

	// session_resume: ann takes bob's session over; both journals say so.
	var rs struct {
		From     string
		Archived string
		Changed  bool
	}
	call(t, cs, "session_resume", map[string]any{"session_id": "bob"}, &rs)
	if rs.From != "bob" || !rs.Changed || !strings.HasSuffix(rs.Archived, ".pre-resume") {
		t.Fatalf("session_resume: %+v", rs)
	}
	if !strings.Contains(journalOf(t, dir, "ann"), `"type":"resume","source":"mcp"`) || !strings.Contains(journalOf(t, dir, "bob"), `"type":"handed-over"`) {
		t.Fatal("the resume is not journaled in both")
	}
	invalidParams(t, cs, "session_resume", map[string]any{"session_id": "nobody"})
	invalidParams(t, cs, "session_resume", map[string]any{})

	// An unknown tool is a protocol error.
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "rm_rf", Arguments: map[string]any{}}); err == nil {
		t.Fatal("an unknown tool succeeded")
	}
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
