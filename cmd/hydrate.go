package cmd

import (
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// planFlagUsage documents --plan of hydrate and brief.
const planFlagUsage = "when a fresh session is needed, start it from `PLAN` (a path or a plan id such as 03-02)\n" +
	"instead of the active plan; a valid session is kept, with a warning (gsd start PLAN switches)"

// syncStateFlag is --sync-state of hydrate and brief: gsd state --write, spelt another way. It
// still works, hidden and deprecated, so that one fix has one name (gsd state --write) in
// every message and help text.
func syncStateFlag(f *pflag.FlagSet, v *bool) {
	f.BoolVar(v, "sync-state", false, "deprecated: rewrite STATE.md as gsd state --write does")
	_ = f.MarkHidden("sync-state")
}

type hydrateOptions struct {
	noBootstrap bool
	porcelain   bool
	plan        string
	format      string
	syncState   bool
}

func (a *app) newHydrateCmd() *cobra.Command {
	var o hydrateOptions
	c := &cobra.Command{
		Use:   "hydrate",
		Short: "Find your session, check it, and report where to resume",
		Long: `Hydrate finds your session file, validates it, checks it for staleness against ROADMAP.md
and the SUMMARY files, and reports the task to resume. A missing, stale or corrupt session is
archived (never deleted) and a fresh one is bootstrapped from the active plan: the first plan of
the current phase without a SUMMARY. Its tasks are its <task> elements or, in a plan without
any, its Markdown task sections ("### Task N: ...", see gsd start --help).

--porcelain prints one token: the task number to resume; ALL_COMPLETE; NO_SESSION (no session,
and with --no-bootstrap none was started); STALE (a stale or corrupt session that was kept);
NO_PLAN (no session, and no plan to start one from: the phase needs planning, or the milestone
is done); NO_TASKS (no session, and the active plan has no <task> elements and no "### Task N"
sections, so there is nothing to track).`,
		Example: `  gsd hydrate
  gsd hydrate --no-bootstrap --json
  gsd hydrate --porcelain          # prints NO_SESSION, STALE, NO_PLAN, NO_TASKS, ALL_COMPLETE or a task number
  gsd hydrate --format brief       # the Markdown brief, as gsd brief prints it`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			format := o.format
			switch {
			case o.porcelain && a.json:
				return usageError{fmt.Errorf("--porcelain and --json cannot be used together")}
			case format != "" && (o.porcelain || a.json):
				return usageError{fmt.Errorf("--format cannot be used with --porcelain or --json")}
			case o.porcelain:
				format = "porcelain"
			case a.json:
				format = "json"
			}
			return a.runHydrate(o, format)
		},
	}
	f := c.Flags()
	f.BoolVar(&o.noBootstrap, "no-bootstrap", false, "only report, and say what a real run would do: write nothing")
	f.BoolVar(&o.porcelain, "porcelain", false, "print exactly one seed token")
	f.StringVar(&o.plan, "plan", "", planFlagUsage)
	syncStateFlag(f, &o.syncState)
	f.StringVar(&o.format, "format", "", "output `FORMAT`: text, json, porcelain or brief")
	_ = c.RegisterFlagCompletionFunc("plan", a.completePlans)
	_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(
		[]string{"text", "json", "porcelain", "brief\tMarkdown brief for an agent"}, cobra.ShellCompDirectiveNoFileComp))
	return c
}

// runHydrate hydrates and prints the result in format: "" or "text", "json", "porcelain" or
// "brief".
func (a *app) runHydrate(o hydrateOptions, format string) error {
	switch format {
	case "", "text", "json", "porcelain", "brief":
	default:
		return usageError{fmt.Errorf("--format: want text, json, porcelain or brief, got %s", textfmt.Quote(format))}
	}
	if o.noBootstrap && o.syncState {
		return usageError{fmt.Errorf("--no-bootstrap writes nothing: it cannot be used with --sync-state")}
	}
	a.work = true
	if o.syncState {
		a.warn("--sync-state is deprecated: gsd state --write writes STATE.md (it still does here)")
	}
	env, dir, err := a.open()
	if err != nil {
		return err
	}
	opts := hydrate.Options{Bootstrap: !o.noBootstrap, SyncState: o.syncState}
	if o.plan != "" {
		if opts.Plan, err = env.ResolvePlan(dir, o.plan); err != nil {
			return fmt.Errorf("--plan: %w", err)
		}
	}
	res, err := env.Hydrate(opts)
	if err != nil {
		return err
	}
	if res.PlanIgnored {
		a.warn("a valid session exists; --plan ignored (gsd start %s to switch)", o.plan)
	}
	if w := env.Team().SamePlan(res); w != "" {
		a.warn("%s", w)
	}
	switch format {
	case "porcelain":
		_, err = fmt.Fprintln(a.stdout, res.Token())
		return err
	case "json":
		return a.printJSON(report.HydrateOf(env, res))
	case "brief":
		b := env.Brief(res)
		b.AgentContext = env.Agents().AgentContext(hydrate.AgentContextOptions{})
		if a.json {
			return a.printJSON(report.BriefOf(b))
		}
		return printBrief(a.stdout, b, "")
	}
	a.printHydrate(a.stdout, env, res)
	return nil
}

// printReading says, when the plan was chosen by a position that is not sure, how sure it is
// and how to follow another reading instead.
func (a *app) printReading(w io.Writer, r *hydrate.Result) {
	if r.Confidence == "" || r.Confidence == roadmap.ConfidenceHigh {
		return
	}
	a.field(w, "Position", fmt.Sprintf("%s confidence (gsd progress --explain says why)", r.Confidence))
	for _, alt := range r.Alternatives {
		line := alt.String()
		if arg := alt.StartArg(); arg != "" {
			line += " (gsd start " + arg + ")"
		}
		a.field(w, "Or", line)
	}
}

// field prints one "Label:    value" line, the value being parts run together: strings escaped
// (printable), styled text (paint's) as it is.
func (a *app) field(w io.Writer, label string, parts ...any) {
	printf(w, "%-10s "+strings.Repeat("%s", len(parts))+"\n", append([]any{label + ":"}, parts...)...)
}

func (a *app) printHydrate(w io.Writer, env *hydrate.Env, r *hydrate.Result) {
	a.field(w, "User", userLine(env))
	a.field(w, "Session", r.Path)
	switch {
	case r.StateSynced:
		a.field(w, "STATE.md", "Current Position rewritten")
	case len(r.StateDrift) > 0:
		a.field(w, "STATE.md", stateDriftText(r.StateDrift[0]))
	}
	for _, why := range r.CorruptReasons {
		a.field(w, "Corrupt", why)
	}
	for _, why := range r.StaleReasons {
		a.field(w, "Stale", why)
	}
	for _, act := range r.Actions {
		switch act.Kind {
		case hydrate.ActionArchived:
			a.field(w, "Archived", act.From+" -> "+act.Path)
			a.field(w, "Undo", "gsd restore "+path.Base(act.Path))
		case hydrate.ActionBootstrapped:
			a.field(w, "Bootstrap", "fresh session from "+act.From)
		case hydrate.ActionCarried:
			a.field(w, "Bootstrap", "fresh session from "+act.From+", statuses carried over")
		case hydrate.ActionKept:
			a.field(w, "Kept", "the session already follows "+act.From+"; nothing archived (gsd archive, then gsd start, begins it afresh)")
		}
	}
	a.printCarry(w, r.Carry)
	a.printReading(w, r)
	a.printWork(w, r)
	a.printHandoff(w, r.Handoff)
	for _, warn := range r.Warnings {
		a.field(w, "Warning", warn)
	}
	switch r.State {
	case hydrate.StateNoSession:
		switch {
		case r.WouldStart != "":
			a.field(w, "State", "no session (gsd hydrate starts one from "+r.WouldStart+")")
		case r.Note != "":
			a.field(w, "State", "no session, and "+r.Note)
		default:
			a.field(w, "State", "no session (gsd hydrate, or gsd start PLAN, starts one)")
		}
		a.workstreamsHint(w, r.Workstreams)
		return
	case hydrate.StateNoPlan, hydrate.StateNoTasks:
		a.field(w, "State", "no session, and "+r.Note)
		a.workstreamsHint(w, r.Workstreams)
		return
	case hydrate.StateCorrupt:
		a.field(w, "State", a.paint("red", "corrupt"), fate(r))
		return
	}
	a.field(w, "Plan", r.Plan)
	if r.Started != "" {
		a.field(w, "Since", r.Started)
	}
	a.field(w, "Progress", countsLine(r.Counts))
	switch r.State {
	case hydrate.StateStale:
		a.field(w, "State", a.paint("yellow", "stale"+fate(r)))
	case hydrate.StateAllComplete:
		a.field(w, "State", a.paint("green", "all tasks complete"))
		next := "Next"
		if r.Work != nil && r.Work.SummaryNext {
			a.field(w, "Next", "write the plan's SUMMARY: every task is done, and GSD's order is the task commits, then the SUMMARY, then STATE.md and ROADMAP.md")
			next = "Then"
		}
		if r.NextPlan != "" {
			a.field(w, next, r.NextPlan+" (gsd start "+r.NextPlan+")")
		} else {
			a.field(w, next, "no further plan in this phase without a SUMMARY")
		}
		return
	}
	if r.ResumeTask == 0 {
		return
	}
	if n := len(r.TakenOver); n > 0 {
		last := r.TakenOver[n-1]
		a.field(w, "Taken by", a.paint("yellow", last.String()))
		fmt.Fprintf(w, "%-10s %s\n", "", "their agent continues this plan: resuming it here would do the work twice (gsd start PLAN for other work; gsd resume --force "+last.TakeBack()+" takes it back)")
	}
	t := r.Tasks[r.ResumeTask-1]
	a.field(w, "Resume", a.paint("bold", hydrate.TaskLabel(t.Number, t.Name)))
	if r.Interrupted {
		fmt.Fprintf(w, "%-10s %s\n", "", "interrupted: re-execute it from its start; check what is already on disk and committed")
	}
	if r.Work != nil && len(r.Work.Uncommitted) > 0 {
		a.field(w, "Changed", strings.Join(r.Work.Uncommitted, ", "))
		fmt.Fprintf(w, "%-10s %s\n", "", "changed and not committed: the task was interrupted; continue it, do not restart it or discard them")
	}
}

// maxWorkLines bounds the lines hydrate prints about commits.
const maxWorkLines = 6

// printWork says what the tasks' commits did to the session (or would do), and the commits of
// the plan that match no task.
func (a *app) printWork(w io.Writer, r *hydrate.Result) {
	if r.Work == nil {
		return
	}
	rec := r.Work.Reconciled
	for i, x := range rec {
		if i == maxWorkLines-1 && len(rec) > maxWorkLines {
			a.field(w, "Committed", fmt.Sprintf("and %d more (gsd log)", len(rec)-i))
			break
		}
		line := fmt.Sprintf("task %d %s", x.Task, x.To)
		if x.Commit != nil {
			line += fmt.Sprintf(": %s %s, %s", x.Commit.Hash, x.Commit.Subject, ago(a.now().Sub(x.Commit.Time)))
		} else {
			line += ": passed, a later task is committed"
		}
		if !r.Work.Applied {
			line = "would set " + line
		}
		a.field(w, "Committed", line)
	}
	if len(rec) > 0 && r.Work.Applied {
		undo := "gsd mark-pending N puts a task back"
		if snap := reconciledSnapshot(r); snap != "" {
			undo = "gsd restore " + path.Base(snap) + " (or gsd mark-pending N for one task)"
		}
		a.field(w, "Undo", undo)
	}
	for _, n := range r.Work.FailingTests {
		a.field(w, "Test only", fmt.Sprintf("task %d's failing test is committed, its implementation is not: make it pass before going on", n))
	}
	for i, c := range r.Work.Unmatched {
		if i == maxWorkLines {
			a.field(w, "Unmatched", fmt.Sprintf("and %d more", len(r.Work.Unmatched)-i))
			break
		}
		a.field(w, "Unmatched", fmt.Sprintf("%s %s matches no task (gsd mark-complete N if it finished one)", c.Hash, c.Subject))
	}
}

// printHandoff says what GSD's newest pause file asks for when it is in force (the next action,
// blockers, human actions pending, files it says are not committed), and that it is history
// when something newer overtook it.
func (a *app) printHandoff(w io.Writer, h *roadmap.Handoff) {
	if h == nil {
		return
	}
	if !h.InForce {
		a.field(w, "Handoff", fmt.Sprintf("%s (%s) is history: %s", h.File, handoffDate(h), h.History))
		return
	}
	a.field(w, "Handoff", fmt.Sprintf("%s (%s), newer than the other evidence", h.File, handoffDate(h)))
	if h.NextAction != "" {
		a.field(w, "Next", h.NextAction)
	}
	for _, b := range h.Blockers {
		a.field(w, "Blocker", b)
	}
	for _, act := range h.HumanActions {
		a.field(w, "Human", act)
	}
	if len(h.Uncommitted) > 0 {
		a.field(w, "Paused", "with files not committed: "+strings.Join(h.Uncommitted, ", "))
	}
}

// reconciledSnapshot is the pre-reconcile snapshot a hydrate kept, "" when none.
func reconciledSnapshot(r *hydrate.Result) string {
	for _, act := range r.Actions {
		if act.Kind == hydrate.ActionReconciled {
			return act.Path
		}
	}
	return ""
}

// workstreamsHint prints hydrate.WorkstreamsHint's line, when there is one.
func (a *app) workstreamsHint(w io.Writer, hint string) {
	if hint != "" {
		a.field(w, "Hint", hint)
	}
}

// fate says what hydrate does, or would do, with a session it cannot resume: kept, and why, or
// archived for a fresh one from a plan.
func fate(r *hydrate.Result) string {
	switch {
	case r.Note != "":
		return ", kept: " + r.Note
	case r.WouldCarry:
		return " (gsd hydrate starts afresh from " + r.WouldStart + ", keeping the status of every task still in it)"
	case r.WouldStart != "":
		return " (gsd hydrate archives it and starts afresh from " + r.WouldStart + ")"
	}
	return ""
}

func userLine(env *hydrate.Env) string {
	src := env.User.Source
	s := env.User.User
	var from string
	switch src.Kind {
	case identity.KindFlag:
		from = "--user"
	case identity.KindEnv:
		from = "GSD_USER"
	case identity.KindGit:
		from = "git user.name"
		if src.File != "" {
			from += " in " + src.File
		}
	case identity.KindOSUser:
		from = "OS login name"
	case identity.KindHostname:
		from = "host name"
	default:
		from = "no name found"
	}
	if env.User.Raw != "" && env.User.Raw != s {
		from = fmt.Sprintf("%q, %s", env.User.Raw, from)
	}
	return s + " (" + strings.TrimSpace(from) + ")"
}

// stateDriftText says how STATE.md is out of date: the line that says otherwise, or the line it
// lacks.
func stateDriftText(d hydrate.Difference) string {
	if d.Says == nil {
		return fmt.Sprintf("out of date: it has no %s line; the roadmap and disk say %s (gsd state --write)", d.Field, textfmt.Quote(d.Derived))
	}
	return fmt.Sprintf("out of date: line %d says %s, not %s (gsd state --write)", d.Line, textfmt.Quote(*d.Says), textfmt.Quote(d.Derived))
}
