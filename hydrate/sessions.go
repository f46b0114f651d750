package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/config"
	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/rootfs"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// DefaultIdleAfter is config.DefaultIdleAfter, for callers that show it (a flag's default).
const DefaultIdleAfter = config.DefaultIdleAfter

// The states gsd sessions gives a user's session.
const (
	TeamActive    = "active"     // activity within the idle threshold
	TeamIdle      = "idle"       // no activity within it; with a task in progress, an orphaned agent
	TeamStale     = "stale"      // the session no longer matches the project (Reasons)
	TeamComplete  = "complete"   // every task complete
	TeamCorrupt   = "corrupt"    // not a session, or unreadable (Reasons)
	TeamNoSession = "no-session" // a user directory with snapshots or a journal but no session
	TeamTakenOver = "taken-over" // a teammate took it over since its last change (TakenOverBy): their agent continues it
)

// TeamStates are the states, in the order gsd sessions --state accepts them.
var TeamStates = []string{TeamActive, TeamIdle, TeamTakenOver, TeamStale, TeamComplete, TeamCorrupt, TeamNoSession}

// SessionSummary is one user's session as gsd sessions, gsd progress, gsd stats' users and the
// MCP server's list_sessions report it: one type, one judge (judgeTeam), one idle rule (the
// idleAfter setting), one vocabulary of states (TeamStates).
type SessionSummary struct {
	User         string         `json:"user"`
	Path         string         `json:"sessionFile"`
	State        string         `json:"state"`
	Plan         string         `json:"plan"`
	Done         int            `json:"tasksDone"`
	Total        int            `json:"tasksTotal"`
	InProgress   []int          `json:"inProgress"`
	ResumeTask   int            `json:"resumeTask"`
	LastActivity time.Time      `json:"lastActivity"`       // UTC, to the second, as every time gsd prints
	ActivityFrom string         `json:"activityFrom"`       // "journal" or "file" (the session's modification time)
	Instance     string         `json:"instance,omitempty"` // the agent instance attached (journal), if any
	Snapshots    int            `json:"snapshots"`
	Kinds        map[string]int `json:"snapshotKinds"`
	Reasons      []string       `json:"reasons"`
	SharedWith   []string       `json:"sharedWith,omitempty"` // other users working on the same plan
	// Where the session was read: this checkout (Remote null), or a remote as of its user's last
	// gsd sync (SyncedAt, the published commit's date; Ref, the fetched ref).
	Remote      *string     `json:"remote"`
	Ref         *string     `json:"ref"`
	SyncedAt    *time.Time  `json:"syncedAt"`
	TakenOverBy []TakenOver `json:"takenOverBy,omitempty"` // teammates who took this session over (gsd sync shows them)

	state   SessionState // as Inspect judged it, for sharedPlans
	readErr error        // why the session file could not be read (State corrupt), for progress's problem
}

// SessionsResult is every user's session.
type SessionsResult struct {
	IdleAfter time.Duration
	Sessions  []SessionSummary
	Warnings  []string // two users on one plan, unreadable journals

	shared []string // the warnings of two users on one plan
}

// InStates is the sessions in one of states (gsd sessions --state), every one without any.
func (r *SessionsResult) InStates(states []string) []SessionSummary {
	if len(states) == 0 {
		return r.Sessions
	}
	return slices.DeleteFunc(slices.Clone(r.Sessions), func(s SessionSummary) bool { return !slices.Contains(states, s.State) })
}

// Sessions reports every user's session under .planning/sessions, with its state against the
// project and the idle threshold (0: the idleAfter setting). It writes nothing and reads no snapshot's
// contents, only their names: it stays fast with thousands of archives.
func (t Team) Sessions(idleAfter time.Duration) (*SessionsResult, error) {
	e := t.e
	if idleAfter <= 0 {
		d, err := e.idleAfter()
		if err != nil {
			return nil, err
		}
		idleAfter = d
	}
	return e.teamSessions(idleAfter)
}

// teamSessions is every session gsd sessions lists, this checkout's and the ones gsd sync
// fetched, each judged (takeovers included), with the warnings of both, the same-plan warning
// among all of them last.
func (e *Env) teamSessions(idleAfter time.Duration) (*SessionsResult, error) {
	res := &SessionsResult{IdleAfter: idleAfter}
	now := e.now()
	var err error
	if res.Sessions, res.Warnings, err = e.localSummaries(now, idleAfter); err != nil {
		return nil, err
	}
	e.addFetched(res, now, idleAfter)
	res.shared = markShared(res.Sessions)
	res.Warnings = append(res.Warnings, res.shared...)
	return res, nil
}

// localSummaries summarizes every user's session of this checkout (not the fetched ones), with
// a warning for each journal that could not be read.
func (e *Env) localSummaries(now time.Time, idleAfter time.Duration) ([]SessionSummary, []string, error) {
	ents, err := fs.ReadDir(e.FS, SessionsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	// Work out the position once: every user's staleness check shares it.
	_, _ = e.Position()
	if e.plans == nil {
		e.plans = map[string][]roadmap.Plan{} // shared by the copies of e below
	}
	var out []SessionSummary
	var warns []string
	for _, d := range ents {
		if !d.IsDir() || d.Name() == "" || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		ts, ok, err := e.summarize(d.Name(), now, idleAfter)
		if err != nil {
			warns = append(warns, err.Error())
		}
		if ok {
			out = append(out, ts)
		}
	}
	return out, warns, nil
}

// idleAfter is the idle threshold of the settings (GSD_IDLE_AFTER, gsd.idleAfter, 2h).
func (e *Env) idleAfter() (time.Duration, error) {
	if err := e.CheckSettings("idleAfter"); err != nil {
		return 0, err
	}
	return e.settings.IdleAfter, nil
}

// teamSession judges one user's session; ok is false for a directory with nothing of gsd's.
func (e *Env) summarize(user string, now time.Time, idleAfter time.Duration) (SessionSummary, bool, error) {
	other := *e
	other.User.User = user
	other.histWarn = nil
	ts := SessionSummary{User: user, Path: other.SessionPath(), Kinds: map[string]int{}, Reasons: []string{}, InProgress: []int{}}
	names, err := rootfs.ReadDirNames(e.FS, path.Dir(ts.Path))
	if err != nil {
		return ts, false, nil
	}
	hasSession, hasJournal := false, false
	for _, name := range names {
		if _, _, kind, ok := parseSnapshotID(name); ok {
			ts.Snapshots++
			ts.Kinds[kind]++
		}
		hasSession = hasSession || name == SessionFileName
		hasJournal = hasJournal || name == journal.FileName
	}
	// The session file is read once, by Inspect.
	var s *Session
	var inspectErr error
	if hasSession {
		s, inspectErr = other.Inspect()
		hasSession = inspectErr != nil || s.State != StateNoSession // not a dangling symlink
	}
	var warn error
	var last journal.Event
	haveLast := false
	if hasJournal {
		// Read through the project's root, like every other file: a journal or a user directory
		// that leads out of the project is not followed.
		// Streamed, never held: the last event and the instance attached are all it needs. A
		// torn line costs the one event it held; gsd log reports it.
		// Opening it reads it once, and keeps the last event and the instance attached.
		if js, err := other.openJournal(other.journalPath()); err != nil {
			warn = err
		} else {
			// A handed-over event is a teammate's doing, not this user's activity.
			ts.Instance, last, haveLast = js.Instance, js.Own, js.HasOwn
		}
	}
	// The journal's time is the activity when the session is still what its last event left;
	// a session changed since (by hand, or by a gsd without a journal), or unreadable, has its
	// file's time. A session file that cannot even be stat'ed is no session.
	switch {
	case !hasSession:
	case haveLast && inspectErr == nil && last.SHA256 == journal.Hash(s.src, true):
		ts.LastActivity, ts.ActivityFrom = last.Time.UTC().Truncate(time.Second), "journal"
	default:
		fi, err := fs.Stat(e.FS, ts.Path)
		if err != nil {
			hasSession = false
			break
		}
		ts.LastActivity, ts.ActivityFrom = fi.ModTime().UTC().Truncate(time.Second), "file"
	}
	if !hasSession {
		if ts.Snapshots == 0 && !hasJournal {
			return ts, false, nil
		}
		ts.State = TeamNoSession
		if haveLast {
			ts.LastActivity, ts.ActivityFrom = last.Time.UTC().Truncate(time.Second), "journal"
		}
		return ts, true, warn
	}
	if inspectErr != nil {
		ts.State, ts.readErr = TeamCorrupt, inspectErr
		ts.Reasons = append(ts.Reasons, inspectErr.Error())
		return ts, true, warn
	}
	e.judgeTeam(&ts, s, now, idleAfter)
	if hasJournal {
		ts.TakenOverBy = e.takeovers(user, s.src)
		judgeTakenOver(&ts)
	}
	return ts, true, warn
}

// judgeTakenOver gives ts the state taken-over when a takeover of it holds (TakenOverBy): the
// teammate's agent continues the plan. Only a session with a task to resume can be taken over
// so; a stale, corrupt or complete one keeps its state. An idle one's reason (an orphaned agent
// to take over) no longer applies.
func judgeTakenOver(ts *SessionSummary) {
	if len(ts.TakenOverBy) == 0 || ts.State != TeamActive && ts.State != TeamIdle {
		return
	}
	ts.State, ts.Reasons = TeamTakenOver, []string{}
}

// judgeTeam gives ts its state from its session s and its last activity: the one rule for a
// session in this checkout and one fetched by gsd sync.
func (e *Env) judgeTeam(ts *SessionSummary, s *Session, now time.Time, idleAfter time.Duration) {
	user := ts.User
	ts.Plan, ts.Done, ts.Total, ts.ResumeTask, ts.state = s.Plan, s.Counts.Complete, s.Counts.Total, s.ResumeTask, s.State
	for _, t := range s.Tasks {
		if t.Status == planfile.InProgress {
			ts.InProgress = append(ts.InProgress, t.Number)
		}
	}
	idle := now.Sub(ts.LastActivity) > idleAfter
	switch s.State {
	case StateCorrupt:
		ts.State = TeamCorrupt
		ts.Reasons = append(ts.Reasons, s.CorruptReasons...)
	case StateStale:
		ts.State = TeamStale
		ts.Reasons = append(ts.Reasons, s.StaleReasons...)
	case StateAllComplete:
		ts.State = TeamComplete
	case StateResume:
		ts.State = TeamActive
		if idle {
			ts.State = TeamIdle
			quiet := fmt.Sprintf("no activity for %s", textfmt.Elapsed(now.Sub(ts.LastActivity)))
			if len(ts.InProgress) > 0 {
				ts.Reasons = append(ts.Reasons, fmt.Sprintf("%s in progress, %s: an orphaned agent? (gsd resume %s takes it over)", taskList(ts.InProgress), quiet, user))
			} else {
				ts.Reasons = append(ts.Reasons, quiet)
			}
		}
	}
}

// planUser is one user's session as the same-plan warning sees it.
type planUser struct {
	user, plan string
	state      SessionState
}

// sharedPlans is the one rule of the same-plan warning (gsd sessions, hydrate and progress
// --check): a user works on a plan when their session names it and has a task to resume, neither
// stale, corrupt nor complete; two people (or agents) working on one plan duplicate work. It
// returns those plans, sorted, and who works on each, in the order of us.
func sharedPlans(us []planUser) (plans []string, users map[string][]string) {
	users = map[string][]string{}
	for _, u := range us {
		if u.plan != "" && u.state == StateResume {
			users[u.plan] = append(users[u.plan], u.user)
		}
	}
	for p, on := range users {
		if len(on) > 1 {
			plans = append(plans, p)
		}
	}
	sort.Strings(plans)
	return plans, users
}

// markShared sets SharedWith on the sessions that share a plan (sharedPlans), this checkout's
// and the fetched ones ("bob@origin") alike, and returns one warning per such plan.
func markShared(ss []SessionSummary) []string {
	us := make([]planUser, len(ss))
	at := make(map[string]int, len(ss))
	for i, s := range ss {
		us[i], at[s.TeamName()] = s.planUser(), i
	}
	plans, users := sharedPlans(us)
	var warns []string
	for _, p := range plans {
		for _, u := range users[p] {
			for _, o := range users[p] {
				if o != u {
					ss[at[u]].SharedWith = append(ss[at[u]].SharedWith, o)
				}
			}
		}
		warns = append(warns, samePlanWarning(users[p], p))
	}
	return warns
}

// TeamName is how lists and the same-plan warning name the session's user: "bob", or
// "bob@origin" for a session gsd sync fetched (the name gsd resume takes).
func (s *SessionSummary) TeamName() string {
	if s.Remote != nil {
		return s.User + "@" + *s.Remote
	}
	return s.User
}

// planUser is the session as sharedPlans sees it: a session taken over is not worked on.
func (s *SessionSummary) planUser() planUser {
	u := planUser{s.TeamName(), s.Plan, s.state}
	if s.State == TeamTakenOver {
		u.plan = ""
	}
	return u
}

func samePlanWarning(users []string, plan string) string {
	return fmt.Sprintf("%s are working on the same plan %s; their statuses will diverge", andList(users), plan)
}

// OthersOnPlan lists the other users who work on plan as the user does, by sharedPlans' rule,
// for when the user's session has a task to resume on plan: teammates of this checkout, and
// those whose sessions gsd sync fetched ("bob@origin"). Every teammate's session file is read
// for its header; only those naming plan are judged. A session taken over is not worked on. The
// fetched sessions are read (two git processes) only when gsd sync has fetched some.
func (t Team) OthersOnPlan(plan string) []string {
	e := t.e
	if plan == "" {
		return nil
	}
	ents, err := fs.ReadDir(e.FS, SessionsDir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	us := []planUser{{e.User.User, plan, StateResume}}
	local := map[string]bool{}
	for _, d := range ents {
		if !d.IsDir() || d.Name() == e.User.User {
			continue
		}
		local[d.Name()] = true // a session gsd sync fetched of this user is the one here, as published
		other := *e
		other.User.User = d.Name()
		src, err := other.readFile(other.SessionPath())
		if err != nil || planfile.ReadHeader(src).Plan != plan {
			continue // most teammates follow another plan: their sessions need not be judged
		}
		if s, err := other.Inspect(); err == nil && len(e.takeovers(d.Name(), s.src)) == 0 {
			us = append(us, planUser{d.Name(), s.Plan, s.State})
		}
	}
	if e.hasFetched() {
		if idleAfter, err := e.idleAfter(); err == nil {
			res := &SessionsResult{}
			e.addFetched(res, e.now(), idleAfter)
			for i := range res.Sessions {
				if ts := &res.Sessions[i]; ts.Plan == plan && !local[ts.User] {
					us = append(us, ts.planUser())
				}
			}
		}
	}
	_, users := sharedPlans(us)
	if len(users[plan]) < 2 {
		return nil
	}
	return users[plan][1:]
}

// SamePlan is hydrate's same-plan warning for its result res, "" for none: the user's session
// has a task to resume, no teammate took it over (then the user is not the one working on it),
// and others work on its plan (OthersOnPlan).
func (t Team) SamePlan(res *Result) string {
	if res.State != StateResume || len(res.TakenOver) > 0 {
		return ""
	}
	others := t.OthersOnPlan(res.Plan)
	if len(others) == 0 {
		return ""
	}
	return t.SamePlanWarning(others, res.Plan)
}

// SamePlanWarning is the warning for the user and others on one plan.
func (t Team) SamePlanWarning(others []string, plan string) string {
	e := t.e
	return samePlanWarning(append([]string{e.User.User}, others...), plan)
}

func andList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func taskList(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("task %d", ns[0])
	}
	return "tasks " + joinInts(ns)
}
