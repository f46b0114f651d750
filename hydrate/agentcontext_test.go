package hydrate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// claudeTranscript is a Claude Code transcript in root: a prompt, a TodoWrite, an Edit.
func claudeTranscript(root, prompt string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return `{"type":"user","isSidechain":false,"timestamp":"2026-02-03T09:50:00.000Z","message":{"role":"user","content":` + q(prompt) + `}}` + "\n" +
		`{"type":"assistant","isSidechain":false,"timestamp":"2026-02-03T09:51:00.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"TodoWrite","input":{"todos":[{"content":"Write the handler","status":"in_progress","activeForm":"Writing the handler"},{"content":"Test it","status":"pending","activeForm":"Testing it"},{"content":"Read the spec","status":"completed","activeForm":"Reading the spec"}]}}]}}` + "\n" +
		`{"type":"assistant","isSidechain":false,"timestamp":"2026-02-03T09:52:00.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_2","name":"Edit","input":{"file_path":` + q(filepath.Join(root, "api", "handler.go")) + `,"old_string":"a","new_string":"b"}}]}}` + "\n"
}

// agentProject is a project as user ann at t0, in a git checkout on branch feature/x unless
// noGit, with stateDir as the user's state directory.
func agentProject(t *testing.T, noGit bool, stateDir string, files map[string]string) *Env {
	t.Helper()
	root := t.TempDir()
	if !noGit {
		writeTestFile(t, filepath.Join(root, ".git", "HEAD"), "ref: refs/heads/feature/x\n")
	}
	for p, c := range files {
		writeTestFile(t, filepath.Join(root, filepath.FromSlash(p)), c)
	}
	if err := os.MkdirAll(filepath.Join(root, ".planning"), 0o755); err != nil {
		t.Fatal(err)
	}
	return openAgentProject(t, root, stateDir, &t0)
}

func openAgentProject(t *testing.T, root, stateDir string, now *time.Time) *Env {
	t.Helper()
	e, err := Open(Config{Dir: root, Identity: identity.Sources{Flag: "ann", LookupEnv: func(string) (string, bool) { return "", false }},
		Now: func() time.Time { return *now }, StateDir: stateDir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func writeTestFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func appendTestFile(t *testing.T, path, data string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(data); err != nil {
		t.Fatal(err)
	}
}

// TestCaptureInGitDir: a capture is kept in the checkout's git directory, owner-only, and
// handed back with its age, the branch it was captured on, and notes when it may not apply.
func TestCaptureInGitDir(t *testing.T) {
	e := agentProject(t, false, "", nil)
	tr := filepath.Join(t.TempDir(), "3f2b.jsonl")
	writeTestFile(t, tr, claudeTranscript(e.Root, "Add the create handler, key sk-ant-api03-abcdefghijklmnopqrstuvwx"))
	res, err := e.Agents().Capture(CaptureInput{Event: "Stop", SessionID: "s1", Transcript: tr, Cwd: e.Root})
	if err != nil || !res.Written {
		t.Fatalf("capture: %+v, %v", res, err)
	}
	want := filepath.Join(e.Root, ".git", "gsd", "agent-context", "ann.json")
	if res.File != want {
		t.Errorf("kept in %s, want %s", res.File, want)
	}
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "sk-ant-api03") || len(data) > 8<<10 {
		t.Errorf("the record holds the secret, or is over 8 KiB:\n%s", data)
	}
	if runtime.GOOS != "windows" {
		for path, mode := range map[string]os.FileMode{want: 0o600, filepath.Dir(want): 0o700} {
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != mode {
				t.Errorf("%s: %v, want %v (%v)", path, fi.Mode().Perm(), mode, err)
			}
		}
	}

	ac := e.Agents().AgentContext(AgentContextOptions{})
	if ac == nil {
		t.Fatal("no agent context")
	}
	if ac.Agent != "claude" || ac.SessionID != "s1" || *ac.LastPrompt != "Add the create handler, key [redacted]" || ac.Age != "0s" ||
		ac.Event != "Stop" || *ac.Branch != "feature/x" || ac.Stale || len(ac.Notes) != 0 || *ac.TodoSource != "TodoWrite" ||
		strings.Join(ac.Files, ",") != "api/handler.go" || strings.Join(ac.LastTools, ",") != "Edit,TodoWrite" || len(ac.Todos) != 3 {
		t.Errorf("agent context: %+v", ac)
	}
	if in, pending, done := ac.Counts(); in != 1 || pending != 1 || done != 1 {
		t.Errorf("counts %d %d %d", in, pending, done)
	}

	// The same turn's end again: nothing appended, nothing written, told from a stat without
	// the capture's lock (held here: a capture that waited for it would fail).
	l, err := atomicfile.LockDir(context.Background(), filepath.Dir(want), 0)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := e.Agents().Capture(CaptureInput{Event: "Stop", SessionID: "s1", Transcript: tr, Cwd: e.Root}); err != nil || res.Written || res.Read != 0 {
		t.Errorf("nothing appended: %+v, %v", res, err)
	}
	l.Unlock()
	// A compaction with nothing new records when the capture was last current.
	later := t0.Add(30 * time.Minute)
	e2 := openAgentProject(t, e.Root, "", &later)
	if res, err := e2.Agents().Capture(CaptureInput{Event: "PreCompact", Detail: "auto", SessionID: "s1", Transcript: tr, Cwd: e.Root}); err != nil || !res.Written {
		t.Errorf("pre-compact: %+v, %v", res, err)
	}
	if ac := e2.Agents().AgentContext(AgentContextOptions{}); ac.Event != "PreCompact: auto" || !ac.CapturedAt.Equal(later) || *ac.LastPrompt != "Add the create handler, key [redacted]" {
		t.Errorf("after pre-compact: %+v", ac)
	}

	// Another branch checked out, another session resumed: said so.
	writeTestFile(t, filepath.Join(e.Root, ".git", "HEAD"), "ref: refs/heads/main\n")
	ac = e2.Agents().AgentContext(AgentContextOptions{Resumed: "s0"})
	if len(ac.Notes) != 2 || !strings.Contains(ac.Notes[0], `"feature/x"`) || !strings.Contains(ac.Notes[1], "another session") || ac.Stale {
		t.Errorf("notes: %q", ac.Notes)
	}
	// Much later: stale, and said so.
	old := t0.Add(72 * time.Hour)
	if ac := openAgentProject(t, e.Root, "", &old).Agents().AgentContext(AgentContextOptions{}); !ac.Stale || ac.Age != "71h" || !strings.Contains(strings.Join(ac.Notes, ";"), "captured 71h ago") {
		t.Errorf("stale: %+v", ac)
	}
}

// TestCaptureHeldAcrossReads: what was captured before stays when the transcript goes on; a new
// session with nothing to say leaves the last one's capture; once it has something, it
// replaces it.
func TestCaptureHeldAcrossReads(t *testing.T) {
	e := agentProject(t, false, "", nil)
	tr := filepath.Join(t.TempDir(), "s1.jsonl")
	writeTestFile(t, tr, claudeTranscript(e.Root, "Add the create handler"))
	capture := func(session, path string) *CaptureResult {
		t.Helper()
		res, err := e.Agents().Capture(CaptureInput{Event: "Stop", SessionID: session, Transcript: path, Cwd: e.Root})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	capture("s1", tr)
	appendTestFile(t, tr, `{"type":"user","isSidechain":false,"timestamp":"2026-02-03T09:55:00.000Z","message":{"role":"user","content":"and the list handler"}}`+"\n")
	if res := capture("s1", tr); !res.Written || res.Read > 200 {
		t.Errorf("appended: %+v", res)
	}
	ac := e.Agents().AgentContext(AgentContextOptions{})
	if *ac.LastPrompt != "and the list handler" || len(ac.Todos) != 3 {
		t.Errorf("held: %+v", ac)
	}
	// /clear: a new session, nothing in its transcript yet.
	tr2 := filepath.Join(t.TempDir(), "s2.jsonl")
	writeTestFile(t, tr2, `{"type":"system","subtype":"local_command","content":"<command-name>/clear</command-name>"}`+"\n")
	if res := capture("s2", tr2); res.Written {
		t.Errorf("an empty new session replaced the capture")
	}
	if ac := e.Agents().AgentContext(AgentContextOptions{}); ac.SessionID != "s1" {
		t.Errorf("after an empty new session: %+v", ac)
	}
	appendTestFile(t, tr2, `{"type":"user","isSidechain":false,"timestamp":"2026-02-03T10:00:00.000Z","message":{"role":"user","content":"now the delete handler"}}`+"\n")
	capture("s2", tr2)
	if ac := e.Agents().AgentContext(AgentContextOptions{}); ac.SessionID != "s2" || *ac.LastPrompt != "now the delete handler" || len(ac.Todos) != 0 || ac.TodoSource != nil {
		t.Errorf("new session: %+v", ac)
	}
}

// TestCaptureOutsideGit: a project outside git keeps its capture in the user's state
// directory, one file per user and project; without one, the capture says why it cannot.
func TestCaptureOutsideGit(t *testing.T) {
	state := t.TempDir()
	e := agentProject(t, true, state, nil)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	writeTestFile(t, tr, claudeTranscript(e.Root, "Add the create handler"))
	res, err := e.Agents().Capture(CaptureInput{Event: "SessionEnd", Detail: "clear", SessionID: "s", Transcript: tr, Cwd: e.Root})
	if err != nil || filepath.Dir(filepath.Dir(res.File)) != filepath.Join(state, "agent-context") || filepath.Base(res.File) != "ann.json" {
		t.Fatalf("capture: %+v, %v", res, err)
	}
	if entries, _ := os.ReadDir(filepath.Join(e.Root, ".planning")); len(entries) != 0 {
		t.Errorf(".planning was written to: %v", entries)
	}
	e2 := agentProject(t, true, "", nil)
	if _, err := e2.Agents().Capture(CaptureInput{Event: "Stop", SessionID: "s", Transcript: tr, Cwd: e2.Root}); err == nil || !strings.Contains(err.Error(), "no place to keep it") {
		t.Errorf("no state directory: %v", err)
	}
}

// TestCaptureOff: the agentContext setting off, nothing is read, written or handed back.
func TestCaptureOff(t *testing.T) {
	e := agentProject(t, false, "", map[string]string{".planning/config.json": `{"gsd": {"agentContext": false}}`})
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	writeTestFile(t, tr, claudeTranscript(e.Root, "Add the create handler"))
	if res, err := e.Agents().Capture(CaptureInput{Event: "Stop", SessionID: "s", Transcript: tr, Cwd: e.Root}); res != nil || err != nil {
		t.Errorf("off: %+v, %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(e.Root, ".git", "gsd")); !os.IsNotExist(err) {
		t.Errorf("off, yet written: %v", err)
	}
	if ac := e.Agents().AgentContext(AgentContextOptions{}); ac != nil {
		t.Errorf("off, yet handed back: %+v", ac)
	}
}

// TestReinject: a capture that asks for it (Gemini's PreCompress) is handed back on the next
// turn once, and only once.
func TestReinject(t *testing.T) {
	e := agentProject(t, false, "", nil)
	tr := filepath.Join(t.TempDir(), "session-2026-02-03T09-50-abcd.jsonl")
	writeTestFile(t, tr, `{"sessionId":"g1","projectHash":"h","kind":"main"}`+"\n"+`{"id":"m1","timestamp":"2026-02-03T09:50:00.000Z","type":"user","content":"Port the CLI to cobra"}`+"\n")
	if ac := e.Agents().TakeReinject(); ac != nil {
		t.Errorf("nothing captured, yet: %+v", ac)
	}
	if _, err := e.Agents().Capture(CaptureInput{Event: "PreCompress", Detail: "auto", SessionID: "g1", Transcript: tr, Cwd: e.Root}); err != nil {
		t.Fatal(err)
	}
	ac := e.Agents().TakeReinject()
	if ac == nil || ac.Agent != "gemini" || *ac.LastPrompt != "Port the CLI to cobra" {
		t.Fatalf("first turn: %+v", ac)
	}
	if ac := e.Agents().TakeReinject(); ac != nil {
		t.Errorf("second turn: %+v", ac)
	}
	if ac := e.Agents().AgentContext(AgentContextOptions{}); ac == nil {
		t.Errorf("the capture itself stays")
	}
}

// TestRehydrateAgentContext: session_rehydrate gives the agent's last prompt, tools and own
// todos (pending and in progress), saying where they come from; a stale capture is listed and
// the plan's tasks are the todos again.
func TestRehydrateAgentContext(t *testing.T) {
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "in-progress", "pending")
	e := agentProject(t, false, "", files)
	res, err := e.Agents().Rehydrate(RehydrateRequest{Instance: "w", Source: "mcp"})
	if err != nil || res.Context.TodoSource != "plan" || res.Context.LastPrompt != nil || len(res.Context.ActiveTodos) != 2 || res.Context.AgentContext != nil {
		t.Fatalf("before a capture: %+v, %v", res.Context, err)
	}
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	writeTestFile(t, tr, claudeTranscript(e.Root, "Add the create handler"))
	if _, err := e.Agents().Capture(CaptureInput{Event: "Stop", SessionID: "s", Transcript: tr, Cwd: e.Root}); err != nil {
		t.Fatal(err)
	}
	res, err = e.Agents().Rehydrate(RehydrateRequest{Instance: "w", Source: "mcp"})
	c := res.Context
	if err != nil || c.TodoSource != "TodoWrite" || *c.LastPrompt != "Add the create handler" || strings.Join(c.LastTools, ",") != "Edit,TodoWrite" ||
		len(c.ActiveTodos) != 2 || c.ActiveTodos[0] != (ContextTodo{Content: "Write the handler", Status: "in-progress", ActiveForm: "Writing the handler"}) ||
		len(c.LastTasks) != 3 || c.AgentContext == nil {
		t.Errorf("after a capture: %+v, %v", c, err)
	}
	old := t0.Add(50 * time.Hour)
	res, err = openAgentProject(t, e.Root, "", &old).Agents().Rehydrate(RehydrateRequest{Instance: "w", Source: "mcp"})
	if c := res.Context; err != nil || c.TodoSource != "plan" || c.LastPrompt != nil || len(c.ActiveTodos) != 2 || c.AgentContext == nil || !c.AgentContext.Stale {
		t.Errorf("stale: %+v, %v", c, err)
	}
}
