package hydrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Snapshot kinds. Automatic ones are pruned to History.KeepSnapshots; the others are never
// deleted by gsd.
const (
	KindStale      = "stale"       // a stale session replaced by a fresh one, or gsd archive
	KindCorrupt    = "corrupt"     // a session that was not a session
	KindManual     = "manual"      // gsd snapshot
	KindPreRestore = "pre-restore" // the session gsd restore replaced
	KindPreCompact = "pre-compact" // the session before an agent's context compaction
	KindCarried    = "carried"     // a session whose statuses were carried to a fresh one
	// KindPreReconcile is the session before hydrate set statuses from the tasks' commits.
	KindPreReconcile = "pre-reconcile"
)

// automatic says whether snapshots of kind are pruned.
func automatic(kind string) bool {
	return kind == KindPreRestore || kind == KindPreCompact || kind == KindCarried || kind == KindPreReconcile
}

// splitSnapshotName matches `^current-plan\.(\d{14})(?:-(\d+))?\.([a-z][a-z-]*)$` and returns
// the stamp, the counter ("" when none) and the kind (a matcher, not a regular expression
// compiled at every start).
func splitSnapshotName(id string) (stamp, n, kind string, ok bool) {
	rest, found := strings.CutPrefix(id, "current-plan.")
	if !found || len(rest) < 14 || !allDigits(rest[:14]) {
		return "", "", "", false
	}
	stamp, rest = rest[:14], rest[14:]
	if r, found := strings.CutPrefix(rest, "-"); found {
		i := 0
		for i < len(r) && '0' <= r[i] && r[i] <= '9' {
			i++
		}
		if i == 0 {
			return "", "", "", false
		}
		n, rest = r[:i], r[i:]
	}
	kind, found = strings.CutPrefix(rest, ".")
	if !found || kind == "" || kind[0] < 'a' || kind[0] > 'z' {
		return "", "", "", false
	}
	for i := 0; i < len(kind); i++ {
		if c := kind[i]; (c < 'a' || c > 'z') && c != '-' {
			return "", "", "", false
		}
	}
	return stamp, n, kind, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// SnapshotInfo describes one snapshot of the user's session.
type SnapshotInfo struct {
	ID      string          `json:"id"`   // the file name
	Path    string          `json:"path"` // root-relative
	Time    time.Time       `json:"time"`
	Kind    string          `json:"kind"`
	Plan    string          `json:"plan"`
	Counts  planfile.Counts `json:"counts"`
	Problem *string         `json:"problem"` // why plan and counts are unknown, null when they are known

	n int // the same-second suffix, for ordering
}

// parseSnapshotID splits a snapshot file name into its time, same-second number and kind.
func parseSnapshotID(id string) (time.Time, int, string, bool) {
	stamp, counter, kind, ok := splitSnapshotName(id)
	if !ok {
		return time.Time{}, 0, "", false
	}
	t, err := time.Parse("20060102150405", stamp)
	if err != nil {
		return time.Time{}, 0, "", false
	}
	n := 1
	if counter != "" {
		n, _ = strconv.Atoi(counter)
	}
	return t, n, kind, true
}

// Snapshots lists the user's snapshots, oldest first, with the plan and progress of each.
func (h SessionHistory) Snapshots() ([]SnapshotInfo, error) {
	e := h.e
	dir := path.Dir(e.SessionPath())
	entries, err := fs.ReadDir(e.FS, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []SnapshotInfo
	for _, de := range entries {
		t, n, kind, ok := parseSnapshotID(de.Name())
		if !ok || !de.Type().IsRegular() {
			continue
		}
		si := SnapshotInfo{ID: de.Name(), Path: path.Join(dir, de.Name()), Time: t, Kind: kind, n: n}
		if src, err := e.readFile(si.Path); err != nil {
			si.Problem = ptr(err.Error())
		} else {
			p := planfile.Scan(src)
			si.Plan = p.Header.Plan
			if sts, err := p.Statuses(); err != nil || p.Err != nil || len(p.CorruptReasons()) > 0 {
				si.Problem = ptr("not a valid session")
			} else {
				si.Counts = planfile.Count(sts)
			}
		}
		out = append(out, si)
	}
	sortSnapshots(out)
	return out, nil
}

func ptr(s string) *string { return &s }

func sortSnapshots(s []SnapshotInfo) {
	sort.SliceStable(s, func(i, j int) bool {
		if !s[i].Time.Equal(s[j].Time) {
			return s[i].Time.Before(s[j].Time)
		}
		return s[i].n < s[j].n
	})
}

// SnapshotResult is what Snapshot made.
type SnapshotResult struct {
	ID   string
	Path string // root-relative
}

// ErrNoSession means there is no session to work on.
var ErrNoSession = errors.New("no session")

// Snapshot copies the user's session to a manual snapshot, which gsd never deletes.
func (h SessionHistory) Snapshot(reason string) (*SnapshotResult, error) {
	return h.SnapshotAs(KindManual, reason)
}

// SnapshotAs copies the user's session to a snapshot of kind; automatic kinds are then pruned.
func (h SessionHistory) SnapshotAs(kind, reason string) (*SnapshotResult, error) {
	e := h.e
	var res *SnapshotResult
	err := e.withLock(func() error {
		rel := e.SessionPath()
		src, err := e.readFile(rel)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w to snapshot", rel, ErrNoSession)
		}
		if err != nil {
			return err
		}
		to, err := e.archive(src, kind)
		if err != nil {
			return err
		}
		e.record(src, true, journal.Event{Type: journal.Snapshot, Snapshot: snapshotID(to), Note: joinNote(kind, reason), SHA256: journal.Hash(src, true)})
		res = &SnapshotResult{ID: snapshotID(to), Path: to}
		if automatic(kind) {
			e.prune()
		}
		return nil
	})
	return res, err
}

func joinNote(kind, reason string) string {
	if reason == "" {
		return kind
	}
	return kind + ": " + reason
}

// TaskChange is one task whose status a restore changes.
type TaskChange struct {
	Number int    `json:"number"`
	Name   string `json:"name"`
	From   string `json:"from"` // "" when the current session has no such task
	To     string `json:"to"`
}

// RestoreResult is what Restore did, or with DryRun would do.
type RestoreResult struct {
	ID         string       // the snapshot restored
	PreRestore string       // the snapshot the replaced session was kept as ("" when none, or a dry run)
	HadSession bool         // a session was there before
	FromPlan   string       // the plan of the session replaced
	Plan       string       // the plan of the snapshot
	Changes    []TaskChange // tasks whose status differs (same plan only)
	Identical  bool         // the session already has the snapshot's bytes: nothing written
	DryRun     bool
	Session    *Session // the session after (or, dry run, as it would be)
}

// ErrNoSuchSnapshot means a snapshot id names no snapshot of the user.
var ErrNoSuchSnapshot = errors.New("no such snapshot (gsd snapshots lists them)")

// Restore makes snapshot id the user's session. The session it replaces is kept first as a
// pre-restore snapshot, so a restore is itself undone by restoring that. With dryRun it writes
// nothing and says what would change.
func (h SessionHistory) Restore(id string, dryRun bool) (*RestoreResult, error) {
	e := h.e
	if _, _, _, ok := parseSnapshotID(id); !ok {
		return nil, &ArgError{Err: fmt.Errorf("%s: %w", textfmt.Quote(id), ErrNoSuchSnapshot)}
	}
	snapRel := path.Join(path.Dir(e.SessionPath()), id)
	var res *RestoreResult
	run := func() error {
		snap, err := e.readFile(snapRel)
		if errors.Is(err, fs.ErrNotExist) {
			return &ArgError{Err: fmt.Errorf("%s: %w", snapRel, ErrNoSuchSnapshot)}
		}
		if err != nil {
			return err
		}
		rel := e.SessionPath()
		cur, err := e.readFile(rel)
		exists := err == nil
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		res = &RestoreResult{ID: id, HadSession: exists, DryRun: dryRun}
		after := &Session{Path: rel}
		if err := after.read(snap); err != nil {
			return fmt.Errorf("%s: %w", snapRel, err)
		}
		res.Plan, res.Session = after.Plan, after
		if exists {
			before := &Session{Path: rel}
			if before.read(cur) == nil {
				res.FromPlan = before.Plan
				if before.Plan == after.Plan {
					res.Changes = changes(before, after)
				}
			}
		}
		if dryRun {
			res.Identical = exists && bytes.Equal(cur, snap)
			return nil
		}
		if exists && bytes.Equal(cur, snap) {
			// Nothing to write; but a restore killed between the session and its events left
			// the journal behind the session: it catches up.
			res.Identical = true
			e.reconcile(cur, true, reconcileNote)
			return nil
		}
		to, err := e.replaceSession(cur, exists, KindPreRestore, res.FromPlan, snap, func(string) journal.Event {
			return journal.Event{Type: journal.Restore, Snapshot: id, Plan: after.Plan}
		})
		if to != "" {
			res.PreRestore = snapshotID(to)
		}
		if err != nil {
			return err
		}
		e.prune()
		return nil
	}
	var err error
	if dryRun {
		err = run()
	} else {
		err = e.withLock(run)
	}
	if err != nil {
		return nil, err
	}
	if !dryRun {
		if s, err := e.Inspect(); err == nil {
			res.Session = s
		}
	} else {
		e.judge(res.Session)
	}
	return res, nil
}

// changes lists the tasks whose status differs between two versions of one plan's session,
// each task paired with the one it was as carry-over pairs them (by id, else by name), not by
// its place: the plan may have been edited between the two.
func changes(before, after *Session) []TaskChange {
	var out []TaskChange
	from := pairTasks(before.file.Tasks, after.file.Tasks)
	for j, t := range after.Tasks {
		was := ""
		if from[j] > 0 {
			was = string(before.Tasks[from[j]-1].Status)
		}
		if was != string(t.Status) {
			out = append(out, TaskChange{Number: t.Number, Name: t.Name, From: was, To: string(t.Status)})
		}
	}
	return out
}

// prune deletes the oldest automatic snapshots beyond History.KeepSnapshots. A snapshot's time
// and kind are in its name, so prune lists the directory and reads no snapshot: its cost does
// not grow with the manual, stale and corrupt archives that are never pruned. It runs under the
// lock; a failure leaves an extra snapshot, which is harmless.
func (e *Env) prune() {
	keep := e.hist.KeepSnapshots
	if keep <= 0 {
		keep = DefaultKeepSnapshots
	}
	dir := path.Dir(e.SessionPath())
	entries, err := fs.ReadDir(e.FS, dir)
	if err != nil {
		return
	}
	var auto []SnapshotInfo
	for _, de := range entries {
		t, n, kind, ok := parseSnapshotID(de.Name())
		if ok && automatic(kind) && de.Type().IsRegular() {
			auto = append(auto, SnapshotInfo{ID: de.Name(), Time: t, Kind: kind, n: n})
		}
	}
	if len(auto) <= keep {
		return
	}
	sortSnapshots(auto) // as Snapshots orders them: the oldest first
	for _, s := range auto[:len(auto)-keep] {
		_ = os.Remove(e.abs(path.Join(dir, s.ID)))
	}
}
