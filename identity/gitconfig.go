package identity

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// maxIncludeDepth is git's limit on nested includes; beyond it git dies
// (a loop is the usual cause), and so do we.
const maxIncludeDepth = 10

// GitUserName returns user.name as `git config user.name` run in env.Dir
// would print it, with the file it came from ("GIT_CONFIG_VALUE_<n>" or
// "GIT_CONFIG_PARAMETERS" for command-line settings). ok is false when no
// scope sets it. err is non-nil where git would fail: a config file it
// cannot parse or read, an include loop, malformed GIT_CONFIG_* variables,
// a broken .git file.
//
// Scopes, lowest precedence first: system ($GIT_CONFIG_SYSTEM or
// env.SystemConfig, unless $GIT_CONFIG_NOSYSTEM), global
// ($GIT_CONFIG_GLOBAL, else $XDG_CONFIG_HOME/git/config then
// ~/.gitconfig), the repository's config, its config.worktree, then
// GIT_CONFIG_COUNT/KEY/VALUE and GIT_CONFIG_PARAMETERS; include and
// includeIf (gitdir:, gitdir/i:, onbranch:) are expanded in place. As for
// `git config`, a set $GIT_CONFIG replaces all of that with one file.
func GitUserName(env Sources) (value, file string, ok bool, err error) {
	r := &configReader{env: env}
	err = r.read()
	if err != nil {
		return "", "", false, err
	}
	return r.value, r.origin, r.found, nil
}

// configReader replays git's configuration sequence and keeps the last
// user.name it sees.
type configReader struct {
	env      Sources
	repo     Repo
	hasRepo  bool
	includes bool // whether include/includeIf are honoured (not for $GIT_CONFIG)
	depth    int

	localConfig    string // the repository config
	worktreeConfig bool   // read config.worktree too (extensions.worktreeConfig)

	realGitDir string // cached symlink-resolved GitDir, for gitdir: conditions
	branch     *string
	remoteURLs *[]string // every remote.*.url, for hasconfig: conditions

	// collecting is set on the separate pass that gathers remote URLs;
	// inside includeIf includes (forbidURLs > 0) they are an error.
	collecting bool
	forbidURLs int
	urls       []string

	value, origin string
	found         bool
}

func (r *configReader) read() error {
	env := r.env
	// `git config` takes $GIT_CONFIG as if it were --file: that file
	// only, without includes or command-line settings.
	if f, ok := env.lookup("GIT_CONFIG"); ok {
		if f == "" {
			return nil
		}
		return r.readFile(env.abs(f), false)
	}
	r.includes = true

	// The repository is found first: includeIf conditions in every scope
	// depend on it.
	repo, ok, err := FindRepo(env.Dir, env.LookupEnv)
	if err != nil {
		return err
	}
	var local []byte
	if ok {
		r.localConfig = filepath.Join(repo.CommonDir, "config")
		if local, err = loadFile(r.localConfig, false); err != nil {
			return err
		}
		usable, err := r.checkFormat(local)
		if err != nil {
			return err
		}
		ok = usable
	}
	r.repo, r.hasRepo = repo, ok
	// git has moved to the top of the working tree by now, and relative
	// paths in these variables are taken from there ($GIT_CONFIG above
	// is not: git config resolves it first).
	setupEnv := env
	if ok && repo.setupDir != "" {
		setupEnv.Dir = repo.setupDir
	}

	noSystem, err := envBool(env, "GIT_CONFIG_NOSYSTEM")
	if err != nil {
		return err
	}
	if !noSystem {
		// A set but empty $GIT_CONFIG_SYSTEM (or $GIT_CONFIG_GLOBAL)
		// names no file at all: git then reads nothing for that scope.
		sys, ok := env.lookup("GIT_CONFIG_SYSTEM")
		if !ok {
			sys = env.SystemConfig
			if sys == "" {
				sys = "/etc/gitconfig"
			}
		}
		if err := r.readFile(setupEnv.abs(sys), true); err != nil {
			return err
		}
	}

	if g, ok := env.lookup("GIT_CONFIG_GLOBAL"); ok {
		if err := r.readFile(setupEnv.abs(g), true); err != nil {
			return err
		}
	} else {
		xdg, _ := env.lookup("XDG_CONFIG_HOME")
		if xdg != "" {
			xdg = filepath.Join(setupEnv.abs(xdg), "git", "config")
		} else if env.Home != "" {
			xdg = filepath.Join(env.Home, ".config", "git", "config")
		}
		for _, f := range []string{xdg, homeFile(env.Home, ".gitconfig")} {
			if err := r.readFile(f, true); err != nil {
				return err
			}
		}
	}

	if r.hasRepo {
		if local != nil {
			if err := r.parseFile(r.localConfig, local); err != nil {
				return err
			}
		}
		if r.worktreeConfig {
			if err := r.readFile(filepath.Join(r.repo.GitDir, "config.worktree"), false); err != nil {
				return err
			}
		}
	}
	return r.readCommandLine()
}

func homeFile(home, name string) string {
	if home == "" {
		return ""
	}
	return filepath.Join(home, name)
}

// readFile reads one top-level config file. A missing file (or a
// directory) is skipped; so is an unreadable one in the system and global
// scopes (tolerant), as git does.
func (r *configReader) readFile(path string, tolerant bool) error {
	data, err := loadFile(path, tolerant)
	if err != nil || data == nil {
		return err
	}
	return r.parseFile(path, data)
}

// loadFile returns a config file's bytes, or nil for a file to skip.
func loadFile(path string, tolerant bool) ([]byte, error) {
	if path == "" {
		return nil, nil
	}
	data, err := readFile(path)
	if err != nil {
		if isMissing(err) || isDirErr(path) || tolerant && errors.Is(err, fs.ErrPermission) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading config: %w", err)
	}
	if data == nil {
		data = []byte{}
	}
	return data, nil
}

// checkFormat applies git's repository-format check to the repository
// config (read on its own, without includes): a version above 1 means
// git does not use the repository at all, and extensions such as
// worktreeConfig count only when core.repositoryformatversion is set.
func (r *configReader) checkFormat(data []byte) (usable bool, err error) {
	version, worktreeConfig := int64(-1), false
	err = parseConfig(data, func(key, value string, hasValue bool, line int) error {
		var err error
		switch key {
		case "core.repositoryformatversion":
			if !hasValue {
				err = errors.New("bad numeric config value '' for 'core.repositoryformatversion'")
			} else if version, err = parseCInt(value); err != nil {
				err = fmt.Errorf("bad numeric config value %s for 'core.repositoryformatversion'", textfmt.Quote(value))
			}
		case "extensions.worktreeconfig":
			if worktreeConfig, err = parseBool(value, hasValue); err != nil {
				err = fmt.Errorf("bad boolean config value %s for 'extensions.worktreeconfig'", textfmt.Quote(value))
			}
		}
		if err != nil {
			return &configError{file: r.localConfig, line: line, err: err}
		}
		return nil
	})
	var se *syntaxError
	if errors.As(err, &se) {
		return false, &configError{file: r.localConfig, line: se.line}
	}
	if err != nil || version > 1 {
		return false, err
	}
	r.worktreeConfig = version >= 0 && worktreeConfig
	return true, nil
}

func isDirErr(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// configError is a failure inside a config file, named as git names it.
type configError struct {
	file string
	line int
	err  error // nil for a plain syntax error
}

func (e *configError) Error() string {
	msg := fmt.Sprintf("bad config line %d in file %s", e.line, e.file)
	if e.err != nil {
		msg += ": " + e.err.Error()
	}
	return msg
}

func (e *configError) Unwrap() error { return e.err }

func (r *configReader) parseFile(path string, data []byte) error {
	err := parseConfig(data, func(key, value string, hasValue bool, line int) error {
		err := r.entry(key, value, hasValue, path, true)
		var ce *configError
		if err == nil || errors.As(err, &ce) {
			return err // nested file errors already name their file
		}
		return &configError{file: path, line: line, err: err}
	})
	var se *syntaxError
	if errors.As(err, &se) {
		return &configError{file: path, line: se.line}
	}
	return err
}

// entry handles one variable from origin (a file path, or the name of the
// environment variable for command-line settings).
func (r *configReader) entry(key, value string, hasValue bool, origin string, fromFile bool) error {
	if key == "user.name" {
		// A bare "name" line is boolean true, which `git config`
		// prints as an empty line.
		r.value, r.origin, r.found = value, origin, true
		return nil
	}
	if r.collecting && strings.HasPrefix(key, "remote.") && strings.HasSuffix(key, ".url") && len(key) > len("remote.url") {
		if r.forbidURLs > 0 {
			return errors.New("remote URLs cannot be configured in file directly or indirectly included by includeIf.hasconfig:remote.*.url")
		}
		if hasValue {
			r.urls = append(r.urls, value)
		}
		return nil
	}
	if !r.includes {
		return nil
	}
	if key == "include.path" {
		return r.include(value, hasValue, origin, fromFile)
	}
	rest, ok := strings.CutPrefix(key, "includeif.")
	dot := strings.LastIndexByte(rest, '.')
	if !ok || dot < 0 {
		return nil
	}
	// As in git, the condition is evaluated before the key is checked.
	match, err := r.condition(rest[:dot], origin, fromFile)
	if err != nil || !match || rest[dot+1:] != "path" {
		return err
	}
	if r.collecting {
		r.forbidURLs++
		defer func() { r.forbidURLs-- }()
	}
	return r.include(value, hasValue, origin, fromFile)
}

// include reads an included file in place: its values land where the
// include line is, so later lines of the including file override them.
func (r *configReader) include(path string, hasValue bool, origin string, fromFile bool) error {
	if !hasValue {
		return errors.New("missing value for 'include.path'")
	}
	switch {
	case path == "~" || strings.HasPrefix(path, "~/"):
		if r.env.Home == "" {
			return fmt.Errorf("could not expand include path %s", textfmt.Quote(path))
		}
		path = r.env.Home + path[1:]
	case strings.HasPrefix(path, "~"), strings.HasPrefix(path, "%(prefix)/"):
		// ~user needs the user database and %(prefix) git's install
		// prefix; neither is an input here, so such includes are
		// skipped.
		return nil
	}
	if !filepath.IsAbs(path) {
		if !fromFile {
			return errors.New("relative config includes must come from files")
		}
		// Relative to the including file's directory; not cleaned, so
		// "path =" names that directory and fails as in git.
		path = origin[:strings.LastIndexByte(origin, filepath.Separator)+1] + path
	}
	data, err := readFile(path)
	if err != nil {
		if isMissing(err) {
			return nil
		}
		return err
	}
	if r.depth >= maxIncludeDepth {
		return fmt.Errorf("exceeded maximum include depth (%d) while including %s from %s (circular includes?)", maxIncludeDepth, path, origin)
	}
	r.depth++
	defer func() { r.depth-- }()
	return r.parseFile(path, data)
}
