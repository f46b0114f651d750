package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// SessionState is what hydrate found.
type SessionState string

// The states of a session, as the spec's seed tokens name them.
const (
	StateResume      SessionState = "resume"       // a task to resume
	StateAllComplete SessionState = "all-complete" // every task complete
	StateNoSession   SessionState = "no-session"   // no session file
	StateStale       SessionState = "stale"        // the session no longer matches the project
	StateCorrupt     SessionState = "corrupt"      // the session file is not a session
	StateNoPlan      SessionState = "no-plan"      // no session, and no plan to start one from
	// No session, and the active plan has nothing to track: no <task> element and no Markdown
	// task section (a plan of prose).
	StateNoTasks SessionState = "no-tasks"
)

// Valid reports whether the session can be worked from as it is: a task to resume, or every
// task complete.
func (s *Session) Valid() bool { return s.State == StateResume || s.State == StateAllComplete }

// Unusable returns why the session cannot be listed or marked (no session, or not a session),
// nil when it can; a stale session can, with a warning.
func (s *Session) Unusable() error {
	switch s.State {
	case StateNoSession:
		return fmt.Errorf("%s: no session; start one with gsd hydrate or gsd start", s.Path)
	case StateCorrupt:
		why := "corrupt"
		if len(s.CorruptReasons) > 0 {
			why = s.CorruptReasons[0]
		}
		return fmt.Errorf("%s: not a valid session (%s)", s.Path, why)
	}
	return nil
}

// Token is the state as one seed token, as `gsd hydrate --porcelain` prints it.
func (s *Session) Token() string {
	switch s.State {
	case StateResume:
		return fmt.Sprint(s.ResumeTask)
	case StateAllComplete:
		return "ALL_COMPLETE"
	case StateNoSession:
		return "NO_SESSION"
	case StateNoPlan:
		return "NO_PLAN"
	case StateNoTasks:
		return "NO_TASKS"
	default:
		return "STALE"
	}
}

// Task is one task of a session, for reports.
type Task struct {
	Number int             `json:"number"`
	Name   string          `json:"name"`
	Type   string          `json:"type"`
	Status planfile.Status `json:"status"`
	Line   int             `json:"line"`
}

// Session is what the user's session file says and how it stands against the project.
type Session struct {
	Path           string // root-relative session file
	Exists         bool
	State          SessionState
	Plan           string // the plan the session copies (header)
	Started        string
	Tasks          []Task
	Counts         planfile.Counts
	ResumeTask     int  // 1-based, 0 when none
	Interrupted    bool // the resume task was in progress
	StaleReasons   []string
	CorruptReasons []string
	Warnings       []string // things worth saying that do not make the session unusable

	src  []byte
	file *planfile.File
}

// Inspect reads the user's session and judges it, writing nothing. An unreadable file or a task
// with an invalid status is an error (naming file and line): the session is not discarded for a
// typo that `gsd mark-*` can repair.
func (e *Env) Inspect() (*Session, error) {
	s := &Session{Path: e.SessionPath()}
	src, err := e.readFile(s.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.State = StateNoSession
		return s, nil
	case err != nil:
		return nil, err
	}
	return e.inspectBytes(s.Path, src)
}

// inspectBytes is Inspect of the session file rel holding src: a writer reports the session it
// has just written without reading it back.
func (e *Env) inspectBytes(rel string, src []byte) (*Session, error) {
	s := &Session{Path: rel}
	if err := s.read(src); err != nil {
		return nil, err
	}
	e.judge(s)
	return s, nil
}

// corruptError is a session file whose content no command can work from as it is: a task
// status gsd does not know (status="done"), or bytes the scanner refuses. It is an error for the
// commands that read the session (gsd mark-* on that task repairs a status), and a corrupt
// session for those that replace it (hydrate and start archive it, never lose it).
type corruptError struct{ error }

func (e corruptError) Unwrap() error { return e.error }

// inspectReplacing is Inspect for a use case that replaces the session: a session whose content
// cannot be worked from (corruptError) is a corrupt one, to archive, not an error.
func (e *Env) inspectReplacing() (*Session, error) {
	s, err := e.Inspect()
	var ce corruptError
	if !errors.As(err, &ce) {
		return s, err
	}
	s = &Session{Path: e.SessionPath()}
	src, rerr := e.readFile(s.Path)
	if rerr != nil {
		return nil, rerr
	}
	h := planfile.ReadHeader(src)
	s.Exists, s.src, s.State, s.Plan, s.Started = true, src, StateCorrupt, h.Plan, h.Started
	s.CorruptReasons = []string{ce.Error()}
	return s, nil
}

// judge checks a session that read for staleness; a corrupt one is left as it is.
func (e *Env) judge(s *Session) {
	if s.State == StateCorrupt {
		return
	}
	if s.StaleReasons = e.staleness(s, s.file); len(s.StaleReasons) > 0 {
		s.State = StateStale
	}
}

// read fills s from the session file's bytes: header, tasks, counts, resume point, or why it is
// corrupt. It does not look at the project (no staleness).
func (s *Session) read(src []byte) error {
	s.Exists = true
	s.src = src
	p := planfile.Scan(src)
	if p.Err != nil {
		return corruptError{fileError(s.Path, p.Err)}
	}
	s.file = p
	s.Plan, s.Started = p.Header.Plan, p.Header.Started
	if why := p.CorruptReasons(); len(why) > 0 {
		s.State, s.CorruptReasons = StateCorrupt, why
		return nil
	}
	sts, err := p.Statuses()
	if err != nil {
		return corruptError{fileError(s.Path, err)}
	}
	for _, pr := range p.Problems {
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s:%d: %s", s.Path, pr.Line, pr.Message))
	}
	s.Tasks = make([]Task, len(p.Tasks))
	for i := range p.Tasks {
		t := &p.Tasks[i]
		s.Tasks[i] = Task{Number: t.Number, Name: t.Name(), Type: t.Type(), Status: sts[i], Line: t.Line}
	}
	s.Counts = planfile.Count(sts)
	s.ResumeTask, s.Interrupted = resumePoint(sts)
	s.State = StateResume
	if s.ResumeTask == 0 {
		s.State = StateAllComplete
	}
	return nil
}

// inPhase reports whether the plan at planPath is phase ph's: one of its plans, or a file in its
// directory.
func inPhase(ph *roadmap.Phase, planPath string) bool {
	return path.Dir(planPath) == ph.Dir || slices.ContainsFunc(ph.Plans, func(p roadmap.Plan) bool { return p.Path == planPath })
}

// notPositionsPlan says, for a session the user chose (gsd start PLAN), that its plan is not the
// one the position would start, and how to follow the position instead; "" when it is.
func notPositionsPlan(pos *roadmap.Position, planPath string, h planfile.Header) string {
	if pos.Active != nil && pos.Active.Path == planPath {
		return ""
	}
	where := NoActivePlan(pos)
	if pos.Active != nil {
		where = fmt.Sprintf("phase %s is current, and its active plan is %s", pos.Phase.Num, pos.Active.Path)
	}
	if h.Committed {
		return fmt.Sprintf("not the plan the planning files make active (%s); kept, as the newest work (its commits, GSD's handoff) named it when the session started: update STATE.md and ROADMAP.md to agree", where)
	}
	return fmt.Sprintf("not the position's plan (%s); kept, as you started it with gsd start (gsd start alone follows the position)", where)
}

// resumePoint is the first task that is not complete; an in-progress one was interrupted and is
// re-executed from its start.
func resumePoint(sts []planfile.Status) (int, bool) {
	for i, st := range sts {
		if st != planfile.Complete {
			return i + 1, st == planfile.InProgress
		}
	}
	return 0, false
}

// staleness lists every reason the session no longer matches the project, not just the first.
func (e *Env) staleness(s *Session, p *planfile.File) []string {
	var why []string
	planPath, err := cleanRel(p.Header.Plan)
	if err != nil {
		return []string{fmt.Sprintf("the Plan header (line %d): %v", p.Header.PlanLine, err)}
	}
	if strings.HasPrefix(planPath, SessionsDir+"/") {
		return []string{fmt.Sprintf("the Plan header (line %d) names %s, a session file, not a plan", p.Header.PlanLine, planPath)}
	}
	plan, err := e.readFile(planPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return []string{fmt.Sprintf("plan file %s no longer exists", planPath)}
		}
		return []string{"plan file cannot be read: " + about(planPath, err)}
	}
	// The position lists the current phase's directory; worked out first, the completed check
	// below reuses that listing when the session is in the current phase (the common case). A
	// session is judged against the planning files' reading: commands that read no git (mark,
	// tasks) judge it as hydrate does.
	pos, posErr := e.Position()
	if posErr == nil && pos.Files != nil {
		pos = pos.Files
	}
	// A start from a named plan (gsd start PLAN) is the user's decision to work on it whatever
	// the current phase is; forced (gsd start --force), whatever its SUMMARY says too. It holds
	// until the plan has its SUMMARY (unless forced) or is edited: the edits still count below.
	forced, chosen := p.Header.Forced, p.Header.Chosen || p.Header.Forced
	// Completed: a SUMMARY with the plan's id exists (paired by id, never by editing the path).
	if summary := e.summaryOf(planPath); summary != "" && !forced {
		why = append(why, fmt.Sprintf("plan already completed (%s exists)", summary))
	}
	// Phase advanced: the plan's phase is not the current phase of the position model.
	if num, ok := roadmap.PhaseOf(planPath); ok {
		switch err := posErr; {
		case err != nil:
			// Too large, a directory, a symlink out of the project: say so rather than pass
			// the phase check in silence.
			s.Warnings = append(s.Warnings, fmt.Sprintf("%v; the phase was not checked against it", err))
		case chosen:
			if w := notPositionsPlan(pos, planPath, p.Header); w != "" {
				s.Warnings = append(s.Warnings, w)
			}
		case pos.Phase != nil && !pos.Phase.Num.Equal(num) && pos.Ahead(num):
			// Not "advanced": the position is behind the session (it went back to an earlier
			// phase, or the session was started ahead of it).
			why = append(why, fmt.Sprintf("phase is not the current one (session is in phase %s, after the current phase %s)", num, pos.Phase.Num))
		case pos.Phase != nil && !pos.Phase.Num.Equal(num):
			why = append(why, fmt.Sprintf("phase has advanced (session is in phase %s, the current phase is %s)", num, pos.Phase.Num))
		case pos.Phase != nil && !inPhase(pos.Phase, planPath):
			// The same number, another phase: a milestone started its numbers again
			// (--reset-phase-numbers) and the session is on the shipped one's.
			where := "has no directory yet"
			if pos.Phase.Dir != "" {
				where = "is " + pos.Phase.Dir
			}
			why = append(why, fmt.Sprintf("phase has advanced (session is in %s, another milestone's phase %s; the current phase %s %s)", path.Dir(planPath), num, num, where))
		}
	}
	// The plan was edited: task count and names.
	fresh := planfile.Scan(plan)
	if fresh.Err != nil {
		return append(why, "plan file cannot be scanned: "+about(planPath, fresh.Err))
	}
	return append(why, taskChanges(p, fresh)...)
}

// taskChanges says how the tasks of the plan (or a fresh session of it), fresh, differ from the
// session p's: their count, else each name that differs. None when the plan was not edited.
func taskChanges(p, fresh *planfile.File) []string {
	if len(fresh.Tasks) != len(p.Tasks) {
		return []string{fmt.Sprintf("task count differs (session has %d, plan has %d)", len(p.Tasks), len(fresh.Tasks))}
	}
	var why []string
	for i := range fresh.Tasks {
		if a, b := p.Tasks[i].Name(), fresh.Tasks[i].Name(); a != b {
			why = append(why, fmt.Sprintf("task %d is %s in the session but %s in the plan", i+1, textfmt.Quote(a), textfmt.Quote(b)))
		}
	}
	return why
}

// TaskLabel names task n for a message: "task 2: Complete handler", or the name alone when it
// already starts with its number ("Task 2: Complete handler", as GSD's plans write them), never
// "task 2: Task 2: ...".
func TaskLabel(n int, name string) string {
	prefix := "task " + strconv.Itoa(n) + ":"
	if len(name) >= len(prefix) && strings.EqualFold(name[:len(prefix)], prefix) {
		return name
	}
	return prefix + " " + name
}
