package teamsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
)

// Identity is who writes a commit: a name and an email.
type Identity struct{ Name, Email string }

func (id Identity) String() string { return id.Name + " <" + id.Email + ">" }

// Same says whether two identities are one person's, by their emails (as git compares them,
// without regard to case).
func (id Identity) Same(o Identity) bool { return strings.EqualFold(id.Email, o.Email) }

// SyncEmailDomain is the domain of the email a sync commits with when the user has told git
// none: user@gsd-sync.invalid.
const SyncEmailDomain = "gsd-sync.invalid"

// Identity is the identity the user's git commits with, when the user told git one (user.name
// and user.email, or GIT_COMMITTER_NAME and GIT_COMMITTER_EMAIL): git's own answer, never one
// guessed from the host name. Else it is user.email alone with the name user, else
// user <user@gsd-sync.invalid>, so that a sync never fails for want of an email.
func (r Repo) Identity(ctx context.Context, user string) Identity {
	out, err := r.Git.Run(ctx, nil, nil, "-c", "user.useConfigOnly=true", "var", "GIT_COMMITTER_IDENT")
	if err == nil {
		l := strings.TrimSpace(string(out))
		lt, gt := strings.IndexByte(l, '<'), strings.LastIndexByte(l, '>')
		if lt > 0 && gt > lt+1 {
			return Identity{Name: strings.TrimSpace(l[:lt]), Email: l[lt+1 : gt]}
		}
	}
	if email, ok, err := r.query(ctx, "config", "--get", "user.email"); err == nil && ok && email != "" && !strings.ContainsAny(email, "<>\n") {
		return Identity{Name: user, Email: email}
	}
	return Identity{Name: user, Email: user + "@" + SyncEmailDomain}
}

// RemoteRef is a ref the remote has under refs/gsd/sessions/, and what it points at.
type RemoteRef struct{ Name, Object string }

// ListRemote asks remote for its refs under refs/gsd/sessions/ (git ls-remote).
func (r Repo) ListRemote(ctx context.Context, remote string) ([]RemoteRef, error) {
	out, err := r.Git.Run(ctx, nil, nil, "ls-remote", "--quiet", remote, SessionsPrefix+"*")
	if err != nil {
		return nil, err
	}
	var refs []RemoteRef
	for _, l := range strings.Split(string(out), "\n") {
		obj, name, ok := strings.Cut(strings.TrimSpace(l), "\t")
		if ok && strings.HasPrefix(name, SessionsPrefix) {
			refs = append(refs, RemoteRef{Name: name, Object: obj})
		}
	}
	return refs, nil
}

// Fetch fetches the sessions of users from remote into refs/gsd/remotes/<remote>/sessions/,
// one refspec each: a ref that names no user is never fetched.
func (r Repo) Fetch(ctx context.Context, remote string, users []string) error {
	if len(users) == 0 {
		return nil
	}
	args := []string{"fetch", "--quiet", "--no-tags", remote}
	for _, u := range users {
		args = append(args, FetchRefspec(remote, u))
	}
	_, err := r.Git.Run(ctx, nil, nil, args...)
	return err
}

// Prune deletes the refs fetched from remote that keep is false for (a teammate who stopped
// sharing, a ref nested under a user's that an older gsd fetched), each only if it still points
// where it did; it returns the users whose refs it deleted.
func (r Repo) Prune(ctx context.Context, remote string, keep func(user string) bool) ([]string, error) {
	prefix := RemotesPrefix + remote + "/sessions/"
	out, err := r.Git.Run(ctx, nil, nil, "for-each-ref", "--format=%(objectname) %(refname)", prefix)
	if err != nil {
		return nil, err
	}
	var in bytes.Buffer
	var gone []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		obj, ref, ok := strings.Cut(l, " ")
		if !ok || !strings.HasPrefix(ref, prefix) || keep(ref[len(prefix):]) {
			continue
		}
		fmt.Fprintf(&in, "delete %s %s\n", ref, obj)
		gone = append(gone, ref[len(prefix):])
	}
	if len(gone) == 0 {
		return nil, nil
	}
	if _, err := r.Git.Run(ctx, in.Bytes(), nil, "update-ref", "--stdin"); err != nil {
		return nil, err
	}
	return gone, nil
}

// ErrRejected is a push the remote refused because its ref moved since it was fetched: someone
// (the same user on another machine) pushed since, or was pushing at that very moment (the
// remote's ref was locked); a fetch and a merge make the next push go through.
var ErrRejected = errors.New("rejected: the remote's ref moved since it was fetched")

// RefusedError is a push the remote refused for its own reasons (a hook, permissions).
type RefusedError struct {
	Remote, Ref, Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s refused %s: %s", e.Remote, e.Ref, e.Reason)
}

// Push pushes ref to the same name on remote, never forcing but where lease says: a
// non-empty lease is the object the remote's ref holds that is no commit gsd can build on (a
// blob, say), replaced only if the remote still has exactly that (--force-with-lease). A
// non-fast-forward refusal, or a ref the remote could not lock because another push held it,
// is ErrRejected, any other refusal a *RefusedError; a failure to reach the remote is git's.
func (r Repo) Push(ctx context.Context, remote, ref, lease string) error {
	args := []string{"push", "--porcelain"}
	if lease != "" {
		args = append(args, "--force-with-lease="+ref+":"+lease)
	}
	return r.push(ctx, remote, ref, append(args, remote, ref+":"+ref))
}

// DropNested deletes from remote the refs nested under the user's own (refs/gsd/sessions/<user>/...,
// which no gsd writes and which stop the user's own ref from being created there), each only if
// it still points where it did.
func (r Repo) DropNested(ctx context.Context, remote, ref string, nested []RemoteRef) error {
	if len(nested) == 0 {
		return nil
	}
	args := []string{"push", "--porcelain"}
	for _, n := range nested {
		args = append(args, "--force-with-lease="+n.Name+":"+n.Object)
	}
	args = append(args, remote)
	for _, n := range nested {
		args = append(args, ":"+n.Name)
	}
	return r.push(ctx, remote, ref, args)
}

func (r Repo) push(ctx context.Context, remote, ref string, args []string) error {
	out, err := r.Git.Run(ctx, nil, nil, args...)
	var ge *Error
	if err == nil || !errors.As(err, &ge) || ge.TimedOut {
		return err
	}
	for _, l := range strings.Split(string(out), "\n") {
		// --porcelain: "!<tab>from:to<tab>[rejected] (non-fast-forward)"
		f := strings.Split(l, "\t")
		if len(f) < 3 || f[0] != "!" {
			continue
		}
		if strings.Contains(f[2], "non-fast-forward") || strings.Contains(f[2], "fetch first") || strings.Contains(f[2], "stale info") || lockRace(f[2], ge.Stderr) {
			return ErrRejected
		}
		reason := strings.TrimSpace(f[2])
		if rem := remoteSays(ge.Stderr); rem != "" {
			reason += " (" + rem + ")"
		}
		return &RefusedError{Remote: remote, Ref: ref, Reason: reason}
	}
	return err
}

// lockRace says whether a push was refused because the remote's ref was locked or moved by
// another push at that moment ("cannot lock ref ...: is at X but expected Y"), not because a ref
// in the way made it impossible ("... exists; cannot create ...").
func lockRace(reason, stderr string) bool {
	if !strings.Contains(reason, "failed to update ref") && !strings.Contains(reason, "failed to lock") && !strings.Contains(reason, "cannot lock ref") {
		return false
	}
	return !strings.Contains(stderr, "cannot create")
}

// remoteSays is the first line the remote printed ("remote: ..."), without the prefix.
func remoteSays(stderr string) string {
	for _, l := range strings.Split(stderr, "\n") {
		if t, ok := strings.CutPrefix(strings.TrimSpace(l), "remote:"); ok && strings.TrimSpace(t) != "" {
			return strings.TrimSpace(t)
		}
	}
	return ""
}

// Commit is one commit as NewCommits lists it.
type Commit struct {
	ID                string
	Parents           []string
	Author, Committer Identity
}

// Mine says whether who both wrote and committed c.
func (c Commit) Mine(who Identity) bool { return c.Author.Same(who) && c.Committer.Same(who) }

// NewCommits lists the commits reachable from tip and not from base ("" for none), children
// before their parents, the newest MaxNewCommits of them; over is true when there are more.
func (r Repo) NewCommits(ctx context.Context, tip, base string) (cs []Commit, over bool, err error) {
	args := []string{"rev-list", "--topo-order", fmt.Sprintf("--max-count=%d", MaxNewCommits+1),
		"--format=%x00%H%x00%P%x00%an%x00%ae%x00%cn%x00%ce", tip}
	if base != "" {
		args = append(args, "^"+base)
	}
	out, err := r.Git.Run(ctx, nil, nil, args...)
	if err != nil {
		return nil, false, err
	}
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Split(l, "\x00")
		if len(f) != 7 || f[0] != "" {
			continue
		}
		cs = append(cs, Commit{ID: f[1], Parents: strings.Fields(f[2]),
			Author: Identity{Name: f[3], Email: f[4]}, Committer: Identity{Name: f[5], Email: f[6]}})
	}
	if len(cs) > MaxNewCommits {
		return cs[:MaxNewCommits], true, nil
	}
	return cs, false, nil
}

// Newest is the newest of cs (as NewCommits lists them) that who wrote and committed: the
// last version of the ref that is who's. A commit of who's is trusted whatever its parents: the
// gsd that made it merged only what was who's (a version someone else wrote is a parent of the
// commit that turned it down, never its content). "" when there is none.
func Newest(cs []Commit, who Identity) string {
	for _, c := range cs {
		if c.Mine(who) {
			return c.ID
		}
	}
	return ""
}
