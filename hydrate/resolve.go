package hydrate

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// ResolvePlan turns a plan as typed on the command line into a root-relative path: a file path
// (absolute, or relative to dir), or else a plan id such as 03-02 or 10-01-FIX, looked up in the
// phase directories. A path that exists is returned as it is, for the bootstrap to judge (a file
// with no tasks is a failure of that file, not of the command line); anything else is an
// *ArgError.
func (e *Env) ResolvePlan(dir, arg string) (string, error) {
	rel, err := e.Rel(dir, arg)
	if err != nil {
		return "", &ArgError{err}
	}
	if _, err := fs.Stat(e.FS, rel); !errors.Is(err, fs.ErrNotExist) {
		return rel, nil
	}
	if !strings.ContainsAny(arg, `/\`) {
		plans, err := e.Plans()
		if err != nil {
			return "", err
		}
		var hits []string
		for _, p := range plans {
			if strings.EqualFold(p.ID, arg) {
				hits = append(hits, p.Path)
			}
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
