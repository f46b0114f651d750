package cmd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

func (a *app) newLogCmd() *cobra.Command {
	var since string
	var task int
	c := &cobra.Command{
		Use:   "log",
		Short: "Show the session's history: who changed what, when",
		Long: `Log prints your session journal, .planning/sessions/<user>/journal.jsonl, oldest first: one line
per write to the session (bootstrap, mark, archive, snapshot, restore, carry-over, and reconcile when
the session was found changed outside gsd), with its sequence number, UTC time, source and agent
instance. A line that cannot be read is skipped with a warning.

Limits. A journal line holds at most 8 MiB (a bootstrap's holds the session); sequence numbers
run from 1 to 99,999,999, and a line with a number outside its range is not an event. gsd log
and tasks --at read journals of up to 64 MiB. A write reads at most the last 16 MiB (or 1,000
unreadable lines) of the journal, whatever its size, and repairs its end before it appends: a
torn last line (a crash, a full disk) is removed, a write cut short is taken back; a journal
whose end holds no event within that is moved aside whole to journal.damaged.jsonl and a new
one begun.

Merges. Each event is identified by a hash of its line and names the event before it, so a
journal that git's union merge (.gitattributes: .planning/sessions/*/journal.jsonl merge=union)
joined from two branches lists each event once, parents first, then by sequence number, time and
identity, the same whichever branch was merged into which; gsd tasks --at replays each event
along its own branch. The next write reconciles the merged session.`,
		Example: `  gsd log
  gsd log --task 3
  gsd log --since 2026-02-03T10:00:00Z --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var q hydrate.LogQuery
			if since != "" {
				seq, t, err := hydrate.ParseWhen(since)
				if err != nil || seq != 0 {
					return usageError{fmt.Errorf("--since %s: not a time (such as 2026-02-03T10:00:00Z or 2026-02-03)", textfmt.Quote(since))}
				}
				q.Since = t
			}
			if task < 0 {
				return usageError{fmt.Errorf("--task %d: task number must be positive", task)}
			}
			q.Task = task
			env, _, err := a.open()
			if err != nil {
				return err
			}
			// The events are streamed, never held: a journal of any length prints in the
			// same memory.
			js, err := env.History().LogStream(q)
			if err != nil {
				return err
			}
			for _, p := range js.Problems {
				a.warn("%s", p)
			}
			w := bufio.NewWriter(a.stdout) // ten thousand lines, not ten thousand writes
			if a.json {
				if err := report.WriteLog(w, js); err != nil {
					return err
				}
				return w.Flush()
			}
			// Columns as wide as the journal's widest entry, which opening it measured.
			seqW, whoW := max(5, len(strconv.FormatInt(js.MaxSeq, 10))), 0
			for _, wr := range js.Writers {
				whoW = max(whoW, textfmt.Width(eventWho(journal.Event{Source: wr.Source, Instance: wr.Instance})))
			}
			n := 0
			err = js.Each(func(ev journal.Event) error {
				n++
				printEvent(w, ev, seqW, whoW)
				return nil
			})
			if err != nil {
				return err
			}
			if n == 0 {
				printf(w, "no events in %s\n", js.Path)
			}
			return w.Flush()
		},
	}
	c.Flags().StringVar(&since, "since", "", "only events at or after `TIME`")
	c.Flags().IntVar(&task, "task", 0, "only events about task `N`")
	return c
}

// eventWho is the event's source and agent instance, escaped.
func eventWho(ev journal.Event) string {
	if ev.Instance == "" {
		return printable(ev.Source)
	}
	return printable(ev.Source) + " " + printable(ev.Instance)
}

// printEvent prints one journal event as one line, its number right-aligned in seqW columns and
// its writer padded to whoW (appended by hand: ten thousand of them through fmt cost more than
// reading the journal), its text escaped as printf escapes it.
func printEvent(w io.Writer, ev journal.Event, seqW, whoW int) {
	b := make([]byte, 0, 160)
	seq := strconv.FormatInt(ev.Seq, 10)
	for i := len(seq); i < seqW; i++ {
		b = append(b, ' ')
	}
	b = append(b, seq...)
	b = append(b, "  "...)
	b = ev.Time.UTC().AppendFormat(b, time.RFC3339)
	b = append(b, "  "...)
	b = append(b, textfmt.Pad(eventWho(ev), whoW)...)
	b = append(b, "  "...)
	switch ev.Type {
	case journal.Mark:
		from := ev.Old
		if from == "" {
			from = "(none)"
		}
		b = append(b, "mark      task "...)
		b = strconv.AppendInt(b, int64(ev.Task), 10)
		b = append(b, ' ')
		b = append(b, printable(from)...)
		b = append(b, " -> "...)
		b = append(b, printable(ev.New)...)
		b = append(b, ": "...)
		b = append(b, printable(ev.Name)...)
		if ev.Commit != "" {
			// Set from the task's commit (gsd help session): which one.
			b = append(b, " (commit "...)
			b = append(b, printable(ev.Commit[:min(len(ev.Commit), 7)])...)
			b = append(b, ')')
		}
	case journal.Bootstrap:
		b = append(b, "bootstrap "+printable(ev.Plan)...)
	case journal.Snapshot:
		b = append(b, "snapshot  "+printable(ev.Snapshot)+" ("+printable(ev.Note)+")"...)
	case journal.Archive:
		b = append(b, "archive   -> "+printable(ev.Snapshot)...)
	case journal.Restore:
		b = append(b, "restore   "+printable(ev.Snapshot)...)
	case journal.Carry:
		n := 0
		for _, c := range ev.Carried {
			if c.From != 0 {
				n++
			}
		}
		b = fmt.Appendf(b, "carry     %d of %d tasks matched: %s", n, len(ev.Carried), printable(ev.Plan))
	case journal.Reconcile:
		b = append(b, "reconcile "+printable(ev.Note)...)
	case journal.Resume:
		// The note says whose session it was: "from bob".
		b = append(b, "resume    "+printable(ev.Note)+": "+printable(ev.Plan)...)
	case journal.HandedOver:
		// The note says who took a copy: "resumed by ann".
		b = append(b, "handed-over, "+printable(ev.Note)+": "+printable(ev.Plan)...)
	case journal.Detach:
		b = append(b, "detach    "+printable(ev.Note)...)
	default:
		b = append(b, printable(ev.Type)...)
	}
	b = append(b, '\n')
	_, _ = w.Write(b)
}
