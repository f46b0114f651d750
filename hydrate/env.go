package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/config"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile/rootfs"
	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// ErrNotProject means no directory from the start directory upward has a .planning directory.
var ErrNotProject = errors.New("not inside a GSD project (no .planning directory here or in any parent)")

// SessionsDir is where per-user session directories live, relative to the project root. It does
// not move with workstreams: a person has one session per checkout.
const SessionsDir = ".planning/sessions"

// SessionFileName is the session file inside a user's directory.
const SessionFileName = "current-plan.md"

// Config is what the caller knows about the invocation.
type Config struct {
	Dir      string           // where to start looking for the project (absolute)
	Identity identity.Sources // identity sources; its Dir is set to Dir when empty
	// NoUser opens the project for no one user (progress reads every user's session alike):
	// the user is not resolved, and Env.User is empty.
	NoUser     bool
	Workstream string // GSD_WORKSTREAM, "" if unset
	// AnyWorkstream opens the project at its root whatever workstream is selected, even one that
	// cannot be used: gsd workstreams reports the selection rather than fail on it.
	AnyWorkstream bool
	Now           func() time.Time
	// LockTimeout is how long a write waits for another gsd process: over the config file's
	// lockTimeout, under GSD_LOCK_TIMEOUT (0: neither, the file's or config's default).
	LockTimeout time.Duration
	// Environment is what GSD_LOCK_TIMEOUT and GSD_IDLE_AFTER set over the config file
	// (config.ReadEnvironment, which the caller runs first: a bad value is a usage error).
	Environment config.Environment
	History     History // the session journal and snapshots (history.go)
	// Git is the user's git: for the sessions gsd sync fetched, and for what git records of the
	// work (Traces); nil: neither is read.
	Git teamsync.Git
	// NoGitEvidence turns off reading what git records of the work (--no-git-evidence).
	NoGitEvidence bool
	// StateDir is the user's state directory for gsd ($XDG_STATE_HOME/gsd), where the agent's
	// captured context is kept for a project outside git ("": none).
	StateDir string
}

// Env is an opened project and the user working in it.
type Env struct {
	Root        string // absolute project root
	FS          fs.FS  // the project, rooted at Root
	PlanningDir string // ".planning", or a workstream's directory under it
	workstream  string // GSD_WORKSTREAM, as Config had it
	scopeWarn   string // why a broken .planning/active-workstream was overruled (roadmap.Selection.Warning)
	User        identity.Identity

	now         func() time.Time
	environment config.Environment

	// plans memoises phase directory listings for one command: staleness, the next plan and the
	// STATE.md check all look at the session's phase. withLock clears it.
	plans       map[string][]roadmap.Plan
	pos         *roadmap.Position
	lockTimeout time.Duration
	hist        History
	histWarn    []string
	settings    *config.Settings
	// settingsFailed is set once a bad setting was this command's error (CheckSettings).
	settingsFailed bool
	git            teamsync.Git                // nil: fetched sessions and commits are not read
	noTraces       bool                        // Config.NoGitEvidence
	traces         *Traces                     // what git records of the work, once read
	lookupEnv      func(string) (string, bool) // to find the repository as git does
	stateDir       string                      // Config.StateDir
}

// The use cases beyond the session itself, by what they serve (doc.go): env.Project(),
// env.History(), env.Agents(), env.Team(). Each is made from the Env it is asked of, so a copy
// of an Env (a teammate's session) serves its own.

// Project serves the project around the session: gsd progress, gsd state, gsd workstreams.
type Project struct{ e *Env }

// Project is the use cases on the project around the session.
func (e *Env) Project() Project { return Project{e} }

// History is the use cases on the session's history.
func (e *Env) History() SessionHistory { return SessionHistory{e} }

// Agents is the use cases the agents' hooks and the MCP server record.
func (e *Env) Agents() Agents { return Agents{e} }

// Team is the use cases on the team's sessions.
func (e *Env) Team() Team { return Team{e} }

// SessionHistory serves the session's history, the user's journal and snapshots: gsd log,
// gsd tasks --at, gsd snapshot, gsd snapshots, gsd restore, gsd stats. (History, the type,
// is how Config sets the journal and snapshots up.)
type SessionHistory struct{ e *Env }

// Agents serves the agent lifecycle: what the hooks record, and the MCP session_rehydrate.
type Agents struct{ e *Env }

// Team serves the team's sessions: gsd sessions, gsd resume, gsd sync, and hydrate's same-plan
// warning.
type Team struct{ e *Env }

// Position is where the project stands (roadmap.Locate), worked out once per command; taking
// the lock forgets it.
func (e *Env) Position() (*roadmap.Position, error) {
	if e.pos != nil {
		return e.pos, nil
	}
	commits := e.Traces().Commits
	pos, err := roadmap.LocateWith(e.FS, e.PlanningDir, commits)
	if err != nil {
		return nil, err
	}
	if dir := e.workScope(pos); dir != "" {
		if other, err := roadmap.LocateWith(e.FS, dir, commits); err == nil && other.Active != nil {
			pos = e.moveScope(pos, other)
		}
	}
	e.pos = pos
	return pos, nil
}

// load is roadmap.LoadWith in the planning directory in force, moved as Position moves it.
func (e *Env) load() (*roadmap.Project, error) {
	commits := e.Traces().Commits
	proj, err := roadmap.LoadWith(e.FS, e.PlanningDir, commits)
	if err != nil {
		return nil, err
	}
	if dir := e.workScope(proj.Position); dir != "" {
		if other, err := roadmap.LoadWith(e.FS, dir, commits); err == nil && other.Position.Active != nil {
			other.Position = e.moveScope(proj.Position, other.Position)
			proj = other
		}
	}
	return proj, nil
}

// workScope is the planning directory where the newest commit of work shows work standing
// (roadmap.CommittedScope) when pos, the scope in force, has nothing to execute and no
// GSD_WORKSTREAM chose it (a choice made now is followed); "" otherwise.
func (e *Env) workScope(pos *roadmap.Position) string {
	if pos.Active != nil || e.workstream != "" {
		return ""
	}
	commits := e.Traces().Commits
	if len(commits) == 0 {
		return ""
	}
	dir, err := roadmap.CommittedScope(e.FS, e.PlanningDir, commits)
	if err != nil {
		return ""
	}
	return dir
}

// moveScope makes other, the position of the scope the commits show work in, the one in
// force: the planning directory moves there, and the reading of the files in force is the one
// a session is judged against (other.Files), as when the commits move the plan.
func (e *Env) moveScope(from, other *roadmap.Position) *roadmap.Position {
	name := func(p *roadmap.Position) string {
		if ws, ok := strings.CutPrefix(p.Scope, "workstream:"); ok {
			return "workstream " + ws
		}
		return "the root"
	}
	ev := roadmap.Evidence{Decision: "scope", File: other.PlanningDir,
		Says: fmt.Sprintf("the newest commit of work names a plan of %s, where %s, in force, has nothing to execute", name(other), name(from))}
	other.Evidence = append([]roadmap.Evidence{ev}, other.Evidence...)
	if from.Files != nil {
		from = from.Files
	}
	other.Files = from
	e.PlanningDir = other.PlanningDir
	return other
}

// ScopeWarnings are the one-line warnings about which planning directory is in force: a broken
// .planning/active-workstream pointer, overruled (the root is in force). Every command gives
// them; none fails for them.
func (e *Env) ScopeWarnings() []string {
	if e == nil || e.scopeWarn == "" {
		return nil
	}
	return []string{e.scopeWarn}
}

// Open finds the project root from cfg.Dir upward, resolves the user and where to lock.
func Open(cfg Config) (*Env, error) {
	root, err := ProjectRoot(cfg.Dir)
	if err != nil {
		return nil, err
	}
	fsys, err := rootfs.Open(root)
	if err != nil {
		return nil, err
	}
	e, err := open(cfg, root, fsys)
	if err != nil {
		_ = rootfs.Close(fsys)
		return nil, err
	}
	return e, nil
}

// Close releases what Open holds (the project directory's descriptors): a server that opens
// the project on every call must call it.
func (e *Env) Close() error { return rootfs.Close(e.FS) }

// open is Open's second half, on the opened project.
func open(cfg Config, root string, fsys fs.FS) (*Env, error) {
	idEnv := cfg.Identity
	if idEnv.Dir == "" {
		idEnv.Dir = cfg.Dir
	}
	var id identity.Identity
	if !cfg.NoUser {
		var err error
		if id, err = identity.FindUser(idEnv); err != nil {
			return nil, err
		}
	}
	pdir, scopeWarn := ".planning", ""
	if !cfg.AnyWorkstream {
		sel, err := roadmap.Select(fsys, cfg.Workstream)
		if err != nil {
			return nil, err
		}
		pdir, scopeWarn = sel.Dir(), sel.Warning()
	}
	e := &Env{Root: root, FS: fsys, PlanningDir: pdir, workstream: cfg.Workstream, scopeWarn: scopeWarn, User: id, now: cfg.Now, lockTimeout: cfg.LockTimeout, environment: cfg.Environment, hist: cfg.History, git: cfg.Git, noTraces: cfg.NoGitEvidence, lookupEnv: idEnv.LookupEnv, stateDir: cfg.StateDir}
	if e.now == nil {
		e.now = time.Now
	}
	if err := e.configure(); err != nil {
		return nil, err
	}
	return e, nil
}

// ProjectRoot is the root of the project Open opens from dir: FindRoot's, when its .planning
// does not lead outside it.
func ProjectRoot(dir string) (string, error) {
	root, err := FindRoot(dir)
	if err != nil {
		return "", err
	}
	if err := planningInside(root); err != nil {
		return "", err
	}
	return root, nil
}

// FindRoot returns the nearest directory from dir upward that contains a .planning directory.
func FindRoot(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, ".planning")); err == nil && fi.IsDir() {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", ErrNotProject
		}
		dir = parent
	}
}

// planningInside checks that root's .planning, when it is a symlink, leads to a place inside the
// project: the project is read through os.Root, which would refuse every path under it with a
// bare "path escapes from parent" that names neither the symlink nor where it leads.
func planningInside(root string) error {
	planning := filepath.Join(root, ".planning")
	fi, err := os.Lstat(planning)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	real, out, err := leadsOutside(root, planning)
	if err != nil {
		return err
	}
	if out {
		return fmt.Errorf("%s is a symlink to %s, outside the project; gsd reads and writes only inside the project (%s)", planning, real, root)
	}
	return nil
}

// LockDir is what every session write locks: the project's .planning directory itself (see
// atomicfile.LockDir). It depends on the project root alone, never on a workstream or on how git
// finds the repository (GIT_DIR, GIT_CEILING_DIRECTORIES, a subproject, a linked worktree), so
// every gsd process writing the sessions directory takes the same lock; and locking a directory
// creates no file, so nothing shows in `git status`.
func (e *Env) LockDir() string {
	return filepath.Join(e.Root, ".planning")
}

// SessionPath is the user's session file, relative to the root.
func (e *Env) SessionPath() string {
	return path.Join(SessionsDir, e.User.User, SessionFileName)
}

// abs turns a root-relative slash path into an absolute OS path.
func (e *Env) abs(rel string) string {
	return filepath.Join(e.Root, filepath.FromSlash(rel))
}

// phasePlans lists the plans of the phase planPath belongs to, once per command.
func (e *Env) phasePlans(planPath string) ([]roadmap.Plan, error) {
	dir := roadmap.PhaseDirOf(planPath)
	if plans, ok := e.plans[dir]; ok {
		return plans, nil
	}
	if e.pos != nil && e.pos.Phase != nil && e.pos.Phase.Dir == dir {
		return e.pos.Phase.Plans, nil // the position listed it already
	}
	plans, err := roadmap.PhasePlans(e.FS, dir)
	if err != nil {
		return nil, err
	}
	if e.plans == nil {
		e.plans = map[string][]roadmap.Plan{}
	}
	e.plans[dir] = plans
	return plans, nil
}

// MaxFileSize bounds every file gsd reads: plans and sessions are a few kilobytes; a file this
// large is a mistake, and reading it whole on every agent turn would hurt.
const MaxFileSize = 8 << 20

// readFile reads a project file through the rooted FS, refusing directories, anything but a
// regular file (never blocking on a named pipe) and files over MaxFileSize.
func (e *Env) readFile(rel string) ([]byte, error) { return e.readFileUpTo(rel, MaxFileSize) }

// readFileUpTo is readFile with another limit (a journal's).
func (e *Env) readFileUpTo(rel string, limit int64) ([]byte, error) {
	data, err := rootfs.ReadFile(e.FS, rel, limit)
	if err != nil {
		return nil, readError(rel, err, limit)
	}
	return data, nil
}

// readError words an error of rootfs.ReadFile for rel, read with limit.
func readError(rel string, err error, limit int64) error {
	var notRegular *rootfs.NotRegularError
	var pe *fs.PathError
	switch {
	case errors.As(err, &notRegular):
		return &FileError{File: rel, Err: notRegular}
	case errors.Is(err, rootfs.ErrEscapes):
		return &FileError{File: rel, Err: errors.New("leads outside the project (through a symlink); refusing to read it")}
	case errors.Is(err, rootfs.ErrIsDir):
		return &FileError{File: rel, Err: rootfs.ErrIsDir}
	case errors.Is(err, rootfs.ErrTooLarge):
		return &FileError{File: rel, Err: fmt.Errorf("larger than the %d MiB gsd reads", limit>>20)}
	case errors.As(err, &pe) && pe.Op == "read":
		return &FileError{File: rel, Err: err} // an I/O error
	}
	return err // failed to open: fs.ErrNotExist and the like
}

// cleanRel validates a root-relative path taken from a file or the command line: it must stay
// inside the project.
func cleanRel(p string) (string, error) {
	p = filepath.ToSlash(p)
	// Never trimmed: "plan.md " is another file than "plan.md". But a session header cannot
	// record such a name (its fields are trimmed when read), so it is refused, quoted.
	if strings.TrimSpace(p) != p {
		return "", fmt.Errorf("path %s begins or ends with white space, which a session header cannot record; rename it", textfmt.Quote(p))
	}
	c := path.Clean(p)
	// Paths in session headers are written with '/': a backslash or a drive letter is a path
	// from another system (or an attempt to leave the project), on every OS.
	drive := len(p) >= 2 && p[1] == ':'
	if strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return "", fmt.Errorf("path %s contains a control character", textfmt.Quote(p))
	}
	if p == "" || path.IsAbs(p) || filepath.IsAbs(p) || drive || strings.Contains(p, `\`) || c == ".." || strings.HasPrefix(c, "../") || !fs.ValidPath(c) {
		return "", fmt.Errorf("path %s is outside the project", textfmt.Quote(p))
	}
	return c, nil
}

// Rel converts a path given on the command line (absolute, or relative to dir) to a root-relative
// slash path, refusing anything outside the project.
func (e *Env) Rel(dir, p string) (string, error) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	r, err := filepath.Rel(e.Root, p)
	if err != nil {
		return "", err
	}
	return cleanRel(r)
}
