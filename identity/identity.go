// Package identity owns who the user is: the name of their session directory, found and
// sanitised as the GSD team fork's get_session_user did.
//
// Per-user sessions live in .planning/sessions/<user>/, and directories
// already on disk were named by the GSD team fork's shell function
// get_session_user: `git config user.name`, else whoami, else
// `hostname -s`, else "unknown", then sanitised. FindUser puts gsd's own
// --user flag and GSD_USER in front of that chain, and Sanitize repeats
// the shell pipeline exactly, so the same directory is found.
//
// Reading user.name means reading git's configuration as `git config`
// does (system, global, repository and worktree files, include and
// includeIf, GIT_CONFIG_* variables); go-git reads only part of it, so
// this package implements the lookup itself. Nothing here reads the
// process environment: the caller passes everything in Sources.
//
// Why not ask git, as the shell function did? Because gsd runs on every agent turn, near the
// cost of starting a process, and asking git is one more process: `git config user.name` alone
// takes 1.2 ms (hyperfine -N, 400 runs), 0.70x a whole `gsd whoami` (testdata/bench/paired, 300
// pairs: 1.36 against 1.97 ms), where reading the same files here takes 0.09 ms (go test
// ./identity -bench FindUser: system and global files with an include and an includeIf, and the
// repository's, found from a subdirectory). Measured on 2026-11-29 on a 2-core VM, in a
// repository's subdirectory with user.name in ~/.gitconfig. Read here, the name is also a
// function of Sources alone: the tests give it a home, files and variables, and hold its answer
// against real git's where git is installed.
package identity

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Kinds of Source, from the highest precedence to the lowest.
const (
	KindFlag     = "flag"     // the --user flag
	KindEnv      = "env"      // $GSD_USER
	KindGit      = "git"      // git's user.name
	KindOSUser   = "os-user"  // the login name (whoami)
	KindHostname = "hostname" // the short host name (hostname -s)
	KindDefault  = "default"  // "unknown"
)

// Sources is everything FindUser may look at; nothing is read from the process.
type Sources struct {
	Flag         string                      // --user value
	FlagGiven    bool                        // --user was given (also as --user ''); Flag alone cannot say
	LookupEnv    func(string) (string, bool) // environment lookup, like os.LookupEnv (nil: empty environment)
	Home         string                      // home directory, as $HOME ("" = unknown)
	Dir          string                      // absolute directory to discover the git repository from ("" = none)
	SystemConfig string                      // system gitconfig path; "" means /etc/gitconfig
	LoginName    func() (string, error)      // OS login name (nil = unavailable)
	Hostname     func() (string, error)      // host name (nil = unavailable)
}

// lookup distinguishes unset from empty because git does: an empty
// GIT_CONFIG_GLOBAL, for instance, means "no global file".
func (e Sources) lookup(key string) (string, bool) {
	if e.LookupEnv == nil {
		return "", false
	}
	return e.LookupEnv(key)
}

// abs makes a path from the environment absolute against Dir.
func (e Sources) abs(p string) string {
	if p == "" || filepath.IsAbs(p) || e.Dir == "" {
		return p
	}
	return filepath.Join(e.Dir, p)
}

// Source says where a user name came from.
type Source struct {
	Kind string // one of the Kind constants
	File string // KindGit: the config file (or GIT_CONFIG_VALUE_<n>, GIT_CONFIG_PARAMETERS); KindEnv: "GSD_USER"
}

// Identity is the resolved user.
type Identity struct {
	User   string // sanitised directory name, never empty
	Raw    string // the name as found
	Source Source
}

// ErrUnusableUser is wrapped by the error FindUser returns for an explicit user name (--user or
// GSD_USER) that sanitises to nothing.
var ErrUnusableUser = errors.New("sanitises to an empty session directory name; use letters a-z or digits")

// FindUser finds the user: --user, $GSD_USER, git's user.name, the login
// name, the short host name, then "unknown". A discovered name that
// sanitises to "" (say user.name = "李雷") falls through to the next source;
// an explicit one (--user '..', GSD_USER=---) is an error wrapping
// ErrUnusableUser, because falling through would act as somebody else. An
// empty GSD_USER counts as unset. The other errors are git configuration
// git itself would reject.
func FindUser(env Sources) (Identity, error) {
	if env.FlagGiven || env.Flag != "" {
		if id, ok := candidate(env.Flag, Source{Kind: KindFlag}); ok {
			return id, nil
		}
		return Identity{}, fmt.Errorf("--user %s: %w", textfmt.Quote(env.Flag), ErrUnusableUser)
	}
	if v, _ := env.lookup("GSD_USER"); v != "" {
		if id, ok := candidate(v, Source{Kind: KindEnv, File: "GSD_USER"}); ok {
			return id, nil
		}
		return Identity{}, fmt.Errorf("GSD_USER=%s: %w", textfmt.Quote(v), ErrUnusableUser)
	}
	name, file, found, err := GitUserName(env)
	if err != nil {
		return Identity{}, err
	}
	if found {
		if id, ok := candidate(name, Source{Kind: KindGit, File: cleanOrigin(file)}); ok {
			return id, nil
		}
	}
	if env.LoginName != nil {
		if v, err := env.LoginName(); err == nil {
			if id, ok := candidate(v, Source{Kind: KindOSUser}); ok {
				return id, nil
			}
		}
	}
	if env.Hostname != nil {
		if v, err := env.Hostname(); err == nil {
			short, _, _ := strings.Cut(v, ".") // hostname -s
			if id, ok := candidate(short, Source{Kind: KindHostname}); ok {
				return id, nil
			}
		}
	}
	return Identity{User: "unknown", Raw: "unknown", Source: Source{Kind: KindDefault}}, nil
}

func candidate(raw string, src Source) (Identity, bool) {
	user := Sanitize(raw)
	return Identity{User: user, Raw: raw, Source: src}, user != ""
}

func cleanOrigin(file string) string {
	if filepath.IsAbs(file) {
		return filepath.Clean(file)
	}
	return file
}

// Sanitize turns a name into a session directory name exactly as
// get_session_user's pipeline does: ASCII lowercase, spaces to '-',
// delete everything but [a-z0-9-], squeeze and trim '-'. It works on
// bytes like tr, so non-ASCII letters vanish ("José" -> "jos") and tabs
// are deleted, not turned into '-'.
func Sanitize(name string) string {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		c := lower(name[i])
		if c == ' ' {
			c = '-'
		}
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
			b = append(b, c)
		case c == '-' && len(b) > 0 && b[len(b)-1] != '-':
			b = append(b, c) // squeezed, and never leading
		}
	}
	return strings.TrimSuffix(string(b), "-")
}

// maxGitFile bounds every git file this package reads (config files, HEAD, .git files): real
// ones are kilobytes.
const maxGitFile = 8 << 20

// readFile reads a git file: a regular file of at most maxGitFile bytes. A FIFO or device (a
// config symlinked to /dev/zero) is refused without blocking or reading it.
func readFile(path string) ([]byte, error) {
	return atomicfile.ReadFile(path, maxGitFile)
}
