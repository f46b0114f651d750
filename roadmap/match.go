package roadmap

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Hand-written matchers for the few line shapes ROADMAP.md parsing needs. Compiling regular
// expressions at package initialisation cost every gsd invocation a quarter of a millisecond;
// these do the same matching without it (match_test.go checks them against the expressions).

func isReSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func skipSpace(s string, i int) int {
	for i < len(s) && isReSpace(s[i]) {
		i++
	}
	return i
}

// matchChecklist matches `^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$`, returning the box
// character and the rest of the line.
func matchChecklist(s string) (box, rest string, ok bool) {
	i := skipSpace(s, 0)
	switch {
	case i < len(s) && (s[i] == '-' || s[i] == '*' || s[i] == '+'):
		i++
	case i < len(s) && s[i] >= '0' && s[i] <= '9':
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i >= len(s) || (s[i] != '.' && s[i] != ')') {
			return "", "", false
		}
		i++
	default:
		return "", "", false
	}
	j := skipSpace(s, i)
	if j == i || j+3 > len(s) || s[j] != '[' || s[j+2] != ']' {
		return "", "", false
	}
	if c := s[j+1]; c != ' ' && c != 'x' && c != 'X' {
		return "", "", false
	}
	k := skipSpace(s, j+3)
	if k == j+3 || strings.ContainsRune(s[k:], '\n') {
		return "", "", false
	}
	return s[j+1 : j+2], s[k:], true
}

// matchHeading matches `^\s{0,3}#{1,6}\s+(.*)$`, returning the heading text.
func matchHeading(s string) (string, bool) {
	i := 0
	for i < len(s) && i < 3 && isReSpace(s[i]) {
		i++
	}
	h := i
	for i < len(s) && s[i] == '#' {
		i++
	}
	if n := i - h; n < 1 || n > 6 {
		return "", false
	}
	j := skipSpace(s, i)
	if j == i || strings.ContainsRune(s[j:], '\n') {
		return "", false
	}
	return s[j:], true
}

// phaseWordEnd matches `^[^\pL\pN]*(?i:phase)\s+` and returns the offset just past it, or -1.
func phaseWordEnd(s string) int {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			break
		}
		i += size
	}
	if len(s)-i < len("phase") || !strings.EqualFold(s[i:i+len("phase")], "phase") {
		return -1
	}
	i += len("phase")
	j := skipSpace(s, i)
	if j == i {
		return -1
	}
	return j
}

// parenGroups returns the contents of every innermost `(...)` group, left to right, as
// `\(([^()]*)\)` finds them.
func parenGroups(s string) []string {
	var out []string
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '(')
		if j < 0 {
			break
		}
		start := i + j + 1
		k := strings.IndexAny(s[start:], "()")
		if k < 0 {
			break
		}
		if s[start+k] == '(' {
			i = start + k
			continue
		}
		out = append(out, s[start:start+k])
		i = start + k + 1
	}
	return out
}
