package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/gsd-tools/gsd/roadmap"
)

// ResolvePlan turns a plan as typed on the command line into a root-relative path: a file path
// (absolute, or relative to dir), or else a plan id such as 03-02 or 10-01-FIX, looked up in the
// phase directories as gsd progress lists them (Plans: phases/, then milestones/*-phases/). A path that exists is returned as it is, for the bootstrap to judge (a file
// with no tasks is a failure of that file, not of the command line); anything else is an
// *ArgError.
func (e *Env) ResolvePlan(dir, arg string) (string, error) {
	rel, err := e.Rel(dir, arg)
	if err != nil {
		return "", &ArgError{err}
	}
	if _, err := fs.Stat(e.FS, rel); !errors.Is(err, fs.ErrNotExist) {
		return spelledOnDisk(e.FS, rel), nil
	}
	if !strings.ContainsAny(arg, `/\`) {
		plans, err := e.Plans()
		if err != nil {
			return "", err
		}
		// A plan under phases/ is the one meant over a shipped milestone's of the same id (the
		// numbers restarted): the archives are searched only when phases/ has none.
		var hits, archived []string
		for _, p := range plans {
			switch {
			case !strings.EqualFold(p.ID, arg):
			case roadmap.Archived(p.Path):
				archived = append(archived, p.Path)
			default:
				hits = append(hits, p.Path)
			}
		}
		if len(hits) == 0 {
			hits = archived
		}
		switch len(hits) {
		case 1:
			return hits[0], nil
		case 0:
		default:
			return "", &ArgError{fmt.Errorf("%s: %d plans have that id (%s); give the path", arg, len(hits), strings.Join(hits, ", "))}
		}
	}
	return "", &ArgError{fmt.Errorf("%s: %w (no file by that name, and no plan has that id)", arg, ErrNoSuchPlan)}
}

// spelledOnDisk returns the root-relative path rel with each name as its directory lists it.
// Where the file system ignores case (Windows, macOS), .planning/PHASES/02-api/02-01-plan.md
// opens a plan, but a session recording that spelling would not name the plan the phase
// scan finds, and would be stale from its first moment. A name the directory lists exactly, or
// that no single entry matches but for case, is kept as given.
func spelledOnDisk(fsys fs.FS, rel string) string {
	names := strings.Split(rel, "/")
	dir := "."
	for i, name := range names {
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return rel
		}
		found, folds := "", 0
		for _, de := range entries {
			if de.Name() == name {
				found, folds = name, 1
				break
			}
			if strings.EqualFold(de.Name(), name) {
				found, folds = de.Name(), folds+1
			}
		}
		if folds == 1 {
			names[i] = found
		}
		dir = path.Join(dir, names[i])
	}
	return strings.Join(names, "/")
}
