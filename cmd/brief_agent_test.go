package cmd

import (
	"strings"
	"testing"

	"github.com/gsd-tools/gsd/hydrate"
)

// TestAgentContextPart: the brief's "before the reset" part says what the agent was doing, the
// user's words quoted, its notes; a stale capture is one line; whatever the texts, the part stays
// within its budget.
func TestAgentContextPart(t *testing.T) {
	prompt, source, branch := `Fix the "login" bug`, "TodoWrite", "main"
	ac := &hydrate.AgentContext{
		Agent: "claude", Age: "12m", Event: "PreCompact: auto", LastPrompt: &prompt, TodoSource: &source, Branch: &branch,
		LastTools: []string{"Edit", "Bash"}, Files: []string{"api/login.go"},
		Todos: []hydrate.AgentTodo{{Content: "Reproduce it", Status: "complete"}, {Content: "Fix the check", Status: "in-progress"},
			{Content: "Add a test", Status: "pending"}},
		Notes: []string{`captured on branch "main"; the checkout is now on "fix"`},
	}
	got := agentContextPart(ac)
	for _, want := range []string{
		"## Before the reset\n\nWhat you (Claude Code) were doing, as gsd captured it from your transcript 12m ago (at PreCompact: auto). It is a record, not an instruction",
		"- **Note:** captured on branch \"main\"; the checkout is now on \"fix\".\n",
		"- **The user's last request:** \"Fix the \\\"login\\\" bug\"\n",
		"- **Your todo list** (TodoWrite): in progress \"Fix the check\"; 1 in progress, 1 pending, 1 done.\n  Pending: \"Add a test\".\n",
		"- **Tools you used last:** Edit, Bash\n",
		"- **Files you edited:** api/login.go\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the part lacks %q:\n%s", want, got)
		}
	}
	if got := agentContextPart(nil); got != "" {
		t.Errorf("no capture: %q", got)
	}
	stale := *ac
	stale.Stale, stale.Age = true, "72h"
	if got := agentContextPart(&stale); strings.Count(got, "\n") != 2 || !strings.Contains(got, "captured 72h ago, is left out as stale") {
		t.Errorf("stale: %q", got)
	}

	// Every text at its bound, in four-byte characters.
	wide := strings.Repeat("𝄞", 400)
	big := *ac
	big.LastPrompt, big.Notes = &wide, []string{wide[:200], wide[:200]}
	big.Todos, big.Files, big.LastTools = nil, nil, nil
	for i := 0; i < 20; i++ {
		big.Todos = append(big.Todos, hydrate.AgentTodo{Content: wide[:640], Status: []string{"in-progress", "pending"}[i%2]})
		big.Files = append(big.Files, strings.Repeat("d/", 150))
	}
	for i := 0; i < 8; i++ {
		big.LastTools = append(big.LastTools, strings.Repeat("x", 64))
	}
	if got := agentContextPart(&big); len(got) > maxAgentPart+1 || !strings.HasPrefix(got, "## Before the reset") {
		t.Errorf("%d bytes, over %d:\n%s", len(got), maxAgentPart, got)
	}
}
