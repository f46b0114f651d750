package cmd_test

// Bounded by construction: whatever the project holds (a 200 KB status, a 200 KB config value,
// a task name of a megabyte) and whatever an MCP client sends (a megabyte of arguments, task
// 1e300, {} or null), a SessionStart hook's context stays within hook.MaxContext, its notes
// within a line, and every MCP message within mcp.MaxMessage, a tool's text within
// mcp.MaxResult; no message echoes an input whole.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/cmd"
	"github.com/gsd-tools/gsd/cmd/mcp"
	"github.com/gsd-tools/gsd/hydrate/hook"
)

// hostileContent puts content where gsd reads it, chosen by where: a task's status in the
// session, a task's name, gsd's config values, the plan's objective, a phase's name in the
// roadmap, STATE.md.
func hostileContent(t testing.TB, where byte, content string) string {
	root := hostileProject(t.(*testing.T), nil)
	session := string(validSession(t.(*testing.T)))
	q := strings.NewReplacer(`"`, `'`).Replace(content)
	switch where % 7 {
	case 0:
		session = strings.Replace(session, `status="complete"`, `status="`+q+`"`, 1)
	case 1:
		session = strings.Replace(session, "Task 2: Beta", content, 1)
	case 2:
		b, _ := json.Marshal(map[string]any{"gsd": map[string]any{"idleAfter": content}})
		writeFile(t, filepath.Join(root, ".planning/config.json"), string(b))
	case 3:
		b, _ := json.Marshal(map[string]any{"gsd": map[string]any{"lockTimeout": content, "keepSnapshots": content, "journal": content}})
		writeFile(t, filepath.Join(root, ".planning/config.json"), string(b))
	case 4:
		session = strings.Replace(session, "<tasks>", "<objective>\n"+content+"\n</objective>\n\n<tasks>", 1)
	case 5:
		writeFile(t, filepath.Join(root, ".planning/ROADMAP.md"), "# Roadmap\n\n| Phase | Plans Complete | Status |\n|---|---|---|\n| 1. "+content+" | 0/2 | "+content+" |\n")
	case 6:
		writeFile(t, filepath.Join(root, ".planning/STATE.md"), "# State\n\nPhase: "+content+"\nPlan: "+content+"\n")
	}
	writeFile(t, filepath.Join(root, hostileSession), session)
	return root
}

// checkHook runs the SessionStart hook in root and holds its output to the bounds.
func checkHook(t *testing.T, root string) {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"cwd": root, "source": "clear", "session_id": "s-1"})
	var out, errb bytes.Buffer
	code := cmd.Main([]string{"--user", "ann", "hook", "session-start"}, bytes.NewReader(in), &out, &errb)
	if code != 0 {
		t.Fatalf("hook exit %d: %.300s", code, errb.String())
	}
	var o hook.SessionStartOutput
	if err := json.Unmarshal(out.Bytes(), &o); err != nil {
		t.Fatalf("hook output is not its JSON: %v: %.300s", err, out.String())
	}
	if n := len(o.HookSpecificOutput.AdditionalContext); n > hook.MaxContext || n == 0 {
		t.Errorf("additionalContext of %d bytes (limit %d): %.300s", n, hook.MaxContext, o.HookSpecificOutput.AdditionalContext)
	}
	if errb.Len() > 4<<10 || strings.Count(errb.String(), "\n") > 2 {
		t.Errorf("hook notes of %d bytes: %.300s", errb.Len(), errb.String())
	}
}

// checkMCP sends msgs to gsd mcp in root and holds every response to the bounds; it returns them.
func checkMCP(t *testing.T, root string, msgs ...string) []string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cmd.Main([]string{"-C", root, "--user", "ann", "mcp"}, strings.NewReader(strings.Join(msgs, "\n")+"\n"), &out, &errb); code != 0 {
		t.Fatalf("mcp exit %d: %.300s", code, errb.String())
	}
	var lines []string
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		l := sc.Text()
		lines = append(lines, l)
		if len(l) > mcp.MaxMessage {
			t.Errorf("an MCP message of %d bytes (limit %d): %.300s", len(l), mcp.MaxMessage, l)
		}
		if strings.Contains(l, strings.Repeat("A", 1000)) {
			t.Errorf("an MCP message echoes an input whole: %.300s", l)
		}
		var r struct {
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Errorf("not JSON: %v: %.300s", err, l)
		}
		for _, c := range r.Result.Content {
			if len(c.Text) > mcp.MaxResult {
				t.Errorf("a tool result of %d bytes (limit %d)", len(c.Text), mcp.MaxResult)
			}
		}
	}
	return lines
}

func rpc(id int, method string, params any) string {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return string(b)
}

func toolCall(id int, name string, args map[string]any) string {
	return rpc(id, "tools/call", map[string]any{"name": name, "arguments": args})
}

var bigInput = strings.Repeat("A", 200_000)

// TestHostileProjectBounds: the attacks of issue 28 against the hook and the MCP server.
func TestHostileProjectBounds(t *testing.T) {
	hostileEnv(t)
	for where := byte(0); where < 7; where++ {
		t.Run(fmt.Sprint(where), func(t *testing.T) {
			root := hostileContent(t, where, bigInput+"\n\x1b[31m\u202e|"+bigInput)
			checkHook(t, root)
			checkMCP(t, root,
				toolCall(1, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": "i-1", "fromTimestamp": 0}),
				toolCall(2, "session_state_get", map[string]any{}),
				toolCall(3, "list_sessions", map[string]any{}),
				toolCall(4, "task_status_set", map[string]any{"task": 1, "status": "complete"}),
				toolCall(5, "project_progress", map[string]any{"all": true}),
				toolCall(6, "session_state_get", map[string]any{"sessionId": "bob"}),
				toolCall(7, "session_hydrate", map[string]any{"sessionId": "bob"}),
				toolCall(8, "session_start", map[string]any{"sessionId": "cy", "plan": bigInput[:4000]}))
		})
	}
}

// TestMCPHostileRequests: a megabyte of arguments is refused, not echoed; task 1e300 is out of
// range, not task -9223372036854775808; {} and null are Invalid Requests answered with id null.
func TestMCPHostileRequests(t *testing.T) {
	hostileEnv(t)
	root := hostileContent(t, 0, "complete")
	big := strings.Repeat("A", 1<<20)
	lines := checkMCP(t, root,
		`{}`, `null`, `1`, `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
		rpc(1, big, nil),
		toolCall(2, big, nil),
		toolCall(3, "session_rehydrate", map[string]any{"sessionId": big, "instanceId": "x"}),
		toolCall(4, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": big}),
		toolCall(5, "session_snapshot_create", map[string]any{"reason": big}),
		toolCall(6, "task_status_set", map[string]any{"task": 1e300, "status": "complete"}),
		toolCall(7, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": "i", "fromTimestamp": 1e300}),
		`{"jsonrpc":"2.0","id":"`+big+`","method":"ping"}`,
	)
	want := []string{
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: not an object"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: not an object"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an id must be a string or a number of at most 128 bytes"}}`,
		`"id":1,"error":{"code":-32601,"message":"Method not found: AAAA`,
		`"id":2,"error":{"code":-32602,"message":"Unknown tool: AAAA`,
		`"id":3,"error":{"code":-32602,"message":"Invalid params: sessionId is 1048576 bytes, more than the 256 it may be","data":{"validation":"sessionId is 1048576 bytes, more than the 256 it may be"}}`,
		`"id":4,"error":{"code":-32602,"message":"Invalid params: instanceId is 1048576 bytes, more than the 256 it may be","data":{"validation":"instanceId is 1048576 bytes, more than the 256 it may be"}}`,
		`"id":5,"error":{"code":-32602,"message":"Invalid params: reason is 1048576 bytes, more than the 4096 it may be","data":{"validation":"reason is 1048576 bytes, more than the 4096 it may be"}}`,
		`"id":6,"error":{"code":-32602,"message":"Invalid params: task must be a whole number from 1 to 10000","data":{"validation":"task must be a whole number from 1 to 10000"}}`,
		`"id":7,"error":{"code":-32602,"message":"Invalid params: fromTimestamp must be a whole number from 0 to 253402300799999","data":{"validation":"fromTimestamp must be a whole number from 0 to 253402300799999"}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: an id must be a string or a number of at most 128 bytes"}}`,
	}
	if len(lines) != len(want) {
		t.Fatalf("%d responses, want %d:\n%.2000s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i, w := range want {
		if !strings.Contains(lines[i], w) {
			t.Errorf("response %d:\n%.500s\nwant it to contain\n%s", i+1, lines[i], w)
		}
	}
}

// FuzzHostileProjectBounds: for any content anywhere gsd reads it, the hook's context and every
// MCP message stay within their limits.
func FuzzHostileProjectBounds(f *testing.F) {
	for where := byte(0); where < 7; where++ {
		f.Add(where, bigInput)
		f.Add(where, "x|y\n\x00\xff\u2028"+strings.Repeat("é", 9000))
	}
	f.Fuzz(func(t *testing.T, where byte, content string) {
		hostileEnv(t)
		root := hostileContent(t, where, content)
		checkHook(t, root)
		checkMCP(t, root,
			toolCall(1, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": "i-1", "fromTimestamp": 0}),
			toolCall(2, "session_state_get", map[string]any{}),
			toolCall(3, "list_sessions", map[string]any{}))
	})
}
