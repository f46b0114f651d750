package report

import (
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/roadmap"
)

// Hydrate is gsd hydrate --json and gsd start --json (and the MCP tools session_state_get,
// session_hydrate and session_start).
type Hydrate struct {
	SchemaVersion  int                   `json:"schemaVersion"`
	User           string                `json:"user"`
	UserSource     string                `json:"userSource"`
	UserSourceFile *string               `json:"userSourceFile"`
	SessionFile    string                `json:"sessionFile"`
	State          hydrate.SessionState  `json:"state"`
	Found          hydrate.SessionState  `json:"found"`
	Plan           *string               `json:"plan"`
	Started        *string               `json:"started"`
	ResumeTask     *int                  `json:"resumeTask"`
	Interrupted    bool                  `json:"interrupted"`
	Tasks          []Task                `json:"tasks"`
	Counts         any                   `json:"counts"`
	StaleReasons   []string              `json:"staleReasons"`
	CorruptReasons []string              `json:"corruptReasons"`
	Warnings       []string              `json:"warnings"`
	Actions        []hydrate.Action      `json:"actions"`
	Phase          *string               `json:"phase"`
	NextPlan       *string               `json:"nextPlan"`
	Note           *string               `json:"note"`
	Carry          *hydrate.CarryReport  `json:"carry"`
	StateDrift     []hydrate.Difference  `json:"stateDrift"`
	StateSynced    bool                  `json:"stateSynced"`
	Confidence     *string               `json:"confidence"`
	Alternatives   []Alternative         `json:"alternatives"`
	Work           *hydrate.Work         `json:"work"`
	Handoff        *roadmap.Handoff      `json:"handoff"`
	TakenOverBy    []hydrate.TakenOver   `json:"takenOverBy"`
	AgentContext   *hydrate.AgentContext `json:"agentContext"`
}

// HydrateOf is the report of hydrate's result r in env, with the agent's own context as the
// hooks captured it.
func HydrateOf(env *hydrate.Env, r *hydrate.Result) Hydrate {
	return Hydrate{
		SchemaVersion:  SchemaVersion,
		User:           env.User.User,
		UserSource:     env.User.Source.Kind,
		UserSourceFile: optString(env.User.Source.File),
		SessionFile:    r.Path,
		State:          r.State,
		Found:          r.Found,
		Plan:           optString(r.Plan),
		Started:        optTime(r.Started),
		ResumeTask:     optInt(r.ResumeTask),
		Interrupted:    r.Interrupted,
		Tasks:          tasksOf(r.Tasks),
		Counts:         r.Counts,
		StaleReasons:   nonNil(r.StaleReasons),
		CorruptReasons: nonNil(r.CorruptReasons),
		Warnings:       nonNil(r.Warnings),
		Actions:        nonNil(r.Actions),
		Phase:          optString(r.Phase),
		NextPlan:       optString(r.NextPlan),
		Note:           optString(r.Note),
		Carry:          r.Carry,
		StateDrift:     nonNil(r.StateDrift),
		StateSynced:    r.StateSynced,
		Confidence:     optString(string(r.Confidence)),
		Alternatives:   alternativesOf(r.Alternatives),
		Work:           r.Work,
		Handoff:        r.Handoff,
		TakenOverBy:    nonNil(r.TakenOver),
		AgentContext:   env.Agents().AgentContext(hydrate.AgentContextOptions{}),
	}
}

// Brief is gsd brief --json (and gsd hydrate --format brief --json): the brief's content as
// data, null for no plan, next plan or note.
type Brief struct {
	SchemaVersion int `json:"schemaVersion"`
	*hydrate.Brief
	Plan     *string `json:"plan"`
	NextPlan *string `json:"nextPlan"`
	Note     *string `json:"note"`
}

// BriefOf is the report of brief b.
func BriefOf(b *hydrate.Brief) Brief {
	return Brief{SchemaVersion, b, optString(b.Plan), optString(b.NextPlan), optString(b.Note)}
}

// Tasks is gsd tasks --json.
type Tasks struct {
	SchemaVersion int    `json:"schemaVersion"`
	SessionFile   string `json:"sessionFile"`
	Plan          string `json:"plan"`
	ResumeTask    *int   `json:"resumeTask"`
	Tasks         []Task `json:"tasks"`
	Counts        any    `json:"counts"`
}

// TasksOf is the report of session s's tasks.
func TasksOf(s *hydrate.Session) Tasks {
	return Tasks{SchemaVersion, s.Path, s.Plan, optInt(s.ResumeTask), tasksOf(s.Tasks), s.Counts}
}

// Mark is gsd mark-* --json (and MCP's task_status_set).
type Mark struct {
	SchemaVersion int    `json:"schemaVersion"`
	SessionFile   string `json:"sessionFile"`
	Task          Task   `json:"task"`
	From          string `json:"from"`
	Changed       bool   `json:"changed"`
	Counts        any    `json:"counts"`
	ResumeTask    *int   `json:"resumeTask"`
}

// MarkOf is the report of a status set.
func MarkOf(res *hydrate.MarkResult) Mark {
	return Mark{SchemaVersion, res.Session.Path, taskOf(res.Task), res.From, res.Changed, res.Session.Counts, optInt(res.Session.ResumeTask)}
}

// Check is gsd check --json.
type Check struct {
	SchemaVersion  int                  `json:"schemaVersion"`
	SessionFile    string               `json:"sessionFile"`
	Valid          bool                 `json:"valid"`
	State          hydrate.SessionState `json:"state"`
	Plan           *string              `json:"plan"`
	StaleReasons   []string             `json:"staleReasons"`
	CorruptReasons []string             `json:"corruptReasons"`
	Warnings       []string             `json:"warnings"`
}

// CheckOf is the report of session s as Inspect judged it.
func CheckOf(s *hydrate.Session) Check {
	return Check{SchemaVersion, s.Path, s.Valid(), s.State, optString(s.Plan), nonNil(s.StaleReasons), nonNil(s.CorruptReasons), nonNil(s.Warnings)}
}

// Archive is gsd archive --json.
type Archive struct {
	SchemaVersion int    `json:"schemaVersion"`
	SessionFile   string `json:"sessionFile"`
	Archived      string `json:"archived"`
}

// ArchiveOf is the report of an archive.
func ArchiveOf(res *hydrate.Result) Archive {
	return Archive{SchemaVersion, res.Path, res.Archived()}
}

// Resume is gsd resume --json (and MCP's session_resume).
type Resume struct {
	SchemaVersion int     `json:"schemaVersion"`
	From          string  `json:"from"`
	Plan          string  `json:"plan"`
	Archived      *string `json:"archived"`
	Changed       bool    `json:"changed"`
	Tasks         []Task  `json:"tasks"`
	ResumeTask    *int    `json:"resumeTask"`
}

// ResumeOf is the report of a take-over.
func ResumeOf(res *hydrate.TakeOverResult) Resume {
	return Resume{SchemaVersion, res.From, res.Plan, optString(res.Archived), !res.Identical, tasksOf(res.Session.Tasks), optInt(res.Session.ResumeTask)}
}

// Whoami is gsd whoami --json.
type Whoami struct {
	SchemaVersion int     `json:"schemaVersion"`
	User          string  `json:"user"`
	Raw           string  `json:"raw"`
	Source        string  `json:"userSource"`
	SourceFile    *string `json:"userSourceFile"`
}

// WhoamiOf is the report of the user id.
func WhoamiOf(id identity.Identity) Whoami {
	return Whoami{SchemaVersion, id.User, id.Raw, id.Source.Kind, optString(id.Source.File)}
}
