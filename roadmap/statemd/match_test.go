package statemd

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// matchCases are the matchers' answers on the inputs real STATE.md files write, as the
// hand-written matchers gave them (held to these same expressions on every input until the
// expressions replaced them), so that a changed expression shows here: where "complete" starts, whether a plan or task is named, whether a status says
// complete, where "paused" starts, the phase a Next line names, the phase token's span, the
// text without parentheses, and the percent's span.
var matchCases = []struct {
	s                        string
	complete                 int
	planWord, statusDone     bool
	paused                   int
	next                     string
	tokStart, tokEnd         int
	noParens                 string
	percentStart, percentEnd int
}{
	{"", -1, false, false, -1, "", -1, -1, "", -1, -1},
	{"complete", 0, false, true, -1, "", -1, -1, "complete", -1, -1},
	{"Complete", 0, false, true, -1, "", -1, -1, "Complete", -1, -1},
	{"COMPLETED", 0, false, true, -1, "", -1, -1, "COMPLETED", -1, -1},
	{"completeness", -1, false, false, -1, "", -1, -1, "completeness", -1, -1},
	{"incomplete", -1, false, false, -1, "", -1, -1, "incomplete", -1, -1},
	{"phase complete", 6, false, true, -1, "", -1, -1, "phase complete", -1, -1},
	{"Phase 8 Complete — README ready", 8, false, true, -1, "8", 6, 7, "Phase 8 Complete — README ready", -1, -1},
	{"Phase 12.3 complete", 11, false, true, -1, "12.3", 6, 10, "Phase 12.3 complete", -1, -1},
	{"Phase E73 complete", 10, false, true, -1, "E73", 6, 9, "Phase E73 complete", -1, -1},
	{"Phase ABC1 complete", 11, false, false, -1, "", -1, -1, "Phase ABC1 complete", -1, -1},
	{"✓ Complete", 4, false, true, -1, "", -1, -1, "✓ Complete", -1, -1},
	{"(context complete)", 9, false, false, -1, "", -1, -1, "", -1, -1},
	{"plans complete", 6, true, false, -1, "", -1, -1, "plans complete", -1, -1},
	{"3 tasks completed", 8, true, false, -1, "", 0, 1, "3 tasks completed", -1, -1},
	{"plan 2 complete", 7, true, false, -1, "", -1, -1, "plan 2 complete", -1, -1},
	{"PAUSED at Plan 01 Task 4", -1, true, false, 0, "", -1, -1, "PAUSED at Plan 01 Task 4", -1, -1},
	{"Paused — waiting for keys", -1, false, false, 0, "", -1, -1, "Paused — waiting for keys", -1, -1},
	{"unpaused", -1, false, false, -1, "", -1, -1, "unpaused", -1, -1},
	{"paused.", -1, false, false, 0, "", -1, -1, "paused.", -1, -1},
	{"Run /gsd:plan-phase 15 for Link Sharing", -1, true, false, -1, "15", -1, -1, "Run /gsd:plan-phase 15 for Link Sharing", -1, -1},
	{"`/gsd-execute-phase 05-pr-review`", -1, false, false, -1, "05", -1, -1, "`/gsd-execute-phase 05-pr-review`", -1, -1},
	{"Phase 15 — Link", -1, false, false, -1, "15", 6, 8, "Phase 15 — Link", -1, -1},
	{"**Phase 15**", -1, false, false, -1, "15", 8, 10, "**Phase 15**", -1, -1},
	{"discuss-phase: 3.1.", -1, false, false, -1, "3.1", -1, -1, "discuss-phase: 3.1.", -1, -1},
	{"research-phase 12abc", -1, false, false, -1, "", -1, -1, "research-phase 12abc", -1, -1},
	{"verify-phase\t7.2.x", -1, false, false, -1, "7.2", -1, -1, "verify-phase\t7.2.x", -1, -1},
	{"replan-phase 4", -1, false, false, -1, "", -1, -1, "replan-phase 4", -1, -1},
	{"Phase:", -1, false, false, -1, "", -1, -1, "Phase:", -1, -1},
	{"Phase 9", -1, false, false, -1, "9", 6, 7, "Phase 9", -1, -1},
	{"07 of 9", -1, false, false, -1, "", 0, 2, "07 of 9", -1, -1},
	{"Phase 12.3.1 — Name", -1, false, false, -1, "12.3.1", 6, 12, "Phase 12.3.1 — Name", -1, -1},
	{"**E73**", -1, false, false, -1, "", 2, 5, "**E73**", -1, -1},
	{"\"07\"", -1, false, false, -1, "", 1, 3, "\"07\"", -1, -1},
	{"3rd", -1, false, false, -1, "", 0, 1, "3rd", -1, -1},
	{"12abc", -1, false, false, -1, "", 0, 2, "12abc", -1, -1},
	{"ABC12", -1, false, false, -1, "", -1, -1, "ABC12", -1, -1},
	{"[█████░░░░░] 50%", -1, false, false, -1, "", -1, -1, "[█████░░░░░] 50%", 33, 35},
	{"97%", -1, false, false, -1, "", 0, 2, "97%", 0, 2},
	{"1234%", -1, false, false, -1, "", 0, 4, "1234%", -1, -1},
	{"x5%y 60%", -1, false, false, -1, "", 0, 2, "x5%y 60%", 1, 2},
	{"100% done", -1, false, false, -1, "", 0, 3, "100% done", 0, 3},
	{"(a (b) c)", -1, false, false, -1, "", -1, -1, "(a  c)", -1, -1},
	{"((x))", -1, false, false, -1, "", -1, -1, "()", -1, -1},
	{"a(b", -1, false, false, -1, "", -1, -1, "a(b", -1, -1},
	{"(", -1, false, false, -1, "", -1, -1, "(", -1, -1},
	{"Progress: 67% (v1.0 complete, v1.1 starting)", 20, false, false, -1, "", -1, -1, "Progress: 67% ", 10, 12},
	{"phase\t12", -1, false, false, -1, "12", 6, 8, "phase\t12", -1, -1},
	{"phase  3", -1, false, false, -1, "3", 7, 8, "phase  3", -1, -1},
	{"_phase 3", -1, false, false, -1, "3", 7, 8, "_phase 3", -1, -1},
	{"plans_complete", -1, false, false, -1, "", -1, -1, "plans_complete", -1, -1},
	{"Run /gsd:plan-phase 16C next", -1, true, false, -1, "16C", -1, -1, "Run /gsd:plan-phase 16C next", -1, -1},
	{"Phase 16c — Billing", -1, false, false, -1, "16c", 6, 9, "Phase 16c — Billing", -1, -1},
	{"plan-phase 16Cx", -1, true, false, -1, "", -1, -1, "plan-phase 16Cx", -1, -1},
	{"**Phase 16C**", -1, false, false, -1, "16C", 8, 11, "**Phase 16C**", -1, -1},
	{"16C", -1, false, false, -1, "", 0, 3, "16C", -1, -1},
	{"16C.", -1, false, false, -1, "", 0, 3, "16C.", -1, -1},
}

func TestMatchers(t *testing.T) {
	for _, c := range matchCases {
		s := c.s
		ps, pe := phaseTokenSpan(s)
		cs, ce := percentAt(s)
		if got := indexComplete(s); got != c.complete {
			t.Errorf("indexComplete(%q) = %d, want %d", s, got, c.complete)
		}
		if got := hasPlanWord(s); got != c.planWord {
			t.Errorf("hasPlanWord(%q) = %v, want %v", s, got, c.planWord)
		}
		if got := statusComplete(s); got != c.statusDone {
			t.Errorf("statusComplete(%q) = %v, want %v", s, got, c.statusDone)
		}
		if got := indexPaused(s); got != c.paused {
			t.Errorf("indexPaused(%q) = %d, want %d", s, got, c.paused)
		}
		if got := nextPhase(s); got != c.next {
			t.Errorf("nextPhase(%q) = %q, want %q", s, got, c.next)
		}
		if ps != c.tokStart || pe != c.tokEnd {
			t.Errorf("phaseTokenSpan(%q) = %d, %d; want %d, %d", s, ps, pe, c.tokStart, c.tokEnd)
		}
		if got := dropParens(s); got != c.noParens {
			t.Errorf("dropParens(%q) = %q, want %q", s, got, c.noParens)
		}
		if cs != c.percentStart || ce != c.percentEnd {
			t.Errorf("percentAt(%q) = %d, %d; want %d, %d", s, cs, ce, c.percentStart, c.percentEnd)
		}
	}
}

// On any input the matchers stay inside it and answer what they claim to find.
func FuzzMatchers(f *testing.F) {
	for _, c := range matchCases {
		f.Add(c.s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		if i := indexComplete(s); i >= 0 && (i+8 > len(s) || !strings.EqualFold(s[i:i+8], "complete")) {
			t.Fatalf("indexComplete(%q) = %d", s, i)
		}
		if i := indexPaused(s); i >= 0 && (i+6 > len(s) || !strings.EqualFold(s[i:i+6], "paused")) {
			t.Fatalf("indexPaused(%q) = %d", s, i)
		}
		if a, b := phaseTokenSpan(s); a >= 0 && (a > b || b > len(s)) {
			t.Fatalf("phaseTokenSpan(%q) = %d, %d", s, a, b)
		}
		if a, b := percentAt(s); a >= 0 && (a >= b || b >= len(s) || s[b] != '%') {
			t.Fatalf("percentAt(%q) = %d, %d", s, a, b)
		}
		if n := nextPhase(s); n != "" && !strings.Contains(s, n) {
			t.Fatalf("nextPhase(%q) = %q", s, n)
		}
		if len(dropParens(s)) > len(s) {
			t.Fatalf("dropParens(%q) grew", s)
		}
	})
}
