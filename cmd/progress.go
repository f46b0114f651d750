package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

func (a *app) newProgressCmd() *cobra.Command {
	var check, explain, all bool
	c := &cobra.Command{
		Use:   "progress",
		Short: "Project-wide progress from ROADMAP.md and the disk; --check for CI",
		Long: `Progress reads ROADMAP.md, STATE.md, every phase directory and every user's session, and
reports the current milestone, its progress (counted as GSD counts it), one line per phase, the
current phase and its active plan, each session, and every problem found
(file:line: severity: message). --all shows every milestone's phases (each milestone's together
when one started its numbers again). It reads every session alike, so it does not work out who
runs it (--user, GSD_USER).

With --explain, it also prints the evidence the position rests on, one file:line each: the
milestone, the phase and the plan, which rule of the position model chose them, how sure the
reading is, and the other readings a person could defend.

The position follows the latest work, and says how sure it is (high, medium, low) with the
other readings a person could defend: --explain prints them, every --json carries
"confidence" and "alternatives" (gsd help position).

With --check, exit status is 1 when any problem is an error, 0 otherwise. Only a contradiction
in current work is an error (a phase of an unshipped milestone that any mark of the roadmap calls
complete, its checkbox or its table row, while a plan of it has no SUMMARY; plans of one phase in
two directories of phases/); a FIX plan, which progress
does not count, without its SUMMARY in such a phase is a warning. History draws notes, never
errors: a shipped milestone's leftovers (its last one's too), a milestone's archive under
milestones/<version>-phases/ (nothing is said of it), and phase directories left in phases/
outside the roadmap with every plan done; a run of such directories is one line. A directory
outside the roadmap with a plan not done is a warning: it is never the current phase. Phases
whose numbers restart in a later milestone are each their own milestone's. When GITHUB_ACTIONS is
true, problems are also emitted as workflow annotations (a directory's on the run, not on a
file), and a summary with the phases listed as above (--all: every phase) and every problem
is appended to $GITHUB_STEP_SUMMARY. GitHub shows 10 annotations of each kind per step, so gsd
emits at most that many: errors first, the current phase's and milestone's before the others,
and a notice saying how many more there are and where to read them. A summary that cannot be
written is said on stderr; it does not fail the check.`,
		Example: `  gsd progress
  gsd progress --json
  gsd progress --check             # in CI`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			a.work = true
			env, _, err := a.openAnyone()
			if err != nil {
				return err
			}
			r, err := env.Project().Progress()
			if err != nil {
				return err
			}
			switch {
			case a.json:
				err = a.printJSON(report.ProgressOf(r, all))
			case check:
				a.printProblems(a.stdout, r.Problems)
			default:
				a.printProgress(a.stdout, r, all)
				if explain {
					printEvidence(a.stdout, r.Position)
					printTraces(a.stdout, r)
				}
			}
			if err != nil {
				return err
			}
			if check {
				if a.getenv("GITHUB_ACTIONS") == "true" {
					summary := false
					if p := a.getenv("GITHUB_STEP_SUMMARY"); p != "" {
						if err := appendStepSummary(p, r, all); err != nil {
							fmt.Fprintf(a.stderr, "gsd: warning: the job summary was not written: GITHUB_STEP_SUMMARY: %s\n", oneLine(err.Error()))
						} else {
							summary = true
						}
					}
					if !a.json {
						// Workflow commands are read from stdout; JSON output must stay one object.
						shown, left := r.Annotated(hydrate.AnnotationsPerKind)
						writeAnnotations(a.stdout, shown)
						if left > 0 {
							where := "this step's log"
							if summary {
								where = "the job summary and this step's log"
							}
							fmt.Fprintf(a.stdout, "::notice::%s\n", escapeData(fmt.Sprintf(
								"gsd progress: %d of %d problems annotated (GitHub shows %d of each kind per step); %s list all of them",
								len(shown), len(r.Problems), hydrate.AnnotationsPerKind, where)))
						}
					}
				}
				fmt.Fprintln(a.stderr, problemCounts(r.Problems))
				if r.Errors() > 0 {
					return exitError{ExitFailure}
				}
			}
			return nil
		},
	}
	c.Flags().BoolVar(&check, "check", false, "print only the problems; exit 1 when any is an error (for CI)")
	c.Flags().BoolVar(&explain, "explain", false, "also print the evidence for the position (file:line each)")
	c.Flags().BoolVar(&all, "all", false, "list the phases of every milestone, not only the current one")
	return c
}

// progressWidth is the terminal width the report is laid out for.
const progressWidth = 80

func (a *app) printProgress(w io.Writer, r *hydrate.ProgressReport, all bool) {
	p := r.Progress
	if r.Milestone != "" {
		a.field(w, "Milestone", clip(r.Milestone, progressWidth-11))
	}
	a.field(w, "Progress", hydrate.ProgressBar(p.Percent, 20)+" "+progressLine(p))
	if len(r.Quick) > 0 {
		a.field(w, "Quick", fmt.Sprintf("%d/%d quick tasks done (not counted above)", r.QuickDone(), len(r.Quick)))
	}
	fmt.Fprintln(w)
	// "> 12.3.1  name...  10/10  in-progress": 2 + 8 + name + 2 + 7 + 2 + 11.
	const nameWidth = progressWidth - 2 - 8 - 2 - 7 - 2 - 11 - 1
	printf(w, "  %-8s %s  %7s  %s\n", "phase", pad("name", nameWidth), "plans", "status")
	shown, hidden := r.Listed(all)
	for _, i := range shown {
		ph := &r.Phases[i]
		mark := styled(" ")
		if i == r.Current {
			mark = a.paint("cyan", ">")
		}
		done, total := ph.Counted()
		plans := fmt.Sprintf("%d/%d", done, total)
		if ph.Dir == "" && total == 0 {
			plans = "-"
		}
		printf(w, "%s %-8s %s  %7s  %s\n", mark, ph.Num, pad(clip(ph.Name, nameWidth), nameWidth), plans, a.phaseStatus(ph.Status))
	}
	if hidden > 0 {
		fmt.Fprintf(w, "  %s\n", hiddenPhases(hidden))
	}
	fmt.Fprintln(w)
	if cur := r.CurrentPhase(); cur != nil {
		a.field(w, "Current", clip("phase "+cur.Num.String()+" ("+cur.Name+")", progressWidth-11))
		switch {
		case r.Active == nil:
			a.field(w, "Active", "none: "+hydrate.NoActivePlan(r.Position))
		case r.Trackable != nil && !*r.Trackable:
			a.field(w, "Active", r.Active.Path+" (no <task> elements, no \"### Task N\" sections: not trackable)")
		default:
			a.field(w, "Active", r.Active.Path)
		}
	} else {
		a.field(w, "Current", r.NoCurrentPhase())
	}
	if r.Workstreams != "" {
		a.field(w, "Hint", r.Workstreams)
	}
	if st := r.StateFile; st != nil {
		switch {
		case !st.Exists:
			a.field(w, "STATE.md", "missing (gsd state --write creates it)")
		case st.Agrees:
			a.field(w, "STATE.md", "agrees")
		case len(st.Differences) > 0:
			a.field(w, "STATE.md", a.paint("yellow", "out of date"), " (gsd state --write)")
		default:
			c := st.Unsummarised[0]
			a.field(w, "STATE.md", a.paint("yellow", "says "+lastElem(c.Path)+" was completed"), ", but it has no SUMMARY")
		}
	}
	if len(r.Sessions) > 0 {
		fmt.Fprintln(w, "\nSessions:")
		printf(w, "  %s %s %-11s %-8s %-10s %s\n", pad("user", 14), pad("plan", 16), "tasks", "resume", "state", "last activity")
		for _, s := range r.Sessions {
			plan := "-"
			if s.Plan != "" {
				plan = strings.TrimSuffix(lastElem(s.Plan), ".md")
			}
			resume := "-"
			if s.ResumeTask > 0 {
				resume = fmt.Sprintf("task %d", s.ResumeTask)
			}
			printf(w, "  %s %s %-11s %-8s %-10s %s\n",
				pad(clip(s.TeamName(), 14), 14), pad(clip(plan, 16), 16), fmt.Sprintf("%d/%d done", s.Done, s.Total), resume, s.State, a.activity(s.LastActivity))
		}
	}
	if len(r.Problems) > 0 {
		fmt.Fprintln(w, "\nProblems:")
		a.printProblems(w, r.Problems)
	}
}

// hiddenPhases says how many phases a list of the current milestone's leaves out.
func hiddenPhases(n int) string {
	return fmt.Sprintf("(%s of other milestones and outside the roadmap: gsd progress --all)", textfmt.Plural(n, "phase"))
}

// progressLine says the percent and both fractions it is the lesser of (as GSD computes it):
// "50%  plans 1/2, phases 1/3"; and how many phases are still to plan, which cap it:
// "33%  plans 2/2, phases 1/3, 2 not yet planned".
func progressLine(p roadmap.Progress) string {
	line := fmt.Sprintf("%d%%  plans %d/%d, phases %d/%d", p.Percent, p.PlansComplete, p.PlansTotal, p.PhasesComplete, p.PhasesTotal)
	if p.PhasesUnplanned > 0 {
		line += fmt.Sprintf(", %d not yet planned", p.PhasesUnplanned)
	}
	return line
}

// printTraces says which traces of execution the position weighed: what git gave, and GSD's
// newest pause file, in force or history.
func printTraces(w io.Writer, r *hydrate.ProgressReport) {
	printf(w, "\nTraces:\n%s\n", r.Git)
	if h := r.Position.Handoff; h != nil {
		state := "in force: it is newer than the other evidence"
		if !h.InForce {
			state = "history: " + h.History
		}
		printf(w, "%s (%s): %s\n", h.File, handoffDate(h), state)
	}
}

// handoffDate is a pause file's date as --explain and hydrate show it.
func handoffDate(h *roadmap.Handoff) string {
	if h.Time.IsZero() {
		return "undated"
	}
	return h.Time.Format(time.RFC3339)
}

// printEvidence prints what the position rests on, one "file:line: decision: says" each.
func printEvidence(w io.Writer, pos *roadmap.Position) {
	printf(w, "\nWhy (rule %s, confidence %s):\n", pos.Rule, pos.Confidence)
	for _, e := range pos.Evidence {
		printf(w, "%s\n", e.String())
	}
	if len(pos.Alternatives) == 0 {
		return
	}
	printf(w, "\nOther readings:\n")
	for _, alt := range pos.Alternatives {
		printf(w, "%s\n", alt.String())
		for _, e := range alt.Evidence {
			printf(w, "  %s\n", e.String())
		}
	}
}

// phaseStatus paints a phase status.
func (a *app) phaseStatus(st roadmap.Status) styled {
	switch st {
	case roadmap.StatusComplete:
		return a.paint("green", st.String())
	case roadmap.StatusInProgress:
		return a.paint("yellow", st.String())
	}
	return styled(printable(st.String()))
}

// printProblems prints each problem as file:line: severity: message.
func (a *app) printProblems(w io.Writer, ps []roadmap.Problem) {
	for _, p := range ps {
		s := printable(p.String())
		if p.Severity == roadmap.SeverityError {
			s = strings.Replace(s, ": error: ", ": "+string(a.paint("red", "error"))+": ", 1)
		}
		fmt.Fprintln(w, s)
	}
}

func problemCounts(ps []roadmap.Problem) string {
	n := map[roadmap.Severity]int{}
	for _, p := range ps {
		n[p.Severity]++
	}
	return fmt.Sprintf("gsd progress: %s, %s, %s", textfmt.Plural(n[roadmap.SeverityError], "error"),
		textfmt.Plural(n[roadmap.SeverityWarning], "warning"), textfmt.Plural(n[roadmap.SeverityInfo], "note"))
}

// writeAnnotations emits GitHub Actions workflow commands, one per problem.
func writeAnnotations(w io.Writer, ps []roadmap.Problem) {
	for _, p := range ps {
		cmd := "notice"
		switch p.Severity {
		case roadmap.SeverityError:
			cmd = "error"
		case roadmap.SeverityWarning:
			cmd = "warning"
		}
		if p.Dir {
			// An annotation points at a file, not a directory: this one goes on the run, the
			// directory named in its text.
			fmt.Fprintf(w, "::%s::%s\n", cmd, escapeData(printable(p.File+": "+p.Message)))
			continue
		}
		props := "file=" + escapeProperty(printable(p.File))
		if p.Line > 0 {
			props += fmt.Sprintf(",line=%d", p.Line)
		}
		fmt.Fprintf(w, "::%s %s::%s\n", cmd, props, escapeData(printable(p.Message)))
	}
}

// escapeData and escapeProperty follow the workflow command encoding of @actions/core.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// appendStepSummary appends a Markdown report to the job summary file: the phases listed as gsd
// progress lists them (the current milestone's, every phase with all), and every problem.
func appendStepSummary(name string, r *hydrate.ProgressReport, all bool) error {
	var b strings.Builder
	p := r.Progress
	b.WriteString("### gsd progress\n\n")
	if r.Milestone != "" {
		fmt.Fprintf(&b, "Milestone: %s  \n", mdCell(r.Milestone))
	}
	if p.PhasesUnplanned == 0 {
		fmt.Fprintf(&b, "Plans %d/%d, phases %d/%d (%d%%)\n\n", p.PlansComplete, p.PlansTotal, p.PhasesComplete, p.PhasesTotal, p.Percent)
	} else {
		fmt.Fprintf(&b, "Plans %d/%d, phases %d/%d, %d not yet planned (%d%%)\n\n",
			p.PlansComplete, p.PlansTotal, p.PhasesComplete, p.PhasesTotal, p.PhasesUnplanned, p.Percent)
	}
	shown, hidden := r.Listed(all)
	if len(shown) > 0 {
		b.WriteString("| Phase | Name | Plans | Status |\n| --- | --- | --- | --- |\n")
	}
	for _, i := range shown {
		ph := &r.Phases[i]
		done, total := ph.Counted()
		num := ph.Num.String()
		if i == r.Current {
			num = "**" + num + "**"
		}
		fmt.Fprintf(&b, "| %s | %s | %d/%d | %s |\n", num, mdCell(ph.Name), done, total, ph.Status)
	}
	if hidden > 0 {
		fmt.Fprintf(&b, "\n%s\n", mdCell(hiddenPhases(hidden)))
	}
	if len(r.Problems) > 0 {
		b.WriteString("\n| Severity | Location | Problem |\n| --- | --- | --- |\n")
		for _, pr := range r.Problems {
			loc := pr.File
			if pr.Line > 0 {
				loc = fmt.Sprintf("%s:%d", pr.File, pr.Line)
			}
			// GitHub splits a row at every unescaped |, inside a code span too.
			loc = mdCell(strings.ReplaceAll(loc, "`", "'"))
			fmt.Fprintf(&b, "| %s | `%s` | %s |\n", pr.Severity, loc, mdCell(pr.Message))
		}
	}
	b.WriteString("\n")
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// mdCell is s escaped for a cell of a GitHub Markdown table: printable, and every | escaped,
// which GitHub reads as the character inside a code span as well.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`).Replace(printable(s))
}

// pad is the one padding helper of gsd's tables: s, escaped (printable), right-padded with
// spaces to n terminal columns. fmt's %-Ns counts runes, and a Chinese or Japanese character
// takes two columns: a column after it would drift.
func pad(s string, n int) styled {
	return styled(textfmt.Pad(printable(s), n))
}

func lastElem(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// activity is when a session was last active, as gsd sessions and gsd progress both write it:
// the time and how long ago ("2026-02-03T10:00:00Z (3h ago)"); "-" when unknown.
func (a *app) activity(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339) + " (" + ago(a.now().Sub(t)) + ")"
}

// ago says how long ago, as textfmt.Elapsed writes it: "3h ago".
func ago(d time.Duration) string { return textfmt.Elapsed(d) + " ago" }
