package roadmap

import (
	"regexp"
	"slices"
	"testing"
)

// The matchers that are regexps are held to explicit answers; phaseWordEnd, still written by
// hand (its expression cost a tenth of a millisecond to compile on every hydrate), is held to
// its expression on every input.
var specPhaseWord = regexp.MustCompile(`^[^\pL\pN]*(?i:phase)\s+`)

func checkPhaseWord(t *testing.T, s string) {
	end := phaseWordEnd(s)
	loc := specPhaseWord.FindStringIndex(s)
	if (end >= 0) != (loc != nil) || loc != nil && end != loc[1] {
		t.Errorf("phase word %q: got %d, regexp %v", s, end, loc)
	}
}

func TestPhaseWordAgreesWithRegexp(t *testing.T) {
	for _, s := range []string{
		"- [x] **Phase 1: Foundation** - PWA setup", "### Phase 3: Name", "**Phase 3:** x", "PHASE\t4", "phase4",
		"✅ Phase 1", "phaſe 1", "PHAſE\t2", "", "\tphase  \n", "Ünïcode Phase 1", "#", "(",
	} {
		checkPhaseWord(t, s)
	}
}

func FuzzMatchers(f *testing.F) {
	f.Add("- [x] **Phase 1: Foundation** (completed 2026-01-05)")
	f.Add("### 🚧 Phase 3.1: Name (In Progress)")
	f.Fuzz(func(t *testing.T, s string) { checkPhaseWord(t, s) })
}

func TestMatchers(t *testing.T) {
	for _, tc := range []struct {
		s         string
		box, rest string
		list      bool
	}{
		{"- [x] **Phase 1: Foundation** - PWA setup", "x", "**Phase 1: Foundation** - PWA setup", true},
		{"  * [ ] Phase 3.1: X (INSERTED)", " ", "Phase 3.1: X (INSERTED)", true},
		{"12) [X]  Phase 2", "X", "Phase 2", true},
		{"-[x] Phase 1", "", "", false},
		{"- [x]Phase 1", "", "", false},
		{"- [y] Phase 1", "", "", false},
		{"1. [ ] ", " ", "", true},
	} {
		box, rest, ok := matchChecklist(tc.s)
		if ok != tc.list || box != tc.box || rest != tc.rest {
			t.Errorf("checklist %q: got %q %q %v, want %q %q %v", tc.s, box, rest, ok, tc.box, tc.rest, tc.list)
		}
	}
	for _, tc := range []struct {
		s, text string
		ok      bool
	}{
		{"### Phase 3: Name", "Phase 3: Name", true},
		{"   ## Phase 03", "Phase 03", true},
		{"#\tPhase 1", "Phase 1", true},
		{"####### too deep", "", false},
		{"    ### indented code", "", false},
		{"#", "", false},
		{"**Phase 3:** x", "", false},
	} {
		text, ok := matchHeading(tc.s)
		if ok != tc.ok || text != tc.text {
			t.Errorf("heading %q: got %q %v, want %q %v", tc.s, text, ok, tc.text, tc.ok)
		}
	}
	for s, want := range map[string][]string{
		"a (b (c) d) (e) (f": {"c", "e"},
		"((x))":              {"x"},
		"Phase 1 (complete)": {"complete"},
		"(":                  nil,
	} {
		if got := parenGroups(s); !slices.Equal(got, want) {
			t.Errorf("parens %q: got %q, want %q", s, got, want)
		}
	}
}
