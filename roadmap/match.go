package roadmap

import (
	"github.com/gsd-tools/gsd/roadmap/lazyre"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The line shapes ROADMAP.md parsing needs, as regular expressions compiled on first use: a
// package-level regexp.MustCompile would compile them in every gsd process as it starts,
// whether or not it reads a roadmap.
var (
	checklistRe = lazyre.New(`^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$`)
	headingRe   = lazyre.New(`^\s{0,3}#{1,6}\s+(.*)$`)
	parenRe     = lazyre.New(`\(([^()]*)\)`)
)

// matchChecklist matches a checklist item ("- [x] Phase 1: ..."), returning the box character
// and the rest of the line.
func matchChecklist(s string) (box, rest string, ok bool) {
	m := checklistRe.Get().FindStringSubmatch(s)
	if m == nil {
		return "", "", false
	}
	return m[1], m[2], true
}

// matchHeading matches a Markdown heading, returning its text.
func matchHeading(s string) (string, bool) {
	m := headingRe.Get().FindStringSubmatch(s)
	if m == nil {
		return "", false
	}
	return m[1], true
}

// phaseWordEnd returns the offset just past a leading "Phase " (after any symbols or markup
// before it, such as "✅ **"), or -1: where `^[^\pL\pN]*(?i:phase)\s+` ends. Not a regular
// expression: compiling that one's Unicode classes took 0.1 ms, 5% of a gsd hydrate (every
// hydrate reads the roadmap); match_test.go holds this to the expression.
func phaseWordEnd(s string) int {
	t := strings.TrimLeftFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	n := 0 // the bytes of t's first five runes ("PHAſE" too: ſ folds to s, as in the expression)
	for range 5 {
		if n == len(t) {
			return -1
		}
		_, size := utf8.DecodeRuneInString(t[n:])
		n += size
	}
	if !strings.EqualFold(t[:n], "phase") {
		return -1
	}
	rest := t[n:]
	after := strings.TrimLeft(rest, " \t\n\f\r")
	if len(after) == len(rest) {
		return -1
	}
	return len(s) - len(after)
}

// parenGroups returns the contents of every innermost `(...)` group, left to right.
func parenGroups(s string) []string {
	var out []string
	for _, m := range parenRe.Get().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// skipSpace skips the white space of `\s` from i.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}
