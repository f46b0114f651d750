package hydrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// DefaultSyncTimeout bounds each network step of gsd sync (the fetch, each push).
const DefaultSyncTimeout = 30 * time.Second

// SyncOptions are gsd sync's inputs.
type SyncOptions struct {
	Remote  string       // "" for the current branch's upstream remote, else origin
	Git     teamsync.Git // the user's git, run in the project
	Timeout time.Duration
	Host    string // this machine's name, for the handover records
	NoPush  bool   // fetch only (the SessionStart hook)
}

// SyncResult is what Sync did.
type SyncResult struct {
	Remote    string
	Ref       string // the user's own ref
	Commit    string // what it points at after the sync ("" when nothing is published)
	Published bool   // a new commit was made
	Pushed    bool   // the remote has Commit
	Merge     *teamsync.Result
	Kept      []string // snapshots a disagreement was kept as
	Adopted   []string // files another machine had that this one did not, written here
	Skipped   []string // files of the session directory that are not gsd's: never published
	Teammates int      // fetched sessions of other users
	TakenOver []teamsync.Handover
	Attempts  int
	Conflict  string
	NoSession bool // nothing to publish: no session directory
}

// SyncError is a sync that could not reach or convince the remote: one line, naming it.
type SyncError struct {
	Remote, URL string
	Step        string // "fetch" or "push"
	Err         error
	Timeout     time.Duration
}

func (e *SyncError) Error() string {
	var ge *teamsync.Error
	var re *teamsync.RefusedError
	where := e.Remote
	if e.URL != "" && e.URL != e.Remote {
		where += " (" + e.URL + ")"
	}
	switch {
	case errors.As(e.Err, &re):
		return fmt.Sprintf("%s refused the push of %s: %s; your session is committed on %s here, nothing is lost, and the next gsd sync pushes it", where, re.Ref, re.Reason, re.Ref)
	case errors.As(e.Err, &ge) && ge.TimedOut:
		return fmt.Sprintf("%s did not answer within %s (%s); nothing was lost (GSD_SYNC_TIMEOUT or --timeout waits longer)", where, e.Timeout, e.Step)
	case errors.As(e.Err, &ge) && ge.Stderr != "":
		return fmt.Sprintf("cannot %s %s: %s", e.Step, where, teamsync.FirstLine(ge.Stderr))
	}
	return fmt.Sprintf("cannot %s %s: %v", e.Step, where, e.Err)
}

func (e *SyncError) Unwrap() error { return e.Err }

// syncRepo is the project's repository, for gsd sync.
func syncRepo(g teamsync.Git) teamsync.Repo { return teamsync.Repo{Git: g} }

// Sync publishes the user's session directory on refs/gsd/sessions/<user> and pushes it, after
// fetching every teammate's session (and this user's own, from other machines, merged here
// first: see teamsync.Merge). It changes nothing but that ref, the fetched refs and, after a
// merge, the user's own session directory.
func (t Team) Sync(ctx context.Context, opt SyncOptions) (*SyncResult, error) {
	e := t.e
	if err := teamsync.CheckUser(e.User.User); err != nil {
		return nil, &ArgError{Err: err}
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultSyncTimeout
	}
	repo := syncRepo(opt.Git)
	if opt.Remote == "" {
		opt.Remote = repo.DefaultRemote(ctx)
	}
	if err := teamsync.CheckRemote(opt.Remote); err != nil {
		return nil, &ArgError{Err: err}
	}
	url, ok, err := repo.RemoteURL(ctx, opt.Remote)
	if err != nil {
		return nil, fmt.Errorf("cannot read the remotes of %s: %v", e.Root, err)
	}
	if !ok {
		return nil, &ArgError{Err: fmt.Errorf("no remote named %q (git remote -v lists them)", opt.Remote)}
	}
	res := &SyncResult{Remote: opt.Remote, Ref: teamsync.OwnRef(e.User.User)}
	fetch := func() error {
		c, cancel := context.WithTimeout(ctx, opt.Timeout)
		defer cancel()
		if err := repo.Fetch(c, opt.Remote); err != nil {
			return &SyncError{Remote: opt.Remote, URL: url, Step: "fetch from", Err: err, Timeout: opt.Timeout}
		}
		return nil
	}
	if err := fetch(); err != nil {
		return nil, err
	}
	if !opt.NoPush {
		for res.Attempts = 1; ; res.Attempts++ {
			if err := e.publish(ctx, repo, opt, res); err != nil {
				return res, err
			}
			if res.Commit == "" {
				break
			}
			c, cancel := context.WithTimeout(ctx, opt.Timeout)
			err := repo.Push(c, opt.Remote, res.Ref)
			cancel()
			if err == nil {
				res.Pushed = true
				// The remote now has it: what was fetched of this user's ref is that, too.
				_ = repo.UpdateRef(ctx, teamsync.FetchedRef(opt.Remote, e.User.User), res.Commit, "-", "gsd sync: pushed")
				break
			}
			if !errors.Is(err, teamsync.ErrRejected) || res.Attempts >= 3 {
				return res, &SyncError{Remote: opt.Remote, URL: url, Step: "push to", Err: err, Timeout: opt.Timeout}
			}
			// The same user pushed from another machine since the fetch: merge theirs, again.
			if err := fetch(); err != nil {
				return res, err
			}
		}
	}
	fetched, err := repo.ListFetched(ctx)
	if err != nil {
		return res, fmt.Errorf("reading %s: %v", teamsync.RemotesPrefix, err)
	}
	for _, f := range fetched {
		if f.User != e.User.User {
			res.Teammates++
		}
	}
	res.TakenOver = e.recordTakeovers(fetched)
	return res, nil
}

// sessionFiles lists the user's session directory: what gsd sync publishes (the session, the
// journal, the snapshots) and what it does not (anything else: never gsd's to publish).
func (e *Env) sessionFiles() (dir string, publish []string, skipped []string, err error) {
	rel := path.Dir(e.SessionPath())
	dir = e.abs(rel)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return dir, nil, nil, nil
	}
	if err := e.inside(rel, dir); err != nil {
		return "", nil, nil, err
	}
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return dir, nil, nil, nil
	}
	if err != nil {
		return "", nil, nil, err
	}
	for _, d := range ents {
		n := d.Name()
		_, _, _, snap := parseSnapshotID(n)
		ours := n == SessionFileName || n == journal.FileName || snap
		switch {
		case !ours:
			if !atomicfile.IsTemp(n) {
				skipped = append(skipped, n)
			}
		case !d.Type().IsRegular():
			skipped = append(skipped, n+" (not a regular file)")
		default:
			publish = append(publish, n)
		}
	}
	return dir, publish, skipped, nil
}

// publish commits the user's session directory on their ref, merging first the version of it
// another machine pushed; res.Commit is what to push ("" for nothing).
func (e *Env) publish(ctx context.Context, repo teamsync.Repo, opt SyncOptions, res *SyncResult) error {
	own := res.Ref
	fetchedOwn := teamsync.FetchedRef(opt.Remote, e.User.User)
	return e.withLock(func() error {
		local, hasLocal, err := repo.Resolve(ctx, own)
		if err != nil {
			return err
		}
		theirs, hasTheirs, err := repo.Resolve(ctx, fetchedOwn)
		if err != nil {
			return err
		}
		var parents []string
		if hasLocal {
			parents = append(parents, local)
		}
		if hasTheirs && theirs != local {
			behind := !hasLocal
			if hasLocal {
				in, err := repo.IsAncestor(ctx, theirs, local)
				if err != nil {
					return err
				}
				behind = !in
			}
			if behind {
				if err := e.mergeFrom(ctx, repo, theirs, fetchedOwn, res); err != nil {
					return err
				}
				parents = append(parents, theirs)
			}
		}
		dir, names, skipped, err := e.sessionFiles()
		if err != nil {
			return err
		}
		res.Skipped = skipped
		if len(names) == 0 && len(parents) == 0 {
			res.NoSession = true
			return nil
		}
		files := make([]teamsync.PublishFile, 0, len(names)+1)
		for _, n := range names {
			files = append(files, teamsync.PublishFile{Name: n, Path: filepath.Join(dir, n)})
		}
		meta, err := e.syncMeta(opt.Host, names, skipped)
		if err != nil {
			return err
		}
		files = append(files, teamsync.PublishFile{Name: teamsync.MetaFile, Data: meta})
		sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
		commit, tree, err := repo.Commit(ctx, files, parents, e.User.User, "gsd sync: "+e.User.User+"'s session", e.now())
		if err != nil {
			return err
		}
		if hasLocal && len(parents) == 1 {
			if old, err := repo.TreeOf(ctx, local); err == nil && old == tree {
				res.Commit = local // nothing changed since the last sync: push what is there
				return nil
			}
		}
		if len(parents) == 1 && !hasLocal && hasTheirs {
			if old, err := repo.TreeOf(ctx, theirs); err == nil && old == tree {
				commit = theirs // this machine has exactly what another published
			}
		}
		if err := repo.UpdateRef(ctx, own, commit, local, "gsd sync"); err != nil {
			return err
		}
		res.Commit, res.Published = commit, commit != local
		return nil
	})
}

// syncMeta is the published session's teamsync.MetaFile.
func (e *Env) syncMeta(host string, names, skipped []string) ([]byte, error) {
	m := teamsync.Meta{SchemaVersion: 1, User: e.User.User, Host: host, Published: e.now().UTC().Truncate(time.Second), Files: names, Skipped: skipped}
	if lr, err := e.readJournal(); err == nil {
		for _, ev := range lr.Events {
			m.Instance = attached(m.Instance, ev)
			if h, ok := parseHandover(ev, e.User.User); ok {
				m.Handovers = append(m.Handovers, h)
			}
		}
		if n := len(lr.Events); n > 0 {
			t := lr.Events[n-1].Time.UTC()
			m.LastEventTime, m.LastEventHash = &t, lr.Events[n-1].SHA256
		}
	}
	return json.MarshalIndent(m, "", "  ")
}

// The resume event of a session taken over from a fetched ref notes "from USER@REMOTE on HOST".
func handoverNote(user, remote, host string) string {
	n := "from " + user + "@" + remote
	if host != "" {
		n += " on " + host
	}
	return n
}

func parseHandover(ev journal.Event, by string) (teamsync.Handover, bool) {
	if ev.Type != journal.Resume {
		return teamsync.Handover{}, false
	}
	rest, ok := strings.CutPrefix(ev.Note, "from ")
	if !ok {
		return teamsync.Handover{}, false
	}
	who, host, _ := strings.Cut(rest, " on ")
	user, remote, ok := strings.Cut(who, "@")
	if !ok || user == "" || remote == "" {
		return teamsync.Handover{}, false
	}
	return teamsync.Handover{User: user, Remote: remote, By: by, Host: host, Time: ev.Time.UTC(), Plan: ev.Plan}, true
}

// mergeFrom merges into the user's session directory the version another machine published
// (commit, fetched as ref): the journals united, the session decided by teamsync.Merge, the
// snapshots this machine lacks written, both sides of a disagreement kept as snapshots. Nothing
// of the directory is removed. The caller holds the lock.
func (e *Env) mergeFrom(ctx context.Context, repo teamsync.Repo, commit, ref string, res *SyncResult) error {
	files, err := repo.Files(ctx, commit)
	if err != nil {
		return fmt.Errorf("%s: %v", ref, err)
	}
	dir, err := e.writableSessionDir()
	if err != nil {
		return err
	}
	read := func(name string) ([]byte, bool, error) {
		b, err := e.readFileUpTo(path.Join(path.Dir(e.SessionPath()), name), MaxJournalSize)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return b, err == nil, err
	}
	localSess, localExists, err := read(SessionFileName)
	if err != nil {
		return err
	}
	localJournal, _, err := read(journal.FileName)
	if err != nil {
		return err
	}
	remoteSess, remoteExists := files[SessionFileName]
	m := teamsync.Merge(teamsync.Side{Session: localSess, Exists: localExists, Journal: localJournal},
		teamsync.Side{Session: remoteSess, Exists: remoteExists, Journal: files[journal.FileName]})
	res.Merge, res.Conflict = &m, m.Conflict
	// Snapshots first: whatever the session becomes, both sides' are kept.
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, _, _, ok := parseSnapshotID(name); !ok {
			continue
		}
		p := filepath.Join(dir, name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := atomicfile.CreateExclusive(p, files[name], 0o644); err != nil {
			return fmt.Errorf("%s: %v", path.Join(path.Dir(e.SessionPath()), name), err)
		}
		res.Adopted = append(res.Adopted, name)
	}
	if m.KeepLocal {
		to, err := e.archiveIn(dir, localSess, teamsync.KindSyncLocal)
		if err != nil {
			return err
		}
		res.Kept = append(res.Kept, snapshotID(to))
	}
	if m.KeepRemote {
		to, err := e.archiveIn(dir, remoteSess, teamsync.KindSyncRemote)
		if err != nil {
			return err
		}
		res.Kept = append(res.Kept, snapshotID(to))
	}
	jpath, err := e.journalFile()
	if err != nil {
		return err
	}
	if string(m.Journal) != string(localJournal) && len(m.Journal) > 0 {
		if err := atomicfile.WriteFile(jpath, m.Journal, 0o644); err != nil {
			return fmt.Errorf("%s: %v", e.journalPath(), err)
		}
	}
	if m.Exists && (string(m.Session) != string(localSess) || !localExists) {
		if err := e.writeSessionIn(dir, m.Session); err != nil {
			return err
		}
	}
	// The merged journal must end with the session as it now is, for replay (gsd tasks --at).
	evs, _ := journal.Parse(m.Journal)
	var maxSeq int64
	for _, ev := range evs {
		maxSeq = max(maxSeq, ev.Seq)
	}
	h := journal.Hash(m.Session, m.Exists)
	if len(evs) > 0 && evs[len(evs)-1].SHA256 != h && !e.hist.NoJournal {
		note := "gsd sync merged another machine's session (" + m.Took + ")"
		if m.Conflict != "" {
			note = "gsd sync: " + m.Conflict + "; kept " + strings.Join(res.Kept, " and ") + ", the " + m.Took + " one is current"
		}
		rec := journal.Event{SchemaVersion: journal.SchemaVersion, Seq: journal.NextSeq(maxSeq), Time: e.now().UTC(), Type: journal.Reconcile,
			Source: e.hist.Source, Instance: e.hist.Instance, Note: note, SHA256: h}
		if m.Exists {
			rec.Session = string(m.Session)
		}
		if err := journal.Append(jpath, rec); err != nil {
			e.historyWarn("%s: the merge was not recorded: %v", e.journalPath(), err)
		}
	}
	return nil
}

// recordTakeovers finds, in the teammates' fetched sessions, the takeovers of this user's
// session, and journals each once (a handed-over event): the teammate took it on another
// machine, so this is how this user learns of it.
func (e *Env) recordTakeovers(fetched []teamsync.Fetched) []teamsync.Handover {
	var hs []teamsync.Handover
	for _, f := range fetched {
		if f.User == e.User.User || f.Meta == nil {
			continue
		}
		for _, h := range f.Meta.Handovers {
			if h.User == e.User.User && h.By == f.User {
				hs = append(hs, h)
			}
		}
	}
	if len(hs) == 0 || e.hist.NoJournal {
		return hs
	}
	lr, err := e.readJournal()
	if err != nil {
		return hs
	}
	seen := map[string]bool{}
	for _, ev := range lr.Events {
		if ev.Type == journal.HandedOver {
			seen[ev.Note] = true
		}
	}
	_ = e.withLock(func() error {
		src, err := e.readFile(e.SessionPath())
		exists := err == nil
		for _, h := range hs {
			note := takenOverNote(h)
			if seen[note] {
				continue
			}
			e.record(src, exists, journal.Event{Type: journal.HandedOver, Plan: h.Plan, Note: note, SHA256: journal.Hash(src, exists)})
		}
		return nil
	})
	return hs
}

// takenOverNote is the handed-over event of a takeover seen through a sync.
func takenOverNote(h teamsync.Handover) string {
	n := "resumed by " + h.By
	if h.Host != "" {
		n += " on " + h.Host
	}
	return n + " at " + h.Time.Format(time.RFC3339) + " (seen through " + h.Remote + ")"
}

// handedOverTo reads a handed-over event back: takenOverNote's, or gsd resume's on this checkout
// ("resumed by USER", at the event's time, Remote "").
func handedOverTo(ev journal.Event) (TakenOver, bool) {
	rest, ok := strings.CutPrefix(ev.Note, "resumed by ")
	if ev.Type != journal.HandedOver || !ok {
		return TakenOver{}, false
	}
	t := TakenOver{Time: ev.Time.UTC()}
	if r, ok := strings.CutSuffix(rest, ")"); ok {
		if i := strings.LastIndex(r, " (seen through "); i >= 0 {
			rest, t.Remote = r[:i], r[i+len(" (seen through "):]
		}
	}
	if i := strings.LastIndex(rest, " at "); i >= 0 {
		if at, err := time.Parse(time.RFC3339, rest[i+len(" at "):]); err == nil {
			rest, t.Time = rest[:i], at.UTC()
		}
	}
	by, host, ok := strings.Cut(rest, " on ")
	if ok && host != "" {
		t.Host = &host
	}
	t.By = by
	return t, by != ""
}
