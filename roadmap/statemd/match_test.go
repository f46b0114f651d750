package statemd

import (
	"regexp"
	"testing"
)

// The specification of the matchers of match.go: each must give what its expression finds, on
// every input.
var (
	reComplete       = regexp.MustCompile(`(?i)\bcomplete(d)?\b`)
	rePlanWord       = regexp.MustCompile(`(?i)\b(plan|task)s?\b`)
	reParens         = regexp.MustCompile(`\([^()]*\)`)
	reStatusComplete = regexp.MustCompile(`(?i)^[^A-Za-z0-9]*(phase( [A-Za-z]{0,2}[0-9.]+)? )?complete(d)?\b`)
	rePaused         = regexp.MustCompile(`(?i)\bpaused\b`)
	reNextPhase      = regexp.MustCompile(`(?i)(?:\b(?:plan|execute|discuss|research|verify)-phase[ \t:]+|^[^A-Za-z0-9]*phase[ \t]+)([A-Za-z]{0,2}[0-9]+(?:\.[0-9]+)*[A-Za-z]?)\b`)
	rePhaseTok       = regexp.MustCompile("^[*_`\"' ]*(?i:phase[ \t]+)?[*_`\"' ]*([A-Za-z]{0,2}[0-9]+(?:\\.[0-9]+)*(?:[A-Za-z]\\b)?)")
	rePercent        = regexp.MustCompile(`(?:^|[^0-9])([0-9]{1,3})%`)
)

var matchSamples = []string{
	"", "complete", "Complete", "COMPLETED", "completeness", "incomplete", "phase complete",
	"Phase 8 Complete — README ready", "Phase 12.3 complete", "Phase E73 complete", "Phase ABC1 complete",
	"✓ Complete", "(context complete)", "plans complete", "3 tasks completed", "plan 2 complete",
	"PAUSED at Plan 01 Task 4", "Paused — waiting for keys", "unpaused", "paused.",
	"Run /gsd:plan-phase 15 for Link Sharing", "`/gsd-execute-phase 05-pr-review`", "Phase 15 — Link",
	"**Phase 15**", "discuss-phase: 3.1.", "research-phase 12abc", "verify-phase\t7.2.x", "replan-phase 4",
	"Phase:", "Phase 9", "07 of 9", "Phase 12.3.1 — Name", "**E73**", "\"07\"", "3rd", "12abc", "ABC12",
	"[█████░░░░░] 50%", "97%", "1234%", "x5%y 60%", "100% done", "(a (b) c)", "((x))", "a(b", "(",
	"Progress: 67% (v1.0 complete, v1.1 starting)", "phase\t12", "phase  3", "_phase 3", "plans_complete",
	"Run /gsd:plan-phase 16C next", "Phase 16c — Billing", "plan-phase 16Cx", "**Phase 16C**", "16C", "16C.",
}

func checkMatchers(t *testing.T, s string) {
	t.Helper()
	want := -1
	if loc := reComplete.FindStringIndex(s); loc != nil {
		want = loc[0]
	}
	if got := indexComplete(s); got != want {
		t.Errorf("indexComplete(%q) = %d, want %d", s, got, want)
	}
	if got, want := hasPlanWord(s), rePlanWord.MatchString(s); got != want {
		t.Errorf("hasPlanWord(%q) = %v, want %v", s, got, want)
	}
	if got, want := statusComplete(s), reStatusComplete.MatchString(s); got != want {
		t.Errorf("statusComplete(%q) = %v, want %v", s, got, want)
	}
	want = -1
	if loc := rePaused.FindStringIndex(s); loc != nil {
		want = loc[0]
	}
	if got := indexPaused(s); got != want {
		t.Errorf("indexPaused(%q) = %d, want %d", s, got, want)
	}
	wantTok := ""
	if m := reNextPhase.FindStringSubmatch(s); m != nil {
		wantTok = m[1]
	}
	if got := nextPhase(s); got != wantTok {
		t.Errorf("nextPhase(%q) = %q, want %q", s, got, wantTok)
	}
	ws, we := -1, -1
	if m := rePhaseTok.FindStringSubmatchIndex(s); m != nil {
		ws, we = m[2], m[3]
	}
	if gs, ge := phaseTokenSpan(s); gs != ws || ge != we {
		t.Errorf("phaseTokenSpan(%q) = %d, %d; want %d, %d", s, gs, ge, ws, we)
	}
	if got, want := dropParens(s), reParens.ReplaceAllString(s, ""); got != want {
		t.Errorf("dropParens(%q) = %q, want %q", s, got, want)
	}
	ws, we = -1, -1
	if m := rePercent.FindStringSubmatchIndex(s); m != nil {
		ws, we = m[2], m[3]
	}
	if gs, ge := percentAt(s); gs != ws || ge != we {
		t.Errorf("percentAt(%q) = %d, %d; want %d, %d", s, gs, ge, ws, we)
	}
}

func TestMatchersAgreeWithExpressions(t *testing.T) {
	for _, s := range matchSamples {
		checkMatchers(t, s)
	}
}

func FuzzMatchers(f *testing.F) {
	for _, s := range matchSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkMatchers(t, s) })
}
