package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// Options tunes Hydrate.
type Options struct {
	Bootstrap bool   // archive a missing, stale or corrupt session and start a fresh one
	Plan      string // root-relative plan to bootstrap from (see ResolvePlan); "" means the active plan
	SyncState bool   // rewrite STATE.md as gsd state --write does (creating a missing one)
}

// Result is what Hydrate found and did.
type Result struct {
	*Session
	Found    SessionState // the state before any bootstrap
	Actions  []Action     // what was archived and bootstrapped
	Phase    string       // the current phase, when one was looked up
	NextPlan string       // when every task is complete: the next plan of the phase without a SUMMARY
	Note     string       // why nothing could be (or, without Bootstrap, would be) bootstrapped
	// Workstreams is WorkstreamsHint's line when nothing could be bootstrapped at the root for
	// want of a current phase while the project has workstreams; "" otherwise.
	Workstreams string
	// Untrackable is the active plan when it is why nothing was bootstrapped: it has no <task>
	// element and no Markdown task section.
	Untrackable string

	// Without Bootstrap, for a missing, stale or corrupt session: the plan a run with Bootstrap
	// would start afresh from ("" when it would not, and Note says why).
	WouldStart string
	// WouldStart is the session's own, edited plan: the fresh session would carry its statuses.
	WouldCarry bool
	// Options.Plan named another plan than the valid session's, so it was not used: a valid
	// session is never replaced behind the user's back (gsd start PLAN does that).
	PlanIgnored bool

	Carry *CarryReport // the stale session's statuses carried into the fresh one (carry.go)

	// Work is what the traces of execution (task commits, files changed and not committed) show
	// of the session's plan, and the statuses set from them (work.go); nil without a plan.
	Work *Work
	// Handoff is GSD's newest pause file (HANDOFF.json, .continue-here.md) as the position
	// weighed it, in force or history; nil when there is none or the position was not needed.
	Handoff *roadmap.Handoff

	StateDrift  []Difference // where STATE.md's Current Position disagrees with the current phase
	StateSynced bool         // STATE.md was rewritten (SyncState)

	// When the position was looked up to choose the plan: how sure it is, and the other
	// readings a person could defend (roadmap.Position's).
	Confidence   roadmap.Confidence
	Alternatives []roadmap.Alternative

	// TakenOver: teammates took the session over since the user last changed it (takeover.go),
	// oldest first: their agent continues the plan, and resuming it here would duplicate it.
	TakenOver []TakenOver
}

// notePosition records how sure the position that chose the plan is.
func (res *Result) notePosition(pos *roadmap.Position) {
	res.Confidence, res.Alternatives = pos.Confidence, pos.Alternatives
	if pos.Phase != nil {
		res.Phase = pos.Phase.Num.String()
	}
}

// Hydrate runs the seven steps of session hydration: read the user's session, validate it,
// check it for staleness, find the resume point; and, with Bootstrap, archive a missing, stale
// or corrupt session and bootstrap a fresh one from the active plan. Without Bootstrap it
// writes nothing and says what a run with it would do.
// It also checks STATE.md's Current Position against the current phase and, with SyncState,
// rewrites it.
func (e *Env) Hydrate(opts Options) (*Result, error) {
	res, err := e.hydrate(opts)
	if err != nil {
		return nil, err
	}
	if pos, err := e.Position(); err == nil {
		res.Handoff = pos.Handoff
	}
	if err := e.syncState(res, opts.SyncState); err != nil {
		return res, err
	}
	return res, nil
}

func (e *Env) hydrate(opts Options) (*Result, error) {
	// Most runs find a valid session: judge it without the lock, and take the lock (and judge
	// again under it) only when something is to be written.
	s, err := e.inspectReplacing()
	if err != nil {
		return nil, err
	}
	if s.Valid() {
		res := &Result{Session: s, Found: s.State}
		if opts.Plan != "" {
			cur, err := cleanRel(s.Plan)
			res.PlanIgnored = err != nil || cur != opts.Plan
		}
		if err := e.reportValid(res, opts.Bootstrap); err != nil {
			return nil, err
		}
		return res, nil
	}
	if !opts.Bootstrap {
		// The preview: the same decision as below, with nothing written.
		res := &Result{Session: s, Found: s.State}
		plan, data, err := e.bootstrapPlan(res, opts.Plan)
		if err != nil {
			// The real run would fail, and change nothing.
			res.Note = "a fresh session cannot be started: " + err.Error()
			plan = ""
		}
		res.WouldStart = plan
		res.WouldCarry = plan != "" && e.carryable(s, plan)
		if plan != "" && !res.WouldCarry {
			// What the fresh session would start with: the statuses its commits show.
			w, tr := e.planWork(plan, data)
			if _, recs, _, err := applyCommits(data, tr, plan, always); err == nil {
				w.Reconciled = recs
			}
			res.Work = w
		}
		if s.State == StateNoSession && res.Untrackable != "" {
			s.Plan = res.Untrackable // the plan found, though there is nothing to track in it
		}
		return res, nil
	}
	var res *Result
	err = e.withLock(func() error {
		s, err := e.inspectReplacing()
		if err != nil {
			return err
		}
		res = &Result{Session: s, Found: s.State}
		switch s.State {
		case StateNoSession, StateStale, StateCorrupt:
		default:
			return e.reportValid(res, true)
		}
		plan, data, err := e.bootstrapPlan(res, opts.Plan)
		if err != nil {
			return err
		}
		if plan == "" {
			switch {
			case s.State != StateNoSession:
			case res.Untrackable != "":
				// A plan exists: "no plan" would send the user to plan a phase that is planned;
				// and it is the plan found, though no session copies it.
				s.State, s.Plan = StateNoTasks, res.Untrackable
			default:
				s.State = StateNoPlan
			}
			return nil
		}
		start := e.startInto
		if e.carryable(s, plan) {
			start = e.carryInto
		}
		if err := start(res, plan, data); err != nil {
			return err
		}
		e.next(res)
		e.interrupted(res)
		return nil
	})
	return res, err
}

// NoActivePlan says why the position has no active plan: the current phase needs planning, or
// the milestone is finished.
func NoActivePlan(pos *roadmap.Position) string {
	if pos.Phase != nil && pos.NeedsPlanning && len(pos.Phase.Unplanned) > 0 {
		return fmt.Sprintf("phase %s has no plan file, though %s records work done: its plans are not on disk (/gsd:plan-phase %s plans what remains)",
			pos.Phase.Num, path.Base(pos.Phase.Unplanned[len(pos.Phase.Unplanned)-1]), pos.Phase.Num)
	}
	if pos.Phase != nil && pos.NeedsPlanning {
		return fmt.Sprintf("phase %s needs planning: it has no plan file yet (/gsd:plan-phase %s)", pos.Phase.Num, pos.Phase.Num)
	}
	if pos.Milestone != nil {
		return fmt.Sprintf("no current phase: every phase of %s is finished", pos.Milestone.Name)
	}
	return "no current phase: every phase is finished"
}

// bootstrapPlan decides what a fresh session over res.Session would be started from, and builds
// it without writing anything: plan (root relative) if given, else the active plan. When there
// is nothing to start from (no active plan, or an active plan with no <task> element and no
// Markdown task section), it returns "" and says why in res.Note: the session, if any, is kept.
func (e *Env) bootstrapPlan(res *Result, plan string) (string, []byte, error) {
	if plan == "" {
		pos, err := e.Position()
		if err != nil {
			return "", nil, err
		}
		res.notePosition(pos)
		if pos.Active == nil {
			res.Note = NoActivePlan(pos)
			if res.Workstreams, err = e.Project().WorkstreamsHint(pos); err != nil {
				return "", nil, err
			}
			return "", nil, nil
		}
		plan, data, err := e.prepare(pos.Active.Path)
		if err == nil && filesReading(pos) != pos {
			// The newest work (commits, a handoff) chose the plan, not the planning files: the
			// session holds to it as to a plan the user named (staleness judges it against the
			// files).
			data = planfile.MarkCommitted(data)
		}
		var untrackable *UntrackableError
		if errors.As(err, &untrackable) {
			// The active plan has nothing to track: nothing to bootstrap, which is a finding,
			// not a failure of hydrate.
			res.Note = fmt.Sprintf("the active plan %s has %v", plan, planfile.ErrNoTasks)
			res.Untrackable = plan
			return "", nil, nil
		}
		return plan, data, err
	}
	plan, data, err := e.prepare(plan)
	if err == nil {
		data = e.chosen(plan, data) // a plan the user named (--plan) is a decision, as for gsd start
	}
	return plan, data, err
}

// startInto archives the session in res and writes data, bootstrapped from plan, in its place,
// with the statuses the plan's commits show (unless the start is forced: a decision to do the
// plan again); then it reports the fresh session, keeping the reasons the old one was replaced
// for.
func (e *Env) startInto(res *Result, plan string, data []byte) error {
	old := res.Session
	w, tr := e.planWork(plan, data)
	var then *statusChanges
	if !planfile.ReadHeader(data).Forced {
		final, recs, evs, err := applyCommits(data, tr, plan, always)
		if err == nil && len(recs) > 0 {
			then = &statusChanges{final: final, events: evs}
			w.Reconciled, w.Applied = recs, true
		}
	}
	actions, err := e.replace(old, plan, data, then)
	if err != nil {
		return err
	}
	written := data
	if then != nil {
		written = then.final
	}
	fresh, err := e.inspectBytes(e.SessionPath(), written)
	if err != nil {
		return err
	}
	fresh.StaleReasons, fresh.CorruptReasons = old.StaleReasons, old.CorruptReasons
	res.Session, res.Actions, res.Work = fresh, actions, w
	return nil
}

// reportValid reports the valid session in res as it stands: what its plan's commits show (set
// from them when write, see observe), the next plan when every task is complete, the files of
// interrupted work, and who else took its plan over.
func (e *Env) reportValid(res *Result, write bool) error {
	if err := e.observe(res, write); err != nil {
		return err
	}
	e.next(res)
	e.interrupted(res)
	e.noteTakeovers(res)
	return nil
}

// next fills in the next plan when every task of the session is complete.
func (e *Env) next(res *Result) {
	if res.State != StateAllComplete || res.Plan == "" {
		return
	}
	plan, err := cleanRel(res.Plan)
	if err != nil {
		return
	}
	plans, err := e.phasePlans(plan)
	if err != nil {
		return
	}
	if n := roadmap.NextPlan(plans, plan); n != nil {
		res.NextPlan = n.Path
	}
}

// noteTakeovers records the takeovers of a session with a task to resume.
func (e *Env) noteTakeovers(res *Result) {
	if res.State == StateResume {
		res.TakenOver = e.takeovers(e.User.User, res.src)
	}
}

// Start archives the user's existing session, if any, and bootstraps a fresh one from plan (root
// relative); "" means the active plan.
func (e *Env) Start(plan string) (*Result, error) { return e.StartWith(plan, StartOptions{}) }

// StartOptions tunes StartWith.
type StartOptions struct {
	Force bool // start a plan that already has its SUMMARY
}

// StartWith is Start with options. A session stale only because its own plan was edited carries
// its statuses into the fresh one; a plan that has its SUMMARY is refused without Force.
func (e *Env) StartWith(plan string, opts StartOptions) (*Result, error) {
	var res *Result
	err := e.withLock(func() error {
		// An existing session with an invalid status is archived as corrupt, never lost.
		s, err := e.inspectReplacing()
		if err != nil {
			return err
		}
		res = &Result{Session: s, Found: s.State}
		named := plan != ""
		if plan == "" {
			pos, err := e.Position()
			if err != nil {
				return err
			}
			if pos.Active == nil {
				return fmt.Errorf("no active plan to start from (%s); name one: gsd start PLAN", NoActivePlan(pos))
			}
			res.notePosition(pos)
			plan = pos.Active.Path
		}
		plan, data, err := e.prepare(plan)
		if err != nil {
			return err
		}
		if !opts.Force && e.hasSummary(plan) {
			return fmt.Errorf("%s is already complete (it has its SUMMARY); start it again with --force", plan)
		}
		if opts.Force {
			// A decision: the session is kept (staleness) until the user starts another.
			data = planfile.MarkForced(data)
		} else if named {
			data = e.chosen(plan, data)
		}
		if follows(s, plan) {
			// The session already copies plan: its progress is kept. Unchanged and with every
			// decision it needs already recorded, nothing is written; else its statuses are
			// carried into the fresh session (an edited plan, or a decision to record).
			if !edited(s, data) && decided(s, data) {
				res.Actions = []Action{{Kind: ActionKept, Path: s.Path, From: plan}}
				e.next(res)
				return nil
			}
			return e.carryInto(res, plan, data)
		}
		return e.startInto(res, plan, data)
	})
	return res, err
}

// chosen marks data, a fresh session from plan, as the user's decision (planfile.MarkChosen)
// when plan is not the one the planning files make active (what staleness judges a session
// against): naming that plan follows the position, and decides nothing.
func (e *Env) chosen(plan string, data []byte) []byte {
	if pos, err := e.Position(); err == nil && filesReading(pos).Active != nil && filesReading(pos).Active.Path == plan {
		return data
	}
	return planfile.MarkChosen(data)
}

// filesReading is the position the planning files alone give (pos.Files when the commits moved
// it): the one a session is judged against.
func filesReading(pos *roadmap.Position) *roadmap.Position {
	if pos.Files != nil {
		return pos.Files
	}
	return pos
}

// follows says whether the session s (valid or stale, never corrupt) copies plan.
func follows(s *Session, plan string) bool {
	if s.file == nil || s.State == StateCorrupt {
		return false
	}
	cur, err := cleanRel(s.Plan)
	return err == nil && cur == plan
}

// edited says whether the fresh session data has other tasks than the session s: the plan was
// edited since s was started (task count or names, as staleness judges it).
func edited(s *Session, data []byte) bool {
	return len(taskChanges(s.file, planfile.Scan(data))) > 0
}

// decided says whether the session s already records every decision the fresh session data
// does (Chosen, Forced).
func decided(s *Session, data []byte) bool {
	have, want := s.file.Header, planfile.ReadHeader(data)
	return (have.Chosen || !want.Chosen) && (have.Forced || !want.Forced)
}

// prepare builds a fresh session from plan, touching nothing: a plan that cannot be
// bootstrapped changes nothing. It returns the plan's cleaned path.
func (e *Env) prepare(plan string) (string, []byte, error) {
	plan, err := cleanRel(plan)
	if err != nil {
		return "", nil, err
	}
	if strings.HasPrefix(strings.ToLower(plan), strings.ToLower(SessionsDir)+"/") {
		// A session, a snapshot or a journal: bootstrapping one would nest a session in a
		// session. (Compared without case: on macOS and Windows the names are one file.)
		return plan, nil, &ArgError{Err: fmt.Errorf("%s is in %s, where sessions and their snapshots live, not plans (gsd restore takes a snapshot back)", plan, SessionsDir)}
	}
	src, err := e.readFile(plan)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return plan, nil, fmt.Errorf("%s: %w", plan, ErrNoSuchPlan)
		}
		return plan, nil, err
	}
	// A status the plan already carries is kept by the bootstrap; an invalid one would make a
	// session that no command can read. Refuse it here, naming the plan's line.
	if _, err := planfile.Scan(src).Statuses(); err != nil {
		return plan, nil, fileError(plan, err)
	}
	data, err := planfile.Bootstrap(src, e.User.User, plan, e.now())
	if errors.Is(err, planfile.ErrNoTasks) {
		return plan, nil, &UntrackableError{Plan: plan}
	}
	if err != nil {
		return plan, nil, fileError(plan, err)
	}
	return plan, data, nil
}

// replace archives the existing session s, if any, and writes data, bootstrapped from plan, as
// the user's session, with then's changes made on it when given.
func (e *Env) replace(s *Session, plan string, data []byte, then *statusChanges) ([]Action, error) {
	kind := "stale"
	if s.State == StateCorrupt {
		kind = "corrupt"
	}
	to, err := e.replaceSessionThen(s.src, s.Exists, kind, s.Plan, data, func(string) journal.Event {
		return journal.Event{Type: journal.Bootstrap, Plan: plan}
	}, then)
	var actions []Action
	if to != "" {
		actions = append(actions, Action{Kind: ActionArchived, Path: to, From: s.Path})
	}
	if err != nil {
		return actions, err
	}
	return append(actions, Action{Kind: ActionBootstrapped, Path: s.Path, From: plan}), nil
}

// Archive moves the user's session aside as stale, leaving no current session.
func (e *Env) Archive() (*Result, error) {
	var res *Result
	err := e.withLock(func() error {
		s := &Session{Path: e.SessionPath()}
		src, err := e.readFile(s.Path)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: no session to archive", s.Path)
		}
		if err != nil {
			return err
		}
		to, err := e.archive(src, "stale")
		if err != nil {
			return err
		}
		if err := atomicfile.Remove(e.abs(s.Path)); err != nil {
			e.record(src, true, journal.Event{Type: journal.Snapshot, Snapshot: snapshotID(to), Note: "stale", SHA256: journal.Hash(src, true)})
			return err
		}
		e.record(src, true, journal.Event{Type: journal.Archive, Snapshot: snapshotID(to), Note: "stale"})
		s.State = StateNoSession
		res = &Result{Session: s, Found: StateStale, Actions: []Action{{Kind: ActionArchived, Path: to, From: s.Path}}}
		return nil
	})
	return res, err
}

// UntrackableError says a plan has no <task> elements and no Markdown task sections to track.
type UntrackableError struct{ Plan string }

func (e *UntrackableError) Error() string {
	return e.Plan + ": " + planfile.ErrNoTasks.Error()
}

func (e *UntrackableError) Unwrap() error { return planfile.ErrNoTasks }
