package cmd

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newCompletionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "completion bash|zsh|fish|powershell",
		Short: "Print the shell completion script for bash, zsh, fish or PowerShell",
		Long: `Completion prints a script that makes your shell complete gsd's commands and flags, and
offers live candidates: task numbers with their names for mark-*, plans for start and --plan
(the current phase's first, by id and by path), existing session users for --user, the agents
for --agent (all honouring -C).

  bash:        source <(gsd completion bash)        # in ~/.bashrc; needs bash-completion v2
  zsh:         gsd completion zsh > "${fpath[1]}/_gsd"
  fish:        gsd completion fish > ~/.config/fish/completions/gsd.fish
  PowerShell:  gsd completion powershell | Out-String | Invoke-Expression   # in $PROFILE`,
		ValidArgs: []string{"bash", "zsh", "fish", "powershell"},
		Args: func(c *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageError{fmt.Errorf("%s needs one shell: bash, zsh, fish or powershell", name(c))}
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(a.stdout, true)
			case "zsh":
				return root.GenZshCompletion(a.stdout)
			case "fish":
				return root.GenFishCompletion(a.stdout, true)
			case "powershell":
				return root.GenPowerShellCompletionWithDesc(a.stdout)
			}
			return usageError{fmt.Errorf("unknown shell %s: want bash, zsh, fish or powershell", textfmt.Quote(args[0]))}
		},
	}
}

// noCompletion is a completion that offers nothing, not even file names.
func noCompletion() ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completeTasks offers the session's task numbers, with their names, that mark-* could set to st.
func (a *app) completeTasks(st planfile.Status) cobra.CompletionFunc {
	return func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return noCompletion()
		}
		env, _, err := a.open()
		if err != nil {
			return noCompletion()
		}
		s, err := env.Inspect()
		if err != nil {
			return noCompletion()
		}
		var out []cobra.Completion
		for _, t := range s.MarkCandidates(st) {
			n := strconv.Itoa(t.Number)
			if strings.HasPrefix(n, toComplete) {
				out = append(out, cobra.CompletionWithDesc(n, t.Name+" ("+string(t.Status)+")"))
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
	}
}

// completePlans offers the plans gsd start could be given, the current phase's first
// (hydrate.PlanCandidates): by id ("02-02") for a word that is not a path, the current phase's
// when there is no word yet; by path, relative to the directory gsd runs in (-C), for a word
// that is one or none.
func (a *app) completePlans(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return noCompletion()
	}
	env, dir, err := a.open()
	if err != nil {
		return noCompletion()
	}
	plans, err := env.PlanCandidates()
	if err != nil {
		return noCompletion()
	}
	isPath := strings.ContainsAny(toComplete, `/\`) || strings.HasPrefix(toComplete, ".")
	desc := func(p hydrate.PlanCandidate) string {
		switch {
		case p.Active:
			return "the active plan"
		case p.Done():
			return "done (SUMMARY exists)"
		case p.Current:
			return "a plan of the current phase"
		}
		return ""
	}
	var out []cobra.Completion
	for _, p := range plans {
		if !isPath && (p.Current || toComplete != "") && strings.HasPrefix(p.ID, toComplete) {
			out = append(out, withDesc(p.ID, desc(p)))
		}
	}
	for _, p := range plans {
		rel, err := filepath.Rel(dir, filepath.Join(env.Root, filepath.FromSlash(p.Path)))
		if err != nil || toComplete != "" && !isPath || !strings.HasPrefix(rel, toComplete) {
			continue
		}
		d := "plan " + p.ID
		if s := desc(p); s != "" {
			d += ", " + s
		}
		out = append(out, cobra.CompletionWithDesc(rel, d))
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveKeepOrder
}

// withDesc is a completion with its description, if it has one.
func withDesc(s, desc string) cobra.Completion {
	if desc == "" {
		return s
	}
	return cobra.CompletionWithDesc(s, desc)
}

// completeUsers offers the users that have a session directory.
func (a *app) completeUsers(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	env, _, err := a.open()
	if err != nil {
		return noCompletion()
	}
	users, err := env.SessionUsers()
	if err != nil {
		return noCompletion()
	}
	var out []cobra.Completion
	for _, u := range users {
		if strings.HasPrefix(u, toComplete) {
			out = append(out, u)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}
