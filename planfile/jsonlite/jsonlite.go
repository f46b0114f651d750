// Package jsonlite reads and writes a journal line without encoding/json (package journal is
// its one user). encoding/json builds a codec for each type by reflection the first time a
// process uses it, and gsd is a fresh process on every agent turn.
//
// What jsonlite writes is byte for byte what encoding/json writes. What it reads, it reads as
// encoding/json does or not at all (ok false), and the caller falls back on encoding/json. The
// fuzz tests hold it to both.
package jsonlite

import (
	"encoding/json"
	"unicode/utf8"
)

// Space skips JSON white space.
func Space(p []byte) []byte {
	for len(p) > 0 && (p[0] == ' ' || p[0] == '\t' || p[0] == '\n' || p[0] == '\r') {
		p = p[1:]
	}
	return p
}

// String reads the JSON string at the start of p: its value and the bytes after it. A string
// with escapes is decoded by encoding/json (as a string, which needs no reflection on a type);
// intern, when not nil, makes the value of one without (to share values that repeat). ok is
// false when p does not start with a string encoding/json would read as one, or with one whose
// invalid UTF-8 encoding/json would replace.
func String(p []byte, intern func([]byte) string) (string, []byte, bool) {
	if len(p) == 0 || p[0] != '"' {
		return "", nil, false
	}
	escaped, ascii := false, true
	for i := 1; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			escaped = true
			i++
		case c == '"':
			raw := p[1:i]
			if escaped {
				var s string
				if json.Unmarshal(p[:i+1], &s) != nil {
					return "", nil, false
				}
				return s, p[i+1:], true
			}
			if !ascii && !utf8.Valid(raw) {
				return "", nil, false
			}
			if intern != nil {
				return intern(raw), p[i+1:], true
			}
			return string(raw), p[i+1:], true
		case c >= utf8.RuneSelf:
			ascii = false
		case c < 0x20:
			return "", nil, false
		}
	}
	return "", nil, false
}

// Object reads the object at the start of p and returns the bytes after it. member is called with
// each key (read as String reads it, with intern) and the bytes from its value on; it reads the
// value and returns the bytes after it, or ok false to give up. ok is false for anything that is
// not an object encoding/json would read, and whenever member gives up.
func Object(p []byte, intern func([]byte) string, member func(key string, value []byte) ([]byte, bool)) ([]byte, bool) {
	if len(p) == 0 || p[0] != '{' {
		return nil, false
	}
	p = Space(p[1:])
	if len(p) > 0 && p[0] == '}' {
		return p[1:], true
	}
	for {
		key, rest, ok := String(p, intern)
		if !ok {
			return nil, false
		}
		p = Space(rest)
		if len(p) == 0 || p[0] != ':' {
			return nil, false
		}
		if p, ok = member(key, Space(p[1:])); !ok {
			return nil, false
		}
		p = Space(p)
		switch {
		case len(p) == 0:
			return nil, false
		case p[0] == ',':
			p = Space(p[1:])
		case p[0] == '}':
			return p[1:], true
		default:
			return nil, false
		}
	}
}

// Scalar skips the literal at the start of p that is not a string, an object or an array
// (true, false, null, a number), returning the bytes after it; ok is false for anything else.
func Scalar(p []byte) ([]byte, bool) {
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(p) >= len(lit) && string(p[:len(lit)]) == lit {
			return p[len(lit):], endsValue(p[len(lit):])
		}
	}
	// A number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
	i := 0
	if i < len(p) && p[i] == '-' {
		i++
	}
	switch {
	case i < len(p) && p[i] == '0':
		i++
	case i < len(p) && '1' <= p[i] && p[i] <= '9':
		i = digits(p, i)
	default:
		return nil, false
	}
	if i < len(p) && p[i] == '.' {
		j := digits(p, i+1)
		if j == i+1 {
			return nil, false
		}
		i = j
	}
	if i < len(p) && (p[i] == 'e' || p[i] == 'E') {
		i++
		if i < len(p) && (p[i] == '+' || p[i] == '-') {
			i++
		}
		j := digits(p, i)
		if j == i {
			return nil, false
		}
		i = j
	}
	return p[i:], endsValue(p[i:])
}

func digits(p []byte, i int) int {
	for i < len(p) && '0' <= p[i] && p[i] <= '9' {
		i++
	}
	return i
}

// endsValue reports whether a value may end where p starts: at its end, white space, a comma or
// a closing bracket ("truex" and "01" are not values).
func endsValue(p []byte) bool {
	if len(p) == 0 {
		return true
	}
	switch p[0] {
	case ' ', '\t', '\n', '\r', ',', '}', ']':
		return true
	}
	return false
}

// AppendString appends s as a JSON string, as encoding/json writes a string with
// SetEscapeHTML(escapeHTML): quotes, backslashes and control characters escaped (the short forms
// for \b, \f, \n, \r and \t), with escapeHTML also <, > and &; U+2028 and U+2029 escaped; each
// byte of invalid UTF-8 written as \ufffd.
func AppendString(dst []byte, s string, escapeHTML bool) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	done := 0 // s[:done] is in dst
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			dst = append(dst, s[done:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\b':
				dst = append(dst, `\b`...)
			case '\f':
				dst = append(dst, `\f`...)
			case '\n':
				dst = append(dst, `\n`...)
			case '\r':
				dst = append(dst, `\r`...)
			case '\t':
				dst = append(dst, `\t`...)
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[done:i]...)
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, s[done:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		done = i
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}
