package cmd

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newStateCmd() *cobra.Command {
	var write, check, dryRun bool
	c := &cobra.Command{
		Use:   "state",
		Short: "The position derived from ROADMAP.md and the disk, and whether STATE.md agrees",
		Long: `State prints the current position as STATE.md's Current Position block records it (Phase,
Plan, Status, Progress), derived from ROADMAP.md and the phase directories, and says whether
STATE.md agrees.

With --write, STATE.md's Phase, Plan, Status and Progress lines (and the progress numbers of its
frontmatter) are rewritten; every other byte stays. A missing STATE.md is created. While writing,
gsd holds STATE.md.lock as GSD's own tools do, so both can run side by side. A line is only
replaced by a better-informed one: a Phase line naming the current phase stays as written, a
note after a Plan count stays, and a Progress line is redrawn whole (bar, counts, percent) or,
when it counts another scope ("1/3 Phase 2 plans"), left alone.
With --dry-run, the diff --write would apply is printed and nothing is written.`,
		Example: `  gsd state
  gsd state --write
  gsd state --dry-run      # the diff --write would apply
  gsd state --check        # exit 1 when STATE.md is out of date`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if write && check {
				return usageError{fmt.Errorf("--write and --check cannot be used together")}
			}
			a.work = true
			env, _, err := a.open()
			if err != nil {
				return err
			}
			var (
				sp      *hydrate.StateReport
				written bool
				diff    []byte
			)
			switch {
			case dryRun:
				sp, diff, err = env.Project().StateDiff()
			case write:
				sp, written, err = env.Project().WriteState()
			default:
				sp, err = env.Project().StateReport()
			}
			if err != nil {
				return err
			}
			if a.json {
				err = a.printJSON(report.StateOf(sp, written, diff))
			} else if dryRun {
				a.printStateDiff(sp, diff)
			} else {
				a.printState(sp, write, written)
			}
			if err == nil && check && !sp.Agrees {
				return exitError{ExitFailure}
			}
			return err
		},
	}
	f := c.Flags()
	f.BoolVar(&write, "write", false, "rewrite STATE.md's Current Position (create STATE.md if missing)")
	f.BoolVar(&check, "check", false, "exit 1 when STATE.md is missing or out of date")
	f.BoolVar(&dryRun, "dry-run", false, "print the diff --write would apply; write nothing")
	return c
}

func (a *app) printStateDiff(sp *hydrate.StateReport, diff []byte) {
	if len(diff) == 0 {
		printf(a.stdout, "%s: already up to date\n", sp.Path)
	} else {
		a.stdout.Write(printableDiff(diff))
	}
	printUnsummarised(a.stderr, sp, "gsd: note: ") // stdout is the diff alone
}

// printableDiff escapes each line of a diff as all text output is (printable): STATE.md's lines
// and the roadmap's names are data. Tabs and the carriage return that ends a CRLF file's line
// are kept, since they cannot put anything on the screen that the file does not say: a diff of
// a file without other control characters still applies with patch.
func printableDiff(diff []byte) []byte {
	out := make([]byte, 0, len(diff))
	for len(diff) > 0 {
		line, rest, nl := bytes.Cut(diff, []byte{'\n'})
		diff = rest
		body, cr := bytes.CutSuffix(line, []byte{'\r'})
		for i, part := range bytes.Split(body, []byte{'\t'}) {
			if i > 0 {
				out = append(out, '\t')
			}
			out = append(out, printable(string(part))...)
		}
		if cr {
			out = append(out, '\r')
		}
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

func (a *app) printState(sp *hydrate.StateReport, write, written bool) {
	w := a.stdout
	phase, plan, status, progress := sp.Values.Lines()
	for _, l := range []string{phase, plan, status, progress} {
		printf(w, "%s\n", l)
	}
	printf(w, "\n")
	switch {
	case write && written:
		printf(w, "%s: %s\n", sp.Path, a.paint("green", "updated"))
	case write:
		printf(w, "%s: already up to date\n", sp.Path)
	case !sp.Exists:
		printf(w, "%s: missing (gsd state --write creates it)\n", sp.Path)
	case sp.Agrees:
		printf(w, "%s: agrees\n", sp.Path)
	case len(sp.Differences) > 0:
		printf(w, "%s: %s (gsd state --write rewrites it)\n", sp.Path, a.paint("yellow", "out of date"))
		for _, d := range sp.Differences {
			printf(w, "  %s:%d: says %s, derived %s\n", sp.Path, d.Line, textfmt.Quote(d.SaysText()), textfmt.Quote(d.Derived))
		}
	case len(sp.Unsummarised) > 0:
		printf(w, "%s: %s\n", sp.Path, a.paint("yellow", "says a plan was completed that has no SUMMARY"))
	}
	printUnsummarised(w, sp, "  ")
}

// printUnsummarised lists the plans STATE.md says were completed that have no SUMMARY. No write
// fixes these: the SUMMARY is missing, or the line is wrong.
func printUnsummarised(w io.Writer, sp *hydrate.StateReport, prefix string) {
	for _, c := range sp.Unsummarised {
		printf(w, "%s%s:%d: says %s, but %s has no SUMMARY\n", prefix, sp.Path, c.Line, textfmt.Quote(c.Text), c.Path)
	}
}
