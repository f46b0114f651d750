package roadmap

import (
	"strings"

	"github.com/gsd-tools/gsd/roadmap/trace"
)

// Scope is what a commit subject says of the GSD work it belongs to. GSD's executor commits each
// task as "{type}({phase}-{plan}): {description}" (feat(02-02): ..., test(07.1-03): ...,
// fix(999.17-01)!: ...), its planners and verifiers "docs(05): ..." for a phase as a whole.
type Scope struct {
	Type  string   // the conventional type, lower case: feat, fix, test, refactor, docs, chore, ...
	Phase PhaseNum // the phase named
	// PhaseOnly says the scope names a phase and no plan of it ("docs(05)", "feat(phase-5)").
	PhaseOnly bool
	Desc      string // the description after the colon
	plan      pairKey
}

// ParseScope reads a commit subject's GSD scope. The phase and plan are read by the one grammar
// of plan file names (03-02, 3.1-02, 07.1-03, 999.17-01, 71-01b, E73-01, 10-01-FIX), so a
// commit names a plan exactly when the plan's file name would: "feat(4.1-03)" is plan
// 04.1-03's. Also read: a phase alone ("docs(05)", "phase-5", "Phase 5") and a phase
// directory's slug between the numbers ("01-auth-foundation-02"). A subject with no scope, or a
// scope that is no phase (deps, api, quick-01, a quick task's), is not GSD's.
func ParseScope(subject string) (Scope, bool) {
	typ, rest, ok := cutType(subject)
	if !ok || !strings.HasPrefix(rest, "(") {
		return Scope{}, false
	}
	end := strings.IndexByte(rest, ')')
	if end < 0 {
		return Scope{}, false
	}
	scope, after := strings.TrimSpace(rest[1:end]), rest[end+1:]
	after = strings.TrimPrefix(after, "!")
	desc, ok := strings.CutPrefix(after, ":")
	if !ok || scope == "" || len(scope) > 80 {
		return Scope{}, false
	}
	s := Scope{Type: strings.ToLower(typ), Desc: strings.TrimSpace(desc)}
	if phaseOnly(&s, scope) {
		return s, true
	}
	if kind, key, _ := classify(scope + "-PLAN.md"); kind == kindPlan && !key.phase.IsZero() && key.num >= 0 && key.label == "" {
		s.Phase, s.plan = key.phase, key.pair()
		return s, true
	}
	if trackPhase(&s, scope) {
		return s, true
	}
	// A phase directory's slug between the phase and the plan: 01-auth-foundation-02.
	if i := strings.LastIndexByte(scope, '-'); i > 0 {
		if n, rest, ok := parsePhasePrefix(scope); ok && strings.HasPrefix(rest, "-") && i > len(scope)-len(rest) {
			if num, sub, ok := planNumSub(scope[i+1:]); ok && isSlug(scope[len(scope)-len(rest)+1:i]) {
				key := planKey{phase: n, num: num, sub: sub}
				s.Phase, s.plan = n, key.pair()
				return s, true
			}
		}
	}
	return Scope{}, false
}

// cutType splits "feat(…)…" into its type and the rest: letters, at most 20 of them.
func cutType(s string) (typ, rest string, ok bool) {
	i := 0
	for i < len(s) && i <= 20 && isLetter(s[i]) {
		i++
	}
	if i == 0 || i > 20 {
		return "", "", false
	}
	return s[:i], s[i:], true
}

// phaseOnly reads a scope that names a phase alone: "05", "5.1", "phase-5", "Phase 5",
// "phase5". A quick task's scope (quick-01) is not a phase.
func phaseOnly(s *Scope, scope string) bool {
	lower := strings.ToLower(scope)
	if strings.HasPrefix(lower, "quick") {
		return false
	}
	num := scope
	if rest, ok := strings.CutPrefix(lower, "phase"); ok {
		num = strings.TrimLeft(scope[len(scope)-len(rest):], " -_")
	}
	n, ok := ParsePhaseNum(num)
	if !ok {
		return false
	}
	s.Phase, s.PhaseOnly = n, true
	return true
}

// trackPhase reads a scope that names a phase after a word, the name of a track or a
// workstream: "e2e-60". Tried after the plan ids, which may begin with letters (E73-01).
func trackPhase(s *Scope, scope string) bool {
	word, rest, found := strings.Cut(scope, "-")
	if !found || strings.EqualFold(word, "quick") || !strings.ContainsFunc(word, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }) {
		return false
	}
	n, ok := ParsePhaseNum(rest)
	if !ok || n.Prefix() != "" {
		return false
	}
	s.Phase, s.PhaseOnly = n, true
	return true
}

// isSlug says whether s is a phase directory's slug: lower-case words, digits and dashes.
func isSlug(s string) bool {
	if s == "" {
		return false
	}
	for _, w := range strings.Split(s, "-") {
		if w == "" || !isSlugWord(w) {
			return false
		}
	}
	return true
}

// Names reports whether the scope names plan pl itself (not its phase alone).
func (s Scope) Names(pl Plan) bool {
	return !s.PhaseOnly && !s.Phase.IsZero() && s.plan == pl.key
}

// PlanIn is the plan among plans (the plans of the phase s names, in plan order) that s names:
// the plan itself; for a phase alone, the phase's first plan without a SUMMARY (not a FIX plan),
// since GSD executes a phase's plans in order. nil when it names none of them.
func (s Scope) PlanIn(plans []Plan) *Plan {
	for i := range plans {
		pl := &plans[i]
		if s.Names(*pl) || s.PhaseOnly && !pl.Done() && !pl.Fix() {
			return pl
		}
	}
	return nil
}

// WorkCommit reports whether c is work done for a plan rather than planning: it changed a file
// outside .planning/ (a plan's or SUMMARY's own commit changes only files under it).
func WorkCommit(c trace.Commit) bool { return !c.Merge && !c.PlanningOnly() }
