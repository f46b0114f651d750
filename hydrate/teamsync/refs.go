package teamsync

import (
	"fmt"
	"strings"
)

// Where sessions live: a user's own published session, and teammates' as fetched from a remote.
const (
	SessionsPrefix = "refs/gsd/sessions/"
	RemotesPrefix  = "refs/gsd/remotes/"
)

// OwnRef is the ref that holds user's published session.
func OwnRef(user string) string { return SessionsPrefix + user }

// FetchedRef is where user's session, as fetched from remote, is kept.
func FetchedRef(remote, user string) string {
	return RemotesPrefix + remote + "/sessions/" + user
}

// FetchRefspec fetches user's session from remote, replacing what was fetched before: each user
// writes only their own ref, and a teammate who rewrote theirs by hand is taken as they are.
func FetchRefspec(remote, user string) string {
	return "+" + OwnRef(user) + ":" + FetchedRef(remote, user)
}

// splitFetched splits a fetched ref into its remote and user; ok is false for any other ref.
// The remote is what comes before the first "/sessions/" (CheckRemote refuses a remote name
// that holds one), so a ref nested under a user's (refs/gsd/sessions/ann/sessions/x) names that
// user's remote, never a made-up one; its user is then no user (CheckUser).
func splitFetched(ref string) (remote, user string, ok bool) {
	rest, found := strings.CutPrefix(ref, RemotesPrefix)
	if !found {
		return "", "", false
	}
	i := strings.Index(rest, "/sessions/")
	if i <= 0 {
		return "", "", false
	}
	return rest[:i], rest[i+len("/sessions/"):], true
}

// UserOf is the user a ref of a remote's refs/gsd/sessions/ names: ok is false for a ref that
// names no user gsd writes (nested under a user's, or a name CheckUser refuses).
func UserOf(ref string) (string, bool) {
	user, found := strings.CutPrefix(ref, SessionsPrefix)
	return user, found && CheckUser(user) == nil
}

// CheckUser refuses a user name that cannot be one component of a ref name, by git
// check-ref-format's rules, or that is not a session directory name as gsd writes them
// (lower-case letters, digits and inner dashes): a hostile name never reaches git.
func CheckUser(user string) error {
	if err := checkComponent(user); err != nil {
		return fmt.Errorf("user %q cannot name a ref (%v)", user, err)
	}
	for i := 0; i < len(user); i++ {
		c := user[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' && i > 0 && i < len(user)-1) {
			return fmt.Errorf("user %q is not a session directory name as gsd writes them", user)
		}
	}
	return nil
}

// CheckRemote refuses a remote name git would not accept as part of a ref name, or that would
// read as an option (a URL has a ':' and is refused: sync needs a name to file what it fetches
// under).
func CheckRemote(remote string) error {
	if remote == "" || strings.HasPrefix(remote, "-") {
		return fmt.Errorf("remote %q is not a remote name (git remote lists them)", remote)
	}
	for i, c := range strings.Split(remote, "/") {
		if err := checkComponent(c); err != nil {
			return fmt.Errorf("remote %q is not a remote name git can file refs under (%v)", remote, err)
		}
		if i > 0 && c == "sessions" {
			// refs/gsd/remotes/<remote>/sessions/<user> would not say where the remote ends.
			return fmt.Errorf("remote %q has a part named sessions, which gsd sync cannot file refs under (git remote rename it)", remote)
		}
	}
	return nil
}

// checkComponent applies git check-ref-format's rules to one component of a ref name.
func checkComponent(c string) error {
	switch {
	case c == "":
		return fmt.Errorf("empty")
	case strings.HasPrefix(c, "."):
		return fmt.Errorf("begins with a dot")
	case strings.HasSuffix(c, ".lock"):
		return fmt.Errorf("ends with .lock")
	case strings.HasSuffix(c, "."):
		return fmt.Errorf("ends with a dot")
	case strings.Contains(c, ".."):
		return fmt.Errorf("contains ..")
	case strings.Contains(c, "@{"), c == "@":
		return fmt.Errorf("contains @{ or is @")
	}
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case b < 0x20 || b == 0x7f:
			return fmt.Errorf("contains a control character")
		case strings.IndexByte(" ~^:?*[\\/", b) >= 0:
			return fmt.Errorf("contains %q", b)
		}
	}
	return nil
}
