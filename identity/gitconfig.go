package identity

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxIncludeDepth is git's limit on nested includes; beyond it git dies
// (a loop is the usual cause), and so do we.
const maxIncludeDepth = 10

// GitUserName returns user.name as `git config user.name` run in env.Dir
// would print it, with the file it came from ("GIT_CONFIG_VALUE_<n>" or
// "GIT_CONFIG_PARAMETERS" for command-line settings). ok is false when no
// scope sets it. err is non-nil where git would fail: a config file it
// cannot parse or read, an include loop, malformed GIT_CONFIG_* variables.
func GitUserName(env Env) (value, file string, ok bool, err error) {
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
	env      Env
	repo     Repo
	hasRepo  bool
	includes bool // whether include/includeIf are honoured (not for $GIT_CONFIG)
	depth    int

	localConfig    string // the repository config, whose own extensions.worktreeConfig counts
	worktreeConfig bool

	realGitDir string // cached symlink-resolved GitDir, for gitdir: conditions
	branch     *string

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
	r.repo, r.hasRepo = repo, ok

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
		if err := r.readFile(env.abs(sys), true); err != nil {
			return err
		}
	}

	if g, ok := env.lookup("GIT_CONFIG_GLOBAL"); ok {
		if err := r.readFile(env.abs(g), true); err != nil {
			return err
		}
	} else {
		xdg, _ := env.lookup("XDG_CONFIG_HOME")
		if xdg != "" {
			xdg = filepath.Join(xdg, "git", "config")
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
		r.localConfig = filepath.Join(r.repo.CommonDir, "config")
		if err := r.readFile(r.localConfig, false); err != nil {
			return err
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
	if path == "" {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		if isMissing(err) || isDirErr(path) || tolerant && errors.Is(err, fs.ErrPermission) {
			return nil
		}
		return fmt.Errorf("reading config: %w", err)
	}
	return r.parseFile(path, data)
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
	if r.depth == 0 && origin == r.localConfig && key == "extensions.worktreeconfig" {
		// Read from the repository config itself, never through an
		// include, like git's repository-format check.
		b, err := parseBool(value, hasValue)
		if err != nil {
			return fmt.Errorf("bad boolean config value %q for 'extensions.worktreeconfig'", value)
		}
		r.worktreeConfig = b
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
			return fmt.Errorf("could not expand include path %q", path)
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
	data, err := os.ReadFile(path)
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

// condition evaluates an includeIf condition. hasconfig:remote.*.url: and
// unknown conditions are false.
func (r *configReader) condition(cond, origin string, fromFile bool) (bool, error) {
	if p, ok := strings.CutPrefix(cond, "gitdir:"); ok {
		return r.gitDirMatches(p, origin, fromFile, false)
	}
	if p, ok := strings.CutPrefix(cond, "gitdir/i:"); ok {
		return r.gitDirMatches(p, origin, fromFile, true)
	}
	if p, ok := strings.CutPrefix(cond, "onbranch:"); ok {
		return r.onBranch(p), nil
	}
	return false, nil
}

// gitDirMatches applies git's rules for gitdir: patterns: "~/" is the
// home directory, "./" the including file's directory, a relative pattern
// matches at any depth, a trailing "/" matches everything below, and the
// git directory is tried symlink-resolved, then as git spelled it.
func (r *configReader) gitDirMatches(pat, origin string, fromFile, icase bool) (bool, error) {
	if !r.hasRepo {
		return false, nil
	}
	if (pat == "~" || strings.HasPrefix(pat, "~/")) && r.env.Home != "" {
		pat = realPath(r.env.Home) + pat[1:]
	}
	prefix := 0
	if strings.HasPrefix(pat, "./") {
		if !fromFile {
			return false, errors.New("relative config include conditionals must come from files")
		}
		cfg := realPath(origin)
		dir := cfg[:strings.LastIndexByte(cfg, filepath.Separator)]
		pat = dir + pat[1:]
		prefix = len(dir) + 1 // matched literally, so that its characters are not wildcards
	} else if !filepath.IsAbs(pat) {
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	if r.realGitDir == "" {
		r.realGitDir = realPath(r.repo.GitDir)
	}
	for _, text := range []string{r.realGitDir, r.repo.gitDirAlias} {
		if text == "" {
			continue
		}
		if prefix > 0 {
			if len(text) < prefix {
				return false, nil
			}
			a, b := pat[:prefix], text[:prefix]
			if a != b && !(icase && strings.EqualFold(a, b)) {
				return false, nil
			}
		}
		if wildmatch(pat[prefix:], text[prefix:], icase) {
			return true, nil
		}
	}
	return false, nil
}

// onBranch matches the branch HEAD points to (checked out or unborn);
// a detached HEAD matches nothing.
func (r *configReader) onBranch(pat string) bool {
	if !r.hasRepo {
		return false
	}
	if r.branch == nil {
		b := headBranch(r.repo)
		r.branch = &b
	}
	if *r.branch == "" {
		return false
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	return wildmatch(pat, *r.branch, false)
}

// headBranch follows the worktree's HEAD through symbolic refs to a
// branch name, or "".
func headBranch(repo Repo) string {
	ref, path := "HEAD", filepath.Join(repo.GitDir, "HEAD")
	for range 5 {
		data, err := os.ReadFile(path)
		if err != nil {
			break
		}
		target, ok := strings.CutPrefix(strings.TrimRight(string(data), " \t\n\r"), "ref:")
		if !ok {
			break
		}
		ref = strings.TrimLeft(target, " \t\n\r")
		path = filepath.Join(repo.CommonDir, filepath.FromSlash(ref))
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok {
		return ""
	}
	return branch
}

// readCommandLine applies GIT_CONFIG_COUNT/KEY_<n>/VALUE_<n>, then
// GIT_CONFIG_PARAMETERS (set by `git -c`), the highest-precedence scope.
// Like git, it honours include.path there too, if absolute.
func (r *configReader) readCommandLine() error {
	env := r.env
	if c, ok := env.lookup("GIT_CONFIG_COUNT"); ok {
		n, err := parseCount(c)
		if err != nil {
			return err
		}
		for i := range n {
			k, ok := env.lookup("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if !ok {
				return fmt.Errorf("missing config key GIT_CONFIG_KEY_%d", i)
			}
			v, ok := env.lookup("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			if !ok {
				return fmt.Errorf("missing config value GIT_CONFIG_VALUE_%d", i)
			}
			if err := r.pair(k, v, true, "GIT_CONFIG_VALUE_"+strconv.Itoa(i)); err != nil {
				return err
			}
		}
	}
	if p, ok := env.lookup("GIT_CONFIG_PARAMETERS"); ok {
		return parseParameters(p, func(k, v string, hasValue bool) error {
			return r.pair(k, v, hasValue, "GIT_CONFIG_PARAMETERS")
		})
	}
	return nil
}

func (r *configReader) pair(key, value string, hasValue bool, origin string) error {
	canon, err := canonicalKey(key)
	if err != nil {
		return fmt.Errorf("%s: %w", origin, err)
	}
	if err := r.entry(canon, value, hasValue, origin, false); err != nil {
		return fmt.Errorf("%s: %w", origin, err)
	}
	return nil
}

// parseCount reads GIT_CONFIG_COUNT as git does with strtoul: empty
// means 0, anything but an optionally signed decimal number is an error.
func parseCount(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := t != "" && t[0] == '-'
	if t != "" && (t[0] == '+' || t[0] == '-') {
		t = t[1:]
	}
	if t == "" || strings.TrimLeft(t, "0123456789") != "" {
		return 0, fmt.Errorf("bogus count in GIT_CONFIG_COUNT: %q", s)
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || neg && n != 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("too many entries in GIT_CONFIG_COUNT: %q", s)
	}
	return int(n), nil
}

// canonicalKey validates a command-line key and lowercases its section and
// name (not its subsection), as git_config_parse_key does.
func canonicalKey(key string) (string, error) {
	last := strings.LastIndexByte(key, '.')
	switch {
	case key == "":
		return "", errors.New("empty config key")
	case last <= 0:
		return "", fmt.Errorf("key does not contain a section: %s", key)
	case last == len(key)-1:
		return "", fmt.Errorf("key does not contain variable name: %s", key)
	}
	first := strings.IndexByte(key, '.')
	b := []byte(key)
	for i, c := range b {
		if i < first || i > last {
			if !isKeyChar(c) || i == last+1 && !isAlpha(c) {
				return "", fmt.Errorf("invalid key: %s", key)
			}
			b[i] = lower(c)
		} else if c == '\n' {
			return "", fmt.Errorf("invalid key (newline): %s", key)
		}
	}
	return string(b), nil
}

// parseParameters splits GIT_CONFIG_PARAMETERS: shell-single-quoted
// 'key'='value' items (or old-style 'key=value'), separated by blanks.
func parseParameters(s string, fn func(key, value string, hasValue bool) error) error {
	bad := errors.New("bogus format in GIT_CONFIG_PARAMETERS")
	for s != "" {
		key, rest, ok := sqDequote(s)
		if !ok {
			return bad
		}
		var err error
		switch {
		case rest == "" || isSpace(rest[0]):
			// old style: 'key=value', or 'key' alone for true
			k, v, hasValue := strings.Cut(key, "=")
			err = fn(k, v, hasValue)
		case rest[0] == '=':
			rest = rest[1:]
			switch {
			case strings.HasPrefix(rest, "'"):
				var v string
				if v, rest, ok = sqDequote(rest); !ok || rest != "" && !isSpace(rest[0]) {
					return bad
				}
				err = fn(key, v, true)
			case rest == "" || isSpace(rest[0]):
				err = fn(key, "", false)
			default:
				return bad
			}
		default:
			return bad
		}
		if err != nil {
			return err
		}
		s = strings.TrimLeft(rest, " \t\n\r")
	}
	return nil
}

// sqDequote reads one single-quoted word ('it'\”s' style, also '\!')
// from the start of s.
func sqDequote(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; ; {
		j := strings.IndexByte(s[i:], '\'')
		if j < 0 {
			return "", "", false
		}
		b.WriteString(s[i : i+j])
		i += j + 1
		if len(s) >= i+3 && s[i] == '\\' && (s[i+1] == '\'' || s[i+1] == '!') && s[i+2] == '\'' {
			b.WriteByte(s[i+1])
			i += 3
			continue
		}
		return b.String(), s[i:], true
	}
}

// envBool reads a boolean environment variable as git's git_env_bool:
// unset or empty is false, and an unparsable value is an error.
func envBool(env Env, name string) (bool, error) {
	v, ok := env.lookup(name)
	if !ok {
		return false, nil
	}
	b, err := parseBool(v, true)
	if err != nil {
		return false, fmt.Errorf("bad boolean value %q for %s", v, name)
	}
	return b, nil
}

// parseBool is git's boolean syntax: no value or true/yes/on is true,
// ""/false/no/off is false (any case), else a C integer (decimal, 0x hex
// or 0 octal, optional k/m/g suffix) that is true unless zero.
func parseBool(v string, hasValue bool) (bool, error) {
	if !hasValue {
		return true, nil
	}
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true, nil
	case "", "false", "no", "off":
		return false, nil
	}
	n, err := parseCInt(v)
	return n != 0, err
}

func parseCInt(s string) (int64, error) {
	bad := errors.New("invalid number")
	t := strings.TrimLeft(s, " \t\n\v\f\r")
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg, t = t[0] == '-', t[1:]
	}
	base := 10
	switch {
	case len(t) > 2 && (t[:2] == "0x" || t[:2] == "0X") && isHex(t[2]):
		base, t = 16, t[2:]
	case len(t) > 1 && t[0] == '0':
		base = 8
	}
	end := 0
	for end < len(t) && digitValue(t[end]) < base {
		end++
	}
	if end == 0 {
		return 0, bad
	}
	n, err := strconv.ParseInt(t[:end], base, 64)
	if err != nil {
		return 0, bad
	}
	factor := map[string]int64{"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[strings.ToLower(t[end:])]
	// git parses booleans as a C int: out of its range is an error.
	if factor == 0 || n > math.MaxInt32/factor {
		return 0, bad
	}
	n *= factor
	if neg {
		n = -n
	}
	return n, nil
}

func isHex(c byte) bool { return digitValue(c) < 16 }

func digitValue(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return 99
}
