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
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// DefaultSyncTimeout bounds a whole gsd sync: every git it runs, the wait for the lock and the
// merge.
const DefaultSyncTimeout = 30 * time.Second

// syncAttempts bounds the pushes a sync tries: each one the remote refuses because the same
// user pushed from another machine meanwhile (or was pushing at that moment) is followed by a
// fetch and a merge.
const syncAttempts = 5

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
	UpToDate  bool   // the remote had Commit already: nothing pushed
	Merge     *teamsync.Result
	Kept      []string // snapshots a disagreement was kept as
	Adopted   []string // files another machine had that this one did not, written here
	Skipped   []string // files of the session directory that are not gsd's: never published
	Teammates int      // fetched sessions of other users, from Remote
	TakenOver []teamsync.Handover
	Attempts  int
	Conflict  string
	NoSession bool // nothing to publish: no session directory

	Me       teamsync.Identity // who the sync commits as: whose commits are this user's other machines'
	Foreign  *Foreign          // a version of the user's ref that was not taken
	NotRead  []string          // refs of the remote that name no user: not fetched
	Gone     []string          // teammates whose refs the remote no longer has: their fetched refs deleted
	Replaced string            // what the remote's ref held that is no commit, replaced by the push
	Dropped  []string          // refs nested under the user's own on the remote, deleted by the push
}

// Foreign is a version of the user's ref that a sync did not take: commits on it that someone
// else wrote, or that hold more than gsd reads.
type Foreign struct {
	Commit   string            // the version not taken (the ref's commit)
	By       teamsync.Identity // who wrote it (the newest commit on it that is not the user's)
	Why      string            // why it was not taken
	Snapshot string            // the snapshot its session was kept as, "" when none was
}

// SyncError is a sync that could not reach or convince the remote: one line, naming it.
type SyncError struct {
	Remote, URL string
	Step        string // "fetch from", "push to", ...
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
	case errors.Is(e.Err, context.DeadlineExceeded):
		return fmt.Sprintf("gave up after %s, trying to %s %s; nothing was lost (GSD_SYNC_TIMEOUT or --timeout waits longer)", e.Timeout, e.Step, where)
	case errors.As(e.Err, &ge) && ge.Stderr != "":
		return fmt.Sprintf("cannot %s %s: %s", e.Step, where, teamsync.FirstLine(ge.Stderr))
	}
	return fmt.Sprintf("cannot %s %s: %v", e.Step, where, e.Err)
}

func (e *SyncError) Unwrap() error { return e.Err }

// syncRepo is the project's repository, for gsd sync.
func syncRepo(g teamsync.Git) teamsync.Repo { return teamsync.Repo{Git: g} }

// remoteState is what the remote has under refs/gsd/sessions/, as the last fetch found it.
type remoteState struct {
	own    *teamsync.RemoteRef  // the user's own ref, nil when the remote has none
	nested []teamsync.RemoteRef // refs nested under the user's own
}

// Sync publishes the user's session directory on refs/gsd/sessions/<user> and pushes it, after
// fetching every teammate's session (and this user's own, from other machines, merged here
// first: see teamsync.Merge), all within opt.Timeout. It changes nothing but that ref, the
// fetched refs and, after a merge, the user's own session directory.
//
// Only the refs that name a user are fetched; the others are reported (NotRead), and the
// fetched refs of users the remote no longer has are deleted. The user's own ref is taken from
// the remote only as far as the user wrote it: commits on it whose author or committer is not
// the user's git identity (Me) are not merged, their session kept as a snapshot (Foreign); so
// is a version over the caps (teamsync.MaxRefFiles, MaxRefBytes).
func (t Team) Sync(ctx context.Context, opt SyncOptions) (*SyncResult, error) {
	e := t.e
	if err := teamsync.CheckUser(e.User.User); err != nil {
		return nil, &ArgError{Err: err}
	}
	if opt.Timeout <= 0 {
		opt.Timeout = DefaultSyncTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
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
	fail := func(step string, err error) error {
		if ctx.Err() != nil && !errors.Is(err, context.DeadlineExceeded) {
			var ge *teamsync.Error
			if !errors.As(err, &ge) || !ge.TimedOut {
				err = fmt.Errorf("%w: %v", ctx.Err(), err)
			}
		}
		return &SyncError{Remote: opt.Remote, URL: url, Step: step, Err: err, Timeout: opt.Timeout}
	}
	res.Me = repo.Identity(ctx, e.User.User)
	var rs remoteState
	fetch := func() error {
		refs, err := repo.ListRemote(ctx, opt.Remote)
		if err != nil {
			return fail("fetch from", err)
		}
		rs = remoteState{}
		res.NotRead = nil
		var users []string
		seen := map[string]bool{}
		for _, r := range refs {
			if strings.HasPrefix(r.Name, res.Ref+"/") {
				rs.nested = append(rs.nested, r)
			}
			user, ok := teamsync.UserOf(r.Name)
			switch {
			case !ok:
				res.NotRead = append(res.NotRead, r.Name)
				continue
			case len(users) >= teamsync.MaxRefs && user != e.User.User:
				res.NotRead = append(res.NotRead, r.Name+fmt.Sprintf(" (more than the %d users gsd sync fetches)", teamsync.MaxRefs))
				continue
			}
			if r.Name == res.Ref {
				own := r
				rs.own = &own
			}
			users, seen[user] = append(users, user), true
		}
		gone, err := repo.Prune(ctx, opt.Remote, func(u string) bool { return seen[u] })
		if err != nil {
			return fail("fetch from", err)
		}
		for _, u := range gone {
			if teamsync.CheckUser(u) == nil && u != e.User.User {
				res.Gone = append(res.Gone, u)
			}
		}
		if err := repo.Fetch(ctx, opt.Remote, users); err != nil {
			return fail("fetch from", err)
		}
		return nil
	}
	if err := fetch(); err != nil {
		return nil, err
	}
	if !opt.NoPush {
		for res.Attempts = 1; ; res.Attempts++ {
			if err := e.publish(ctx, repo, opt, res, rs); err != nil {
				if ctx.Err() != nil {
					return res, fail("merge and publish for", err)
				}
				return res, err
			}
			if res.Commit == "" {
				break
			}
			if rs.own != nil && rs.own.Object == res.Commit {
				res.Pushed, res.UpToDate = true, true // the remote has it already
				break
			}
			if err := repo.DropNested(ctx, opt.Remote, res.Ref, rs.nested); err != nil {
				return res, fail("push to", err)
			}
			for _, n := range rs.nested {
				res.Dropped = append(res.Dropped, n.Name)
			}
			lease := ""
			if rs.own != nil {
				if c, ok, _ := repo.RefCommit(ctx, teamsync.FetchedRef(opt.Remote, e.User.User)); !ok || c != rs.own.Object {
					lease = rs.own.Object // no commit gsd can build on: replaced, if it is still there
				}
			}
			err := repo.Push(ctx, opt.Remote, res.Ref, lease)
			if err == nil {
				res.Pushed, res.Replaced = true, lease
				// The remote now has it: what was fetched of this user's ref is that, too.
				_ = repo.UpdateRef(ctx, teamsync.FetchedRef(opt.Remote, e.User.User), res.Commit, "-", "gsd sync: pushed")
				break
			}
			if !errors.Is(err, teamsync.ErrRejected) || res.Attempts >= syncAttempts {
				return res, fail("push to", err)
			}
			// The same user pushed from another machine since the fetch: merge theirs, again.
			if err := fetch(); err != nil {
				return res, err
			}
		}
	}
	fetched, err := repo.ListFetched(ctx, MaxFileSize)
	if err != nil {
		return res, fail("read what was fetched from", err)
	}
	for _, f := range fetched {
		if f.Remote == opt.Remote && f.User != e.User.User {
			res.Teammates++
		}
	}
	res.TakenOver = e.recordTakeovers(ctx, fetched)
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
// another machine of the user pushed; res.Commit is what to push ("" for nothing). A directory
// that has not changed since it was last published makes no commit; one that is what another
// machine published takes that machine's commit: two machines of one user come to one commit,
// and the ref stops moving.
func (e *Env) publish(ctx context.Context, repo teamsync.Repo, opt SyncOptions, res *SyncResult, rs remoteState) error {
	own := res.Ref
	fetchedOwn := teamsync.FetchedRef(opt.Remote, e.User.User)
	return e.withLockCtx(ctx, func() error {
		local, hasLocal, err := repo.RefCommit(ctx, own)
		if err != nil {
			return err
		}
		theirs, hasTheirs, err := repo.RefCommit(ctx, fetchedOwn)
		if err != nil {
			return err
		}
		var parents []string
		if hasLocal {
			parents = append(parents, local)
		}
		took := false // the directory now holds all of theirs
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
				if took, err = e.mergeOwn(ctx, repo, theirs, local, fetchedOwn, res); err != nil {
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
		if err := e.checkPublishable(dir, names); err != nil {
			return err
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
		blobs, err := repo.WriteBlobs(ctx, files)
		if err != nil {
			return err
		}
		same := func(commit string) bool {
			ents, err := repo.Tree(ctx, commit)
			return err == nil && teamsync.SameFiles(blobs, ents)
		}
		switch {
		case len(parents) == 1 && hasLocal && same(local):
			// Nothing changed since the last sync.
			res.Commit = local
			return nil
		case took && same(theirs):
			// This machine has exactly what another published: take its commit, make none.
			if err := repo.UpdateRef(ctx, own, theirs, local, "gsd sync: took "+theirs); err != nil {
				return err
			}
			res.Commit = theirs
			return nil
		}
		commit, err := repo.Commit(ctx, blobs, parents, res.Me, "gsd sync: "+e.User.User+"'s session", e.now())
		if err != nil {
			return err
		}
		if err := repo.UpdateRef(ctx, own, commit, local, "gsd sync"); err != nil {
			return err
		}
		res.Commit, res.Published = commit, true
		return nil
	})
}

// checkPublishable refuses a session directory that holds more than a session ref may (the
// files names of dir, as sessionFiles listed them): another machine would not read it.
func (e *Env) checkPublishable(dir string, names []string) error {
	rel := path.Dir(e.SessionPath())
	if len(names)+1 > teamsync.MaxRefFiles {
		return fmt.Errorf("%s: %d files, more than the %d a session ref may hold; gsd sync publishes nothing until snapshots are removed", rel, len(names), teamsync.MaxRefFiles-1)
	}
	var total int64
	for _, n := range names {
		fi, err := os.Lstat(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		limit := int64(MaxFileSize)
		if n == journal.FileName {
			limit = MaxJournalSize
		}
		if fi.Size() > limit {
			return fmt.Errorf("%s: larger than the %d MiB another machine reads of it; gsd sync publishes nothing", path.Join(rel, n), limit>>20)
		}
		total += fi.Size()
	}
	if total > teamsync.MaxRefBytes {
		return fmt.Errorf("%s: its files hold %d bytes, more than the %d MiB a session ref may; gsd sync publishes nothing until snapshots are removed", rel, total, teamsync.MaxRefBytes>>20)
	}
	return nil
}

// mergeOwn merges into the user's session directory what another machine of the user pushed on
// their ref (theirs, fetched as ref; local is what this machine last published, "" for
// nothing): the newest version on it that the user alone wrote (teamsync.Newest), within the
// caps. A version someone else wrote, or one over the caps, is not merged: its session is kept
// as a sync-foreign snapshot and res.Foreign says who wrote it and why. took says the
// directory now holds all of theirs.
func (e *Env) mergeOwn(ctx context.Context, repo teamsync.Repo, theirs, local, ref string, res *SyncResult) (took bool, err error) {
	cs, over, err := repo.NewCommits(ctx, theirs, local)
	if err != nil {
		return false, err
	}
	pick, why := teamsync.Newest(cs, res.Me), ""
	if pick == "" && over {
		why = fmt.Sprintf("none of its newest %d commits is yours", teamsync.MaxNewCommits)
	}
	var by teamsync.Identity
	if pick != theirs && why == "" {
		for _, c := range cs {
			if !c.Mine(res.Me) {
				by = c.Author
				if c.Author.Same(res.Me) {
					by = c.Committer
				}
				why = "written by " + by.String() + ", not by you (" + res.Me.String() + ")"
				break
			}
		}
	}
	if pick != "" {
		merged, notTaken, err := e.mergeFrom(ctx, repo, pick, ref, res)
		if err != nil {
			return false, err
		}
		if !merged {
			pick, why = "", notTaken
		}
	}
	if pick == theirs {
		return true, nil
	}
	res.Foreign = &Foreign{Commit: theirs, By: by, Why: why}
	return false, e.keepForeign(ctx, repo, theirs, ref, res.Foreign)
}

// keepForeign keeps the session of commit (fetched as ref), a version of the user's ref that
// was not taken, as a sync-foreign snapshot, when it is within the caps, and journals it with
// who wrote it. The caller holds the lock.
func (e *Env) keepForeign(ctx context.Context, repo teamsync.Repo, commit, ref string, f *Foreign) error {
	ents, err := repo.Tree(ctx, commit)
	if err != nil {
		var ce *teamsync.CapError
		if errors.As(err, &ce) {
			return nil // nothing read, nothing kept: f.Why says why
		}
		return err
	}
	files, err := repo.ReadBounded(ctx, ents, func(name string) int64 {
		if name == SessionFileName {
			return MaxFileSize
		}
		return 0
	})
	var ce *teamsync.CapError
	if errors.As(err, &ce) {
		return nil
	}
	if err != nil {
		return err
	}
	sess, ok := files[SessionFileName]
	if !ok {
		return nil
	}
	dir, err := e.writableSessionDir()
	if err != nil {
		return err
	}
	to, err := e.archiveIn(dir, sess, teamsync.KindSyncForeign)
	if err != nil {
		return err
	}
	f.Snapshot = snapshotID(to)
	src, serr := e.readFile(e.SessionPath())
	exists := serr == nil
	e.record(src, exists, journal.Event{Type: journal.Snapshot, Snapshot: f.Snapshot, Plan: planfile.ReadHeader(sess).Plan,
		Note: teamsync.KindSyncForeign + ": " + ref + " " + short12(commit) + " not taken: " + f.Why, SHA256: journal.Hash(src, exists)})
	return nil
}

func short12(commit string) string { return commit[:min(len(commit), 12)] }

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

// mergeFrom merges into the user's session directory the version another machine of the user
// published (commit, fetched as ref): the journals united, the session decided by
// teamsync.Merge, the snapshots this machine lacks written, both sides of a disagreement kept as
// snapshots. Nothing of the directory is removed, and nothing is written through a link: a
// session file or journal here that is a link, or not a regular file, stops the merge before
// anything is read or written. A version over the caps is not merged (merged false, whyNot
// says why), before anything of it is read whole. The caller holds the lock.
func (e *Env) mergeFrom(ctx context.Context, repo teamsync.Repo, commit, ref string, res *SyncResult) (merged bool, whyNot string, err error) {
	dir, err := e.writableSessionDir()
	if err != nil {
		return false, "", err
	}
	for _, name := range []string{SessionFileName, journal.FileName} {
		if _, err := e.checkRegular(dir, name); err != nil {
			return false, "", err
		}
	}
	ents, err := repo.Tree(ctx, commit)
	var ce *teamsync.CapError
	if errors.As(err, &ce) {
		return false, "it holds " + ce.What, nil
	}
	if err != nil {
		return false, "", fmt.Errorf("%s: %v", ref, err)
	}
	files, err := repo.ReadBounded(ctx, ents, func(name string) int64 {
		switch _, _, _, snap := parseSnapshotID(name); {
		case name == SessionFileName:
			return MaxFileSize
		case name == journal.FileName:
			return MaxJournalSize
		case snap:
			if _, err := os.Lstat(filepath.Join(dir, name)); errors.Is(err, fs.ErrNotExist) {
				return MaxFileSize // one this machine lacks
			}
		}
		return 0
	})
	if errors.As(err, &ce) {
		return false, ce.What, nil
	}
	if err != nil {
		return false, "", fmt.Errorf("%s: %v", ref, err)
	}
	read := func(name string, limit int64) ([]byte, bool, error) {
		b, err := e.readFileUpTo(path.Join(path.Dir(e.SessionPath()), name), limit)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		return b, err == nil, err
	}
	localSess, localExists, err := read(SessionFileName, MaxFileSize)
	if err != nil {
		return false, "", err
	}
	localJournal, _, err := read(journal.FileName, MaxJournalSize)
	if err != nil {
		return false, "", err
	}
	remoteSess, remoteExists := files[SessionFileName]
	m := teamsync.Merge(teamsync.Side{Session: localSess, Exists: localExists, Journal: localJournal, Corrupt: e.corruptReason(localSess, localExists)},
		teamsync.Side{Session: remoteSess, Exists: remoteExists, Journal: files[journal.FileName], Corrupt: e.corruptReason(remoteSess, remoteExists)})
	if len(m.Journal) > MaxJournalSize {
		return false, fmt.Sprintf("the merged journal would be larger than the %d MiB gsd reads", MaxJournalSize>>20), nil
	}
	if err := ctx.Err(); err != nil {
		return false, "", err // nothing written yet
	}
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
			return false, "", fmt.Errorf("%s: %v", path.Join(path.Dir(e.SessionPath()), name), err)
		}
		res.Adopted = append(res.Adopted, name)
	}
	if m.KeepLocal {
		to, err := e.archiveIn(dir, localSess, teamsync.KindSyncLocal)
		if err != nil {
			return false, "", err
		}
		res.Kept = append(res.Kept, snapshotID(to))
	}
	if m.KeepRemote {
		to, err := e.archiveIn(dir, remoteSess, teamsync.KindSyncRemote)
		if err != nil {
			return false, "", err
		}
		res.Kept = append(res.Kept, snapshotID(to))
	}
	if string(m.Journal) != string(localJournal) && len(m.Journal) > 0 {
		if err := e.writeIn(dir, journal.FileName, m.Journal); err != nil {
			return false, "", err
		}
	}
	if m.Exists && (string(m.Session) != string(localSess) || !localExists) {
		if err := e.writeSessionIn(dir, m.Session); err != nil {
			return false, "", err
		}
	}
	// The merged journal must end with the session as it now is, for replay (gsd tasks --at).
	note := "gsd sync merged another machine's session (" + m.Took + ")"
	if m.Conflict != "" {
		note = "gsd sync: " + m.Conflict + "; kept " + strings.Join(res.Kept, " and ") + ", the " + m.Took + " one is current"
	}
	if evs, _ := journal.Parse(m.Journal); len(evs) > 0 {
		e.reconcile(m.Session, m.Exists, note)
	}
	res.Merge, res.Conflict = &m, m.Conflict
	return true, "", nil
}

// corruptReason says why src is not a session gsd reads, "" when it is (or when there is none).
func (e *Env) corruptReason(src []byte, exists bool) string {
	if !exists {
		return ""
	}
	s := &Session{Path: e.SessionPath()}
	if err := s.read(src); err != nil {
		return err.Error()
	}
	if s.State == StateCorrupt {
		return strings.Join(s.CorruptReasons, "; ")
	}
	return ""
}

// recordTakeovers finds, in the teammates' fetched sessions, the takeovers of this user's
// session, and journals each once (a handed-over event): the teammate took it on another
// machine, so this is how this user learns of it.
func (e *Env) recordTakeovers(ctx context.Context, fetched []teamsync.Fetched) []teamsync.Handover {
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
	_ = e.withLockCtx(ctx, func() error {
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
