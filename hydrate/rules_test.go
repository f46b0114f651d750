package hydrate

import (
	"strings"
	"testing"
)

// TestSessionRules: which session states can be worked from, which cannot be listed or marked,
// and where a result's archive is.
func TestSessionRules(t *testing.T) {
	for _, tc := range []struct {
		state    SessionState
		valid    bool
		unusable string
	}{
		{StateResume, true, ""},
		{StateAllComplete, true, ""},
		{StateStale, false, ""},
		{StateNoPlan, false, ""},
		{StateNoSession, false, "s.md: no session; start one with gsd hydrate or gsd start"},
		{StateCorrupt, false, "s.md: not a valid session (no tasks)"},
	} {
		s := &Session{Path: "s.md", State: tc.state, CorruptReasons: []string{"no tasks"}}
		if s.Valid() != tc.valid {
			t.Errorf("%s: Valid() = %v", tc.state, s.Valid())
		}
		err := s.Unusable()
		if (err == nil) != (tc.unusable == "") || err != nil && err.Error() != tc.unusable {
			t.Errorf("%s: Unusable() = %v, want %q", tc.state, err, tc.unusable)
		}
	}
	r := &Result{Actions: []Action{{Kind: ActionBootstrapped, Path: "s.md"}, {Kind: ActionArchived, Path: "s.1.stale"}}}
	if got := r.Archived(); got != "s.1.stale" {
		t.Errorf("Archived() = %q, not the archived action's path", got)
	}
	if got := (&Result{}).Archived(); got != "" {
		t.Errorf("Archived() with no archive = %q", got)
	}
}

// TestFitBrief: parts give way in drop order, completed tasks first and the objective last, and
// only as far as needed; what is never dropped stays.
func TestFitBrief(t *testing.T) {
	big := strings.Repeat("x", MaxBriefSize/3)
	parts := func() []BriefPart {
		return []BriefPart{
			{Text: "head\n"},
			{Text: big, Drop: DropObjective, Short: "[objective]"},
			{Text: big, Drop: DropCompleted, Short: "[completed]"},
			{Text: "resume\n"},
			{Text: big, Drop: DropRemaining, Short: "[remaining]"},
			{Text: big, Drop: DropFindings, Short: "[findings]"},
		}
	}
	got := FitBrief(parts())
	if len(got) > MaxBriefSize || !strings.Contains(got, "[completed]") || !strings.Contains(got, "[findings]") ||
		strings.Contains(got, "[remaining]") || strings.Contains(got, "[objective]") || !strings.Contains(got, "resume\n") {
		t.Errorf("FitBrief dropped the wrong parts (%d bytes): %q", len(got), strings.ReplaceAll(got, big, "BIG"))
	}
	small := []BriefPart{{Text: "a"}, {Text: "b", Drop: DropCompleted, Short: "[c]"}}
	if got := FitBrief(small); got != "ab" {
		t.Errorf("a brief that fits lost a part: %q", got)
	}
}
