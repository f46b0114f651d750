package roadmap

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// workstreamsDir holds one directory per workstream, each a planning directory of its own
// (ROADMAP.md, STATE.md, phases/).
const workstreamsDir = ".planning/workstreams"

// Workstreams lists the project's workstreams: the directories under .planning/workstreams, in
// name order. Hidden directories and Finder or iCloud copies ("track-a 2") are left out, as
// they are of phase directories: kept copies, not workstreams. None is no error.
func Workstreams(fsys fs.FS) ([]string, error) {
	names, err := listDir(fsys, workstreamsDir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, name := range names {
		if strings.HasPrefix(name, ".") || conflictCopy(name) {
			continue
		}
		if fi, err := fs.Stat(fsys, path.Join(workstreamsDir, name)); err != nil || !fi.IsDir() {
			continue // a file beside the workstreams, or an entry gone since the listing
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out, nil
}

// WorkstreamDir is the planning directory of workstream ws.
func WorkstreamDir(ws string) string { return path.Join(workstreamsDir, ws) }

// Selection is which planning directory is in force, and why: the one decision PlanningDir
// makes, with its reasons, for the commands that report it (gsd workstreams).
type Selection struct {
	// Workstream is the workstream in force; "" when the root's .planning is.
	Workstream string
	// By is what selected Workstream: "GSD_WORKSTREAM" or ".planning/active-workstream"; "" for
	// the root.
	By string
	// Pointer is the workstream .planning/active-workstream names ("" when none), whether or not
	// it is in force: GSD_WORKSTREAM overrides it, and a stale pointer is overruled.
	Pointer string
	// Overruled says why the pointer's workstream is not in force though nothing overrides it: it
	// is left behind, the root's roadmap has overtaken it (staleWorkstream). "" otherwise.
	Overruled string
}

// SelectedBy names what selects a workstream: the variable, or the pointer file.
const (
	ByVariable = "GSD_WORKSTREAM"
	ByPointer  = activeWorkstreamFile
)

// Dir is the planning directory the selection puts in force.
func (s Selection) Dir() string {
	if s.Workstream == "" {
		return ".planning"
	}
	return WorkstreamDir(s.Workstream)
}

// Select decides which planning directory is in force. workstream is GSD_WORKSTREAM as the
// caller read it; when empty, the first line of .planning/active-workstream names the
// workstream, if that file exists, unless the pointer is stale (staleWorkstream): then the root
// is in force. A named workstream whose directory does not exist is an error rather than a
// silent fall back to .planning, which would show another workstream's phases; the selection
// returned with the error says what named it.
func Select(fsys fs.FS, workstream string) (Selection, error) {
	var sel Selection
	pointer, perr := activeWorkstream(fsys)
	sel.Pointer = pointer
	ws := strings.TrimSpace(workstream)
	if ws != "" {
		sel.Workstream, sel.By = ws, ByVariable
	} else {
		if perr != nil {
			return sel, perr
		}
		if pointer == "" {
			return sel, nil
		}
		if why, stale := staleWorkstream(fsys, pointer); stale {
			sel.Overruled = why
			return sel, nil
		}
		sel.Workstream, sel.By = pointer, ByPointer
	}
	dir := sel.Dir()
	var err error
	if ws := sel.Workstream; ws == "." || ws == ".." || strings.ContainsAny(ws, "/\\\x00") {
		err = fmt.Errorf("invalid workstream name %s", textfmt.Quote(ws))
	} else if fi, serr := fs.Stat(fsys, dir); errors.Is(serr, fs.ErrNotExist) || serr == nil && !fi.IsDir() {
		err = fmt.Errorf("workstream %s: no directory %s", textfmt.Quote(ws), dir)
	} else if serr != nil {
		err = serr
	} else {
		return sel, nil
	}
	if sel.By == ByPointer {
		err = fmt.Errorf("%s: %w", activeWorkstreamFile, err)
	}
	return sel, err
}
