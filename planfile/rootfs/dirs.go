package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
)

// os.Root resolves a name one component at a time: opening ".planning/phases/01-a/01-01-PLAN.md"
// opens ".planning", "phases" and "01-a" before the file, and closes them. gsd reads many names in
// few directories (a phase's plans, an archive's phases), so rootFS opens each directory once, as
// an os.Root of its own, and a name in it with one openat. A name whose directory cannot be opened
// so, or a symlink that leads out of its directory (but perhaps not out of the project), is
// opened from the project's root, as os.Root alone would: the answer is always os.Root's.
//
// A directory stays open until Close: one replaced (not merely changed) while the FS is open is
// read as it was when first opened, as the project directory itself is.

// dirRoot is directory dir opened as an os.Root, through its parent's; nil when it cannot be.
func (r *rootFS) dirRoot(dir string) *os.Root {
	if dir == "." {
		return r.root
	}
	r.mu.Lock()
	d, ok := r.dirs[dir]
	r.mu.Unlock()
	if ok {
		return d
	}
	parent, base := path.Split(dir)
	p := r.dirRoot(cleanDir(parent))
	if p == nil {
		return nil
	}
	d, err := p.OpenRoot(base)
	if isEscape(err) && p != r.root {
		d, err = r.root.OpenRoot(dir)
	}
	if err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.dirs[dir]; ok { // opened meanwhile by another goroutine
		d.Close()
		return prev
	}
	if r.dirs == nil {
		r.dirs = map[string]*os.Root{}
	}
	r.dirs[dir] = d
	return d
}

// cleanDir is path.Split's directory without its slash, "." for none.
func cleanDir(dir string) string {
	if dir == "" {
		return "."
	}
	return dir[:len(dir)-1]
}

// inDir calls op with name's directory, opened, and name's last element; then, if that gave no
// answer or one of escape, with the project's root and name. Errors name name.
func inDir[T any](r *rootFS, name string, op func(*os.Root, string) (T, error)) (T, error) {
	dir, base := path.Split(name)
	if d := r.dirRoot(cleanDir(dir)); d != nil && d != r.root {
		v, err := op(d, base)
		if !isEscape(err) {
			return v, relErr(name, err)
		}
	}
	return op(r.root, name)
}

// isEscape reports whether err is os.Root's refusal of a path leading outside it.
func isEscape(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == ErrEscapes.Error()
}

// closeDirs closes the directories opened with dirRoot.
func (r *rootFS) closeDirs() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range r.dirs {
		d.Close()
	}
	r.dirs = nil
}
