package roadmap

import (
	"cmp"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
)

// Plan is one executable plan of a phase and, if it is done, its summary.
type Plan struct {
	ID      string // "03-01", "10-01-FIX", "12-01" (from 12-PLAN-01.md), "05" (phase level)
	Path    string // relative to the project root, with '/'
	Summary string // path of its SUMMARY, "" if none
	fix     bool
	key     pairKey // what pairs it with its SUMMARY

	superseded bool // a FIX round without its SUMMARY that a later round of the same plan has
}

// Fix reports whether the plan is a FIX plan ("10-01-FIX.md", "08-FIX2.md"),
// which GSD's own counters and progress tables leave out.
func (p Plan) Fix() bool { return p.fix }

// Done reports whether the plan's SUMMARY exists.
func (p Plan) Done() bool { return p.Summary != "" }

// Settled reports whether the plan holds up nothing: it is done, or it is a round of fixes
// (10-01-FIX.md) that a later round of the same plan (10-01-FIX2.md, 10-01-FIX-FIX-PLAN.md)
// with its SUMMARY took over. Such a round is not done (its SUMMARY was never written), but a
// phase whose plans are all settled is finished.
func (p Plan) Settled() bool { return p.Done() || p.superseded }

// fixRound is which round of fixes a FIX plan's marks make it: FIX 1, FIX2 2, FIX-FIX 2,
// FIX-FIX-FIX 3; 0 for a plan that is no FIX plan.
func fixRound(fix string) int {
	if fix == "" {
		return 0
	}
	marks := strings.Split(fix, "-")
	n, _ := strconv.Atoi(strings.TrimPrefix(marks[len(marks)-1], "FIX"))
	return len(marks) - 1 + max(n, 1)
}

// fileKind says what a file in a phase directory is.
type fileKind uint8

const (
	kindOther fileKind = iota
	kindPlan
	kindSummary
)

// planKey identifies a plan, so that a plan and its summary pair up however
// each is spelled: "03-01-PLAN.md", "3-1-SUMMARY.md", "03-PLAN-01.md" and
// "03-01-schema-PLAN.md" all have the key {3, 1, "", ""}.
type planKey struct {
	phase PhaseNum // zero when the name carries none (nested plans/ layout, bare PLAN.md)
	num   int      // plan number; -1 for a phase-level plan ("05-PLAN.md", "PLAN.md")
	sub   string   // a letter after the number ("71-01b"), lower-case
	fix   string   // "", or the FIX marks in order ("FIX", "FIX2", "FIX-FIX")
	label string   // the words naming a plan without a number ("uat" of "02-UAT-FIX.md"), or a series ("fix" of "14-fix-01"), lower-case
}

// pairKey is a planKey as a map key: "03" and "3" are one phase.
type pairKey struct {
	phase           phaseKey
	num             int
	sub, fix, label string
}

func (k planKey) pair() pairKey { return pairKey{k.phase.Key(), k.num, k.sub, k.fix, k.label} }

// compare orders plans: by phase, plans named by words after the others, numbered plans by
// number (and letter)
// before the phase-level plan (which in real projects is an overview or a
// fix-up of the whole phase, so it comes last), a FIX plan right after its
// base.
func (k planKey) compare(o planKey) int {
	if c := k.phase.Compare(o.phase); c != 0 {
		return c
	}
	if c := strings.Compare(k.label, o.label); c != 0 {
		return c // a named series after the phase's numbered plans
	}
	kn, on := k.num, o.num
	if kn < 0 {
		kn = int(^uint(0) >> 1)
	}
	if on < 0 {
		on = int(^uint(0) >> 1)
	}
	if c := cmp.Compare(kn, on); c != 0 {
		return c
	}
	if c := strings.Compare(k.sub, o.sub); c != 0 {
		return c
	}
	if c := cmp.Compare(len(k.fix), len(o.fix)); c != 0 {
		return c
	}
	return strings.Compare(k.fix, o.fix)
}

// maxPlanDigits bounds a plan number's length; "03-20260105-PLAN.md" is no plan.
const maxPlanDigits = 4

// classify parses a file name from a phase directory (or its plans/
// subdirectory). It recognises:
//
//	03-01-PLAN.md   03-01-SUMMARY.md        numbered plan (CK-03-01-PLAN.md, E73-01-PLAN.md too)
//	71-01b-PLAN.md  71-01b-SUMMARY.md       a letter after the number
//	35-01-schema-service-PLAN.md            a slug before the word (its SUMMARY with or without it)
//	03-PLAN-01.md   03-SUMMARY-01.md        the word first
//	10-01-FIX.md    10-01-FIX-SUMMARY.md    fix plan (FIX2, FIX3, FIX-FIX, with or without -PLAN)
//	05-PLAN.md      05-SUMMARY.md           phase-level plan (E73-PLAN.md too)
//	08-FIX2.md      08-FIX2-SUMMARY.md      phase-level fix plan
//	PLAN.md         SUMMARY.md              bare: the phase-level plan of its directory
//	PLAN-01-x.md    SUMMARY-01-x.md         nested layout; no phase in the name
//
// id is the plan id as the name spells it ("03-01", "10-01-FIX",
// "35-01-schema-service", "01" for the nested layout, "" for a bare name).
// Reports ("03-REVIEW-FIX.md", "03-FIXES.md", "04-03-evidence-summary.md") and
// everything else are kindOther.
func classify(name string) (kind fileKind, key planKey, id string) {
	stem, ok := strings.CutSuffix(name, ".md")
	if !ok || stem == "" || conflictCopy(stem) {
		return kindOther, planKey{}, ""
	}
	if kind := wordKind(stem); kind != kindOther {
		return kind, planKey{num: -1}, "" // bare PLAN.md, SUMMARY.md
	}
	// The name's words between dashes, and where each starts in stem: every file of every phase
	// directory is classified, so the words are slices of stem, not a new slice of strings, and
	// the id and FIX marks below are slices of stem too (the words they join are adjacent).
	var tokBuf [8]string
	var offBuf [8]int
	toks, offs := tokBuf[:0], offBuf[:0]
	for rest, off := stem, 0; ; {
		i := strings.IndexByte(rest, '-')
		if i < 0 {
			toks, offs = append(toks, rest), append(offs, off)
			break
		}
		toks, offs = append(toks, rest[:i]), append(offs, off)
		rest, off = rest[i+1:], off+i+1
	}
	// upTo is the words before word k, joined by their dashes as stem has them.
	upTo := func(k int) string { return stem[:offs[k]-1] }

	if kind, key, id, ok := nestedName(stem, toks, offs); ok {
		return kind, key, id
	}

	// The phase: "03", "3.1", "16C", "E73", or a project code and a number "CK-03".
	p := 1
	if allLetters(toks[0]) && len(toks) > 1 {
		p = 2
	}
	if len(toks) <= p {
		return kindOther, planKey{}, ""
	}
	phase, ok := ParsePhaseNum(upTo(p))
	if !ok {
		return kindOther, planKey{}, ""
	}
	key = planKey{phase: phase, num: -1}

	if kind := wordKind(toks[p]); kind != kindOther && len(toks) == p+2 && isDigits(toks[p+1]) {
		// 12-PLAN-01.md: the number comes after the word, and the id puts it in front.
		n, sub, ok := planNumSub(toks[p+1])
		if !ok {
			return kindOther, planKey{}, ""
		}
		key.num, key.sub = n, sub
		return kind, key, upTo(p) + "-" + toks[p+1]
	}
	k := p
	if n, sub, ok := planNumSub(toks[k]); ok {
		key.num, key.sub = n, sub
		k++
	} else if k+1 < len(toks) && (isSlugWord(toks[k]) || isLabelWord(toks[k])) {
		// 14-fix-01-PLAN.md, 14-GAP-01-PLAN.md: a word before the number names a series of
		// plans of the phase.
		if n, sub, ok := planNumSub(toks[k+1]); ok {
			key.label, key.num, key.sub = strings.ToLower(toks[k]), n, sub
			k += 2
		}
	}
	// What is left: an optional slug, the FIX marks, and the word. The slug of a numbered plan
	// is lower-case words, which its SUMMARY may leave out ("35-01-schema-service-PLAN.md",
	// "35-01-SUMMARY.md"); a plan without a number is named by its words, upper-case ones too
	// ("22-EXTENDED-PLAN.md", "02-UAT-FIX.md"), and its SUMMARY repeats them.
	idEnd := len(stem) // the id is every word but a closing PLAN or SUMMARY
	fixFrom, fixTo, slugFrom, slugTo := -1, -1, -1, -1
	for ; k < len(toks); k++ {
		t, last := toks[k], k == len(toks)-1
		switch {
		case last && wordKind(t) != kindOther:
			kind, idEnd = wordKind(t), offs[k]-1
		case wordKind(t) == kindPlan && variantWords(toks[k+1:]):
			// 22-06-PLAN-SSH-WINRM.md: another design for plan 22-06, a plan of that id.
			kind, idEnd, k = kindPlan, offs[k]-1, len(toks)
		case isFixMark(t):
			if fixFrom < 0 {
				fixFrom = offs[k]
			}
			fixTo = offs[k] + len(t)
			if last {
				kind = kindPlan
			}
		case fixFrom < 0 && !last && key.num >= 0 && slugFrom < 0 && isWaveWord(t):
			// 04.5-03-W0-PLAN.md: one wave of plan 04.5-03, a plan of its own whose SUMMARY
			// repeats the wave (04.5-03-W0-SUMMARY.md).
			key.label = strings.ToLower(t)
		case fixFrom < 0 && !last && (isSlugWord(t) || key.num < 0 && isLabelWord(t)):
			if slugFrom < 0 {
				slugFrom = offs[k]
			}
			slugTo = offs[k] + len(t)
		default:
			return kindOther, planKey{}, ""
		}
	}
	if kind == kindOther {
		return kindOther, planKey{}, ""
	}
	if fixFrom >= 0 {
		key.fix = stem[fixFrom:fixTo]
	}
	if key.num < 0 && slugFrom >= 0 {
		key.label = strings.ToLower(stem[slugFrom:slugTo])
	}
	return kind, key, stem[:idEnd]
}

// nestedName classifies a name of the nested layout, split into its words toks at offsets offs
// of stem: PLAN-01-slug.md, SUMMARY-01-slug.md; and its fix plans, FIX-01-slug.md (whose
// SUMMARY is FIX-01-SUMMARY.md). ok is false when the name is not of that layout.
func nestedName(stem string, toks []string, offs []int) (kind fileKind, key planKey, id string, ok bool) {
	if len(toks) < 2 {
		return kindOther, planKey{}, "", false
	}
	kind = wordKind(toks[0])
	fixed := isFixMark(toks[0])
	if fixed {
		kind = kindPlan
		if wordKind(toks[len(toks)-1]) == kindSummary {
			kind = kindSummary
		}
	}
	if kind == kindOther {
		return kindOther, planKey{}, "", false
	}
	n, ok := planNum(toks[1])
	if !ok {
		return kindOther, planKey{}, "", true
	}
	if fixed {
		end := len(stem) // FIX-01.md: the whole name is the id
		if len(toks) > 2 {
			end = offs[2] - 1 // FIX-01-slug.md, FIX-01-SUMMARY.md
		}
		return kind, planKey{num: n, fix: toks[0]}, stem[:end], true
	}
	return kind, planKey{num: n}, toks[1], true
}

// withoutSlug is a file name of a phase directory without the directory's slug when the name
// repeats it after the phase number: "26-motion-patterns-01-SUMMARY.md" in
// "26-motion-patterns/" is "26-01-SUMMARY.md", the SUMMARY of 26-01-PLAN.md. Other names are
// returned as they are.
func withoutSlug(name, slug string) string {
	if !strings.ContainsFunc(slug, func(r rune) bool { return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' }) {
		return name // "26-01/" names no slug: "26-01-PLAN.md" in it is plan 26-01
	}
	i := strings.Index(name, "-"+slug+"-")
	if j := i + len(slug) + 2; i <= 0 || j >= len(name) || !isDigit(name[j]) {
		return name // the plan number follows the slug
	}
	if _, ok := ParsePhaseNum(name[:i]); !ok {
		return name
	}
	return name[:i] + name[i+len(slug)+1:]
}

// isWaveWord reports whether t names a wave of a plan: W and digits ("W0", "W12").
func isWaveWord(t string) bool { return len(t) >= 2 && t[0] == 'W' && isDigits(t[1:]) }

// isLabelWord reports whether t can be a word of the name of a plan without a number
// ("22-EXTENDED-PLAN.md", "02-UAT-FIX.md"): letters and digits, at least one letter, and not a
// word that makes the file something else (PLAN, SUMMARY, or REVIEW: "03-REVIEW-FIX.md" is a
// code review's fix report).
func isLabelWord(t string) bool {
	if wordKind(t) != kindOther || t == "REVIEW" {
		return false
	}
	letter := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case isLetter(c):
			letter = true
		case !isDigit(c):
			return false
		}
	}
	return letter
}

// variantWords reports whether the words after PLAN in a name ("22-06-PLAN-SSH-WINRM.md") make
// it another version of the plan: upper-case words that name no document about the plan
// ("-PLAN-OUTLINE.md", "-PLAN-REVIEW-QUESTIONS.md" are such documents).
func variantWords(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if !allUpper(w) {
			return false
		}
		switch w {
		case "OUTLINE", "REVIEW", "QUESTIONS", "CHECK", "CHECKLIST", "ASSESSMENT", "AUDIT",
			"NOTES", "DRAFT", "TEMPLATE", "FEEDBACK", "VERIFICATION", "SUMMARY", "PLAN", "ISSUES":
			return false
		}
	}
	return true
}

func allUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return s != ""
}

// wordKind is what the word PLAN or SUMMARY in a file name makes the file; kindOther for any
// other word.
func wordKind(t string) fileKind {
	switch t {
	case "PLAN":
		return kindPlan
	case "SUMMARY":
		return kindSummary
	}
	return kindOther
}

// isFixMark reports whether t is "FIX" or "FIX" and a number ("FIX2").
func isFixMark(t string) bool {
	n, ok := strings.CutPrefix(t, "FIX")
	return ok && (n == "" || isDigits(n) && len(n) <= 2)
}

// isSlugWord reports whether t can be a word of a plan's slug
// ("35-01-schema-service-PLAN.md"): it has a lower-case letter and nothing
// but letters and digits. Upper-case words ("REVIEW", "DOC") mark reports and
// other documents, never plans.
func isSlugWord(t string) bool {
	lower := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z', isDigit(c):
		default:
			return false
		}
	}
	return lower
}

// planNumSub parses a plan number with an optional letter after it: "01",
// "01b".
func planNumSub(s string) (int, string, bool) {
	j := len(s)
	if j > 1 && isLetter(s[j-1]) && isDigit(s[j-2]) {
		j--
	}
	n, ok := planNum(s[:j])
	if !ok {
		return 0, "", false
	}
	return n, strings.ToLower(s[j:]), true
}

// PlanID returns the plan id of a plan file name ("03-01-PLAN.md" -> "03-01",
// "10-01-FIX.md" -> "10-01-FIX", "12-PLAN-01.md" -> "12-01", "05-PLAN.md" ->
// "05"), and false for anything that is not a plan, summaries included.
// Nested-layout names carry no phase ("PLAN-01-setup.md" -> "01"); ScanPlans
// qualifies those with the phase of their directory.
func PlanID(name string) (string, bool) {
	kind, _, id := classify(name)
	if kind != kindPlan {
		return "", false
	}
	return id, true
}

// ScanPlans lists one phase directory, and its plans/ subdirectory when there
// is one, and returns the plans in plan order, each paired with its SUMMARY by
// plan id. No file is opened. An entry of phases/ that is a file named like a
// phase (see PhaseDirs) has no plans.
func ScanPlans(fsys fs.FS, dir string) ([]Plan, error) {
	plans, _, _, err := scanPlans(fsys, dir)
	if errors.Is(err, errNotDir) {
		return nil, nil
	}
	return plans, err
}

// scanPlans is ScanPlans, also returning the phase-level SUMMARY
// ("05-SUMMARY.md") when no phase-level plan claims it, a summary of the
// phase as a whole; and every SUMMARY of the directory by what it pairs with,
// for the plans of a sibling directory of the same phase (see dirIndex.scan).
func scanPlans(fsys fs.FS, dir string) ([]Plan, string, map[pairKey]string, error) {
	dirPhase, dirSlug, _ := phaseDirName(path.Base(dir))
	type item struct {
		key  planKey
		plan Plan
	}
	var plans []item
	summaries := map[pairKey]string{}

	scan := func(d string) (hasNested bool, err error) {
		names, err := listDir(fsys, d)
		if err != nil {
			return false, err
		}
		// Room for half the names at once: a phase's plans come with their SUMMARYs, CONTEXT and
		// RESEARCH beside them, so a plan per name would mostly be memory never used.
		plans = slices.Grow(plans, len(names)/2+1)
		for _, name := range names {
			if name == "plans" {
				hasNested = true
				continue
			}
			kind, key, id := classify(withoutSlug(name, dirSlug))
			if kind == kindOther {
				continue
			}
			if key.phase.IsZero() {
				// Nested layout or a bare PLAN.md: the directory says which phase.
				key.phase = dirPhase
				switch {
				case id == "":
					id = dirPhase.Raw()
				case !dirPhase.IsZero():
					id = dirPhase.Raw() + "-" + id
				}
			}
			p := d + "/" + name
			if kind == kindSummary {
				// Two spellings of one SUMMARY: the first by name, whatever the listing's order.
				if other, dup := summaries[key.pair()]; !dup || p < other {
					summaries[key.pair()] = p
				}
				continue
			}
			plans = append(plans, item{key, Plan{ID: id, Path: p, fix: key.fix != "", key: key.pair()}})
		}
		return hasNested, nil
	}

	nested, err := scan(dir)
	if err != nil {
		return nil, "", nil, err
	}
	if nested {
		if _, err := scan(path.Join(dir, "plans")); err != nil && !errors.Is(err, errNotDir) {
			return nil, "", nil, err
		}
	}

	slices.SortStableFunc(plans, func(a, b item) int {
		if c := a.key.compare(b.key); c != 0 {
			return c
		}
		return strings.Compare(a.plan.Path, b.plan.Path)
	})
	out := make([]Plan, len(plans))
	phaseLevel := planKey{phase: dirPhase, num: -1}.pair()
	phaseSummary := summaries[phaseLevel]
	for i, it := range plans {
		k := it.key.pair()
		it.plan.Summary = summaries[k]
		if k == phaseLevel {
			phaseSummary = ""
		}
		out[i] = it.plan
	}
	for i := range out {
		pl := &out[i]
		if pl.Done() || pl.key.fix == "" {
			continue
		}
		round := fixRound(pl.key.fix)
		pl.superseded = slices.ContainsFunc(out, func(q Plan) bool {
			base, qbase := pl.key, q.key
			base.fix, qbase.fix = "", ""
			return q.Done() && base == qbase && fixRound(q.key.fix) > round
		})
	}
	return out, phaseSummary, summaries, nil
}

// PhaseOf returns the phase a plan belongs to: the number of its phase
// directory (a directory under "phases" or an archived "vX.Y-phases", or the
// parent of a nested plans/ directory), else the phase in its file name.
// Quick tasks (".planning/quick/...") belong to no phase.
func PhaseOf(planPath string) (PhaseNum, bool) {
	p := cleanPath(planPath)
	dir := path.Dir(p)
	if path.Base(dir) == "plans" {
		dir = path.Dir(dir)
	}
	parent := path.Base(path.Dir(dir))
	if parent == "phases" || strings.HasSuffix(parent, "-phases") {
		if n, _, ok := phaseDirName(path.Base(dir)); ok {
			return n, true
		}
	}
	if slices.Contains(strings.Split(dir, "/"), "quick") {
		return PhaseNum{}, false
	}
	kind, key, _ := classify(path.Base(p))
	if kind == kindOther || key.phase.IsZero() {
		return PhaseNum{}, false
	}
	return key.phase, true
}

// PhaseDirOf is the phase directory a plan file belongs to: its own directory, or the parent of
// a nested plans/ directory. ScanPlans of it lists the plan with its siblings.
func PhaseDirOf(planPath string) string {
	dir := path.Dir(cleanPath(planPath))
	if path.Base(dir) == "plans" {
		dir = path.Dir(dir)
	}
	return dir
}

// NextPlan returns the first plan after the one at path after that has no
// SUMMARY yet, or nil when there is none or after is not among plans.
func NextPlan(plans []Plan, after string) *Plan {
	after = cleanPath(after)
	for i, p := range plans {
		if p.Path != after {
			continue
		}
		for _, q := range plans[i+1:] {
			if !q.Done() {
				return &q
			}
		}
		return nil
	}
	return nil
}

// cleanPath normalises a root-relative path as callers may write it
// ("./.planning//phases/x").
func cleanPath(p string) string {
	p = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	return strings.TrimPrefix(p, "./")
}

func planNum(s string) (int, bool) {
	if s == "" || len(s) > maxPlanDigits || !isDigits(s) {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func allLetters(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return false
		}
	}
	return s != ""
}
