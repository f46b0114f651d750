package settings

import (
	"path/filepath"
	"slices"
)

// Agent is what gsd knows of an agent whose settings it installs its hooks in: the hooks (their
// event names differ from agent to agent) and where the agent's settings files are.
type Agent struct {
	Name  string // as gsd hook install --agent names it
	Title string // as messages name it
	File  string // what the agent calls the file: "settings file", "hooks file"
	Specs []Spec
	// Project is the project's settings file under root; Local is the project's settings file
	// that is not committed (nil when the agent has none).
	Project, Local func(root string) string
	// User is the user's settings file: under dir, the value of the environment variable
	// UserEnv, when it is set, else under home. UserEnv is "" when the agent has no such
	// variable.
	User    func(home, dir string) string
	UserEnv string
}

// Agents are the agents gsd installs hooks for, the default (Claude Code) first. The table is
// static data: it costs nothing at start-up, which every hook run pays.
var Agents = [...]Agent{
	{
		Name: "claude", Title: "Claude Code", File: "settings file", Specs: Specs,
		Project: ProjectSettings, Local: LocalSettings,
		User: UserSettings, UserEnv: "CLAUDE_CONFIG_DIR",
	},
	{
		Name: "codex", Title: "Codex CLI", File: "hooks file", Specs: CodexSpecs,
		Project: CodexProjectHooks,
		User:    CodexUserHooks, UserEnv: "CODEX_HOME",
	},
	{
		Name: "gemini", Title: "Gemini CLI", File: "settings file", Specs: GeminiSpecs,
		Project: GeminiProjectSettings,
		User:    geminiUserSettings,
	},
}

// AgentNamed is the agent of Agents called name.
func AgentNamed(name string) (*Agent, bool) {
	for i := range Agents {
		if Agents[i].Name == name {
			return &Agents[i], true
		}
	}
	return nil, false
}

// Serves reports whether some agent runs gsd hook sub for event.
func Serves(sub, event string) bool {
	for i := range Agents {
		for _, sp := range Agents[i].Specs {
			if sp.Sub == sub && sp.Event == event {
				return true
			}
		}
	}
	return false
}

// Events are the events the agents run gsd hook sub for, each once, in the order of Agents:
// {"PreCompact", "PreCompress"} for pre-compact.
func Events(sub string) []string {
	var events []string
	for i := range Agents {
		for _, sp := range Agents[i].Specs {
			if sp.Sub == sub && !slices.Contains(events, sp.Event) {
				events = append(events, sp.Event)
			}
		}
	}
	return events
}

// LocalSettings is the project's local settings file under root: Claude Code's
// settings.local.json, which is not committed.
func LocalSettings(root string) string {
	return filepath.Join(root, ".claude", "settings.local.json")
}

func geminiUserSettings(home, _ string) string { return GeminiUserSettings(home) }
