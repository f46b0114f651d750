package hydrate

import (
	"fmt"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap"
)

// WorkstreamStatus is one workstream and where it stands, as roadmap.Load reads its planning
// directory: the same position rules as the root's.
type WorkstreamStatus struct {
	Name        string
	PlanningDir string
	Active      bool             // the selection puts it in force
	Project     *roadmap.Project // nil when Err
	Err         error            // its files cannot be read
}

// WorkstreamsReport is every workstream of the project, and which one is in force and why.
type WorkstreamsReport struct {
	Selection roadmap.Selection
	// SelectErr is why the workstream the selection names cannot be used (no such directory, an
	// invalid name, an unreadable pointer): every other command fails with it.
	SelectErr   error
	Workstreams []WorkstreamStatus
}

// Workstreams lists the project's workstreams (roadmap.Workstreams) with where each stands and
// its progress, and says which one GSD_WORKSTREAM or .planning/active-workstream selects. A
// workstream whose files cannot be read is reported with its error, not a failure of the whole.
// It writes nothing, and it lists every phase directory of every workstream.
func (p Project) Workstreams() (*WorkstreamsReport, error) {
	e := p.e
	names, err := roadmap.Workstreams(e.FS)
	if err != nil {
		return nil, err
	}
	r := &WorkstreamsReport{}
	r.Selection, r.SelectErr = roadmap.Select(e.FS, e.workstream)
	for _, name := range names {
		ws := WorkstreamStatus{Name: name, PlanningDir: roadmap.WorkstreamDir(name)}
		ws.Active = r.SelectErr == nil && r.Selection.Workstream == name
		ws.Project, ws.Err = roadmap.LoadWith(e.FS, ws.PlanningDir, e.Traces().Commits)
		r.Workstreams = append(r.Workstreams, ws)
	}
	return r, nil
}

// WorkstreamsHint is one line for a report of the root (pos) that has no current phase, or no
// roadmap, while the project has workstreams: which they are, and how to see and select them.
// Without it, a project whose work is all in workstreams reads as finished. "" otherwise.
func (p Project) WorkstreamsHint(pos *roadmap.Position) (string, error) {
	e := p.e
	if pos.Scope != "root" || pos.Phase != nil && pos.Roadmap != nil {
		return "", nil
	}
	names, err := roadmap.Workstreams(e.FS)
	if err != nil || len(names) == 0 {
		return "", err
	}
	const show = 3
	list := strings.Join(names[:min(len(names), show)], ", ")
	if len(names) > show {
		list += fmt.Sprintf(" and %d more", len(names)-show)
	}
	return fmt.Sprintf("%s (%s): gsd workstreams shows where each stands; GSD_WORKSTREAM=NAME or .planning/active-workstream selects one",
		textfmt.Plural(len(names), "workstream"), list), nil
}
