package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// agentTranscripts are the transcripts of hydrate/agentctx's fixtures that each agent's story
// uses, with the hook event that ends a turn.
var agentTranscripts = []struct{ agent, fixture, event string }{
	{"claude", "claude_todowrite.jsonl", "Stop"},
	{"claude", "claude_tasks.jsonl", "Stop"},
	{"codex", "rollout-2026-07-08T16-20-00-7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl", "Stop"},
	{"gemini", "session-2026-08-01T12-00-5e6f7a8b.jsonl", "AfterAgent"},
}

// hookRun runs gsd hook sub as user in dir with the event JSON in, and fails the test unless it
// exits 0 in silence on stderr; it returns stdout.
func hookRun(t *testing.T, dir, user, sub string, in map[string]any) string {
	t.Helper()
	data, _ := json.Marshal(in)
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"-C", dir, "--user", user, "hook", sub}, bytes.NewReader(data), &stdout, &stderr); code != 0 || stderr.Len() > 0 {
		t.Fatalf("gsd hook %s: exit %d: %s", sub, code, stderr.String())
	}
	return stdout.String()
}

// TestRehydrateGivesAgentContext: for each agent, a turn's end captures from its transcript and
// session_rehydrate, through the official SDK's client, returns the seed's lastPrompt and
// lastTools and the agent's own todos as activeTodos, exactly as the fixture's capture has them
// (the plan's tasks stay in lastTasks), in a result that fits the tool's outputSchema.
func TestRehydrateGivesAgentContext(t *testing.T) {
	for _, tc := range agentTranscripts {
		t.Run(tc.fixture, func(t *testing.T) {
			dir := mcpProject(t)
			t.Setenv("XDG_STATE_HOME", "")
			src := filepath.Join("..", "hydrate", "agentctx", "testdata", tc.fixture)
			data, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			transcript := filepath.Join(t.TempDir(), tc.fixture)
			if err := os.WriteFile(transcript, data, 0o600); err != nil {
				t.Fatal(err)
			}
			var want struct {
				Prompt string   `json:"lastPrompt"`
				Tools  []string `json:"lastTools"`
				Todos  []struct {
					Content, Status, ActiveForm string
					Hidden                      bool
				} `json:"todos"`
				Source string `json:"todoSource"`
			}
			golden, err := os.ReadFile(strings.TrimSuffix(src, ".jsonl") + ".want.json")
			if err != nil || json.Unmarshal(golden, &want) != nil {
				t.Fatalf("the fixture's capture: %v", err)
			}
			hookRun(t, dir, "ann", "turn-end", map[string]any{"session_id": "s-" + tc.agent, "transcript_path": transcript, "cwd": dir, "hook_event_name": tc.event})

			cs := connect(t, dir)
			var rh struct {
				Context struct {
					LastTasks   []struct{ ID, Text, Status string }            `json:"lastTasks"`
					ActiveTodos []struct{ Content, Status, ActiveForm string } `json:"activeTodos"`
					LastPrompt  *string                                        `json:"lastPrompt"`
					LastTools   []string                                       `json:"lastTools"`
					TodoSource  string                                         `json:"todoSource"`
					Agent       *struct {
						Agent, SessionID, Event string
						Stale                   bool
					} `json:"agentContext"`
				} `json:"context"`
			}
			call(t, cs, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": "w-1"}, &rh)
			c := rh.Context
			if c.LastPrompt == nil || *c.LastPrompt != want.Prompt || !slices.Equal(c.LastTools, want.Tools) || c.TodoSource != want.Source {
				t.Errorf("lastPrompt %v, lastTools %q, todoSource %q; want %q, %q, %q", c.LastPrompt, c.LastTools, c.TodoSource, want.Prompt, want.Tools, want.Source)
			}
			var active []string
			for _, td := range want.Todos {
				if !td.Hidden && (td.Status == "pending" || td.Status == "in-progress") {
					active = append(active, td.Content+"|"+td.Status+"|"+td.ActiveForm)
				}
			}
			var got []string
			for _, td := range c.ActiveTodos {
				got = append(got, td.Content+"|"+td.Status+"|"+td.ActiveForm)
			}
			if !slices.Equal(got, active) || len(active) == 0 {
				t.Errorf("activeTodos %q, want %q", got, active)
			}
			if len(c.LastTasks) != 3 || c.Agent == nil || c.Agent.Agent != tc.agent || c.Agent.SessionID != "s-"+tc.agent || c.Agent.Event != tc.event || c.Agent.Stale {
				t.Errorf("lastTasks %v, agentContext %+v", c.LastTasks, c.Agent)
			}
		})
	}
}

// promptSecrets are API-key-shaped strings a user may paste into a prompt (made up, in the
// shapes of Anthropic's, OpenAI's, GitHub's, AWS's and Slack's keys, a JWT and a private key).
var promptSecrets = []string{
	"sk-ant-api03-Zq8xY2vB7nM4kL1pR6tW9sD3fG5hJ0aQ-made0up0000AA",
	"sk-proj-4fKx9Qm2Lr7Tz1Wb8Nc3Vd6Ye0Ha5Pj",
	"ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
	"AKIAIOSFODNN7MADEUP0",
	"xoxb-123456789012-madeupmadeup",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJtYWRlLXVwIn0.c2lnbmF0dXJlLW1hZGUtdXA",
	"-----BEGIN RSA PRIVATE KEY-----\nMIIEmadeupmadeupmadeup\n-----END RSA PRIVATE KEY-----",
}

// TestSecretsNeverLeave: no API-key-shaped string the user's prompt (or the agent's todo list)
// carried reaches the stored capture, the brief the hook gives, gsd brief --json,
// hydrate --json or MCP session_rehydrate; the words around it do.
func TestSecretsNeverLeave(t *testing.T) {
	dir := mcpProject(t)
	t.Setenv("XDG_STATE_HOME", "")
	state := filepath.Join(os.Getenv("HOME"), ".local", "state", "gsd")
	transcript := filepath.Join(t.TempDir(), "5f0c.jsonl")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	prompt := "Deploy to staging with these: " + strings.Join(promptSecrets, " and ") + " then report back"
	lines := `{"type":"user","isSidechain":false,"timestamp":"2026-02-03T09:00:00.000Z","message":{"role":"user","content":` + q(prompt) + `}}` + "\n" +
		`{"type":"assistant","isSidechain":false,"timestamp":"2026-02-03T09:00:05.000Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"TodoWrite","input":{"todos":[{"content":` + q("Log in with "+promptSecrets[0]) + `,"status":"in_progress","activeForm":"Logging in"}]}}]}}` + "\n"
	if err := os.WriteFile(transcript, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	in := map[string]any{"session_id": "5f0c", "transcript_path": transcript, "cwd": dir, "hook_event_name": "SessionEnd", "reason": "clear"}
	hookRun(t, dir, "ann", "session-end", in)
	outputs := map[string]string{}
	in = map[string]any{"session_id": "9a1b", "cwd": dir, "hook_event_name": "SessionStart", "source": "clear"}
	outputs["hook session-start"] = hookRun(t, dir, "ann", "session-start", in)
	outputs["brief"] = run(t, dir, "ann", "brief", "--no-bootstrap")
	outputs["brief --json"] = run(t, dir, "ann", "brief", "--no-bootstrap", "--json")
	outputs["hydrate --json"] = run(t, dir, "ann", "hydrate", "--no-bootstrap", "--json")
	files, _ := filepath.Glob(filepath.Join(state, "agent-context", "*", "ann.json"))
	if len(files) != 1 {
		t.Fatalf("stored captures: %q", files)
	}
	stored, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	outputs["the stored capture"] = string(stored)
	cs := connect(t, dir)
	var rh map[string]any
	call(t, cs, "session_rehydrate", map[string]any{"sessionId": "ann", "instanceId": "w-1"}, &rh)
	b, _ := json.Marshal(rh)
	outputs["session_rehydrate"] = string(b)
	for where, out := range outputs {
		if !strings.Contains(out, "Deploy to staging with these: [redacted]") || !strings.Contains(out, "report back") {
			t.Errorf("%s: the prompt is not there:\n%s", where, out)
		}
		for _, s := range promptSecrets {
			for _, part := range []string{s[:12], s[len(s)-10:]} {
				if strings.Contains(out, part) {
					t.Errorf("%s holds %q of a secret", where, part)
				}
			}
		}
	}
}
