package cmd

import (
	_ "embed" // the help topics' text
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The help topics: the reference that is not one command's, one file each under help/, written
// in Markdown that reads as plain text in a terminal and renders as a man page and a Markdown
// page (make docs). Embedded as strings, they are read-only data in the binary: nothing is read,
// copied or parsed until a topic's help is printed.
var (
	//go:embed help/position.md
	helpPosition string
	//go:embed help/session.md
	helpSession string
	//go:embed help/history.md
	helpHistory string
	//go:embed help/hooks.md
	helpHooks string
	//go:embed help/json.md
	helpJSON string
	//go:embed help/environment.md
	helpEnvironment string
	//go:embed help/exit-codes.md
	helpExitCodes string
	//go:embed help/files.md
	helpFiles string
	//go:embed help/guarantees.md
	helpGuarantees string
	//go:embed help/migrating.md
	helpMigrating string
)

// helpTopics are the topics gsd help lists. A topic cannot share a command's name (gsd help
// NAME finds the command): the session file's topic is "session", beside the command
// "sessions".
//
// A topic has no Run, so cobra lists it under "Additional help topics" and prints it for gsd
// TOPIC as for gsd help TOPIC, without looking at its arguments: gsd hooks install (for gsd
// hook install) would print the topic and exit 0. Arguments after a topic are a usage error
// instead (a.topicErr), and the topic is not printed.
func (a *app) helpTopics() []*cobra.Command {
	topic := func(name, short, text string) *cobra.Command {
		t := &cobra.Command{Use: name, Short: short, Long: strings.TrimSpace(text)}
		t.SetHelpFunc(func(c *cobra.Command, args []string) {
			if rest := c.Flags().Args(); len(rest) > 0 {
				a.topicErr = usageError{fmt.Errorf("%s is a help topic, not a command: it takes no arguments, got %q", c.Name(), rest[0])}
				return
			}
			c.Root().HelpFunc()(c, args)
		})
		return t
	}
	return []*cobra.Command{
		topic("position", "Where a project stands: milestone, phase, active plan, progress, problems, STATE.md", helpPosition),
		topic("session", "The session file: bootstrap, stale and corrupt, marks, carry-over, users, teams", helpSession),
		topic("history", "The journal, gsd log, tasks --at, snapshots and restore", helpHistory),
		topic("hooks", "Claude Code, Codex and Gemini hooks, the brief, stats, the MCP server", helpHooks),
		topic("json", "The --json output: conventions and every field", helpJSON),
		topic("environment", "Settings (.planning/config.json), environment variables, global flags", helpEnvironment),
		topic("exit-codes", "Exit codes, errors and warnings", helpExitCodes),
		topic("files", "How gsd reads and writes: the scanner, atomic writes, locks, limits", helpFiles),
		topic("guarantees", "What gsd promises about your files, and how it is tested", helpGuarantees),
		topic("migrating", "From the spec's shell functions to gsd commands", helpMigrating),
	}
}

// topicsFor names the help topics that take command name's reference further; its help ends
// with them (seeAlsoInHelp). A switch rather than a map, so that nothing is built at start-up.
func topicsFor(name string) []string {
	switch name {
	case "hydrate":
		return []string{"session", "position", "json"}
	case "start", "tasks", "resume":
		return []string{"session", "history"}
	case "mark-complete", "mark-in-progress", "mark-pending", "check", "whoami", "sessions":
		return []string{"session"}
	case "archive", "snapshot", "snapshots", "restore", "log":
		return []string{"history"}
	case "progress":
		return []string{"position", "files"}
	case "state":
		return []string{"position"}
	case "brief", "hook", "stats", "mcp":
		return []string{"hooks"}
	case "config":
		return []string{"environment"}
	}
	return nil
}

// withTopics ends c's long help with the topics that take it further, once.
func withTopics(c *cobra.Command) {
	ts := topicsFor(c.Name())
	if len(ts) == 0 || c.Long == "" {
		return
	}
	if see := "\n\nSee also: gsd help " + strings.Join(ts, ", gsd help ") + "."; !strings.HasSuffix(c.Long, see) {
		c.Long += see
	}
}

// seeAlsoInHelp makes root's help (inherited by every command) add the command's topics to its
// long help when the help is printed, so that a run that prints none spends nothing on them.
func seeAlsoInHelp(root *cobra.Command) {
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		withTopics(c)
		help(c, args)
	})
}
