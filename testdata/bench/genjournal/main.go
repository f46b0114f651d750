// Command genjournal appends N mark events to a user's session journal, changing the session
// as gsd mark would, and leaves the session file in the final state: a long, consistent history
// for timing gsd log and gsd tasks --at. Usage: genjournal SESSION-DIR N
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: genjournal SESSION-DIR N")
		os.Exit(2)
	}
	dir := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	check(err)
	sessionPath := filepath.Join(dir, "current-plan.md")
	cur, err := os.ReadFile(sessionPath)
	check(err)
	jpath := filepath.Join(dir, journal.FileName)
	p := planfile.Scan(cur)
	tasks := len(p.Tasks)
	statuses := []planfile.Status{planfile.InProgress, planfile.Complete, planfile.Pending}
	_, err = journal.Record(jpath, func(last journal.Event, _ bool) []journal.Event {
		t0 := last.Time.UTC()
		evs := make([]journal.Event, 0, n)
		seq := last.Seq
		for i := 0; len(evs) < n; i++ {
			task := i%tasks + 1
			st := statuses[(i/tasks)%3]
			out, err := planfile.SetStatus(cur, task, st)
			if err == planfile.ErrUnchanged {
				continue
			}
			check(err)
			seq++
			evs = append(evs, journal.Event{Seq: seq, Time: t0.Add(time.Duration(seq-last.Seq) * time.Minute), Type: journal.Mark,
				Source: "cli", Task: task, Name: fmt.Sprintf("task %d", task), New: string(st), SHA256: journal.Hash(out, true)})
			cur = out
		}
		return evs
	})
	check(err)
	check(os.WriteFile(sessionPath, cur, 0o644))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "genjournal:", err)
		os.Exit(1)
	}
}
