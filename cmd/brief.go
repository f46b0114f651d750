package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/roadmap"
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

// renderBrief is the brief of b: what the agent needs, in the order it reads it.
func renderBrief(b *hydrate.Brief, trigger string) string {
	var w briefWriter
	w.header(b, trigger)
	w.situation(b)
	w.gitShows(b.Work)
	w.handoff(b.Handoff)
	w.objective(b.Objective)
	w.tasks(hydrate.DropCompleted, "Completed", b.Completed)
	w.resume(b)
	w.tasks(hydrate.DropRemaining, "Remaining", b.Remaining)
	w.agentContext(b.AgentContext)
	w.findings(b)
	w.next(b.Next)
	return w.fit()
}

// briefWriter writes the brief in parts that hydrate.FitBrief holds to hydrate.MaxBriefSize:
// each part says when it may be left out for size, and what stands in for it then.
type briefWriter struct {
	parts []*briefPart
	cur   *briefPart
}

type briefPart struct {
	text  strings.Builder
	drop  hydrate.BriefDrop
	short string
}

// section starts a part, which drop says when to leave out and short stands in for.
func (w *briefWriter) section(drop hydrate.BriefDrop, short string) {
	pt := &briefPart{drop: drop, short: short}
	// Each part starts with room for a section of a typical brief: grown from nothing, it would
	// pass through every small size class, and a fresh process pays for each class's first use.
	pt.text.Grow(1 << 10)
	w.cur = pt
	w.parts = append(w.parts, pt)
}

// p writes to the part begun last.
func (w *briefWriter) p(format string, args ...any) { fmt.Fprintf(&w.cur.text, format, args...) }

// fit is the brief, its parts held to hydrate.MaxBriefSize.
func (w *briefWriter) fit() string {
	fit := make([]hydrate.BriefPart, len(w.parts))
	for i, pt := range w.parts {
		fit[i] = hydrate.BriefPart{Text: pt.text.String(), Drop: pt.drop, Short: pt.short}
	}
	return hydrate.FitBrief(fit)
}

// header is the title (and what asked for the brief), the user, the session, its plan and
// progress, and what hydrate did to it.
func (w *briefWriter) header(b *hydrate.Brief, trigger string) {
	w.section(0, "")
	p := w.p
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
}

// situation says how sure the position is, whether a teammate took the session over, and what
// state the session is in when it is not one to resume.
func (w *briefWriter) situation(b *hydrate.Brief) {
	p := w.p
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
}

// gitShows is what the tasks' commits did to the session (or would do), and the plan's commits
// that match no task.
func (w *briefWriter) gitShows(work *hydrate.Work) {
	if work == nil || len(work.Reconciled)+len(work.Unmatched) == 0 {
		return
	}
	w.section(hydrate.DropWork, "## What git shows\n\n(left out for size: gsd hydrate says it)\n\n")
	p := w.p
	p("## What git shows\n\n")
	p("GSD's executor commits each task when it is done; gsd read those commits.\n\n")
	for _, r := range work.Reconciled {
		verb := "set"
		if !work.Applied {
			verb = "would set (gsd hydrate sets it)"
		}
		if r.Commit != nil {
			p("- task %d %s %s: committed in %s `%s` (%s)\n", r.Task, verb, r.To, r.Commit.Hash, r.Commit.Subject, r.Commit.Time.Format(time.RFC3339))
		} else {
			p("- task %d %s %s: a later task is committed\n", r.Task, verb, r.To)
		}
	}
	for _, c := range work.Unmatched {
		p("- %s `%s` matches no task: if it finished one, `gsd mark-complete N`\n", c.Hash, c.Subject)
	}
	p("\n")
}

// handoff is what GSD's newest pause file asks for when it is in force, or that it is history.
func (w *briefWriter) handoff(h *roadmap.Handoff) {
	if h == nil {
		return
	}
	w.section(hydrate.DropWork, "")
	p := w.p
	if !h.InForce {
		p("%s (%s) is history, not where work stands: %s.\n\n", h.File, handoffDate(h), h.History)
		return
	}
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
}

// objective is the plan's objective, cut where it is long, with where the rest is.
func (w *briefWriter) objective(o *hydrate.Excerpt) {
	if o == nil {
		return
	}
	w.section(hydrate.DropObjective, fmt.Sprintf("## Objective\n\n(left out for size: it is at %s:%d)\n\n", o.File, o.Line))
	w.p("## Objective\n\n%s\n", o.Text)
	if o.Rest != 0 {
		w.p("[... cut here: the rest is at %s:%d]\n", o.File, o.Rest)
	}
	w.p("\n")
}

// tasks is a list of tasks under title (the completed ones, the remaining ones), left out
// whole for size as drop says.
func (w *briefWriter) tasks(drop hydrate.BriefDrop, title string, ts []hydrate.Task) {
	if len(ts) == 0 {
		return
	}
	w.section(drop, fmt.Sprintf("## %s\n\n(%d tasks, left out for size: gsd tasks lists them)\n\n", title, len(ts)))
	w.p("## %s\n\n", title)
	w.p("%s", taskList(ts))
	w.p("\n")
}

// resume is the task to resume, whether it was interrupted or is a checkpoint, the plan's files
// left changed, and the task as the plan writes it. It is never left out.
func (w *briefWriter) resume(b *hydrate.Brief) {
	w.section(hydrate.KeepAlways, "")
	r := b.Resume
	if r == nil {
		return
	}
	p := w.p
	p("## Resume: %s\n\n", hydrate.TaskLabel(r.Number, r.Name))
	switch {
	case r.Interrupted && r.Checkpoint:
		p("**Interrupted.** Checkpoint %d was in progress when the last session ended, and no answer was recorded. Re-execute it from its start: check that what it asks the human to verify is really on disk and committed, then ask again.\n\n", r.Number)
	case r.Interrupted:
		p("**Interrupted.** Task %d was in progress when the last session ended. Re-execute it from its start: part of its work may already be on disk or committed, so first check what is there (`git status`, `git log`, the files it names) and do not redo or duplicate what is done; its verify step decides what is left.\n\n", r.Number)
	case r.Status == "pending":
		p("Task %d has not been started.\n\n", r.Number)
	}
	if work := b.Work; work != nil {
		for _, n := range work.FailingTests {
			p("**Test-first, not finished.** Task %d is complete by its commit, but that commit is its failing test alone: its implementation is not committed. Make that test pass (and commit it) before going on.\n\n", n)
		}
	}
	if work := b.Work; work != nil && len(work.Uncommitted) > 0 {
		p("**Work in progress.** These files of the plan are changed and not committed: %s. The task was interrupted: continue it from them; do not start it over or discard them.\n\n", "`"+strings.Join(work.Uncommitted, "`, `")+"`")
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

// agentContext is what the agent itself was doing before the reset, held to its own budget.
func (w *briefWriter) agentContext(ac *hydrate.AgentContext) {
	if part := agentContextPart(ac); part != "" {
		w.section(hydrate.KeepAlways, "")
		w.p("%s", part)
	}
}

// findings are the tasks the brief did not list, and every reason the session is stale or
// corrupt and what the scanner stepped over.
func (w *briefWriter) findings(b *hydrate.Brief) {
	w.section(hydrate.KeepAlways, "")
	if b.Omitted > 0 {
		w.p("(%d more tasks not listed: gsd tasks lists them all.)\n\n", b.Omitted)
	}
	if len(b.StaleReasons)+len(b.CorruptReasons)+len(b.Warnings) == 0 {
		return
	}
	w.section(hydrate.DropFindings, "## Findings\n\n(left out for size: gsd check lists them)\n\n")
	w.p("## Findings\n\n")
	for _, s := range b.CorruptReasons {
		w.p("- corrupt: %s\n", s)
	}
	for _, s := range b.StaleReasons {
		w.p("- stale: %s\n", s)
	}
	for _, s := range b.Warnings {
		w.p("- warning: %s\n", s)
	}
	w.p("\n")
}

// next is the commands to run next, and when.
func (w *briefWriter) next(steps []hydrate.Step) {
	w.section(hydrate.KeepAlways, "")
	if len(steps) == 0 {
		return
	}
	w.p("## Next\n\n")
	for _, s := range steps {
		w.p("- `%s`: %s\n", s.Command, s.When)
	}
}

func taskList(ts []hydrate.Task) string {
	var sb strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&sb, "- task %d (%s): %s\n", t.Number, t.Status, t.Name)
	}
	return sb.String()
}

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

// fenceFor is a code fence longer than any backtick run in the fields, so that a plan's own
// fenced code stays inside it.
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
