package cmd

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/journal"
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
instance. A line that cannot be read (a torn last line) is skipped with a warning.`,
		Example: `  gsd log
  gsd log --task 3
  gsd log --since 2026-02-03T10:00:00Z --json`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			var q hydrate.LogQuery
			if since != "" {
				seq, t, err := hydrate.ParseWhen(since)
				if err != nil || seq != 0 {
					return usageError{fmt.Errorf("--since %q: not a time (such as 2026-02-03T10:00:00Z or 2026-02-03)", since)}
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
			res, err := env.Log(q)
			if err != nil {
				return err
			}
			for _, p := range res.Problems {
				a.warn("%s", p)
			}
			if a.json {
				// The JSON contract's times are RFC 3339 to the second; the journal keeps more.
				for i := range res.Events {
					res.Events[i].Time = res.Events[i].Time.UTC().Truncate(time.Second)
				}
				return a.printJSON(struct {
					SchemaVersion int             `json:"schemaVersion"`
					Journal       string          `json:"journal"`
					Events        []journal.Event `json:"events"`
				}{SchemaVersion, res.Path, nonNil(res.Events)})
			}
			if len(res.Events) == 0 {
				printf(a.stdout, "no events in %s\n", res.Path)
				return nil
			}
			w := bufio.NewWriter(a.stdout) // ten thousand lines, not ten thousand writes
			for _, ev := range res.Events {
				printEvent(w, ev)
			}
			return w.Flush()
		},
	}
	c.Flags().StringVar(&since, "since", "", "only events at or after `TIME`")
	c.Flags().IntVar(&task, "task", 0, "only events about task `N`")
	return c
}

// printEvent prints one journal event as one line (appended by hand: ten thousand of them
// through fmt cost more than reading the journal), its text escaped as printf escapes it.
func printEvent(w io.Writer, ev journal.Event) {
	b := make([]byte, 0, 160)
	seq := strconv.FormatInt(ev.Seq, 10)
	for i := len(seq); i < 5; i++ {
		b = append(b, ' ')
	}
	b = append(b, seq...)
	b = append(b, "  "...)
	b = ev.Time.UTC().AppendFormat(b, time.RFC3339)
	b = append(b, "  "...)
	b = append(b, printable(ev.Source)...)
	if ev.Instance != "" {
		b = append(b, ' ')
		b = append(b, printable(ev.Instance)...)
	}
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
