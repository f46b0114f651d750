package hydrate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/identity"
)

// TakenOver is a takeover of a session, as a teammate's gsd sync published it.
type TakenOver struct {
	By     string    `json:"by"`
	Host   *string   `json:"host"`
	Remote string    `json:"remote"`
	Time   time.Time `json:"time"`
}

// fetchedTimeout bounds reading the fetched sessions (two local git processes).
const fetchedTimeout = 10 * time.Second

// hasFetched says, without running git, whether the project's repository may hold sessions
// gsd sync fetched: a stat of refs/gsd/remotes, else a look through packed-refs. Without them
// gsd sessions runs no git at all.
func (e *Env) hasFetched() bool {
	if e.git == nil {
		return false
	}
	repo, ok := e.gitRepo()
	if !ok {
		return false
	}
	return teamsync.HasFetched(filepath.ToSlash(repo.CommonDir), func(p string) bool {
		_, err := os.Stat(filepath.FromSlash(p))
		return err == nil
	}, packedRefsHas)
}

// gitRepo is the project's git repository as git finds it; ok is false outside one. In the
// usual checkout (a .git directory at the root, no GIT_DIR) it is told from one stat, without
// git's discovery.
func (e *Env) gitRepo() (repo identity.Repo, ok bool) {
	_, gitDirSet := e.lookupEnvOr("GIT_DIR")
	if fi, err := os.Lstat(filepath.Join(e.Root, ".git")); err == nil && fi.IsDir() && !gitDirSet {
		dir := filepath.Join(e.Root, ".git")
		return identity.Repo{GitDir: dir, CommonDir: dir, WorkTree: e.Root}, true
	}
	repo, ok, err := identity.FindRepo(e.Root, e.lookupEnv)
	return repo, err == nil && ok
}

// packedRefsHas says whether the packed-refs file at p has a line holding s, reading it in
// pieces (it can be megabytes in a large repository).
func packedRefsHas(p, s string) bool {
	f, err := os.Open(filepath.FromSlash(p))
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	carry := 0
	for {
		n, err := f.Read(buf[carry:])
		if bytes.Contains(buf[:carry+n], []byte(s)) {
			return true
		}
		if err != nil {
			return false
		}
		// Keep the tail that could begin a match across the boundary.
		keep := min(len(s)-1, carry+n)
		copy(buf, buf[carry+n-keep:carry+n])
		carry = keep
		if errors.Is(err, io.EOF) {
			return false
		}
	}
}

// fetchedSessions reads the sessions gsd sync fetched; nil when there are none (or no git).
func (e *Env) fetchedSessions() ([]teamsync.Fetched, error) {
	if !e.hasFetched() {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), fetchedTimeout)
	defer cancel()
	return teamsync.Repo{Git: e.git}.ListFetched(ctx, MaxFileSize)
}

// addFetched adds to res the teammates' sessions gsd sync fetched, judged by the rules of this
// checkout's, and marks the sessions that teammates took over.
func (e *Env) addFetched(res *SessionsResult, now time.Time, idleAfter time.Duration) {
	list, err := e.fetchedSessions()
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: cannot read the fetched sessions: %v", teamsync.RemotesPrefix, err))
		return
	}
	takeovers := map[string][]TakenOver{} // by user taken over
	for _, f := range list {
		if f.Meta == nil {
			continue
		}
		for _, h := range f.Meta.Handovers {
			if h.By != f.User {
				continue
			}
			var host *string
			if h.Host != "" {
				host = ptr(h.Host)
			}
			takeovers[h.User] = mergeTakeovers(takeovers[h.User], []TakenOver{{By: h.By, Host: host, Remote: f.Remote, Time: h.Time}})
		}
	}
	e.ownTakeovers(list, takeovers)
	for i := range res.Sessions {
		ts := &res.Sessions[i]
		ts.TakenOverBy = mergeTakeovers(ts.TakenOverBy, takeoversSince(takeovers[ts.User], ts.LastActivity))
		judgeTakenOver(ts)
	}
	local := map[string]bool{}
	for _, ts := range res.Sessions {
		local[ts.User] = true
	}
	for _, f := range list {
		if f.User == e.User.User && e.User.User != "" || local[f.User] {
			continue // the user's own published session, or one this checkout has: this checkout's is the one
		}
		ts := e.fetchedTeamSession(f, now, idleAfter)
		ts.TakenOverBy = takeoversSince(takeovers[f.User], ts.LastActivity)
		judgeTakenOver(&ts)
		res.Sessions = append(res.Sessions, ts)
	}
}

// fetchedTeamSession judges one fetched session as teamSession judges one of this checkout.
func (e *Env) fetchedTeamSession(f teamsync.Fetched, now time.Time, idleAfter time.Duration) SessionSummary {
	remote, ref, synced := f.Remote, f.Ref, f.SyncedAt
	ts := SessionSummary{User: f.User, Path: f.Ref + ":" + SessionFileName, Kinds: map[string]int{}, Reasons: []string{}, InProgress: []int{},
		Remote: &remote, Ref: &ref}
	if !synced.IsZero() {
		ts.SyncedAt = &synced
	}
	for _, n := range f.Names {
		if _, _, kind, ok := parseSnapshotID(n); ok {
			ts.Snapshots++
			ts.Kinds[kind]++
		}
	}
	if f.Problem != "" && f.Meta == nil && !f.HasSession {
		ts.State = TeamCorrupt
		ts.Reasons = append(ts.Reasons, f.Ref+": "+f.Problem)
		return ts
	}
	if f.Problem != "" {
		ts.Reasons = append(ts.Reasons, f.Ref+": "+f.Problem)
	}
	ts.LastActivity, ts.ActivityFrom = synced.Truncate(time.Second), "sync"
	if f.Meta != nil {
		ts.Instance = f.Meta.Instance
		if f.Meta.LastEventTime != nil && f.HasSession && f.Meta.LastEventHash == journal.Hash(f.Session, true) {
			ts.LastActivity, ts.ActivityFrom = f.Meta.LastEventTime.UTC().Truncate(time.Second), "journal"
		}
	}
	if !f.HasSession {
		ts.State = TeamNoSession
		return ts
	}
	other := *e
	other.User.User = f.User
	other.histWarn = nil
	s, err := other.inspectBytes(ts.Path, f.Session)
	if err != nil {
		ts.State = TeamCorrupt
		ts.Reasons = append(ts.Reasons, err.Error())
		return ts
	}
	e.judgeTeam(&ts, s, now, idleAfter)
	return ts
}

// findFetched is user's fetched session: from remote when given, else from the only remote
// that has one; with several, the user is asked to name the remote.
func (e *Env) findFetched(user, remote string) (*teamsync.Fetched, error) {
	list, err := e.fetchedSessions()
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the fetched sessions: %v", teamsync.RemotesPrefix, err)
	}
	var found []teamsync.Fetched
	for _, f := range list {
		if f.User == user && (remote == "" || f.Remote == remote) {
			found = append(found, f)
		}
	}
	switch {
	case len(found) == 0:
		return nil, nil
	case len(found) > 1:
		return nil, &ArgError{Err: fmt.Errorf("%s has sessions fetched from %s and %s: name one (gsd resume %s@%s)", user, found[0].Remote, found[1].Remote, user, found[0].Remote)}
	}
	return &found[0], nil
}

func (e *Env) lookupEnvOr(key string) (string, bool) {
	if e.lookupEnv == nil {
		return "", false
	}
	return e.lookupEnv(key)
}
