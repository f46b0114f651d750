package hydrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/roadmap"
	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// ProgressBar draws percent as "[████░░░░░░]", width cells wide.
func ProgressBar(percent, width int) string { return statemd.Bar(percent, width) }

// Difference is one field where STATE.md disagrees with the derived position.
type Difference struct {
	Field   string  `json:"field"` // "phase", "plan" or "progress"
	Line    int     `json:"line"`  // STATE.md line replaced, or the line a missing one would go before
	Says    *string `json:"says"`  // the line as it is, trimmed; null when STATE.md has no such line
	Derived string  `json:"derived"`
}

// StateReport is what STATE.md should say (roadmap.Project.StateValues) and how STATE.md stands
// against it: what gsd state reports, rewrites (--write) and previews (--dry-run), and gsd
// progress carries as its state.
type StateReport struct {
	Path   string // STATE.md, root-relative
	Exists bool
	Values statemd.Values // the values STATE.md should have
	// ActivePlan is the plan to work on next in the phase Values names, "" if none: shown beside
	// the values, never written into STATE.md.
	ActivePlan  string
	Agrees      bool
	Differences []Difference
	// Unsummarised are the plans STATE.md says were completed that have no SUMMARY
	// (roadmap.Project.Unsummarised): while there are any, STATE.md does not agree, and --write
	// cannot fix it.
	Unsummarised []roadmap.StateClaim
}

// readState reads STATE.md, refusing a binary file: rewriting one would destroy it.
func (e *Env) readState() ([]byte, error) {
	src, err := e.readFile(e.statePath())
	if err != nil {
		return nil, err
	}
	if roadmap.Binary(src) {
		return nil, fmt.Errorf("%s: %w", e.statePath(), roadmap.ErrBinary)
	}
	return src, nil
}

// statePath is STATE.md beside the roadmap (a workstream has its own).
func (e *Env) statePath() string { return path.Join(e.PlanningDir, "STATE.md") }

// stateReport derives what STATE.md should say and compares its text src (nil when there is no
// STATE.md) with it.
func (e *Env) stateReport(proj *roadmap.Project, src []byte) *StateReport {
	sp := &StateReport{Path: e.statePath(), Values: proj.StateValues(), Differences: []Difference{}, Unsummarised: []roadmap.StateClaim{}}
	if sp.Values.Phase != "" && proj.Active != nil {
		sp.ActivePlan = proj.Active.Path
	}
	if src == nil {
		return sp
	}
	sp.Exists = true
	sp.Differences = compareState(src, sp.Values)
	if proj.Unsummarised != nil {
		sp.Unsummarised = proj.Unsummarised
	}
	sp.Agrees = len(sp.Differences) == 0 && len(sp.Unsummarised) == 0
	return sp
}

// StateReport derives the position and says whether STATE.md agrees with it. It writes nothing.
// STATE.md is compared as the position read it for its decision, not read again.
func (p Project) StateReport() (*StateReport, error) {
	e := p.e
	proj, err := e.load()
	if err != nil {
		return nil, err
	}
	return e.stateReport(proj, proj.Position.State), nil
}

// WriteState rewrites STATE.md's Current Position block (Phase, Plan, Status and Progress
// lines) and the progress fields of its frontmatter to the derived position, leaving every other
// byte as it was; a missing STATE.md is created in GSD's template shape. It holds STATE.md.lock
// the way GSD's own tooling does while it reads and writes. It reports whether the file changed.
func (p Project) WriteState() (*StateReport, bool, error) {
	e := p.e
	proj, err := e.load()
	if err != nil {
		return nil, false, err
	}
	return e.writeState(proj)
}

func (e *Env) writeState(proj *roadmap.Project) (*StateReport, bool, error) {
	var sp *StateReport
	changed := false
	err := e.withStateLock(func() error {
		// Read again under the lock: the position read STATE.md before another writer could
		// have changed it.
		src, err := e.readState()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			src = nil
		case err != nil:
			return err
		}
		sp = e.stateReport(proj, src)
		out := e.stateOutput(sp, src)
		if sp.Exists && bytes.Equal(src, out) {
			return nil
		}
		perm := fs.FileMode(0o644)
		if fi, err := os.Stat(e.abs(sp.Path)); err == nil {
			perm = fi.Mode().Perm()
		}
		if err := atomicfile.WriteFile(e.abs(sp.Path), out, perm); err != nil {
			return fmt.Errorf("%s: %w", sp.Path, err)
		}
		changed = true
		e.pos = nil // the position read STATE.md (and what it declares) before this write
		sp.Exists, sp.Agrees, sp.Differences = true, len(sp.Unsummarised) == 0, []Difference{}
		return nil
	})
	return sp, changed, err
}

// stateOutput is STATE.md as a write would leave it, from its text src (nil when missing).
func (e *Env) stateOutput(sp *StateReport, src []byte) []byte {
	if src == nil {
		return statemd.New(sp.Values, e.now())
	}
	return rewriteState(src, sp.Values)
}

// StateDiff is what WriteState would do, as a unified diff of STATE.md (nil when it already
// agrees). It writes nothing and takes no lock.
func (p Project) StateDiff() (*StateReport, []byte, error) {
	e := p.e
	proj, err := e.load()
	if err != nil {
		return nil, nil, err
	}
	src := proj.Position.State
	sp := e.stateReport(proj, src)
	return sp, diff.Diff(sp.Path, src, sp.Path, e.stateOutput(sp, src)), nil
}

// StateLockStale is the age after which a STATE.md.lock is taken to be left behind by a crashed
// process and removed. Holders keep it for the few milliseconds of one read-modify-write, so ten
// seconds is far beyond any live holder. (The value is gsd's choice: GSD's own threshold is not
// written down anywhere we could check.)
const StateLockStale = 10 * time.Second

// withStateLock runs fn holding STATE.md.lock, as GSD's own tooling does (see
// atomicfile.CreateLockFile: abandoned locks are reclaimed atomically, and at once when their
// holder is dead).
func (e *Env) withStateLock(fn func() error) error {
	if err := e.CheckSettings(writingSettings...); err != nil {
		return err
	}
	l, err := atomicfile.CreateLockFile(e.abs(e.statePath()+".lock"), e.lockTimeout, StateLockStale)
	if err != nil {
		return err
	}
	defer l.Release()
	atomicfile.RemoveTemps(filepath.Dir(e.abs(e.statePath())), path.Base(e.statePath()))
	return fn()
}

// SaysText is what STATE.md says, for a message: the line, or "no <field> line".
func (d Difference) SaysText() string {
	if d.Says == nil {
		return "no " + d.Field + " line"
	}
	return *d.Says
}

// compareState lists where STATE.md disagrees with v: exactly the lines that rewriteState would
// change, so that a check and a write can never disagree. The percent and the frontmatter's
// counts are compared only when v knows them.
func compareState(src []byte, v statemd.Values) []Difference {
	changes := statemd.Changes(src, v)
	diffs := make([]Difference, 0, len(changes))
	for _, c := range changes {
		d := Difference{Field: c.Field, Line: c.Line, Derived: strings.TrimSpace(c.New)}
		if c.Old != "" {
			says := strings.TrimSpace(c.Old)
			d.Says = &says
		}
		if n := len(diffs); c.Field == "frontmatter" && n > 0 && diffs[n-1].Field == "frontmatter" {
			// The frontmatter's numbers are one fact, reported once at its first line.
			says := diffs[n-1].SaysText() + ", " + d.SaysText()
			diffs[n-1].Says = &says
			diffs[n-1].Derived += ", " + d.Derived
			continue
		}
		diffs = append(diffs, d)
	}
	return diffs
}

// rewriteState is src with every line that disagrees with v rewritten (see statemd.Rewrite).
func rewriteState(src []byte, v statemd.Values) []byte {
	out, _ := statemd.Rewrite(src, v)
	return out
}

// syncState compares STATE.md with the current phase. Without write it does so cheaply, as
// every agent turn's hydrate does: only ROADMAP.md and the current phase's directory are read,
// so the Phase, Plan and Status lines are checked and the milestone's counts (Progress, the
// frontmatter's numbers), which need every phase, are not. With write it is gsd state --write:
// the whole project is loaded, and every line that disagrees is rewritten.
func (e *Env) syncState(res *Result, write bool) error {
	if write {
		_, changed, err := e.Project().WriteState()
		if err != nil {
			return err
		}
		res.StateSynced = changed
		return nil
	}
	// The position read STATE.md for its decision; its bytes are compared here, not read again.
	// An unreadable STATE.md (or roadmap) fails the position: it must not stop hydrate, and
	// gsd state and gsd progress report it.
	p, err := e.Position()
	if err != nil || p.State == nil {
		return nil
	}
	if v, ok := p.StateValues(); ok {
		res.StateDrift = compareState(p.State, v)
	}
	return nil
}
