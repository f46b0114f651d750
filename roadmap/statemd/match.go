package statemd

import (
	"github.com/gsd-tools/gsd/roadmap/lazyre"
)

// The text shapes STATE.md reading needs, as regular expressions compiled on first use: a
// package-level regexp.MustCompile would compile them in every gsd process as it starts. \b is
// ASCII's word boundary; (?i) also folds the Kelvin sign to k and ſ to s.
var (
	completeRe       = lazyre.New(`(?i)\bcomplete(d)?\b`)
	planWordRe       = lazyre.New(`(?i)\b(plan|task)s?\b`)
	parensRe         = lazyre.New(`\([^()]*\)`)
	statusCompleteRe = lazyre.New(`(?i)^[^A-Za-z0-9]*(phase( [A-Za-z]{0,2}[0-9.]+)? )?complete(d)?\b`)
	pausedRe         = lazyre.New(`(?i)\bpaused\b`)
	holdRe           = lazyre.New(`(?i)\b(paused|on hold|held|blocked|waiting|awaiting|follow[- ]?ups?( is| are)? required|required before)\b`)
	nextPhaseRe      = lazyre.New(`(?i)(?:\b(?:plan|execute|discuss|research|verify)-phase[ \t:]+|^[^A-Za-z0-9]*phase[ \t]+)([A-Za-z]{0,2}[0-9]+(?:\.[0-9]+)*[A-Za-z]?)\b`)
	phaseTokenRe     = lazyre.New("^[*_`\"' ]*(?i:phase[ \t]+)?[*_`\"' ]*([A-Za-z]{0,2}[0-9]+(?:\\.[0-9]+)*(?:[A-Za-z]\\b)?)")
	percentRe        = lazyre.New(`(?:^|[^0-9])([0-9]{1,3})%`)
)

// indexComplete is the start of the first word "complete" or "completed" in s, in any case, or -1.
func indexComplete(s string) int {
	if loc := completeRe.Get().FindStringIndex(s); loc != nil {
		return loc[0]
	}
	return -1
}

// hasPlanWord reports whether s has the word plan, plans, task or tasks, in any case.
func hasPlanWord(s string) bool { return planWordRe.Get().MatchString(s) }

// dropParens removes every innermost parenthesised group from s.
func dropParens(s string) string { return parensRe.Get().ReplaceAllString(s, "") }

// statusComplete reports whether a Status value says the phase is complete: "complete",
// "✓ Complete", "Phase complete", "Phase 8 Complete — ...".
func statusComplete(v string) bool { return statusCompleteRe.Get().MatchString(v) }

// indexPaused is the start of the first word "paused" in v, in any case, or -1.
func indexPaused(v string) int {
	if loc := pausedRe.Get().FindStringIndex(v); loc != nil {
		return loc[0]
	}
	return -1
}

// holdWords reports whether a Phase or Status value says the work is held: paused, on hold,
// blocked, waiting, a follow-up required (before the next phase).
func holdWords(v string) bool { return holdRe.Get().MatchString(v) }

// nextPhase returns the phase token a Next value names ("Run /gsd:plan-phase 15", "Phase 16C"),
// or "".
func nextPhase(v string) string {
	if m := nextPhaseRe.Get().FindStringSubmatch(v); m != nil {
		return m[1]
	}
	return ""
}

// phaseTokenSpan returns the span of the phase token a value starts with ("07 of 9", "Phase
// 12.3.1 — Name", "**E73**"), or -1, -1.
func phaseTokenSpan(v string) (int, int) {
	if m := phaseTokenRe.Get().FindStringSubmatchIndex(v); m != nil {
		return m[2], m[3]
	}
	return -1, -1
}

// percentAt returns the span of the number of the first "NN%" (one to three digits), or -1, -1.
func percentAt(v string) (int, int) {
	if m := percentRe.Get().FindStringSubmatchIndex(v); m != nil {
		return m[2], m[3]
	}
	return -1, -1
}

func isWordByte(c byte) bool { return isAlnum(c) || c == '_' }

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isDigitByte(c byte) bool { return c >= '0' && c <= '9' }
