package roadmap

import (
	"regexp"
	"slices"
	"testing"
)

// The specification of the matchers: each must give what its expression finds, on every input.
var (
	specChecklist = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+\[([ xX])\]\s+(.*)$`)
	specHeading   = regexp.MustCompile(`^\s{0,3}#{1,6}\s+(.*)$`)
	specPhaseWord = regexp.MustCompile(`^[^\pL\pN]*(?i:phase)\s+`)
	specParen     = regexp.MustCompile(`\(([^()]*)\)`)
)

func checkMatchers(t *testing.T, s string) {
	box, rest, ok := matchChecklist(s)
	m := specChecklist.FindStringSubmatch(s)
	if ok != (m != nil) || ok && (box != m[1] || rest != m[2]) {
		t.Errorf("checklist %q: got %q %q %v, regexp %q", s, box, rest, ok, m)
	}
	text, ok := matchHeading(s)
	m = specHeading.FindStringSubmatch(s)
	if ok != (m != nil) || ok && text != m[1] {
		t.Errorf("heading %q: got %q %v, regexp %q", s, text, ok, m)
	}
	end := phaseWordEnd(s)
	loc := specPhaseWord.FindStringIndex(s)
	if (end >= 0) != (loc != nil) || loc != nil && end != loc[1] {
		t.Errorf("phase word %q: got %d, regexp %v", s, end, loc)
	}
	var want []string
	for _, g := range specParen.FindAllStringSubmatch(s, -1) {
		want = append(want, g[1])
	}
	if got := parenGroups(s); !slices.Equal(got, want) {
		t.Errorf("parens %q: got %q, regexp %q", s, got, want)
	}
}

func TestMatchersAgreeWithRegexps(t *testing.T) {
	for _, s := range []string{
		"- [x] **Phase 1: Foundation** - PWA setup", "  * [ ] Phase 3.1: X (INSERTED)", "12) [X]  Phase 2",
		"-[x] Phase 1", "- [x]Phase 1", "- [y] Phase 1", "1. [ ] ", "- [x] ", "### Phase 3: Name", "####### too deep",
		"    ### indented code", "   ## Phase 03", "#\tPhase 1", "#", "## ", "**Phase 3:** x", "PHASE\t4", "phase4",
		"✅ Phase 1", "phaſe 1", "PHAſE\t2", "a (b (c) d) (e) (f", "((x))", "(", ")", "", "\tphase  \n", "Ünïcode Phase 1",
	} {
		checkMatchers(t, s)
	}
}

func FuzzMatchers(f *testing.F) {
	f.Add("- [x] **Phase 1: Foundation** (completed 2026-01-05)")
	f.Add("### 🚧 Phase 3.1: Name (In Progress)")
	f.Fuzz(func(t *testing.T, s string) { checkMatchers(t, s) })
}
