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

// Selection is which planning directory is in force (Dir), and why: Select's one decision, with
// its reasons, for every command and for those that report it (gsd workstreams).
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
	// Broken says the overruled pointer names no workstream at all (not a name, no such
	// directory) or cannot be read: a mistake to fix, which every command warns about.
	Broken bool
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
// workstream, if that file exists, unless the pointer is stale or broken (staleWorkstream): then
// the root is in force, and Overruled says why. A pointer file that cannot be read is
// overruled too: no planning file makes a command fail. A workstream GSD_WORKSTREAM names
// whose directory does not exist is an error rather than a silent fall back to .planning,
// which would show another workstream's phases: the variable is a choice made now.
func Select(fsys fs.FS, workstream string) (Selection, error) {
	var sel Selection
	pointer, perr := activeWorkstream(fsys)
	sel.Pointer = pointer
	if ws := strings.TrimSpace(workstream); ws != "" {
		sel.Workstream, sel.By = ws, ByVariable
		dir := sel.Dir()
		if !workstreamName(ws) {
			return sel, fmt.Errorf("invalid workstream name %s", textfmt.Quote(ws))
		}
		if fi, err := fs.Stat(fsys, dir); errors.Is(err, fs.ErrNotExist) || err == nil && !fi.IsDir() {
			return sel, fmt.Errorf("workstream %s: no directory %s", textfmt.Quote(ws), dir)
		} else if err != nil {
			return sel, err
		}
		return sel, nil
	}
	switch why, stale, broken := staleWorkstream(fsys, pointer); {
	case perr != nil:
		sel.Overruled, sel.Broken = fmt.Sprintf("it cannot be read (%v): the root's .planning is in force", perr), true
	case stale:
		sel.Overruled, sel.Broken = why, broken
	case pointer != "":
		sel.Workstream, sel.By = pointer, ByPointer
	}
	return sel, nil
}

// Warning is the one-line warning every command gives when the selection overruled a broken
// pointer (one that names no workstream, or cannot be read); "" otherwise. A pointer left
// behind by finished work is no mistake: the position's evidence says it, and nothing more.
func (s Selection) Warning() string {
	if !s.Broken {
		return ""
	}
	return activeWorkstreamFile + ": " + s.Overruled
}
