package identity

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

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
		return 0, fmt.Errorf("bogus count in GIT_CONFIG_COUNT: %s", textfmt.Quote(s))
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || neg && n != 0 || n > math.MaxInt32 {
		return 0, fmt.Errorf("too many entries in GIT_CONFIG_COUNT: %s", textfmt.Quote(s))
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
