package settings

import (
	"path/filepath"
	"slices"
	"testing"
)

// The agents' table: each name finds its agent, and a hook's events are every agent's name for
// it, once each.
func TestAgents(t *testing.T) {
	for _, name := range []string{"claude", "codex", "gemini"} {
		ag, ok := AgentNamed(name)
		if !ok || ag.Name != name || len(ag.Specs) == 0 || ag.Project == nil || ag.User == nil {
			t.Errorf("AgentNamed(%q) = %+v, %v", name, ag, ok)
		}
	}
	if _, ok := AgentNamed("cursor"); ok {
		t.Error("AgentNamed(cursor) found an agent")
	}
	if Agents[0].Name != "claude" || Agents[0].Local == nil || Agents[1].Local != nil || Agents[2].Local != nil {
		t.Error("Claude Code is the default, and the only agent with a local settings file")
	}
	for sub, want := range map[string][]string{
		"session-start": {"SessionStart"},
		"pre-compact":   {"PreCompact", "PreCompress"},
		"session-end":   {"SessionEnd"},
		"turn-end":      {"Stop", "AfterAgent"},
		"turn-start":    {"BeforeAgent"},
	} {
		if got := Events(sub); !slices.Equal(got, want) {
			t.Errorf("Events(%q) = %q, want %q", sub, got, want)
		}
		for _, ev := range want {
			if !Serves(sub, ev) {
				t.Errorf("Serves(%q, %q) = false", sub, ev)
			}
		}
	}
	if Serves("session-end", "PreCompact") || Serves("pre-compact", "") || Serves("turn-end", "SubagentStop") {
		t.Error("Serves matched another hook's event")
	}
	home, dir := filepath.FromSlash("/home/ann"), filepath.FromSlash("/etc/agent")
	for _, tc := range []struct{ name, project, local, user, userEnv string }{
		{"claude", "/p/.claude/settings.json", "/p/.claude/settings.local.json", "/home/ann/.claude/settings.json", "/etc/agent/settings.json"},
		{"codex", "/p/.codex/hooks.json", "", "/home/ann/.codex/hooks.json", "/etc/agent/hooks.json"},
		{"gemini", "/p/.gemini/settings.json", "", "/home/ann/.gemini/settings.json", "/home/ann/.gemini/settings.json"},
	} {
		ag, _ := AgentNamed(tc.name)
		if got := ag.Project(filepath.FromSlash("/p")); got != filepath.FromSlash(tc.project) {
			t.Errorf("%s: Project = %s", tc.name, got)
		}
		if ag.Local != nil && ag.Local(filepath.FromSlash("/p")) != filepath.FromSlash(tc.local) {
			t.Errorf("%s: Local = %s", tc.name, ag.Local(filepath.FromSlash("/p")))
		}
		if got := ag.User(home, ""); got != filepath.FromSlash(tc.user) {
			t.Errorf("%s: User = %s", tc.name, got)
		}
		if got := ag.User(home, dir); got != filepath.FromSlash(tc.userEnv) {
			t.Errorf("%s: User with $%s = %s", tc.name, ag.UserEnv, got)
		}
	}
}
