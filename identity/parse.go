package identity

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// This file reads git's config syntax. It follows git's own parser rather
// than go-git's decoder (plumbing/format/config, built on gcfg), because
// the decoder disagrees with `git config` on inputs that change the user
// name or the include order:
//
//   - an unquoted tab or CR inside a value: git turns each into a space
//     ("John<TAB>Doe" reads as "John Doe", so john-doe), the decoder keeps
//     the tab or drops the CR;
//   - a backslash at the end of the last line: git continues the line,
//     the decoder yields a newline;
//   - a UTF-8 byte order mark, Latin-1 bytes in a value, a key before the
//     first section, [user ""] and the old [section.sub] form: git accepts
//     them, the decoder fails;
//   - non-ASCII key names: git rejects them, the decoder accepts them;
//   - the decoder groups options by section, losing their relative order,
//     so an [include] cannot be expanded at its place in the file.

// syntaxError is a line git would reject ("bad config line N").
type syntaxError struct{ line int }

func (e *syntaxError) Error() string { return "bad config line" }

// entryFunc receives each variable in file order. key is canonical
// ("section.subsection.name": section and name lowercased, subsection as
// written); hasValue is false for a bare "name" line, which git treats as
// boolean true. line is the variable's line, for error messages.
type entryFunc func(key, value string, hasValue bool, line int) error

// configParser mirrors the character-level rules of git's config.c: CRLF
// counts as LF, end of input reads as a final LF, and line numbers count
// the same way so that errors name the line git names.
type configParser struct {
	data []byte
	pos  int
	line int
	eof  bool
}

func (p *configParser) next() byte {
	if p.pos >= len(p.data) {
		p.eof = true
		p.line++
		return '\n'
	}
	c := p.data[p.pos]
	p.pos++
	if c == '\r' && p.pos < len(p.data) && p.data[p.pos] == '\n' {
		p.pos++
		c = '\n'
	}
	if c == '\n' {
		p.line++
	}
	return c
}

func (p *configParser) fail() error { return &syntaxError{line: p.line} }

// isSpace is git's isspace: only space, tab, LF and CR.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// parseConfig calls fn for every variable in data, in order. It returns a
// *syntaxError for text git rejects, or the first error fn returns.
func parseConfig(data []byte, fn entryFunc) error {
	p := &configParser{data: data, line: 1}
	// A UTF-8 byte order mark is skipped; a partial one is an error.
	const bom = "\xef\xbb\xbf"
	if len(data) > 0 && data[0] == bom[0] {
		for i := 0; i < len(bom); i++ {
			if p.next() != bom[i] {
				return p.fail()
			}
		}
	}
	var name []byte // "section." or "section.subsection.", then the key
	base := 0
	comment := false
	for {
		c := p.next()
		switch {
		case c == '\n':
			if p.eof {
				return nil
			}
			comment = false
		case comment || isSpace(c):
		case c == '#' || c == ';':
			comment = true
		case c == '[':
			name = name[:0]
			var ok bool
			if name, ok = p.sectionHeader(name); !ok || len(name) == 0 {
				return p.fail()
			}
			name = append(name, '.')
			base = len(name)
		case isAlpha(c):
			name = append(name[:base], lower(c))
			var err error
			if name, err = p.variable(name, fn); err != nil {
				return err
			}
		default:
			return p.fail()
		}
	}
}

// sectionHeader reads what follows '[': "section]", `section "sub"]` or the
// old "section.sub]" (lowercased as a whole, as git does).
func (p *configParser) sectionHeader(name []byte) ([]byte, bool) {
	for {
		c := p.next()
		switch {
		case p.eof:
			return name, false
		case c == ']':
			return name, true
		case isSpace(c):
			return p.subsection(name, c)
		case !isKeyChar(c) && c != '.':
			return name, false
		}
		name = append(name, lower(c))
	}
}

// subsection reads ` "sub"]`; c is the space already read. The
// subsection keeps its case; a backslash takes the next byte literally.
func (p *configParser) subsection(name []byte, c byte) ([]byte, bool) {
	for {
		if c == '\n' {
			p.line-- // git reports the header's own line here
			return name, false
		}
		if c = p.next(); !isSpace(c) {
			break
		}
	}
	if c != '"' {
		return name, false
	}
	name = append(name, '.')
	for {
		c := p.next()
		if c == '\\' {
			c = p.next()
		} else if c == '"' {
			break
		}
		if c == '\n' {
			p.line--
			return name, false
		}
		name = append(name, c)
	}
	return name, p.next() == ']'
}

// variable reads the rest of a "key = value" line whose first key letter
// is already in name, and hands it to fn.
func (p *configParser) variable(name []byte, fn entryFunc) ([]byte, error) {
	var c byte
	for {
		c = p.next()
		if p.eof || !isKeyChar(c) {
			break
		}
		name = append(name, lower(c))
	}
	for c == ' ' || c == '\t' {
		c = p.next()
	}
	value, hasValue := "", false
	if c != '\n' {
		if c != '=' {
			return name, p.fail()
		}
		var ok bool
		if value, ok = p.value(); !ok {
			return name, p.fail()
		}
		hasValue = true
	}
	// The line's LF is consumed; report the variable's own line.
	if err := fn(string(name), value, hasValue, p.line-1); err != nil {
		return name, err
	}
	return name, nil
}

// value reads a value up to the end of its line, as git does: leading and
// trailing blanks dropped, each inner unquoted blank (space, tab, CR)
// becomes one space, ; and # start a comment outside quotes, and \\, \",
// \n, \t, \b and backslash-newline are the only escapes.
func (p *configParser) value() (string, bool) {
	var b []byte
	quote, comment, spaces := false, false, 0
	for {
		c := p.next()
		if c == '\n' {
			if quote {
				p.line--
				return "", false
			}
			break
		}
		if comment {
			continue
		}
		if !quote && isSpace(c) {
			if len(b) > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b = append(b, ' ')
		}
		switch c {
		case '\\':
			switch c = p.next(); c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			case '\\', '"':
			default:
				return "", false
			}
		case '"':
			quote = !quote
			continue
		}
		b = append(b, c)
	}
	// git keeps values as C strings: a NUL byte ends the value.
	s, _, _ := strings.Cut(string(b), "\x00")
	return s, true
}

// envBool reads a boolean environment variable as git's git_env_bool:
// unset or empty is false, and an unparsable value is an error.
func envBool(env Sources, name string) (bool, error) {
	v, ok := env.lookup(name)
	if !ok {
		return false, nil
	}
	b, err := parseBool(v, true)
	if err != nil {
		return false, fmt.Errorf("bad boolean value %s for %s", textfmt.Quote(v), name)
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
