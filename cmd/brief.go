package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
)

func (a *app) newBriefCmd() *cobra.Command {
	var o hydrateOptions
	c := &cobra.Command{
		Use:   "brief",
		Short: "Hydrate, and print a Markdown brief for an agent that has forgotten everything",
		Long: `Brief hydrates exactly like gsd hydrate (the same bootstrap and the same --no-bootstrap
and --plan; --porcelain and --format are hydrate's alone) and prints the result as a
compact Markdown brief written for an agent starting from nothing: the plan and its objective,
progress, the completed tasks, the task to resume as the plan writes it, whether it was
interrupted, the remaining tasks, what the agent itself was doing before the reset (its
user's last request, its own todo list, its last tools and edited files, as the hooks captured
them from its transcript: gsd help hooks), anything stale or corrupt, and the commands to run
next. gsd brief --json gives the same content as data.

The brief stays under 8 KB: a long text is cut, with the file and line where the rest is.
gsd hydrate --format brief prints the same.`,
		Example: `  gsd brief
  gsd brief --no-bootstrap`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return a.runHydrate(o, "brief")
		},
	}
	f := c.Flags()
	f.BoolVar(&o.noBootstrap, "no-bootstrap", false, "only report, and say what a real run would do: write nothing")
	f.StringVar(&o.plan, "plan", "", planFlagUsage)
	syncStateFlag(f, &o.syncState)
	_ = c.RegisterFlagCompletionFunc("plan", a.completePlans)
	return c
}

// printBrief renders b as Markdown, held to hydrate.MaxBriefSize. trigger, when not empty, says
// what asked for the brief (a SessionStart hook's source).
func printBrief(w io.Writer, b *hydrate.Brief, trigger string) error {
	_, err := io.WriteString(w, renderBrief(b, trigger))
	return err
}

func renderBrief(b *hydrate.Brief, trigger string) string {
	// The brief is built in parts that hydrate.FitBrief holds to hydrate.MaxBriefSize.
	type part struct {
		text  strings.Builder
		drop  hydrate.BriefDrop
		short string
	}
	// Each part starts with room for a section of a typical brief: grown from nothing, it would
	// pass through every small size class, and a fresh process pays for each class's first use.
	newPart := func(drop hydrate.BriefDrop, short string) *part {
		pt := &part{drop: drop, short: short}
		pt.text.Grow(1 << 10)
		return pt
	}
	cur := newPart(0, "")
	parts := []*part{cur}
	section := func(drop hydrate.BriefDrop, short string) {
		cur = newPart(drop, short)
		parts = append(parts, cur)
	}
	p := func(format string, args ...any) { fmt.Fprintf(&cur.text, format, args...) }
	title := "# GSD resume brief"
	if trigger != "" {
		title += " (SessionStart: " + trigger + ")"
	}
	p("%s\n\n", title)
	p("gsd rebuilt this from the GSD project's files (.planning/); where it disagrees with what you remember, trust it.\n\n")
	p("- **User:** %s\n", b.User)
	p("- **Session:** %s\n", b.SessionFile)
	if b.Plan != "" {
		p("- **Plan:** %s\n", b.Plan)
	}
	if b.Counts.Total > 0 {
		p("- **Progress:** %s\n", countsLine(b.Counts))
	}
	for _, act := range b.Actions {
		switch act.Kind {
		case hydrate.ActionArchived:
			p("- **Archived:** %s -> %s\n", act.From, act.Path)
		case hydrate.ActionBootstrapped:
			p("- **Started:** a fresh session from %s\n", act.From)
		}
	}
	p("\n")

	if b.Reading != nil {
		p("%s\n\n", *b.Reading)
	}
	if n := len(b.TakenOver); n > 0 {
		t := b.TakenOver[n-1]
		p("**Taken over.** %s took this session over: %s, after its last change here. Their agent continues this plan: do not resume its tasks, or the work is done twice.\n\n", t.By, t)
	}
	switch b.State {
	case hydrate.StateNoSession:
		p("There is no session for %s yet: nothing is being executed.\n\n", b.User)
	case hydrate.StateNoPlan, hydrate.StateNoTasks:
		p("There is no session for %s, and %s.\n\n", b.User, b.Note)
	case hydrate.StateCorrupt:
		p("The session file is **corrupt**: it is not a session gsd can read.\n\n")
	case hydrate.StateStale:
		p("The session is **stale**: it no longer matches the project. Do not resume its tasks; hydrate afresh first.\n\n")
		if b.Note != "" {
			p("It was kept: %s.\n\n", b.Note)
		}
		if b.WouldCarry {
			p("Its own plan was edited: gsd hydrate starts afresh from it and keeps the status of every task still in it (matched by id or name), and says which it could not keep.\n\n")
		}
	case hydrate.StateAllComplete:
		p("**Every task of this plan is complete.**")
		if summary, ok := strings.CutSuffix(b.Plan, "-PLAN.md"); ok {
			p(" Write its SUMMARY, %s-SUMMARY.md, as GSD's execute-plan does: the plan counts as done once it exists.", summary)
		}
		if b.NextPlan != "" {
			p(" The next plan of the phase is %s.", b.NextPlan)
		}
		p("\n\n")
	}

	if w := b.Work; w != nil && len(w.Reconciled)+len(w.Unmatched) > 0 {
		section(hydrate.DropWork, "## What git shows\n\n(left out for size: gsd hydrate says it)\n\n")
		p("## What git shows\n\n")
		p("GSD's executor commits each task when it is done; gsd read those commits.\n\n")
		for _, r := range w.Reconciled {
			verb := "set"
			if !w.Applied {
				verb = "would set (gsd hydrate sets it)"
			}
			if r.Commit != nil {
				p("- task %d %s %s: committed in %s `%s` (%s)\n", r.Task, verb, r.To, r.Commit.Hash, r.Commit.Subject, r.Commit.Time.Format(time.RFC3339))
			} else {
				p("- task %d %s %s: a later task is committed\n", r.Task, verb, r.To)
			}
		}
		for _, c := range w.Unmatched {
			p("- %s `%s` matches no task: if it finished one, `gsd mark-complete N`\n", c.Hash, c.Subject)
		}
		p("\n")
	}
	if h := b.Handoff; h != nil {
		section(hydrate.DropWork, "")
		if h.InForce {
			p("## GSD's handoff\n\n%s (%s) is newer than the other evidence: /gsd:pause-work left it for you.\n\n", h.File, handoffDate(h))
			if h.NextAction != "" {
				p("- **Next action:** %s\n", h.NextAction)
			}
			for _, x := range h.Blockers {
				p("- **Blocker:** %s\n", x)
			}
			for _, x := range h.HumanActions {
				p("- **Human action pending:** %s\n", x)
			}
			if len(h.Uncommitted) > 0 {
				p("- **Paused with files not committed:** %s\n", strings.Join(h.Uncommitted, ", "))
			}
			p("\n")
		} else {
			p("%s (%s) is history, not where work stands: %s.\n\n", h.File, handoffDate(h), h.History)
		}
	}
	if b.Objective != nil {
		section(hydrate.DropObjective, fmt.Sprintf("## Objective\n\n(left out for size: it is at %s:%d)\n\n", b.Objective.File, b.Objective.Line))
		p("## Objective\n\n%s\n", b.Objective.Text)
		if b.Objective.Rest != 0 {
			p("[... cut here: the rest is at %s:%d]\n", b.Objective.File, b.Objective.Rest)
		}
		p("\n")
	}
	if len(b.Completed) > 0 {
		section(hydrate.DropCompleted, fmt.Sprintf("## Completed\n\n(%d tasks, left out for size: gsd tasks lists them)\n\n", len(b.Completed)))
		p("## Completed\n\n")
		p("%s", taskList(b.Completed))
		p("\n")
	}
	section(hydrate.KeepAlways, "")
	if r := b.Resume; r != nil {
		p("## Resume: %s\n\n", hydrate.TaskLabel(r.Number, r.Name))
		switch {
		case r.Interrupted && r.Checkpoint:
			p("**Interrupted.** Checkpoint %d was in progress when the last session ended, and no answer was recorded. Re-execute it from its start: check that what it asks the human to verify is really on disk and committed, then ask again.\n\n", r.Number)
		case r.Interrupted:
			p("**Interrupted.** Task %d was in progress when the last session ended. Re-execute it from its start: part of its work may already be on disk or committed, so first check what is there (`git status`, `git log`, the files it names) and do not redo or duplicate what is done; its verify step decides what is left.\n\n", r.Number)
		case r.Status == "pending":
			p("Task %d has not been started.\n\n", r.Number)
		}
		if w := b.Work; w != nil && len(w.Uncommitted) > 0 {
			p("**Work in progress.** These files of the plan are changed and not committed: %s. The task was interrupted: continue it from them; do not start it over or discard them.\n\n", "`"+strings.Join(w.Uncommitted, "`, `")+"`")
		}
		if r.Checkpoint {
			p("**Checkpoint.** Stop at this task: show the human what was built and how to verify it, then wait for their answer. Never approve a checkpoint yourself.\n\n")
		}
		p("As written in the plan (the session's copy, %s:%d):\n\n", b.SessionFile, r.Line)
		fence := fenceFor(r.Fields)
		p("%s\n%s\n", fence, r.StartTag)
		if r.Section {
			writeSection(p, r)
		} else {
			writeElements(p, r)
		}
		p("%s\n\n", fence)
	}
	if len(b.Remaining) > 0 {
		section(hydrate.DropRemaining, fmt.Sprintf("## Remaining\n\n(%d tasks, left out for size: gsd tasks lists them)\n\n", len(b.Remaining)))
		p("## Remaining\n\n")
		p("%s", taskList(b.Remaining))
		p("\n")
	}
	if part := agentContextPart(b.AgentContext); part != "" {
		section(hydrate.KeepAlways, "") // held to its own budget
		p("%s", part)
	}
	section(hydrate.KeepAlways, "")
	if b.Omitted > 0 {
		p("(%d more tasks not listed: gsd tasks lists them all.)\n\n", b.Omitted)
	}
	if len(b.StaleReasons)+len(b.CorruptReasons)+len(b.Warnings) > 0 {
		section(hydrate.DropFindings, "## Findings\n\n(left out for size: gsd check lists them)\n\n")
		p("## Findings\n\n")
		for _, s := range b.CorruptReasons {
			p("- corrupt: %s\n", s)
		}
		for _, s := range b.StaleReasons {
			p("- stale: %s\n", s)
		}
		for _, s := range b.Warnings {
			p("- warning: %s\n", s)
		}
		p("\n")
	}
	section(hydrate.KeepAlways, "")
	if len(b.Next) > 0 {
		p("## Next\n\n")
		for _, s := range b.Next {
			p("- `%s`: %s\n", s.Command, s.When)
		}
	}
	fit := make([]hydrate.BriefPart, len(parts))
	for i, pt := range parts {
		fit[i] = hydrate.BriefPart{Text: pt.text.String(), Drop: pt.drop, Short: pt.short}
	}
	return hydrate.FitBrief(fit)
}

func taskList(ts []hydrate.Task) string {
	var sb strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&sb, "- task %d (%s): %s\n", t.Number, t.Status, t.Name)
	}
	return sb.String()
}

// fenceFor is a code fence longer than any backtick run in the fields, so that a plan's own
// fenced code stays inside it.
// writeElements writes a <task> element's children and its end tag (the start tag is written).
func writeElements(p func(string, ...any), r *hydrate.ResumePoint) {
	for i := range r.Fields {
		f := &r.Fields[i]
		switch {
		case f.Text == "" && f.Rest == 0:
			p("<%s/>\n", f.Name)
		case f.Text == "":
			p("<%s>[... left out: it is at %s:%d]</%s>\n", f.Name, f.File, f.Rest, f.Name)
		case !strings.Contains(f.Text, "\n") && f.Rest == 0:
			p("<%s>%s</%s>\n", f.Name, f.Text, f.Name)
		default:
			p("<%s>\n%s\n", f.Name, f.Text)
			if f.Rest != 0 {
				p("[... cut here: the rest is at %s:%d]\n", f.File, f.Rest)
			}
			p("</%s>\n", f.Name)
		}
	}
	p("</task>\n")
}

// writeSection writes the text under a Markdown task section's heading (the heading is written).
func writeSection(p func(string, ...any), r *hydrate.ResumePoint) {
	for i := range r.Fields {
		f := &r.Fields[i]
		if f.Text != "" {
			p("\n%s\n", f.Text)
		}
		if f.Rest != 0 {
			p("[... cut here: the rest is at %s:%d]\n", f.File, f.Rest)
		}
	}
}

func fenceFor(fs []hydrate.Excerpt) string {
	longest := 0
	for _, f := range fs {
		run := 0
		for _, c := range f.Text {
			if c == '`' {
				run++
				longest = max(longest, run)
			} else {
				run = 0
			}
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
