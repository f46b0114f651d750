package hydrate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// ProgressReport is the whole project's progress: the model, every user's session, and the
// problems of both (the model's plus the sessions' and STATE.md's).
type ProgressReport struct {
	*roadmap.Project
	Sessions  []SessionSummary // as gsd sessions lists them: this checkout's and the ones gsd sync fetched
	StateFile *StateReport     // what STATE.md says against the derived position; nil without STATE.md
	Trackable *bool            // whether the active plan has tasks gsd can track (elements or sections); nil without one
	PlanFiles int              // every plan file of the tree (all milestones and workstreams)
	PlansDone int              // of those, the ones with their SUMMARY
	// Workstreams is WorkstreamsHint's line: the root has no current phase (or no roadmap) and
	// the project has workstreams. "" otherwise.
	Workstreams string
	// Git says which evidence of the work git gave (Traces.Available): the position weighs the
	// newest commit of work.
	Git string
}

// Errors counts the problems of severity error.
func (r *ProgressReport) Errors() int {
	n := 0
	for _, p := range r.Problems {
		if p.Severity == roadmap.SeverityError {
			n++
		}
	}
	return n
}

// NoCurrentPhase says why the report has no current phase: NoActivePlan's reason, unless a
// phase of the milestone is not finished on disk though the roadmap closed it (a plan without
// its SUMMARY in a phase it calls complete, an error of progress --check): then "every phase is
// finished" would contradict the phase's own line.
func (r *ProgressReport) NoCurrentPhase() string {
	open := r.OpenPhases()
	if len(open) == 0 || r.Position.Phase != nil {
		return NoActivePlan(r.Position)
	}
	what := "phase " + open[0] + " has"
	if len(open) > 1 {
		what = fmt.Sprintf("phases %s have", strings.Join(open, ", "))
	}
	return fmt.Sprintf("no current phase: the roadmap closes every phase, but %s plans without a SUMMARY (gsd progress --check)", what)
}

// QuickDone counts the quick tasks with their SUMMARY (quick tasks are counted apart from the
// phases' plans).
func (r *ProgressReport) QuickDone() int {
	n := 0
	for _, q := range r.Quick {
		if q.Done {
			n++
		}
	}
	return n
}

// Trackable reports whether plan has tasks gsd can track: <task> elements, or Markdown task
// sections ("### Task N: ..."). A plan of prose has none: it can be the active plan, but no
// session can follow it.
func (e *Env) Trackable(plan string) (bool, error) {
	src, err := e.readFile(plan)
	if err != nil {
		return false, err
	}
	return len(planfile.Scan(src).Tasks) > 0, nil
}

// Progress loads the whole project and every session under .planning/sessions. It writes
// nothing and reads every phase directory, so it is for people and CI, not for every agent turn.
func (p Project) Progress() (*ProgressReport, error) {
	e := p.e
	proj, err := e.load()
	if err != nil {
		return nil, err
	}
	r := &ProgressReport{Project: proj, Git: e.Traces().Available()}
	e.pos = proj.Position // Load decided it as Locate does: every session's staleness check asks it
	if r.PlanFiles, r.PlansDone, err = proj.CountPlanFiles(e.FS); err != nil {
		return nil, err
	}
	if proj.Active != nil {
		ok, err := e.Trackable(proj.Active.Path)
		if err != nil {
			return nil, err
		}
		r.Trackable = &ok
	}
	if r.Workstreams, err = e.Project().WorkstreamsHint(proj.Position); err != nil {
		return nil, err
	}
	if r.Sessions, err = e.sessions(&proj.Problems); err != nil {
		return nil, err
	}
	st := e.stateReport(proj, proj.Position.State) // as the position read it: not read again
	r.StateFile = st
	if st != nil && st.Exists && !st.Agrees {
		for _, d := range st.Differences {
			where := "Current Position"
			if d.Field == "frontmatter" {
				where = "the frontmatter"
			}
			proj.Problems = append(proj.Problems, roadmap.Problem{
				Severity: roadmap.SeverityWarning, File: st.Path, Line: d.Line,
				Message: fmt.Sprintf("%s says %s, the roadmap and disk say %s (gsd state --write fixes it)", where, d.SaysText(), d.Derived),
			})
		}
	}
	roadmap.SortProblems(proj.Problems)
	return r, nil
}

// sessions summarizes every user's session as gsd sessions does (the ones gsd sync fetched
// too), adding a problem for each corrupt, stale, idle or taken-over one of this checkout (a
// fetched session is no file here) and each plan two users work on.
func (e *Env) sessions(problems *[]roadmap.Problem) ([]SessionSummary, error) {
	idleAfter, err := e.idleAfter()
	if err != nil {
		return nil, err
	}
	res, err := e.teamSessions(idleAfter) // an unreadable journal is gsd sessions' and gsd log's to say
	if err != nil {
		return nil, err
	}
	out, shared := res.Sessions, res.shared
	for _, s := range out {
		if s.Remote != nil {
			continue
		}
		p := s.Path
		switch s.State {
		case TeamTakenOver:
			*problems = append(*problems, roadmap.Problem{Severity: roadmap.SeverityInfo, File: p, Message: "session taken over by " + s.TakenOverBy[len(s.TakenOverBy)-1].String()})
		case TeamCorrupt:
			if s.readErr != nil {
				*problems = append(*problems, unreadable(p, s.readErr))
			} else {
				*problems = append(*problems, roadmap.Problem{Severity: roadmap.SeverityWarning, File: p, Message: "corrupt session: " + joinReasons(s.Reasons)})
			}
		case TeamStale:
			*problems = append(*problems, roadmap.Problem{Severity: roadmap.SeverityInfo, File: p, Message: "stale session: " + joinReasons(s.Reasons)})
		case TeamIdle:
			*problems = append(*problems, roadmap.Problem{Severity: roadmap.SeverityInfo, File: p, Message: "idle session: " + joinReasons(s.Reasons)})
		}
	}
	for _, w := range shared {
		*problems = append(*problems, roadmap.Problem{Severity: roadmap.SeverityWarning, File: SessionsDir, Message: w, Dir: true})
	}
	return out, nil
}

// unreadable is the problem of a session file that cannot be read, placed at the file and line
// the error names, as file:line: severity: message, never with the place inside the message.
func unreadable(file string, err error) roadmap.Problem {
	pr := roadmap.Problem{Severity: roadmap.SeverityWarning, File: file, Message: "session cannot be read: " + err.Error()}
	var fe *FileError
	if errors.As(err, &fe) {
		pr.File, pr.Line, pr.Message = fe.File, fe.Line, "session cannot be read: "+fe.Err.Error()
	}
	return pr
}

func joinReasons(rs []string) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += "; "
		}
		s += r
	}
	return s
}

// AnnotationsPerKind is how many annotations of one kind (error, warning, notice) GitHub
// Actions shows for a step; it drops the rest.
const AnnotationsPerKind = 10

// Annotated is the problems worth annotating when at most per of each severity are shown: errors,
// then warnings, then notes, each the current phase's first, then the current milestone's, then
// the rest, in their order otherwise; and how many problems that leaves out. When any is left
// out, one note fewer is kept, so that a note saying so fits under the cap.
func (r *ProgressReport) Annotated(per int) (shown []roadmap.Problem, left int) {
	rank := func(p roadmap.Problem) int {
		best := 2
		for i := range r.Phases {
			ph := &r.Phases[i]
			if !ph.InMilestone || !r.concerns(ph, p) {
				continue
			}
			if i == r.Current {
				return 0
			}
			best = 1
		}
		return best
	}
	sev := map[roadmap.Severity]int{roadmap.SeverityError: 0, roadmap.SeverityWarning: 1, roadmap.SeverityInfo: 2}
	ps := slices.Clone(r.Problems)
	slices.SortStableFunc(ps, func(a, b roadmap.Problem) int {
		if c := cmp.Compare(sev[a.Severity], sev[b.Severity]); c != 0 {
			return c
		}
		return cmp.Compare(rank(a), rank(b))
	})
	n := map[roadmap.Severity]int{}
	for _, p := range ps {
		n[p.Severity]++
	}
	over := n[roadmap.SeverityError] > per || n[roadmap.SeverityWarning] > per || n[roadmap.SeverityInfo] > per
	kept := map[roadmap.Severity]int{}
	for _, p := range ps {
		limit := per
		if over && p.Severity == roadmap.SeverityInfo {
			limit = per - 1
		}
		if kept[p.Severity] < limit {
			kept[p.Severity]++
			shown = append(shown, p)
		}
	}
	return shown, len(ps) - len(shown)
}

// concerns reports whether problem p is about phase ph: in one of its directories, or at its
// line of the roadmap.
func (r *ProgressReport) concerns(ph *roadmap.PhaseInfo, p roadmap.Problem) bool {
	for _, d := range ph.Dirs {
		if d != "" && strings.HasPrefix(p.File, d+"/") {
			return true
		}
	}
	return ph.Line > 0 && p.Line == ph.Line && r.Roadmap != nil && p.File == r.Roadmap.Path
}
