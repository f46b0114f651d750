package roadmap

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func FuzzParseRoadmap(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		"",
		"- [x] **Phase 1: A**",
		"| Phase | Status |\n|---|---|\n| 1. A | In Progress|",
		"<details>\n### Phase 2\n",
		"<!--\n```\n-->\n### Phase 3",
		"### Phase 99999999999999999999: Overflow",
		"- [ ] **Phase 1.2.3.4C: X** ((nested)) (In Progress",
		"|\n|-|\n|",
		"## v1.0\n- [x] Phase 1: A\n## v2.0\n- [ ] Phase 1: B\n| Phase | Milestone | Status |\n|-|-|-|\n| 1. B | v2.0 | Complete |\n| 1 | | Done |",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		r := ParseRoadmap("ROADMAP.md", src)
		lines := strings.Count(string(src), "\n") + 1
		for i, e := range r.Phases {
			n, ok := ParsePhaseNum(e.Num.String())
			if !ok || !n.Equal(e.Num) || e.Num.IsZero() {
				t.Fatalf("entry %d has invalid number %q (raw %q)", i, e.Num, e.Num.Raw())
			}
			if i > 0 {
				// A number is one phase per milestone: two of one number are two milestones'.
				prev := r.Phases[i-1]
				c := prev.Num.Compare(e.Num)
				if c > 0 || c == 0 && (prev.Milestone == e.Milestone || prev.Order >= e.Order || !prev.shared || !e.shared) {
					t.Fatalf("entries not sorted, or not one per number and milestone: %s (milestone %d) then %s (milestone %d)", prev.Num, prev.Milestone, e.Num, e.Milestone)
				}
			}
			if e.Line < 1 || e.Line > lines {
				t.Fatalf("entry %s: line %d outside 1..%d", e.Num, e.Line, lines)
			}
			if e.Status > StatusComplete {
				t.Fatalf("entry %s: status %d is none of the statuses", e.Num, e.Status)
			}
		}
	})
}

func FuzzPhaseNum(f *testing.F) {
	for _, s := range [][2]string{
		{"3", "03"}, {"3.1", "3"}, {"04.1", "4.1"}, {"12.3.1", "12.3"}, {"099", "99"},
		{"16C", "16"}, {"16C", "16.1"}, {"CK-01", "1"}, {"0", "00"}, {"1a", "1A"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		n, okA := ParsePhaseNum(a)
		m, okB := ParsePhaseNum(b)
		for _, x := range []struct {
			s  string
			n  PhaseNum
			ok bool
		}{{a, n, okA}, {b, m, okB}} {
			if !x.ok {
				continue
			}
			if x.n.Compare(x.n) != 0 {
				t.Fatalf("%q does not equal itself", x.s)
			}
			again, ok := ParsePhaseNum(x.n.String())
			if !ok || !again.Equal(x.n) || again.String() != x.n.String() {
				t.Fatalf("%q: String %q does not reparse to an equal number", x.s, x.n)
			}
		}
		if okA && okB {
			if n.Compare(m) != -m.Compare(n) {
				t.Fatalf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, n.Compare(m), b, a, m.Compare(n))
			}
			if n.Equal(m) != (n.String() == m.String()) {
				t.Fatalf("%q and %q: Equal = %v but canonical forms %q, %q", a, b, n.Equal(m), n, m)
			}
		}
	})
}

// FuzzPlanFiles checks that any file name in a phase directory is handled
// without panics, that plan ids are stable, and that a file is never both a
// plan and a summary.
func FuzzPlanFiles(f *testing.F) {
	for _, s := range []string{"03-01-PLAN.md", "10-01-FIX-SUMMARY.md", "12-PLAN-01.md", "PLAN-01-x.md", "SUMMARY.md", "CK-1-2-FIX.md", "-.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if strings.ContainsAny(name, "/\x00") || name == "" || name == "." || name == ".." {
			return
		}
		id, ok := PlanID(name)
		if ok && id == "" && name != "PLAN.md" {
			// Only the bare PLAN.md has no id of its own: ScanPlans names it after its directory.
			t.Fatalf("PlanID(%q) ok with an empty id", name)
		}
		PhaseOf("x/phases/01-a/" + name)
		fsys := fstest.MapFS{"d/01-a/" + name: {}}
		plans, err := ScanPlans(fsys, "d/01-a")
		if err != nil {
			t.Fatal(err)
		}
		if ok != (len(plans) == 1) {
			t.Fatalf("PlanID(%q) = %v but ScanPlans found %d plans", name, ok, len(plans))
		}
		for _, p := range plans {
			if p.Done() {
				t.Fatalf("%q completes itself", name)
			}
			if p.ID == "" {
				t.Fatalf("ScanPlans gave %q no id", name)
			}
		}
	})
}

// FuzzTrims checks the hand-written trims of the table-row path against the strings functions
// they stand for, and ParseStatus's common spellings against its general path.
func FuzzTrims(f *testing.F) {
	for _, s := range []string{"", " **1. Foundation** ", "`x`", ". — – -Name", "–\xe2\x80", "\t:-\xff.", "—", " \u00a0x\u2003", "\v1\r"} {
		f.Add(s)
	}
	// Every spelling commonStatus knows, and near misses.
	for _, s := range []string{"Complete", "Completed", "complete", "completed", "COMPLETE", "Done", "done",
		"In Progress", "In progress", "in progress", "IN PROGRESS", "In-Progress", "in-progress",
		"Not started", "Not Started", "not started", "Not yet started", "Pending", "pending",
		"Planned", "planned", "Deferred", "deferred", " Complete ", "Completes", "✅ Complete"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := trimCell(s), strings.Trim(s, " \t*_`"); got != want {
			t.Errorf("trimCell(%q) = %q, strings.Trim gives %q", s, got, want)
		}
		if got, want := trimQuoteIndent(s), strings.TrimLeft(s, " \t>"); got != want {
			t.Errorf("trimQuoteIndent(%q) = %q, strings.TrimLeft gives %q", s, got, want)
		}
		if got, want := trimSpace(s), strings.TrimSpace(s); got != want {
			t.Errorf("trimSpace(%q) = %q, strings.TrimSpace gives %q", s, got, want)
		}
		if got, want := ParseStatus(s), parseStatus(strings.TrimSpace(s)); got != want {
			t.Errorf("ParseStatus(%q) = %v, its general path gives %v", s, got, want)
		}
		if got, want := trimNameLead(s), strings.TrimLeft(s, ".: \t-—–"); got != want {
			t.Errorf("trimNameLead(%q) = %q, strings.TrimLeft gives %q", s, got, want)
		}
	})
}

// FuzzStartsWithNumber holds the listing's quick test to the parser it stands in front of: a
// directory name that parses as phase n's must pass startsWithNumber for n, or the lookup would
// miss it.
func FuzzStartsWithNumber(f *testing.F) {
	for _, s := range []string{"03-core", "3-core", "0-zero", "000-x", "E73-x", "CK-01-setup", "16C-x", "4.1-x", "0123456789-x", "1000000000-x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		n, _, ok := phaseDirName(name)
		if ok && !startsWithNumber(name, n) {
			t.Fatalf("%q parses as phase %s, but startsWithNumber says no", name, n)
		}
	})
}
