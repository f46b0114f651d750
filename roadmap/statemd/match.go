package statemd

import (
	"regexp"
	"sync"
)

// The text shapes STATE.md reading needs, as regular expressions compiled on first use: a
// package-level regexp.MustCompile would compile them in every gsd process as it starts. \b is
// ASCII's word boundary; (?i) also folds the Kelvin sign to k and ſ to s.
var (
	completeRe       = &lazyRegexp{expr: `(?i)\bcomplete(d)?\b`}
	planWordRe       = &lazyRegexp{expr: `(?i)\b(plan|task)s?\b`}
	parensRe         = &lazyRegexp{expr: `\([^()]*\)`}
	statusCompleteRe = &lazyRegexp{expr: `(?i)^[^A-Za-z0-9]*(phase( [A-Za-z]{0,2}[0-9.]+)? )?complete(d)?\b`}
	pausedRe         = &lazyRegexp{expr: `(?i)\bpaused\b`}
	nextPhaseRe      = &lazyRegexp{expr: `(?i)(?:\b(?:plan|execute|discuss|research|verify)-phase[ \t:]+|^[^A-Za-z0-9]*phase[ \t]+)([A-Za-z]{0,2}[0-9]+(?:\.[0-9]+)*[A-Za-z]?)\b`}
	phaseTokenRe     = &lazyRegexp{expr: "^[*_`\"' ]*(?i:phase[ \t]+)?[*_`\"' ]*([A-Za-z]{0,2}[0-9]+(?:\\.[0-9]+)*(?:[A-Za-z]\\b)?)"}
	percentRe        = &lazyRegexp{expr: `(?:^|[^0-9])([0-9]{1,3})%`}
)

// lazyRegexp is a regular expression compiled on first use, as Go's own internal/lazyregexp:
// a variable of it is laid out by the linker, with no code run at start.
type lazyRegexp struct {
	expr string
	once sync.Once
	re   *regexp.Regexp
}

func (l *lazyRegexp) get() *regexp.Regexp {
	l.once.Do(func() { l.re = regexp.MustCompile(l.expr) })
	return l.re
}

// indexComplete is the start of the first word "complete" or "completed" in s, in any case, or -1.
func indexComplete(s string) int {
	if loc := completeRe.get().FindStringIndex(s); loc != nil {
		return loc[0]
	}
	return -1
}

// hasPlanWord reports whether s has the word plan, plans, task or tasks, in any case.
func hasPlanWord(s string) bool { return planWordRe.get().MatchString(s) }

// dropParens removes every innermost parenthesised group from s.
func dropParens(s string) string { return parensRe.get().ReplaceAllString(s, "") }

// statusComplete reports whether a Status value says the phase is complete: "complete",
// "✓ Complete", "Phase complete", "Phase 8 Complete — ...".
func statusComplete(v string) bool { return statusCompleteRe.get().MatchString(v) }

// indexPaused is the start of the first word "paused" in v, in any case, or -1.
func indexPaused(v string) int {
	if loc := pausedRe.get().FindStringIndex(v); loc != nil {
		return loc[0]
	}
	return -1
}

// nextPhase returns the phase token a Next value names ("Run /gsd:plan-phase 15", "Phase 16C"),
// or "".
func nextPhase(v string) string {
	if m := nextPhaseRe.get().FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return ""
}

// phaseTokenSpan returns the span of the phase token a value starts with ("07 of 9", "Phase
// 12.3.1 — Name", "**E73**"), or -1, -1.
func phaseTokenSpan(v string) (int, int) {
	if m := phaseTokenRe.get().FindStringSubmatchIndex(v); m != nil {
		return m[2], m[3]
	}
	return -1, -1
}

// percentAt returns the span of the number of the first "NN%" (one to three digits), or -1, -1.
func percentAt(v string) (int, int) {
	if m := percentRe.get().FindStringSubmatchIndex(v); m != nil {
		return m[2], m[3]
	}
	return -1, -1
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
