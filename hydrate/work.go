package hydrate

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap"
	"github.com/gsd-tools/gsd/roadmap/trace"
)

// Work is what the traces of execution show of the session's plan: GSD's executor commits each
// task when it is done ("feat(02-02): ..."), and rarely runs gsd mark-*; so the commits matched
// to the plan's tasks say where the work stands when the session's statuses do not.
type Work struct {
	Git   string     `json:"git"`   // which evidence git gave (Traces.Available)
	Tasks []TaskWork `json:"tasks"` // the tasks the commits show something of
	// Unmatched are commits of the plan that resemble none of its tasks: shown with the mark to
	// run, never counted.
	Unmatched []Commit `json:"unmatched"`
	// Reconciled are the statuses this command set from the commits (Applied), or would set
	// (a run that writes nothing).
	Reconciled []Reconciled `json:"reconciled"`
	Applied    bool         `json:"applied"`
	// Uncommitted are files the plan names, changed and not committed: the resume task's first.
	// Work interrupted mid-task: continue it, do not restart it or discard them.
	Uncommitted []string `json:"uncommitted"`
	// SummaryNext says every task is done and the plan has no SUMMARY: writing it comes next
	// (GSD's order: task commits, the SUMMARY, then STATE.md and ROADMAP.md).
	SummaryNext bool `json:"summaryNext"`
	// FailingTests are the test-first tasks whose failing test alone is committed (and no later
	// task yet): complete by their commit, their implementation still to make pass.
	FailingTests []int `json:"failingTests"`
}

// newWork is a Work whose lists are empty, not nil: [] in JSON, never null.
func newWork(git string) *Work {
	return &Work{Git: git, Tasks: []TaskWork{}, Unmatched: []Commit{}, Reconciled: []Reconciled{}, Uncommitted: []string{}, FailingTests: []int{}}
}

// nonNil is l, or an empty list for nil: JSON's [] rather than null.
func nonNil[T any](l []T) []T {
	if l == nil {
		return []T{}
	}
	return l
}

// Commit is a commit as gsd reports it.
type Commit struct {
	Hash    string    `json:"hash"` // abbreviated, as SUMMARYs quote them
	Subject string    `json:"subject"`
	Time    time.Time `json:"time"`
}

func commitOf(c trace.Commit) Commit {
	return Commit{Hash: c.Short(), Subject: c.Subject, Time: c.Time}
}

// TaskWork is what the commits show of one task.
type TaskWork struct {
	Task int `json:"task"`
	// Work is "done" (a commit finished it), "started" (a test-first task's failing test is
	// committed, its implementation not) or "passed" (no commit of its own, a later task's
	// commit exists: a checkpoint approved, a task folded into the next).
	Work    roadmap.TaskWork `json:"work"`
	Commits []Commit         `json:"commits"`
	// ByOrder says the commits were matched by their order alone: neither their description
	// nor their files resemble the task's.
	ByOrder bool `json:"byOrder,omitempty"`
}

// Reconciled is a status set from the commits.
type Reconciled struct {
	Task   int             `json:"task"`
	Name   string          `json:"name"`
	From   planfile.Status `json:"from"`
	To     planfile.Status `json:"to"`
	Commit *Commit         `json:"commit,omitempty"` // nil for a passed task: the later commit says it
}

// maxUncommitted bounds the files named as changed and not committed.
const maxUncommitted = 20

// planWork is what the commits show of the tasks in session (or fresh session) bytes src, whose
// plan is plan: nil when git gave nothing or the plan is unknown.
func (e *Env) planWork(plan string, src []byte) (*Work, roadmap.Tracing) {
	t := e.Traces()
	w := newWork(t.Available())
	if !t.Read {
		return w, roadmap.Tracing{}
	}
	plans, err := e.phasePlans(plan)
	if err != nil {
		return w, roadmap.Tracing{}
	}
	i := slices.IndexFunc(plans, func(p roadmap.Plan) bool { return p.Path == plan })
	if i < 0 {
		return w, roadmap.Tracing{}
	}
	f := planfile.Scan(src)
	if f.Err != nil {
		return w, roadmap.Tracing{}
	}
	tr := roadmap.MatchTasks(roadmap.TaskSpecs(f), roadmap.PlanCommits(t.Commits, plans[i], plans))
	for _, tt := range tr.Tasks {
		if tt.Work == roadmap.WorkNone {
			continue
		}
		if tt.Work == roadmap.WorkStarted {
			w.FailingTests = append(w.FailingTests, tt.Task)
		}
		tw := TaskWork{Task: tt.Task, Work: tt.Work, ByOrder: tt.ByOrder, Commits: []Commit{}}
		for _, c := range tt.Commits {
			tw.Commits = append(tw.Commits, commitOf(c))
		}
		w.Tasks = append(w.Tasks, tw)
	}
	for _, c := range tr.Unmatched {
		w.Unmatched = append(w.Unmatched, commitOf(c))
	}
	return w, tr
}

// committed is the commit that shows task n complete, when the commits show it: its own last
// commit (a test-first task's failing test counts: the executor records the task done at that
// commit, and Work.FailingTests says what is left of it), or, for a task passed, the first
// commit of a later task.
func committed(tr roadmap.Tracing, n int) (*trace.Commit, bool) {
	tt := tr.Tasks[n-1]
	switch tt.Work {
	case roadmap.WorkDone, roadmap.WorkStarted:
		return &tt.Commits[len(tt.Commits)-1], true
	case roadmap.WorkPassed:
		for _, later := range tr.Tasks[n:] {
			if len(later.Commits) > 0 {
				return &later.Commits[0], true
			}
		}
	}
	return nil, false
}

// applyCommits sets complete, in session bytes src, the tasks the commits show complete (tr) and
// keep accepts; never a status back. It returns the new bytes, what it set, and the mark events
// that record each change after src (their hashes chained from src's).
func applyCommits(src []byte, tr roadmap.Tracing, plan string, keep func(n int, c *trace.Commit) bool) ([]byte, []Reconciled, []journal.Event, error) {
	f := planfile.Scan(src)
	if f.Err != nil {
		return src, nil, nil, f.Err
	}
	sts, err := f.Statuses()
	if err != nil || len(sts) != len(tr.Tasks) {
		return src, nil, nil, err
	}
	out := src
	done := []Reconciled{} // [] in JSON when nothing is set
	var evs []journal.Event
	for n := 1; n <= len(sts); n++ {
		c, ok := committed(tr, n)
		if !ok || sts[n-1] == planfile.Complete || !keep(n, c) {
			continue
		}
		next, err := planfile.SetStatus(out, n, planfile.Complete)
		if errors.Is(err, planfile.ErrUnchanged) {
			continue
		}
		if err != nil {
			return src, nil, nil, err
		}
		out = next
		r := Reconciled{Task: n, Name: f.Tasks[n-1].Name(), From: sts[n-1], To: planfile.Complete}
		ev := journal.Event{Type: journal.Mark, Task: n, Name: r.Name, Old: string(r.From), New: string(r.To), Plan: plan, SHA256: journal.Hash(out, true)}
		if tr.Tasks[n-1].Work == roadmap.WorkPassed {
			ev.Note = "passed: " + c.Short() + " " + c.Subject + " is a later task's"
		} else {
			ev.Note = "committed: " + c.Short() + " " + c.Subject
		}
		ev.Commit = c.Hash
		cc := commitOf(*c)
		r.Commit = &cc
		done = append(done, r)
		evs = append(evs, ev)
	}
	return out, done, evs, nil
}

// lastChanges is when each task's status was last set by a gsd write, as the user's journal
// records it: the last event that replaced the whole session (a bootstrap, a restore, a
// carry-over, a reconcile, a resume) and the marks of each task after it. Without a journal that
// agrees with the session (turned off, unreadable, or the session changed outside gsd since),
// the session file's modification time stands for every task.
func (e *Env) lastChanges(src []byte) (base time.Time, marks map[int]time.Time) {
	marks = map[int]time.Time{}
	fallback := func() (time.Time, map[int]time.Time) {
		if fi, err := os.Stat(e.abs(e.SessionPath())); err == nil {
			return fi.ModTime(), map[int]time.Time{}
		}
		return e.now(), map[int]time.Time{} // never older than a commit: nothing applied
	}
	if e.hist.NoJournal {
		return fallback()
	}
	js, err := e.openJournal(e.journalPath()) // a regular file inside the project, bounded
	if err != nil {
		return fallback()
	}
	var last journal.Event
	err = js.Each(func(ev journal.Event) error {
		switch {
		case journal.IsBase(ev):
			base, marks = ev.Time, map[int]time.Time{}
		case ev.Type == journal.Mark:
			marks[ev.Task] = ev.Time
		}
		last = ev
		return nil
	})
	if err != nil || last.SHA256 != journal.Hash(src, true) {
		return fallback()
	}
	return base, marks
}

// always is applyCommits' filter at a bootstrap: every status the commits show is taken.
func always(int, *trace.Commit) bool { return true }

// observe compares the valid session in res with what the plan's commits show. A task the
// session has behind what a commit shows (pending while its commit exists), when that commit
// was made after the task's status was last set (a mark, a bootstrap, a restore), is set from
// it: the session before is kept as a pre-reconcile snapshot and each change journaled with its
// commit, so gsd restore or gsd mark-pending N undoes it, and a status someone set after the
// commit is never overruled. With write false nothing is written: Work says what would be set.
func (e *Env) observe(res *Result, write bool) error {
	s := res.Session
	plan, err := cleanRel(s.Plan)
	if err != nil || s.file == nil {
		return nil
	}
	w, tr := e.planWork(plan, s.src)
	res.Work = w
	if len(tr.Tasks) != len(s.Tasks) {
		return nil
	}
	started, _ := time.Parse(planfile.TimeLayout, s.Started)
	newer := func(n int, c *trace.Commit) bool { return c.Time.After(started) }
	if _, recs, _, err := applyCommits(s.src, tr, plan, newer); err != nil || len(recs) == 0 {
		return nil // nothing new since the session started
	}
	since := func(src []byte) func(int, *trace.Commit) bool {
		base, marks := e.lastChanges(src)
		return func(n int, c *trace.Commit) bool {
			last := base
			if m, ok := marks[n]; ok && m.After(last) {
				last = m
			}
			return c.Time.After(started) && c.Time.After(last)
		}
	}
	if !write {
		_, w.Reconciled, _, _ = applyCommits(s.src, tr, plan, since(s.src))
		return nil
	}
	return e.withLock(func() error {
		cur, err := e.Inspect()
		if err != nil || !cur.Valid() || !bytes.Equal(cur.src, s.src) {
			return err // changed meanwhile: this run reports it as it is now
		}
		final, recs, evs, err := applyCommits(cur.src, tr, plan, since(cur.src))
		if err != nil || len(recs) == 0 {
			return nil
		}
		dir, err := e.writableSessionDir()
		if err != nil {
			return err
		}
		to, err := e.archiveIn(dir, cur.src, KindPreReconcile)
		if err != nil {
			return err
		}
		snap := journal.Event{Type: journal.Snapshot, Snapshot: snapshotID(to), Note: KindPreReconcile, Plan: cur.Plan, SHA256: journal.Hash(cur.src, true)}
		if err := e.writeSessionIn(dir, final); err != nil {
			e.record(cur.src, true, snap)
			return err
		}
		e.record(cur.src, true, append([]journal.Event{snap}, evs...)...)
		e.prune()
		fresh, err := e.inspectBytes(e.SessionPath(), final)
		if err != nil {
			return err
		}
		res.Session = fresh
		w.Reconciled, w.Applied = recs, true
		res.Actions = append(res.Actions, Action{Kind: ActionReconciled, Path: to, From: cur.Path})
		return nil
	})
}

// ActionReconciled is a session whose statuses were set from the tasks' commits (Path the
// pre-reconcile snapshot that undoes it, From the session).
const ActionReconciled ActionKind = "reconciled"

// interrupted names, in res.Work, the files of the session's plan changed and not committed (the
// resume task's first), and says whether the SUMMARY is what comes next.
func (e *Env) interrupted(res *Result) {
	s := res.Session
	if s == nil || s.file == nil || s.Plan == "" {
		return
	}
	plan, err := cleanRel(s.Plan)
	if err != nil {
		return
	}
	if res.Work == nil {
		res.Work = newWork(e.Traces().Available())
	}
	w := res.Work
	switch s.State {
	case StateAllComplete:
		w.SummaryNext = !e.hasSummary(plan)
	case StateResume:
		specs := roadmap.TaskSpecs(s.file)
		var paths []string
		add := func(fs []string) {
			for _, f := range fs {
				if !slices.Contains(paths, f) {
					paths = append(paths, f)
				}
			}
		}
		add(specs[s.ResumeTask-1].Files)
		for _, n := range w.FailingTests {
			if n <= len(specs) {
				add(specs[n-1].Files) // complete by a failing test: its implementation is under way
			}
		}
		for i, t := range s.Tasks {
			if t.Status != planfile.Complete && i != s.ResumeTask-1 {
				add(specs[i].Files)
			}
		}
		if names := e.Uncommitted(paths); len(names) > 0 {
			w.Uncommitted = names[:min(len(names), maxUncommitted)]
		}
	}
}
