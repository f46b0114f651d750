package roadmap

import "testing"

func TestParseScope(t *testing.T) {
	plan := func(name string) Plan {
		t.Helper()
		_, key, id := classify(name)
		return Plan{ID: id, key: key.pair()}
	}
	for _, c := range []struct {
		subject   string
		ok        bool
		typ       string
		phase     string
		phaseOnly bool
		plan      string // a plan file name the scope names
	}{
		{"feat(02-02): add completion handler", true, "feat", "2", false, "02-02-PLAN.md"},
		{"test(07.1-03): cover the cache", true, "test", "7.1", false, "07.1-03-PLAN.md"},
		{"fix(999.17-01)!: breaking fix", true, "fix", "999.17", false, "999.17-01-PLAN.md"},
		{"feat(4.1-03): unpadded phase", true, "feat", "4.1", false, "04.1-03-PLAN.md"},
		{"feat(71-01b): lettered plan", true, "feat", "71", false, "71-01b-PLAN.md"},
		{"feat(E73-01): series", true, "feat", "E73", false, "E73-01-PLAN.md"},
		{"fix(10-01-FIX): round of fixes", true, "fix", "10", false, "10-01-FIX.md"},
		{"docs(05): research the phase", true, "docs", "5", true, ""},
		{"feat(phase-5): a phase", true, "feat", "5", true, ""},
		{"chore(Phase 12): a phase", true, "chore", "12", true, ""},
		{"feat(01-auth-foundation-02): slugged", true, "feat", "1", false, "01-02-PLAN.md"},
		{"fix(quick-01): a quick task", false, "", "", false, ""},
		{"test(e2e-60): a track's phase", true, "test", "60", true, ""},
		{"fix(ui-v2): no phase", false, "", "", false, ""},
		{"chore(deps): bump", false, "", "", false, ""},
		{"feat: no scope", false, "", "", false, ""},
		{"Merge branch 'x'", false, "", "", false, ""},
		{"feat(02-02) no colon", false, "", "", false, ""},
		{"feat(v1.2): a version", false, "", "", false, ""},
	} {
		s, ok := ParseScope(c.subject)
		if ok != c.ok {
			t.Errorf("%q: ok %v, want %v", c.subject, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if s.Type != c.typ || s.Phase.String() != c.phase || s.PhaseOnly != c.phaseOnly {
			t.Errorf("%q: got %q phase %s only %v", c.subject, s.Type, s.Phase, s.PhaseOnly)
		}
		if c.plan != "" && !s.Names(plan(c.plan)) {
			t.Errorf("%q does not name %s", c.subject, c.plan)
		}
		if c.plan != "" && s.Names(plan("99-01-PLAN.md")) {
			t.Errorf("%q names 99-01", c.subject)
		}
	}
}
