package identity

import "strings"

// wildmatch reports whether text matches pattern with git's wildmatch
// rules in pathname mode (used by includeIf gitdir: and onbranch:):
//
//   - '?' and '*' never match '/'; '*' matches any run of other bytes;
//   - "**" as a whole path component ("**/", "/**/", "/**") matches any
//     number of directories, elsewhere it is a plain '*';
//   - "[...]" is a byte class with ranges, '!' or '^' negation and
//     [:alpha:]-style classes, and never matches '/';
//   - '\' makes the next byte literal.
//
// icase folds ASCII case (gitdir/i:). Results are memoised per position
// pair, so matching stays polynomial whatever the pattern.
func wildmatch(pattern, text string, icase bool) bool {
	m := &matcher{p: pattern, t: text, icase: icase}
	return m.match(0, 0)
}

type matcher struct {
	p, t  string
	icase bool
	memo  map[[2]int]bool
}

func (m *matcher) fold(c byte) byte {
	if m.icase {
		return lower(c)
	}
	return c
}

func (m *matcher) match(pi, ti int) bool {
	p, t := m.p, m.t
	for pi < len(p) {
		switch c := p[pi]; c {
		case '?':
			if ti >= len(t) || t[ti] == '/' {
				return false
			}
			pi++
			ti++
		case '*':
			return m.star(pi, ti)
		case '[':
			next, ok := m.class(pi, ti)
			if !ok {
				return false
			}
			pi, ti = next, ti+1
		default:
			if c == '\\' {
				pi++
				if pi >= len(p) {
					return false
				}
				c = p[pi]
			}
			if ti >= len(t) || m.fold(t[ti]) != m.fold(c) {
				return false
			}
			pi++
			ti++
		}
	}
	return ti == len(t)
}

// star matches the run of '*' at p[pi:] and the rest of the pattern.
func (m *matcher) star(pi, ti int) bool {
	key := [2]int{pi, ti}
	if r, ok := m.memo[key]; ok {
		return r
	}
	r := m.starUncached(pi, ti)
	if m.memo == nil {
		m.memo = map[[2]int]bool{}
	}
	m.memo[key] = r
	return r
}

func (m *matcher) starUncached(start, ti int) bool {
	p, t := m.p, m.t
	pi := start
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	crossSlash := false
	if pi-start >= 2 && (start == 0 || p[start-1] == '/') &&
		(pi == len(p) || p[pi] == '/' || p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/') {
		// "**/" may also match no directory at all: "a/**/b" matches "a/b".
		if pi < len(p) && p[pi] == '/' && m.match(pi+1, ti) {
			return true
		}
		crossSlash = true
	}
	if pi == len(p) {
		return crossSlash || !strings.Contains(t[ti:], "/")
	}
	for k := ti; k <= len(t); k++ {
		if m.match(pi, k) {
			return true
		}
		if k < len(t) && t[k] == '/' && !crossSlash {
			return false
		}
	}
	return false
}

// class matches t[ti] against the bracket expression at p[pi] and returns
// the pattern index after it. A malformed class matches nothing.
func (m *matcher) class(pi, ti int) (int, bool) {
	p, t := m.p, m.t
	if ti >= len(t) {
		return 0, false
	}
	tc := m.fold(t[ti])
	pi++
	negated := pi < len(p) && (p[pi] == '!' || p[pi] == '^')
	if negated {
		pi++
	}
	matched := false
	var prev byte // previous member, for ranges; 0 after a range or a named class
	for first := true; first || pi < len(p) && p[pi] != ']'; first = false {
		if pi >= len(p) {
			return 0, false
		}
		c := p[pi]
		switch {
		case c == '\\':
			pi++
			if pi >= len(p) {
				return 0, false
			}
			c = p[pi]
			if tc == c {
				matched = true
			}
		case c == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
			pi++
			hi := p[pi]
			if hi == '\\' {
				pi++
				if pi >= len(p) {
					return 0, false
				}
				hi = p[pi]
			}
			if prev <= tc && tc <= hi {
				matched = true
			} else if m.icase && 'a' <= tc && tc <= 'z' && prev <= tc-32 && tc-32 <= hi {
				matched = true
			}
			c = 0
		case c == '[' && pi+1 < len(p) && p[pi+1] == ':':
			end := strings.Index(p[pi+2:], "]")
			if end < 0 {
				return 0, false
			}
			name := p[pi+2 : pi+2+end]
			if n, ok := strings.CutSuffix(name, ":"); ok {
				in, known := inNamedClass(n, tc, m.icase)
				if !known {
					return 0, false
				}
				if in {
					matched = true
				}
				pi += 2 + end
				c = 0
			} else if tc == '[' { // no ":]": a literal '['
				matched = true
			}
		default:
			if tc == c {
				matched = true
			}
		}
		prev = c
		pi++
	}
	if pi >= len(p) {
		return 0, false
	}
	if matched == negated || t[ti] == '/' {
		return 0, false
	}
	return pi + 1, true
}

// inNamedClass tests c against a POSIX class name in the C locale.
func inNamedClass(name string, c byte, icase bool) (in, known bool) {
	alpha := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return alpha || digit, true
	case "alpha":
		return alpha, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 32 || c == 127, true
	case "digit":
		return digit, true
	case "graph":
		return 33 <= c && c <= 126, true
	case "lower":
		return 'a' <= c && c <= 'z', true
	case "print":
		return 32 <= c && c <= 126, true
	case "punct":
		return 33 <= c && c <= 126 && !alpha && !digit, true
	case "space":
		return isSpace(c), true
	case "upper":
		return 'A' <= c && c <= 'Z' || icase && 'a' <= c && c <= 'z', true
	case "xdigit":
		return isHex(c), true
	}
	return false, false
}
