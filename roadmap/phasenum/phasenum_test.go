package phasenum

import "testing"

// TestGrammar pins the cases where the roadmap and STATE.md once read phase numbers apart, and
// the decision taken for each (see the package comment).
func TestGrammar(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		ok   bool // both parse
		same bool
	}{
		{"CK-01", "1", true, true}, // a project code names the project, not the phase
		{"ck-3.1", "3.1", true, true},
		{"E73", "73", true, false},  // a series is numbered on its own
		{"E73", "E073", true, true}, // segments compare as numbers
		{"D40", "E40", true, false},
		{"16c", "16C", true, true}, // a suffix in either case
		{"e73", "E73", false, false},
		{"v1.8", "1.8", false, false},
		{"CK01", "CK1", true, true}, // letters against digits, in capitals: a series
	} {
		na, oka := Parse(tt.a)
		nb, okb := Parse(tt.b)
		if ok := oka && okb; ok != tt.ok {
			t.Errorf("Parse(%q), Parse(%q): ok %v, %v; want both %v", tt.a, tt.b, oka, okb, tt.ok)
			continue
		}
		if same := oka && okb && na.Equal(nb); same != tt.same {
			t.Errorf("%q and %q: same %v, want %v", tt.a, tt.b, same, tt.same)
		}
	}
	if _, ok := Parse("e73"); ok {
		t.Errorf("e73 parsed: a lower-case series prefix is a version or a word, not a phase")
	}
	if n, _ := Parse("CK-07"); n.String() != "7" || n.Raw() != "CK-07" {
		t.Errorf("CK-07: %q (raw %q), want 7 (raw CK-07)", n.String(), n.Raw())
	}
}

func TestPlainAndFirst(t *testing.T) {
	for s, want := range map[string]int{"3": 3, "03": 3, "3.1": -1, "16C": -1, "E73": -1, "CK-04": 4} {
		n, _ := Parse(s)
		k, ok := n.Plain()
		if !ok {
			k = -1
		}
		if k != want {
			t.Errorf("Plain(%s) = %d, want %d", s, k, want)
		}
	}
	if n, _ := Parse("E73.2"); n.First() != 73 {
		t.Errorf("First(E73.2) = %d", n.First())
	}
	if (Num{}).First() != 0 {
		t.Errorf("First of the zero value")
	}
}
