package hydrate

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// Options tunes Hydrate.
type Options struct {
	Bootstrap bool   // archive a missing, stale or corrupt session and start a fresh one
	Plan      string // root-relative plan to bootstrap from; "" means the active plan
	SyncState bool   // rewrite STATE.md's Current Position when it is out of date (or missing)
}

// Result is what Hydrate found and did.
type Result struct {
	*Session
	Found    State    // the state before any bootstrap
	Actions  []Action // what was archived and bootstrapped
	Phase    string   // the current phase, when one was looked up
	NextPlan string   // when every task is complete: the next plan of the phase without a SUMMARY
	Note     string   // why nothing could be bootstrapped, when that is the case

	StateDrift  []Difference // where STATE.md's Current Position disagrees with the current phase
	StateSynced bool         // STATE.md was rewritten (SyncState)
}

// Hydrate runs the seven steps of session hydration: read the user's session, validate it,
// check it for staleness, find the resume point; and, with Bootstrap, archive a missing, stale
// or corrupt session and bootstrap a fresh one from the active plan.
// It also checks STATE.md's Current Position against the current phase and, with SyncState,
// rewrites it.
func (e *Env) Hydrate(opts Options) (*Result, error) {
	res, err := e.hydrate(opts)
	if err != nil {
		return nil, err
	}
	if err := e.syncState(res, opts.SyncState); err != nil {
		return res, err
	}
	return res, nil
}

func (e *Env) hydrate(opts Options) (*Result, error) {
	// Most runs find a valid session: judge it without the lock, and take the lock (and judge
	// again under it) only when something is to be written.
	s, err := e.Inspect()
	if err != nil {
		return nil, err
	}
	if !opts.Bootstrap || s.State == StateResume || s.State == StateAllComplete {
		res := &Result{Session: s, Found: s.State}
		e.next(res)
		return res, nil
	}
	var res *Result
	err = e.withLock(func() error {
		s, err := e.Inspect()
		if err != nil {
			return err
		}
		res = &Result{Session: s, Found: s.State}
		switch s.State {
		case StateNoSession, StateStale, StateCorrupt:
		default:
			e.next(res)
			return nil
		}
		plan := opts.Plan
		if plan == "" {
			cur, err := roadmap.FindCurrent(e.FS, e.PlanningDir)
			if err != nil {
				return err
			}
			if cur == nil || cur.Active == nil {
				if s.State == StateNoSession {
					s.State = StateNoPlan
				}
				res.Note = "no active plan: no phase has a plan without a SUMMARY"
				if cur != nil {
					res.Phase = cur.Phase.Num.String()
					res.Note = fmt.Sprintf("no active plan: every plan of phase %s has a SUMMARY", res.Phase)
				}
				return nil
			}
			res.Phase = cur.Phase.Num.String()
			plan = cur.Active.Path
		}
		err = e.startInto(res, plan)
		var untrackable *UntrackableError
		if errors.As(err, &untrackable) && opts.Plan == "" {
			// The active plan has no <task> elements (a Markdown-only plan): nothing to
			// bootstrap, which is a finding, not a failure of hydrate.
			if s.State == StateNoSession {
				s.State = StateNoPlan
			}
			res.Note = fmt.Sprintf("the active plan %s has no <task> elements inside <tasks>; gsd cannot track it", plan)
			return nil
		}
		if err != nil {
			return err
		}
		e.next(res)
		return nil
	})
	return res, err
}

// startInto bootstraps from plan over the session in res, then reports the fresh session, keeping
// the reasons the old one was replaced for.
func (e *Env) startInto(res *Result, plan string) error {
	old := res.Session
	actions, err := e.start(old, plan)
	if err != nil {
		return err
	}
	fresh, err := e.Inspect()
	if err != nil {
		return err
	}
	fresh.StaleReasons, fresh.CorruptReasons = old.StaleReasons, old.CorruptReasons
	res.Session, res.Actions = fresh, actions
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

// Start archives the user's existing session, if any, and bootstraps a fresh one from plan (root
// relative); "" means the active plan.
func (e *Env) Start(plan string) (*Result, error) {
	var res *Result
	err := e.withLock(func() error {
		s, err := e.Inspect()
		if err != nil {
			// An existing session with an invalid status is still archived, never lost.
			if s, err = e.inspectLoosely(); err != nil {
				return err
			}
		}
		res = &Result{Session: s, Found: s.State}
		if plan == "" {
			cur, err := roadmap.FindCurrent(e.FS, e.PlanningDir)
			if err != nil {
				return err
			}
			if cur == nil || cur.Active == nil {
				return errors.New("no active plan to start from (every plan has a SUMMARY); name one: gsd start PLAN")
			}
			res.Phase = cur.Phase.Num.String()
			plan = cur.Active.Path
		}
		return e.startInto(res, plan)
	})
	return res, err
}

// inspectLoosely reads a session that Inspect refused (an invalid status) just far enough to
// archive it.
func (e *Env) inspectLoosely() (*Session, error) {
	s := &Session{Path: e.SessionPath()}
	src, err := e.readFile(s.Path)
	if err != nil {
		return nil, err
	}
	s.Exists, s.src, s.State = true, src, StateStale
	return s, nil
}

// start bootstraps the session from plan, first archiving the existing session s. The new file is
// built before anything is touched, so a plan that cannot be bootstrapped changes nothing.
func (e *Env) start(s *Session, plan string) ([]Action, error) {
	plan, err := cleanRel(plan)
	if err != nil {
		return nil, err
	}
	src, err := e.readFile(plan)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s: no such plan", plan)
		}
		return nil, err
	}
	// A status the plan already carries is kept by the bootstrap; an invalid one would make a
	// session that no command can read. Refuse it here, naming the plan's line.
	if _, err := planfile.Scan(src).Statuses(); err != nil {
		return nil, fmt.Errorf("%s:%w", plan, err)
	}
	data, err := planfile.Bootstrap(src, e.User.User, plan, e.now())
	if errors.Is(err, planfile.ErrNoTasks) {
		return nil, &UntrackableError{Plan: plan}
	}
	var le *planfile.LineError
	if errors.As(err, &le) {
		return nil, fmt.Errorf("%s:%w", plan, err)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", plan, err)
	}
	var actions []Action
	if s.Exists {
		kind := "stale"
		if s.State == StateCorrupt {
			kind = "corrupt"
		}
		to, err := e.archive(s.src, kind)
		if err != nil {
			return nil, err
		}
		actions = append(actions, Action{Kind: "archived", Path: to, From: s.Path})
	}
	if err := e.writeSession(data); err != nil {
		return actions, err
	}
	return append(actions, Action{Kind: "bootstrapped", Path: s.Path, From: plan}), nil
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
			return err
		}
		s.State = StateNoSession
		res = &Result{Session: s, Found: StateStale, Actions: []Action{{Kind: "archived", Path: to, From: s.Path}}}
		return nil
	})
	return res, err
}

// UntrackableError says a plan has no <task> elements to track.
type UntrackableError struct{ Plan string }

func (e *UntrackableError) Error() string {
	return e.Plan + ": " + planfile.ErrNoTasks.Error()
}

func (e *UntrackableError) Unwrap() error { return planfile.ErrNoTasks }
