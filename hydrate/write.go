package hydrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// ActionKind says what an Action did.
type ActionKind string

// The kinds of Action.
const (
	ActionArchived     ActionKind = "archived"     // a session moved aside (Path the archive, From the session)
	ActionBootstrapped ActionKind = "bootstrapped" // a session written (Path the session, From the plan)
	// Nothing written: gsd start of the plan the session already follows (Path the session,
	// From the plan).
	ActionKept ActionKind = "kept"
)

// Action is something a command did to the files, for reports.
type Action struct {
	Kind ActionKind `json:"kind"`
	Path string     `json:"path"` // root-relative
	From string     `json:"from"`
}

// Archived returns the archive a result's actions moved the session to, "" when none.
func (r *Result) Archived() string {
	for _, a := range r.Actions {
		if a.Kind == ActionArchived {
			return a.Path
		}
	}
	return ""
}

// withLock runs fn holding the project's session lock.
func (e *Env) withLock(fn func() error) error {
	if err := e.CheckSettings(writingSettings...); err != nil {
		return err
	}
	l, err := atomicfile.LockDir(context.Background(), e.LockDir(), e.lockTimeout)
	if err != nil {
		return err
	}
	defer l.Unlock()
	e.plans, e.pos = nil, nil // judge again from the disk as it is now that we hold the lock
	return fn()
}

// sessionDir returns the absolute session directory of the user, created if needed, after
// checking that it resolves to a place inside the project: a sessions directory that is a
// symlink to somewhere else is refused for writes.
func (e *Env) sessionDir() (string, error) {
	rel := path.Dir(e.SessionPath())
	dir := e.abs(rel)
	// Check the deepest directory that exists before creating anything: MkdirAll through a
	// symlinked .planning/sessions would otherwise create the user's directory outside first.
	existing := dir
	for {
		if _, err := os.Lstat(existing); err == nil || filepath.Dir(existing) == existing {
			break
		}
		existing = filepath.Dir(existing)
	}
	if err := e.inside(rel, existing); err != nil {
		return "", err
	}
	if err := atomicfile.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := e.inside(rel, dir); err != nil {
		return "", err
	}
	return dir, nil
}

// inside checks that the existing directory dir, once symlinks are resolved, is inside the
// project; rel names it in the error.
func (e *Env) inside(rel, dir string) error {
	real, out, err := leadsOutside(e.Root, dir)
	if err != nil {
		return err
	}
	if out {
		return fmt.Errorf("%s: resolves to %s, outside the project; refusing to write there", rel, real)
	}
	return nil
}

// leadsOutside resolves the symlinks of the existing path p and says whether where it leads
// (real) is outside the directory root, whose own symlinks are resolved too.
func leadsOutside(root, p string) (real string, out bool, err error) {
	if real, err = filepath.EvalSymlinks(p); err != nil {
		return "", false, err
	}
	if filepath.IsAbs(root) && filepath.Clean(root) == root && under(root, real) {
		// A resolved path has no symlink in it, nor in the root it begins with (a clean path,
		// no ".." in it): the root resolves to itself and need not be resolved (the usual
		// case, on every hook).
		return real, false, nil
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false, err
	}
	return real, !under(realRoot, real), nil
}

// under says whether path p is dir or lies beneath it, by their names alone.
func under(dir, p string) bool {
	r, err := filepath.Rel(dir, p)
	return err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator))
}

// writableSessionDir is sessionDir with the debris of interrupted writes removed from it: what a
// write calls once before it archives and replaces the session there.
func (e *Env) writableSessionDir() (string, error) {
	dir, err := e.sessionDir()
	if err != nil {
		return "", err
	}
	atomicfile.RemoveTemps(dir, "current-plan.")
	return dir, nil
}

// replaceSession is the one way a write puts data in place of the user's session: the session
// there (old, when exists) is kept first as a kind snapshot, then data is written, and the
// journal records both, the snapshot and then put's event (given the snapshot's id, "" when none)
// with data's bytes and hash. A write that fails after the archive records the snapshot alone.
// It returns the snapshot's root-relative path, "" when there was no session to keep.
func (e *Env) replaceSession(old []byte, exists bool, kind, oldPlan string, data []byte, put func(snapshot string) journal.Event) (string, error) {
	dir, err := e.writableSessionDir()
	if err != nil {
		return "", err
	}
	var evs []journal.Event
	to, id := "", ""
	if exists {
		if to, err = e.archiveIn(dir, old, kind); err != nil {
			return "", err
		}
		id = snapshotID(to)
		evs = append(evs, journal.Event{Type: journal.Snapshot, Snapshot: id, Note: kind, Plan: oldPlan, SHA256: journal.Hash(old, true)})
	}
	if err := e.writeSessionIn(dir, data); err != nil {
		e.record(old, exists, evs...)
		return to, err
	}
	ev := put(id)
	ev.Session, ev.SHA256 = string(data), journal.Hash(data, true)
	e.record(old, exists, append(evs, ev)...)
	return to, nil
}

// writeSession atomically replaces the session file with data.
func (e *Env) writeSession(data []byte) error {
	dir, err := e.writableSessionDir()
	if err != nil {
		return err
	}
	return e.writeSessionIn(dir, data)
}

// writeSessionIn is writeSession into dir, which writableSessionDir returned.
func (e *Env) writeSessionIn(dir string, data []byte) error {
	if err := atomicfile.WriteFile(filepath.Join(dir, SessionFileName), data, 0o644); err != nil {
		return fmt.Errorf("%s: %w", e.SessionPath(), err)
	}
	return nil
}

// archive copies the session bytes to current-plan.<UTC yyyymmddHHMMSS>.<kind> beside it, never
// overwriting an existing archive (a numbered suffix is added instead). The caller then replaces
// or removes current-plan.md, so at no moment is the session's content only in memory. An
// archive of the same kind that already holds exactly these bytes is reused, not copied again:
// a start that failed (or was killed) after archiving and is retried adds no duplicate.
func (e *Env) archive(data []byte, kind string) (string, error) {
	dir, err := e.writableSessionDir()
	if err != nil {
		return "", err
	}
	return e.archiveIn(dir, data, kind)
}

// archiveIn is archive into dir, which writableSessionDir returned.
func (e *Env) archiveIn(dir string, data []byte, kind string) (string, error) {
	sessDir := path.Dir(e.SessionPath())
	if name := sameArchive(dir, kind, data); name != "" {
		return path.Join(sessDir, name), nil
	}
	perm := fs.FileMode(0o644)
	if fi, err := os.Stat(filepath.Join(dir, SessionFileName)); err == nil {
		perm = fi.Mode().Perm()
	}
	stamp := e.now().UTC().Format("20060102150405")
	for i := 1; i < 1000; i++ {
		name := "current-plan." + stamp + "." + kind
		if i > 1 {
			name = fmt.Sprintf("current-plan.%s-%d.%s", stamp, i, kind)
		}
		create := atomicfile.CreateExclusive
		if kind == KindPreCompact {
			// A copy taken before an agent compacts its context; the session itself is durable,
			// so not waiting for the disk loses nothing a crash would not lose anyway, and keeps
			// the PreCompact hook as fast as gsd --version.
			create = atomicfile.CreateExclusiveUnsynced
		}
		err := create(filepath.Join(dir, name), data, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		return path.Join(sessDir, name), nil
	}
	return "", fmt.Errorf("%s: too many archives named current-plan.%s.*", sessDir, stamp)
}

// sameArchive returns the name of an archive of this kind in dir whose content is data, or "".
func sameArchive(dir, kind string, data []byte) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, de := range entries {
		name := de.Name()
		if !strings.HasPrefix(name, "current-plan.") || !strings.HasSuffix(name, "."+kind) || !de.Type().IsRegular() {
			continue
		}
		if fi, err := de.Info(); err != nil || fi.Size() != int64(len(data)) {
			continue
		}
		if b, err := atomicfile.ReadFile(filepath.Join(dir, name), MaxFileSize); err == nil && bytes.Equal(b, data) {
			return name
		}
	}
	return ""
}
