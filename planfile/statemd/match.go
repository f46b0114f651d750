package statemd

import "strings"

// Hand-written matchers for the few text shapes STATE.md reading needs. STATE.md is read on
// every agent turn (the position model asks what it declares), and compiling the equivalent
// regular expressions cost every such gsd process more than the rest of the reading;
// match_test.go checks each matcher against its expression.

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }

// hasFoldAt reports whether s has w (lower-case ASCII) at i, in any case.
func hasFoldAt(s string, i int, w string) bool {
	return i >= 0 && i+len(w) <= len(s) && strings.EqualFold(s[i:i+len(w)], w)
}

// boundaryAt reports whether \b holds at i.
func boundaryAt(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

// indexWordFold is the start of the first `(?i)\bw\b` in s, or -1.
func indexWordFold(s, w string) int {
	for i := 0; i+len(w) <= len(s); i++ {
		if hasFoldAt(s, i, w) && boundaryAt(s, i) && boundaryAt(s, i+len(w)) {
			return i
		}
	}
	return -1
}

// completeEnd matches `(?i)complete(d)?\b` at i and returns where it ends, or -1.
func completeEnd(s string, i int) int {
	if !hasFoldAt(s, i, "complete") {
		return -1
	}
	j := i + len("complete")
	if j < len(s) && (s[j] == 'd' || s[j] == 'D') && boundaryAt(s, j+1) {
		return j + 1
	}
	if boundaryAt(s, j) {
		return j
	}
	return -1
}

// indexComplete is the start of the first `(?i)\bcomplete(d)?\b` in s, or -1.
func indexComplete(s string) int {
	for i := 0; i < len(s); i++ {
		if (i == 0 || !isWordByte(s[i-1])) && completeEnd(s, i) >= 0 {
			return i
		}
	}
	return -1
}

// hasPlanWord reports whether s has `(?i)\b(plan|task)s?\b`.
func hasPlanWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if i > 0 && isWordByte(s[i-1]) {
			continue
		}
		for _, w := range []string{"plan", "task"} {
			if hasFoldAt(s, i, w) {
				j := i + len(w)
				if boundaryAt(s, j) || j < len(s) && (s[j] == 's' || s[j] == 'S') && boundaryAt(s, j+1) {
					return true
				}
			}
		}
	}
	return false
}

// dropParens removes every `\([^()]*\)` from s, as regexp's ReplaceAllString does.
func dropParens(s string) string {
	if !strings.ContainsRune(s, '(') {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '(' {
			j := i + 1
			for j < len(s) && s[j] != '(' && s[j] != ')' {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// skipNonAlnum skips `[^A-Za-z0-9]*` from i.
func skipNonAlnum(s string, i int) int {
	for i < len(s) && !isAlnum(s[i]) {
		i++
	}
	return i
}

// statusComplete matches `(?i)^[^A-Za-z0-9]*(phase( [A-Za-z]{0,2}[0-9.]+)? )?complete(d)?\b`:
// "complete", "✓ Complete", "Phase complete", "Phase 8 Complete — ...".
func statusComplete(v string) bool {
	i := skipNonAlnum(v, 0)
	if completeEnd(v, i) >= 0 {
		return true
	}
	if !hasFoldAt(v, i, "phase") {
		return false
	}
	j := i + len("phase")
	if j >= len(v) || v[j] != ' ' {
		return false
	}
	if completeEnd(v, j+1) >= 0 {
		return true
	}
	k := j + 1
	l := 0
	for l < 2 && k+l < len(v) && isLetterByte(v[k+l]) {
		l++
	}
	for ; l >= 0; l-- {
		m := k + l
		n := m
		for n < len(v) && (isDigitByte(v[n]) || v[n] == '.') {
			n++
		}
		if n > m && n < len(v) && v[n] == ' ' && completeEnd(v, n+1) >= 0 {
			return true
		}
	}
	return false
}

// tokenEnd matches `[A-Za-z]{0,2}[0-9]+(?:\.[0-9]+)*(?:[A-Za-z]\b)?` at i, greedily, and returns its end, or
// -1. With mustEnd, the match must also be followed by \b (the longest such).
func tokenEnd(s string, i int, mustEnd bool) int {
	l := 0
	for i+l < len(s) && isLetterByte(s[i+l]) {
		l++
	}
	if l > 2 {
		return -1
	}
	k := i + l
	if k >= len(s) || !isDigitByte(s[k]) {
		return -1
	}
	for k < len(s) && isDigitByte(s[k]) {
		k++
	}
	ends := []int{k}
	for k+1 < len(s) && s[k] == '.' && isDigitByte(s[k+1]) {
		k += 2
		for k < len(s) && isDigitByte(s[k]) {
			k++
		}
		ends = append(ends, k)
	}
	// A letter suffix ("16C"), as the roadmap's phase numbers have, when the word ends with it.
	if k < len(s) && isLetterByte(s[k]) && (k+1 == len(s) || !isWordByte(s[k+1])) {
		k++
		ends = append(ends, k)
	}
	if !mustEnd {
		return k
	}
	for n := len(ends) - 1; n >= 0; n-- {
		if boundaryAt(s, ends[n]) {
			return ends[n]
		}
	}
	return -1
}

// isQuoteOrEmphasis reports whether c is one of `[*_`"' ]`.
func isQuoteOrEmphasis(c byte) bool { return strings.IndexByte("*_`\"' ", c) >= 0 }

// phaseTokenSpan matches "^[*_`\"' ]*(?i:phase[ \t]+)?[*_`\"' ]*([A-Za-z]{0,2}[0-9]+(?:\\.[0-9]+)*(?:[A-Za-z]\b)?)"
// and returns the token's span, or -1, -1.
func phaseTokenSpan(v string) (int, int) {
	i := 0
	for i < len(v) && isQuoteOrEmphasis(v[i]) {
		i++
	}
	if hasFoldAt(v, i, "phase") {
		j := i + len("phase")
		if j < len(v) && (v[j] == ' ' || v[j] == '\t') {
			for j < len(v) && (v[j] == ' ' || v[j] == '\t') {
				j++
			}
			for j < len(v) && isQuoteOrEmphasis(v[j]) {
				j++
			}
			if e := tokenEnd(v, j, false); e >= 0 {
				return j, e
			}
		}
	}
	if e := tokenEnd(v, i, false); e >= 0 {
		return i, e
	}
	return -1, -1
}

// nextPhase matches `(?i)(?:\b(?:plan|execute|discuss|research|verify)-phase[ \t:]+|^[^A-Za-z0-9]*phase[ \t]+)([A-Za-z]{0,2}[0-9]+(?:\.[0-9]+)*[A-Za-z]?)\b`
// and returns the token, or "".
func nextPhase(v string) string {
	verbs := []string{"plan", "execute", "discuss", "research", "verify"}
	for p := 0; p < len(v); p++ {
		if p == 0 || !isWordByte(v[p-1]) {
			for _, w := range verbs {
				if !hasFoldAt(v, p, w) || !hasFoldAt(v, p+len(w), "-phase") {
					continue
				}
				j := p + len(w) + len("-phase")
				k := j
				for k < len(v) && (v[k] == ' ' || v[k] == '\t' || v[k] == ':') {
					k++
				}
				if k > j {
					if e := tokenEnd(v, k, true); e >= 0 {
						return v[k:e]
					}
				}
			}
		}
		if p == 0 {
			i := skipNonAlnum(v, 0)
			if hasFoldAt(v, i, "phase") {
				j := i + len("phase")
				k := j
				for k < len(v) && (v[k] == ' ' || v[k] == '\t') {
					k++
				}
				if k > j {
					if e := tokenEnd(v, k, true); e >= 0 {
						return v[k:e]
					}
				}
			}
		}
	}
	return ""
}

// percentAt finds the first `(?:^|[^0-9])([0-9]{1,3})%` and returns the number's span, or -1, -1.
func percentAt(v string) (int, int) {
	for j := 0; j < len(v); j++ {
		if v[j] != '%' {
			continue
		}
		s := j
		for s > 0 && isDigitByte(v[s-1]) {
			s--
		}
		if n := j - s; n >= 1 && n <= 3 {
			return s, j
		}
	}
	return -1, -1
}
