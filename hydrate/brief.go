package hydrate

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// A Brief is what an agent that has forgotten everything needs to carry on: the plan and its
// objective, progress, the task to resume as the plan writes it, what remains, what is wrong with
// the session, and the exact commands to run next. Long texts are cut to a budget, with the file
// and line where the rest is, so that a rendered brief stays within a few kilobytes.
type Brief struct {
	User           string          `json:"user"`
	SessionFile    string          `json:"sessionFile"`
	State          SessionState    `json:"state"`
	Plan           string          `json:"-"` // "" when none: cmd gives it as null
	Objective      *Excerpt        `json:"objective"`
	Counts         planfile.Counts `json:"counts"`
	Completed      []Task          `json:"completed"`
	Resume         *ResumePoint    `json:"resume"`
	Remaining      []Task          `json:"remaining"`
	Omitted        int             `json:"omitted"` // tasks left out of Completed and Remaining
	StaleReasons   []string        `json:"staleReasons"`
	CorruptReasons []string        `json:"corruptReasons"`
	Warnings       []string        `json:"warnings"`
	Actions        []Action        `json:"actions"`
	NextPlan       string          `json:"-"`
	Note           string          `json:"-"`
	WouldCarry     bool            `json:"wouldCarry"` // hydrate would keep the statuses of the tasks still in the edited plan
	// Reading is one line, when the plan was just chosen by a position that is not sure: how
	// sure it is and the other reading (nil otherwise).
	Reading *string `json:"reading"`
	// Work is what git shows of the plan's work (hydrate's Work), its lists held to
	// maxWorkListed; nil when it was not read.
	Work *Work `json:"work"`
	// Handoff is GSD's newest pause file as the position weighed it (Result.Handoff).
	Handoff *roadmap.Handoff `json:"handoff"`
	// TakenOver: teammates took the session over since it last changed (Result.TakenOver):
	// their agent continues the plan.
	TakenOver []TakenOver `json:"takenOverBy"`
	Next      []Step      `json:"next"`
	// AgentContext is what the agent itself was doing before the reset, as the hooks captured
	// it from its transcript (Agents.AgentContext; nil: none). Brief leaves it to its caller.
	AgentContext *AgentContext `json:"agentContext"`
}

// maxWorkListed bounds each list of a brief's Work.
const maxWorkListed = 6

// ResumePoint is the task a brief resumes at (the session's ResumeTask, as resumePoint finds
// it), with its child elements as written.
type ResumePoint struct {
	Task
	Interrupted bool      `json:"interrupted"` // it was in progress: re-execute it from its start
	Checkpoint  bool      `json:"checkpoint"`  // a checkpoint:* task: the human must answer
	StartTag    string    `json:"startTag"`    // its <task ...> start tag, as written (a section's heading)
	Fields      []Excerpt `json:"fields"`      // its child elements, in plan order
	// Section: the task is a Markdown section ("### Task N: ..."); StartTag is its heading and
	// its one field, "body", the text under it.
	Section bool `json:"section"`
}

// Excerpt is the text of one element, dedented and possibly cut.
type Excerpt struct {
	Name string `json:"name"` // element name: "action", "objective", ...
	Text string `json:"text"`
	File string `json:"file"` // root-relative file the text was read from
	Line int    `json:"line"` // line of the text's first line
	// Rest is the line where the part left out begins; 0 when the text is whole.
	Rest int `json:"rest,omitempty"`
}

// Step is a command to run next and when to run it.
type Step struct {
	Command string `json:"command"`
	When    string `json:"when"`
}

// Budgets for a brief, in bytes and items. With them, a rendered brief of a resumable session
// fits MaxBriefSize with room to spare; a renderer that still overflows (long task names in a
// plan of hundreds of tasks, many findings) gives up lists before the resume task.
const (
	MaxBriefSize     = 8 << 10 // what a renderer should hold a brief to
	objectiveBudget  = 900
	resumeBudget     = 4000 // all of the resume task's fields together
	maxListed        = 24   // task names in Completed and Remaining together
	maxNameRunes     = 120
	maxReasons       = 8
	maxReasonRunes   = 240
	minUsefulExcerpt = 80
)

// Brief builds the brief for a hydrate result. It reads nothing more from disk: the session file
// was scanned by Inspect.
func (e *Env) Brief(r *Result) *Brief {
	s := r.Session
	b := &Brief{
		User:           e.User.User,
		SessionFile:    s.Path,
		State:          s.State,
		Plan:           s.Plan,
		Counts:         s.Counts,
		StaleReasons:   capList(s.StaleReasons),
		CorruptReasons: capList(s.CorruptReasons),
		Warnings:       capList(s.Warnings),
		Actions:        r.Actions,
		NextPlan:       r.NextPlan,
		Note:           r.Note,
		WouldCarry:     r.WouldCarry,
		Reading:        reading(r),
		Work:           briefWork(r.Work),
		Handoff:        r.Handoff,
		TakenOver:      r.TakenOver,
	}
	if b.TakenOver == nil {
		b.TakenOver = []TakenOver{}
	}
	// A stale session's tasks are not what to work on: it must be hydrated afresh first.
	if s.file != nil && s.Valid() {
		if c, ok := s.file.Block("objective"); ok {
			ex := excerpt(c, s.Path, objectiveBudget)
			if ex.Text != "" {
				b.Objective = &ex
			}
		}
		b.tasks(s)
	}
	b.Next = e.nextSteps(b)
	// Lists are [] in JSON, never null.
	for _, l := range []*[]Task{&b.Completed, &b.Remaining} {
		if *l == nil {
			*l = []Task{}
		}
	}
	if b.Actions == nil {
		b.Actions = []Action{}
	}
	if b.Next == nil {
		b.Next = []Step{}
	}
	return b
}

// briefWork is w with its lists held to maxWorkListed (the newest kept).
func briefWork(w *Work) *Work {
	if w == nil {
		return nil
	}
	c := *w
	c.Tasks = lastN(c.Tasks, maxWorkListed)
	c.Unmatched = lastN(c.Unmatched, maxWorkListed)
	c.Reconciled = lastN(c.Reconciled, maxWorkListed)
	c.Uncommitted = c.Uncommitted[:min(len(c.Uncommitted), maxWorkListed)]
	return &c
}

func lastN[T any](l []T, n int) []T { return l[max(0, len(l)-n):] }

// tasks fills Completed, Resume and Remaining.
func (b *Brief) tasks(s *Session) {
	listed := 0
	add := func(to *[]Task, t Task) {
		if listed >= maxListed {
			b.Omitted++
			return
		}
		listed++
		t.Name = textfmt.Clip(t.Name, maxNameRunes)
		*to = append(*to, t)
	}
	// Remaining first claims its share, so that a long history does not crowd out what is left.
	var done, left []Task
	for _, t := range s.Tasks {
		switch {
		case t.Number == s.ResumeTask:
		case t.Status == planfile.Complete:
			done = append(done, t)
		default:
			left = append(left, t)
		}
	}
	for _, t := range left {
		add(&b.Remaining, t)
	}
	// The most recent completions matter most: keep the last ones when there are too many.
	if room := maxListed - listed; len(done) > room && room >= 0 {
		b.Omitted += len(done) - room
		done = done[len(done)-room:]
	}
	for _, t := range done {
		add(&b.Completed, t)
	}
	if s.ResumeTask == 0 || s.ResumeTask > len(s.file.Tasks) {
		return
	}
	pt := &s.file.Tasks[s.ResumeTask-1]
	rt := &ResumePoint{
		Task:        s.Tasks[s.ResumeTask-1],
		Interrupted: s.Interrupted,
		Checkpoint:  pt.IsCheckpoint(),
		StartTag:    textfmt.Clip(strings.Join(strings.Fields(string(s.file.Src[pt.Tag.Start:pt.Tag.End])), " "), 400),
		Section:     pt.Section != nil,
	}
	if pt.Section != nil {
		h := pt.Section.Heading
		rt.StartTag = textfmt.Clip(strings.TrimSpace(string(s.file.Src[h.Start:h.End])), 400)
	}
	budgets := allocate(pt.Children)
	for i, c := range pt.Children {
		rt.Fields = append(rt.Fields, excerpt(c, s.Path, budgets[i]))
	}
	b.Resume = rt
}

// fieldCaps is how much of each child of the resume task a brief keeps, in the order the budget
// is handed out: what the task is, what to do and how to tell it is done come first; anything
// else (read_first, acceptance_criteria, ...) gets what is left, up to otherCap each.
var fieldCaps = []struct {
	name string
	cap  int
}{
	{"name", 300}, {"title", 300},
	{"action", 2400}, {"instructions", 2400}, {"body", 2400}, {"how-to-verify", 1200}, {"what-built", 600},
	{"verify", 600}, {"done", 600}, {"resume-signal", 300}, {"files", 400},
}

const otherCap = 500

// allocate splits resumeBudget among a task's children, in fieldCaps order.
func allocate(children []planfile.Child) []int {
	budgets := make([]int, len(children))
	left := resumeBudget
	give := func(i, limit int) {
		n := min(len(children[i].Text), limit, left)
		budgets[i] = n
		left -= n
	}
	done := make([]bool, len(children))
	for _, fc := range fieldCaps {
		for i, c := range children {
			if !done[i] && c.Name == fc.name {
				give(i, fc.cap)
				done[i] = true
			}
		}
	}
	for i := range children {
		if !done[i] {
			give(i, otherCap)
		}
	}
	return budgets
}

// reading is Brief.Reading: one line, bounded, naming the first other reading and the command
// that follows it.
func reading(r *Result) *string {
	if r.Confidence == "" || r.Confidence == roadmap.ConfidenceHigh {
		return nil
	}
	line := fmt.Sprintf("gsd chose this position with %s confidence (gsd progress --explain says why)", r.Confidence)
	if len(r.Alternatives) > 0 {
		alt := r.Alternatives[0]
		line += "; another reading is " + textfmt.Clip(alt.String(), maxReasonRunes)
		if arg := alt.StartArg(); arg != "" {
			line += " (gsd start " + arg + ")"
		}
	}
	line += "."
	return &line
}

// nextSteps says which gsd commands to run next, for the state the session is in.
func (e *Env) nextSteps(b *Brief) []Step {
	gsd := "gsd"
	if e.User.Source.Kind == identity.KindFlag {
		// The agent's shell will not have the --user this brief was made with.
		gsd += " --user " + e.User.User
	}
	step := func(when, format string, args ...any) Step {
		return Step{Command: gsd + " " + fmt.Sprintf(format, args...), When: when}
	}
	switch b.State {
	case StateResume:
		if n := len(b.TakenOver); n > 0 {
			// Someone else's agent continues the plan: the steps are not to resume it.
			return []Step{
				step("to see who works on what, on this machine and the ones gsd sync fetched", "sessions"),
				step("to leave this plan to them and start other work", "start PLAN"),
				step("only if they agree: to take the session back", "resume --force %s", b.TakenOver[n-1].TakeBack()),
			}
		}
		if b.Resume == nil {
			return nil
		}
		n := b.Resume.Number
		var steps []Step
		if !b.Resume.Interrupted {
			steps = append(steps, step(fmt.Sprintf("before you start task %d", n), "mark-in-progress %d", n))
		}
		when := fmt.Sprintf("when task %d is done: its verify step passes and its work is committed", n)
		if b.Resume.Checkpoint {
			when = fmt.Sprintf("when the human has answered checkpoint %d as its resume signal asks", n)
		}
		steps = append(steps, step(when, "mark-complete %d", n))
		return append(steps, step("then, for the next task", "brief"))
	case StateAllComplete:
		if b.NextPlan != "" {
			return []Step{step("once this plan's SUMMARY is written: to move on to the next plan of the phase", "start %s", b.NextPlan)}
		}
		return []Step{step("once the plan's SUMMARY is written: where the project stands, and what comes next", "progress")}
	case StateStale, StateCorrupt:
		if b.Note != "" {
			// hydrate would keep it (no plan to start from): say what does help.
			return []Step{
				step("to see every reason", "check"),
				step("to archive this session and start afresh from a plan you name", "start PLAN"),
			}
		}
		if b.WouldCarry {
			return []Step{
				step("to see every reason", "check"),
				step("to start afresh from the edited plan, keeping the status of every task still in it", "hydrate"),
			}
		}
		return []Step{
			step("to see every reason", "check"),
			step("to archive this session and start afresh from the active plan", "hydrate"),
		}
	case StateNoSession:
		// Not "run this now": the person may only be planning, which needs no session.
		return []Step{step("only when you are about to execute a plan: starts a session from the active plan (or name one: gsd start PLAN)", "hydrate")}
	}
	return nil
}

// excerpt dedents an element's text and cuts it to budget bytes at a line boundary.
func excerpt(c planfile.Child, file string, budget int) Excerpt {
	lines := strings.Split(strings.ReplaceAll(c.Text, "\r\n", "\n"), "\n")
	first := c.Line
	// The text starts on the start tag's line; leading blank lines move its first line down.
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
		first++
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	lines = dedent(lines)
	ex := Excerpt{Name: c.Name, File: file, Line: first}
	size := 0
	for i, l := range lines {
		add := len(l)
		if i > 0 {
			add++ // the newline
		}
		if size+add <= budget {
			size += add
			continue
		}
		kept, rest := i, first+i
		if i == 0 {
			kept, rest = 0, first
			if budget >= minUsefulExcerpt {
				// One long first line: keep its start, cut at a rune boundary.
				cut := budget
				for cut > 0 && !utf8.RuneStart(l[cut]) {
					cut--
				}
				lines[0], kept = l[:cut]+"…", 1
			}
		}
		lines, ex.Rest = lines[:kept], rest
		break
	}
	ex.Text = strings.Join(lines, "\n")
	return ex
}

// dedent removes the leading whitespace every non-blank line shares.
func dedent(lines []string) []string {
	prefix := ""
	set := false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if !set {
			prefix, set = ws, true
			continue
		}
		for !strings.HasPrefix(ws, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if prefix == "" {
		return lines
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, prefix)
		if strings.TrimSpace(l) == "" {
			out[i] = ""
		}
	}
	return out
}

func capList(s []string) []string {
	if len(s) > maxReasons {
		extra := len(s) - maxReasons + 1
		s = append(s[:maxReasons-1:maxReasons-1], fmt.Sprintf("... and %d more (gsd check lists them all)", extra))
	}
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = textfmt.Clip(v, maxReasonRunes)
	}
	return out
}

// BriefDrop says when a part of a rendered brief gives way to its one-line pointer: the parts
// that matter least go first, so that the resume task and the commands to run next survive.
type BriefDrop int

// The drop order of a brief's parts.
const (
	KeepAlways    BriefDrop = iota // the header, the resume task, the next commands
	DropCompleted                  // the completed tasks go first
	DropWork                       // then what git shows of the work (the commits)
	DropFindings                   // then the stale, corrupt and warning lines
	DropRemaining                  // then the remaining tasks
	DropObjective                  // the plan's objective last
)

// BriefPart is a rendered part of a brief: its text, when it may be dropped, and what replaces it
// then.
type BriefPart struct {
	Text  string
	Drop  BriefDrop
	Short string
}

// briefCutNote ends a brief that no dropping could hold to MaxBriefSize.
const briefCutNote = "\n[brief cut at 8 KB: gsd tasks and the session file have the rest]\n"

// FitBrief joins the parts of a rendered brief, holding it to MaxBriefSize: parts give way to
// their Short text in drop order while it is too long, and as a last resort the brief is cut at a
// line with a note. The budgets make the last resort a safety net, not the rule.
func FitBrief(parts []BriefPart) string {
	size := 0
	for _, p := range parts {
		size += len(p.Text)
	}
	for drop := DropCompleted; drop <= DropObjective && size > MaxBriefSize; drop++ {
		for i := range parts {
			if parts[i].Drop == drop {
				size += len(parts[i].Short) - len(parts[i].Text)
				parts[i].Text = parts[i].Short
			}
		}
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, p := range parts {
		sb.WriteString(p.Text)
	}
	s := sb.String()
	if len(s) <= MaxBriefSize {
		return s
	}
	cut := strings.LastIndexByte(s[:MaxBriefSize-len(briefCutNote)], '\n')
	return s[:cut+1] + briefCutNote
}
