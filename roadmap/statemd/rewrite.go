package statemd

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"
)

// Values are the derived values to write. A zero or unknown field means "not known: leave the
// line alone".
type Values struct {
	Phase      string // the current phase as the roadmap writes it ("7", "12.3.1", "E73"); "" unknown
	PhaseOf    int    // the last whole-numbered phase ("Phase: 5 of 9"); 0 unknown, and then not written
	PhaseName  string
	PlanNumber int // the plan being worked on, 1-based; PlanTotal when every plan is done
	// PlanDone is how many plans of the phase are complete: older STATE.md prose names the last
	// plan completed ("Plan: 2 of 3" while 03 is being worked on), which agrees too.
	PlanDone  int
	PlanTotal int    // 0: the phase has no plans yet (it needs planning)
	Status    string // "Ready to plan", "Ready to execute", "In progress", "Phase complete", StatusFinished

	Percent      int  // the percent complete, scoped as the caller scopes it (GSD: the current milestone)
	PercentKnown bool // Percent is known: without it, no percent of STATE.md is rewritten or added

	// The frontmatter's progress map, written only when CountsKnown; a Progress line that
	// carries counts ("2/5 plans (40%)") is rewritten only when both are known, since its
	// percent alone rewritten would contradict them. Known, they also say which other percents
	// agree (agrees): those GSD's tools write for them are left as written.
	TotalPhases, CompletedPhases, TotalPlans, CompletedPlans int
	CountsKnown                                              bool
}

// StatusFinished is Values.Status when every phase of the milestone is finished.
const StatusFinished = "Complete"

// Change is one line that Rewrite changes.
type Change struct {
	Field string `json:"field"` // "phase", "plan", "status", "progress" or "frontmatter"
	Line  int    `json:"line"`  // 1-based line of src replaced, or that an added line goes before (len+1: the end)
	Old   string `json:"old"`   // the line as it is, without its line ending; "" for an added line
	New   string `json:"new"`
}

// PhaseText is the Phase line for v: "Phase: 5 of 9 (Name)"; without PhaseOf, "Phase: 5 (Name)".
func PhaseText(v Values) string { return "Phase: " + phaseValue(v) }

// PlanText is the Plan line for v: "Plan: 2 of 3 in current phase", or, for a phase without
// plans, a "needs planning" wording (never "0 of 0").
func PlanText(v Values) string { return "Plan: " + planValue(v) }

// Lines are v's Phase, Plan, Status and Progress lines, without line endings, exactly as STATE.md
// gets them.
func (v Values) Lines() (phase, plan, status, progress string) {
	return PhaseText(v), PlanText(v), StatusText(v), ProgressText(v)
}

// StatusText is the Status line for v.
func StatusText(v Values) string {
	if v.Status == "" {
		return "Status: unknown"
	}
	return "Status: " + v.Status
}

// ProgressText is the Progress line for v: "Progress: [██████░░░░] 67%".
func ProgressText(v Values) string {
	if !v.PercentKnown {
		return "Progress: unknown"
	}
	return "Progress: " + progressValue(v.Percent)
}

// Bar draws percent as "[████░░░░░░]", width cells wide.
func Bar(percent, width int) string {
	full := cells(width, percent)
	return "[" + strings.Repeat("█", full) + strings.Repeat("░", width-full) + "]"
}

// Percent is done over total as GSD's tools round the fractions of the percent they write into
// STATE.md: to the nearest whole percent, halves up (JavaScript's Math.round), at most 100; 0
// of nothing. Another rounding would have gsd and GSD rewrite each other's: 199 of 200 is 100.
func Percent(done, total int) int {
	if total <= 0 {
		return 0
	}
	return min(100, (done*200+total)/(2*total))
}

// agrees says whether percent n, as STATE.md writes it, agrees with v: it is v's Percent, or,
// when v knows the counts, one GSD's tools write for them, which is not gsd's to correct
// (neither is better informed than the other): the lesser of plans done over plans and phases
// done over phases, without gsd's refinements (100 once every phase is finished, at most 99
// while one is unplanned), as GSD writes the frontmatter's percent; or plans done over plans
// alone, as GSD's progress update still writes the Progress line (a real STATE.md has 29 in one
// and 83 in the other, both GSD's).
func (v Values) agrees(n int) bool {
	if n == v.Percent {
		return true
	}
	if !v.CountsKnown {
		return false
	}
	plans := Percent(v.CompletedPlans, v.TotalPlans)
	return n == plans || n == min(plans, Percent(v.CompletedPhases, v.TotalPhases))
}

// cells is how many of a bar's width cells percent fills: rounded half up, as GSD draws its
// bars, so that neither tool redraws the other's.
func cells(width, percent int) int { return (width*min(max(percent, 0), 100) + 50) / 100 }

func phaseValue(v Values) string {
	if v.Phase == "" {
		return "none yet"
	}
	s := v.Phase
	if v.PhaseOf > 0 {
		s += " of " + strconv.Itoa(v.PhaseOf)
	}
	if v.PhaseName != "" {
		s += " (" + v.PhaseName + ")"
	}
	return s
}

const inCurrentPhase = " in current phase"

func planValue(v Values) string {
	if v.PlanTotal <= 0 {
		return "Not started (phase needs planning)"
	}
	return strconv.Itoa(v.PlanNumber) + " of " + strconv.Itoa(v.PlanTotal) + inCurrentPhase
}

func progressValue(p int) string { return Bar(p, 10) + " " + strconv.Itoa(p) + "%" }

// rewriter holds a rewrite in progress: lines replaced in place, lines to add at one point.
type rewriter struct {
	d       *Doc
	lines   []line
	changes []Change
	add     []line // field lines to add at the insertion point
}

func (r *rewriter) set(i int, field, text string) {
	if r.lines[i].text == text {
		return
	}
	r.changes = append(r.changes, Change{Field: field, Line: i + 1, Old: r.lines[i].text, New: text})
	r.lines[i].text = text
}

// eol is the file's line ending, from its first line.
func (d *Doc) eol() string {
	if len(d.lines) > 0 && d.lines[0].eol != "" {
		return d.lines[0].eol
	}
	return "\n"
}

// Rewrite returns src with the fields v knows better set, and the lines it changed: Current
// Position's Phase, Plan, Status and Progress lines and the frontmatter's current_phase and
// progress numbers. Every other byte, each label as written and each line ending are kept; a
// missing field is added after the last one present, a missing section is appended. A line is
// replaced only by a better-informed one:
//   - a Phase line naming the same phase (compared as numbers: "07" = "7") stays whole, names
//     and "PAUSED at ..." included; only a wrong " of N" count is corrected;
//   - Plan and Status lines are rewritten when the phase changes; otherwise a Plan count that
//     disagrees is corrected and prose is kept; "0 of 0" is never written;
//   - a Progress line's bar and NN% are redrawn when the percent is known and differs, any text
//     after them kept; a Progress line without a percent is left alone;
//   - frontmatter numbers only when the counts are known.
//
// STATE.md disagrees with v exactly when changes is not empty; then out != src.
func Rewrite(src []byte, v Values) (out []byte, changes []Change) { return rewrite(src, v, true) }

// Changes is Rewrite's changes alone, without building the rewritten file: what a report of
// whether STATE.md agrees needs.
func Changes(src []byte, v Values) []Change {
	_, changes := rewrite(src, v, false)
	return changes
}

// rewrite is Rewrite; out is built only when build is set. src is read in place, not copied:
// nothing returned shares its bytes (the changes' texts are cloned, out is new) but src itself
// when nothing changes.
func rewrite(src []byte, v Values, build bool) (out []byte, changes []Change) {
	d := Parse(unsafe.String(unsafe.SliceData(src), len(src)))
	r := &rewriter{d: d, lines: slices.Clone(d.lines)}
	r.frontmatter(v)
	pos := r.fields(v)
	if len(r.changes) == 0 {
		return src, nil
	}
	lines := r.lines
	eol := d.eol()
	if len(r.add) > 0 {
		ins := r.add
		if pos < 0 {
			pos = len(lines)
			ins = nil
		}
		if pos > 0 && lines[pos-1].eol == "" {
			lines[pos-1].eol = eol
			if strings.HasSuffix(lines[pos-1].text, "\r") {
				lines[pos-1].eol = "\r\n" // a stray CR stays part of the text it ends
			}
		}
		switch {
		case ins == nil: // no section: append one
			ins = []line{{"", eol}, {"## Current Position", eol}, {"", eol}}
			for _, l := range r.add {
				if strings.HasPrefix(l.text, "Progress:") && len(ins) > 3 {
					ins = append(ins, line{"", eol})
				}
				ins = append(ins, l)
			}
		case pos < len(lines) && strings.TrimSpace(lines[pos].text) != "":
			if _, _, _, ok := splitLabel(lines[pos].text); !ok {
				ins = append(ins, line{"", eol}) // keep prose (or a heading) apart from the fields
			}
		}
		if build {
			lines = slices.Insert(slices.Clone(lines), pos, ins...)
		}
		for i := range r.changes {
			if r.changes[i].Line == -1 {
				r.changes[i].Line = pos + 1
			}
		}
	}
	for i := range r.changes {
		c := &r.changes[i]
		c.Old, c.New = strings.Clone(c.Old), strings.Clone(c.New)
	}
	slices.SortStableFunc(r.changes, func(a, b Change) int { return a.Line - b.Line })
	if !build {
		return nil, r.changes
	}
	return join(lines), r.changes
}

// fields rewrites the Current Position fields and queues the missing ones; it returns where
// those go (-1: in a new section at the end).
func (r *rewriter) fields(v Values) int {
	d := r.d
	pos := d.insertAt()
	addField := func(field, text string) {
		text = d.styled(text, pos)
		r.add = append(r.add, line{text, d.eol()})
		r.changes = append(r.changes, Change{Field: field, Line: -1, New: text})
	}
	moved := false    // the Phase line names another phase (or there is none): Plan and Status follow it
	finished := false // the milestone is finished, and the Phase line says so in its own words
	if v.Phase != "" && !d.holds(v) {
		if i, ok := d.field["Phase"]; ok {
			t := r.lines[i].text
			_, label, val, _ := fieldAt(t)
			tok, _, end := phaseToken(val)
			switch {
			case tok == "" && v.Status == StatusFinished && indexComplete(val) >= 0:
				// "Phase: — all phases complete": no phase to name, and none is current.
				finished = true
			case tok == "" || !samePhase(tok, v.Phase):
				r.set(i, "phase", label+phaseValue(v))
				moved = true
			case v.PhaseOf > 0:
				// Only a count the roadmap has outgrown is corrected: a larger one ("07 of 09"
				// with phases 8 and 9 not yet in the roadmap) is STATE.md knowing more.
				if n, s, e := ofCount(val, end); n >= 0 && n < v.PhaseOf {
					r.set(i, "phase", t[:len(label)+s]+strconv.Itoa(v.PhaseOf)+t[len(label)+e:])
				}
			}
		} else {
			moved = true
			addField("phase", PhaseText(v))
		}
		if i, ok := d.field["Plan"]; ok {
			_, label, val, _ := fieldAt(r.lines[i].text)
			switch a, b, end, ok := aOfB(val); {
			case moved:
				r.set(i, "plan", label+planValue(v))
			case v.PlanTotal <= 0:
				// Not known better: a phase without plans keeps whatever its Plan line says.
			case ok && b == v.PlanTotal && (a == v.PlanNumber || a == v.PlanDone):
			case ok:
				r.set(i, "plan", label+recount(val[end:], v))
			case placeholder(val):
				r.set(i, "plan", label+planValue(v))
			}
		} else if moved || v.PlanTotal > 0 && !finished {
			addField("plan", PlanText(v))
		}
		if moved && v.Status != "" {
			if i, ok := d.field["Status"]; ok {
				_, label, _, _ := fieldAt(r.lines[i].text)
				r.set(i, "status", label+v.Status)
			} else {
				addField("status", StatusText(v))
			}
		}
	}
	if v.PercentKnown {
		if i, ok := d.field["Progress"]; ok {
			_, label, val, _ := fieldAt(r.lines[i].text)
			if nv, ok := progressFor(val, v); ok {
				r.set(i, "progress", label+nv)
			}
		} else if !finished || v.Percent < 100 {
			addField("progress", ProgressText(v))
		}
	}
	return pos
}

// holds reports whether the Current Position is a person's word that the work is held where it
// is (paused at a phase boundary, blocked, waiting, a follow-up required before going on) and
// names another phase than v's: its Phase, Plan and Status lines (and the frontmatter's
// current_phase and current_plan) then stay as written. A derived "Ready to execute" in the
// next phase is poorer than that word, not better informed; the numbers (Progress, the
// frontmatter's counts) are still corrected.
func (d *Doc) holds(v Values) bool {
	if v.Phase == "" {
		return false
	}
	i, ok := d.field["Phase"]
	if !ok {
		return false
	}
	_, _, pv, _ := fieldAt(d.lines[i].text)
	if tok, _, _ := phaseToken(pv); tok == "" || samePhase(tok, v.Phase) {
		return false
	}
	if holdWords(pv) {
		return true
	}
	if j, ok := d.field["Status"]; ok {
		_, _, sv, _ := fieldAt(d.lines[j].text)
		return holdWords(sv)
	}
	return false
}

// recount is a Plan value with the counts of v, keeping what followed the old "A of B": a note
// ("— PAUSED at Plan 02 Task 2 (…)", "(+ 1 FIX plan)") stays; a word about the old count
// ("3 of 3 complete") does not.
func recount(rest string, v Values) string {
	if r, found := strings.CutPrefix(rest, inCurrentPhase); found {
		return planValue(v) + r
	}
	if strings.TrimSpace(rest) == "" || aboutCount(rest) {
		return planValue(v)
	}
	return strconv.Itoa(v.PlanNumber) + " of " + strconv.Itoa(v.PlanTotal) + rest
}

// aboutCount reports whether text right after a count says what the count amounts to
// ("complete", "(done)", "- finished", "(Plans 01 + 02 complete; Plan 03 next)").
func aboutCount(text string) bool {
	t := strings.ToLower(strings.TrimLeft(text, " \t-—–:,(["))
	for _, w := range []string{"complete", "done", "finished", "executed", "plans ", "plan "} {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}

// styled gives a "Name: value" line added at pos the label style of the field it follows (else
// the first field): "**Plan:** 1 of 6" after "**Status:** Ready", "- Plan: 1 of 6" in a list.
func (d *Doc) styled(text string, pos int) string {
	from := -1
	for _, i := range d.field {
		if i == pos-1 {
			from = i
			break
		}
		if from < 0 || i < from {
			from = i
		}
	}
	if from < 0 {
		return text
	}
	_, label, _, _ := fieldAt(d.lines[from].text)
	label = strings.TrimPrefix(label, "\ufeff")
	name, value, _ := strings.Cut(text, ": ")
	if strings.Contains(label, "**") {
		text = "**" + name + ":** " + value
	}
	if strings.HasPrefix(label, "- ") {
		text = "- " + text
	}
	return text
}

// insertAt is where missing fields go: after the last field present (Progress aside: GSD
// writes it apart), else after the heading and the blank line under it; -1 for a new section
// at the end.
func (d *Doc) insertAt() int {
	pos := -1
	for f, i := range d.field {
		if f != "Progress" {
			pos = max(pos, i+1)
		}
	}
	if pos < 0 && d.heading >= 0 {
		pos = d.heading + 1
		if pos < d.end && strings.TrimSpace(d.lines[pos].text) == "" {
			pos++
		}
	}
	if i, ok := d.field["Progress"]; ok && pos < 0 {
		pos = i
	}
	return pos
}

// placeholder reports whether a Plan value says there is no plan yet ("N/A (no plans yet ...)",
// "Not started", "—"): a count of real plans is better informed than that, prose is not.
func placeholder(v string) bool {
	t := strings.ToLower(strings.TrimSpace(v))
	if t == "" || strings.Trim(t, "-—–") == "" {
		return true
	}
	for _, p := range []string{"n/a", "none", "not started", "no plan", "tbd", "needs planning", "0 of 0"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// frontmatter sets the position fields (current_phase, and with it current_phase_name and
// current_plan, so that the three never contradict each other) and the numbers of the progress
// map (total_phases, completed_phases, total_plans, completed_plans, percent), wherever they are
// indented; quotes, a "%" and a trailing comment stay.
func (r *rewriter) frontmatter(v Values) {
	d := r.d
	nums := map[string]int{}
	if v.CountsKnown {
		nums["total_phases"], nums["completed_phases"] = v.TotalPhases, v.CompletedPhases
		nums["total_plans"], nums["completed_plans"] = v.TotalPlans, v.CompletedPlans
		if v.PercentKnown {
			nums["percent"] = v.Percent
		}
	}
	moved := false // current_phase names another phase: its name and plan follow it
	held := d.holds(v)
	if v.Phase != "" && !held {
		if i, _, ok := d.frontmatterKey("current_phase"); ok {
			moved = r.currentPhase(i, v)
		}
	}
	if i, val, ok := d.frontmatterValue("current_phase_name"); ok && moved && v.PhaseName != "" {
		r.setScalar(i, len("current_phase_name:"), val, v.PhaseName)
	}
	if i, val, ok := d.frontmatterValue("current_plan"); ok && !held {
		r.currentPlan(i, len("current_plan:"), val, v, moved)
	}
	for _, e := range d.progressMap() {
		want, known := nums[e.key]
		if !known {
			continue
		}
		t := r.lines[e.line].text
		off := len(t) - len(e.val)
		got, s, end, ok := yamlNumber(e.val)
		if !ok || got == float64(want) || e.key == "percent" && got == float64(int(got)) && v.agrees(int(got)) {
			continue
		}
		r.set(e.line, "frontmatter", t[:off+s]+strconv.Itoa(want)+t[off+end:])
	}
}

// yamlNumber reads the number a frontmatter value starts with, quoted or not ("40", "\"40%\"",
// "12.5 # note"): its value and byte span. ok is false for anything else (null, prose), which
// is left to whoever wrote it.
func yamlNumber(val string) (n float64, start, end int, ok bool) {
	s := len(val) - len(strings.TrimLeft(val, " "))
	if s < len(val) && (val[s] == '"' || val[s] == '\'') {
		s++
	}
	e := s
	for e < len(val) && (isDigitByte(val[e]) || val[e] == '.') {
		e++
	}
	n, err := strconv.ParseFloat(val[s:e], 64)
	return n, s, e, err == nil
}

// setScalar sets the frontmatter value val at byte off of line i to text, in val's quotes; a
// value YAML would misread unquoted is quoted.
func (r *rewriter) setScalar(i, off int, val, text string) {
	lead := len(val) - len(strings.TrimLeft(val, " "))
	cur := strings.TrimSpace(val)
	q := ""
	if cur != "" && (cur[0] == '"' || cur[0] == '\'') {
		q = cur[:1]
		cur = strings.Trim(cur, q)
	}
	if cur == text {
		return
	}
	if q == "" && strings.ContainsAny(text, ":#\"'{}[],&*!|>%@`") {
		q = "\""
	}
	if q == "\"" && strings.ContainsAny(text, "\"\\") || q == "'" && strings.Contains(text, "'") {
		return // not worth escaping: left as it is
	}
	t := r.lines[i].text
	r.set(i, "frontmatter", t[:off+lead]+q+text+q)
}

// currentPlan keeps a numeric current_plan with the Plan line: the plan being worked on (or the
// last one done, which agrees too); when the phase moved to one without plans, "Not started",
// as GSD writes it then. Anything else (prose, null) is left alone unless the phase moved.
func (r *rewriter) currentPlan(i, off int, val string, v Values, moved bool) {
	n, _, e, isNum := yamlNumber(val)
	isNum = isNum && bareAfter(val[e:]) // not "02-03", "2 (paused)"
	switch {
	case v.PlanTotal <= 0:
		if moved {
			r.setScalar(i, off, val, "Not started")
		}
	case isNum && (n == float64(v.PlanNumber) || n == float64(v.PlanDone)) && !moved:
	case isNum || moved:
		r.setScalar(i, off, val, strconv.Itoa(v.PlanNumber))
	}
}

// currentPhase corrects a frontmatter current_phase that names another phase: a bare token
// ("07", "\"07\"") is replaced in place; a longer value by "Phase N — Name" in the same quotes.
// It reports whether it did.
func (r *rewriter) currentPhase(i int, v Values) bool {
	const key = "current_phase:"
	t := r.lines[i].text
	val := t[len(key):]
	tok, s, e := phaseToken(val)
	if tok == "" || samePhase(tok, v.Phase) {
		return false // not a phase we can read (null, prose), or already right
	}
	if bareAfter(val[e:]) {
		r.set(i, "frontmatter", t[:len(key)+s]+v.Phase+t[len(key)+e:])
		return true
	}
	nv := "Phase " + v.Phase
	if v.PhaseName != "" && !strings.ContainsAny(v.PhaseName, "\"'\\") {
		nv += " — " + v.PhaseName // a name that would need escaping is left out
	}
	r.setScalar(i, len(key), val, nv)
	return true
}

// bareAfter reports whether rest, what follows a token in a frontmatter value, leaves the token
// the whole value: nothing but a closing quote or a comment.
func bareAfter(rest string) bool {
	rest = strings.TrimSpace(rest)
	return strings.Trim(rest, "\"'") == "" || strings.HasPrefix(rest, "#")
}

// progressFor is a Progress value brought up to v: its NN%, its bar (right before the percent,
// else right after it) and the counts beside it ("2/5 plans", "3 of 5 phases") redrawn, with
// the bar's width, brackets and glyphs and any other text kept. ok is false when the value is to
// be left alone: it has no percent, it already agrees, or it carries figures of a scope gsd does
// not derive (a second percent, "1/3 Phase 2 plans", "9 of 10 plans, all milestones"), which
// rewriting the percent alone would make contradict themselves.
func progressFor(val string, v Values) (string, bool) {
	n, s, e, counts, ok := ownPercent(val)
	if !ok {
		return "", false
	}
	type edit struct {
		start, end int
		text       string
	}
	pct := v.Percent
	switch unit := countsUnit(counts); {
	case unit != "" && v.CountsKnown:
		// The percent of the one thing the line counts ("2/5 plans (40%)", GSD's own line):
		// the line stays true to itself.
		pct = Percent(v.CompletedPlans, v.TotalPlans)
		if unit == "phase" {
			pct = Percent(v.CompletedPhases, v.TotalPhases)
		}
	case v.agrees(n):
		pct = n // a percent that agrees stays as written, whatever else is redrawn
	}
	edits := []edit{{s, e, strconv.Itoa(pct)}}
	for _, c := range counts {
		var done, total int
		switch {
		case !v.CountsKnown:
			return "", false
		case c.unit == "plan":
			done, total = v.CompletedPlans, v.TotalPlans
		default:
			done, total = v.CompletedPhases, v.TotalPhases
		}
		edits = append(edits, edit{c.a[0], c.a[1], strconv.Itoa(done)}, edit{c.b[0], c.b[1], strconv.Itoa(total)})
	}
	if !slices.ContainsFunc(edits, func(ed edit) bool { return val[ed.start:ed.end] != ed.text }) {
		return "", false // the figures agree; a bar drawn a cell off is not worth a rewrite
	}
	if bs, be := barIn(val, s); bs < be {
		edits = append(edits, edit{bs, be, redrawBar(val[bs:be], pct)})
	}
	slices.SortFunc(edits, func(x, y edit) int { return y.start - x.start })
	out := val
	for _, ed := range edits {
		out = out[:ed.start] + ed.text + out[ed.end:]
	}
	return out, out != val
}

// countsUnit is the one unit the counts of a Progress value count ("plan" or "phase"), "" when
// there are none or both.
func countsUnit(counts []count) string {
	unit := ""
	for _, c := range counts {
		if unit != "" && c.unit != unit {
			return ""
		}
		unit = c.unit
	}
	return unit
}

// ownPercent is percentSpan for a percent of the scope gsd derives, with the counts beside it:
// none when the value has a second percent, a count of something else ("33% (1/3 Phase 2
// plans done)") or two counts of one thing.
func ownPercent(val string) (n, start, end int, counts []count, ok bool) {
	n, start, end, ok = percentSpan(val)
	if !ok {
		return 0, 0, 0, nil, false
	}
	if t, _ := percentAt(val[end+1:]); t >= 0 {
		return 0, 0, 0, nil, false
	}
	counts = countsIn(val)
	for i, c := range counts {
		if c.unit == "" {
			return 0, 0, 0, nil, false
		}
		if slices.ContainsFunc(counts[:i], func(o count) bool { return o.unit == c.unit }) {
			// Two counts of plans are two scopes ("(53/53 plans), v4.0 in progress (3/15
			// plans)"), which one derived count cannot both be.
			return 0, 0, 0, nil, false
		}
	}
	return n, start, end, counts, true
}

// count is one "A/B" or "A of B" in a Progress value: the byte spans of A and B, and what it
// counts: "plan" or "phase" when the words after it say just that ("2/5 plans", "(3 of 5 phases
// done)"), "" for anything else ("1/3 Phase 2 plans", "9 of 10 plans, all milestones").
type count struct {
	a, b [2]int
	unit string
}

// countsIn finds the counts of a Progress value.
func countsIn(v string) []count {
	var cs []count
	for i := 0; i < len(v); i++ {
		if !isDigitByte(v[i]) || i > 0 && (isDigitByte(v[i-1]) || v[i-1] == '.') {
			continue
		}
		ae := i
		for ae < len(v) && isDigitByte(v[ae]) {
			ae++
		}
		bs := -1
		switch {
		case ae < len(v) && v[ae] == '/':
			bs = ae + 1
		case strings.HasPrefix(v[ae:], " of "):
			bs = ae + 4
		}
		if bs < 0 || bs >= len(v) || !isDigitByte(v[bs]) {
			i = ae
			continue
		}
		be := bs
		for be < len(v) && isDigitByte(v[be]) {
			be++
		}
		if be < len(v) && (v[be] == '%' || v[be] == '.') || hasSuffixFold(strings.TrimRight(v[:i], " "), "phase") {
			i = be
			continue // "1 of 50%", "3/4.5", "Phase 2 of 3": not a count
		}
		cs = append(cs, count{a: [2]int{i, ae}, b: [2]int{bs, be}, unit: countUnit(v[be:])})
		i = be
	}
	return cs
}

// hasSuffixFold reports whether s ends with the word w, ignoring case.
func hasSuffixFold(s, w string) bool {
	return len(s) >= len(w) && strings.EqualFold(s[len(s)-len(w):], w) && (len(s) == len(w) || !isWordByte(s[len(s)-len(w)-1]))
}

// countUnit reads what a count counts from the text after it: "plan" or "phase" when that is a
// plain "plans"/"phases", optionally followed by "done" or "complete", up to the end of the value
// or of its bracket; "" otherwise.
func countUnit(after string) string {
	t := strings.TrimLeft(after, " ")
	lower := strings.ToLower(t)
	unit := ""
	for _, u := range []string{"plans", "plan", "phases", "phase"} {
		if strings.HasPrefix(lower, u) {
			unit, t = strings.TrimSuffix(u, "s"), t[len(u):]
			break
		}
	}
	if unit == "" || t != "" && isWordByte(t[0]) {
		return ""
	}
	if k := strings.IndexAny(t, "()[]"); k >= 0 {
		t = t[:k]
	}
	t = strings.TrimSpace(t)
	if next, ok := strings.CutPrefix(t, ","); ok && strings.IndexFunc(next, func(r rune) bool { return r != ' ' }) >= 0 && isDigitByte(strings.TrimLeft(next, " ")[0]) {
		return unit // a list of counts: "8/10 plans, 4 of 5 phases"
	}
	if t != "" && !aboutCount(t) {
		return ""
	}
	return unit
}

const blockGlyphs = "█▓▒░■□▰▱▮▯⬛⬜"

// barBefore finds the bar ending (blanks aside) at byte at: "[##---]" with any glyphs, or a run
// of block glyphs ("████░░"). bs == be when there is none.
func barBefore(v string, at int) (bs, be int) {
	j := at
	for j > 0 && (v[j-1] == ' ' || v[j-1] == '\t') {
		j--
	}
	if j > 0 && v[j-1] == ']' {
		k := strings.LastIndexByte(v[:j-1], '[')
		if k < 0 || k+1 == j-1 {
			return at, at
		}
		for _, c := range v[k+1 : j-1] {
			if !strings.ContainsRune(blockGlyphs+"#=-. *>", c) {
				return at, at
			}
		}
		return k, j
	}
	k := j
	for k > 0 {
		c, size := utf8.DecodeLastRuneInString(v[:k])
		if !strings.ContainsRune(blockGlyphs, c) {
			break
		}
		k -= size
	}
	if k == j {
		return at, at
	}
	return k, j
}

// barIn finds the bar of a Progress value whose percent starts at byte at: the one right before
// it, else right after it, else the first one anywhere ("[████░░] 2/5 plans (40%)").
func barIn(v string, at int) (bs, be int) {
	if bs, be = barBefore(v, at); bs < be {
		return bs, be
	}
	_, e, _ := strings.Cut(v[at:], "%")
	if bs, be = barAfter(v, len(v)-len(e)); bs < be {
		return bs, be
	}
	for k := 0; k < len(v); k++ {
		if c := v[k]; c == '[' || c >= utf8.RuneSelf && utf8.RuneStart(c) {
			if bs, be = barAfter(v, k); bs < be {
				return bs, be
			}
		}
	}
	return 0, 0
}

// barAfter finds the bar starting (blanks aside) at byte at, as barBefore finds one ending
// there; bs == be when there is none.
func barAfter(v string, at int) (bs, be int) {
	at = min(at, len(v))
	j := at
	for j < len(v) && (v[j] == ' ' || v[j] == '\t') {
		j++
	}
	if j < len(v) && v[j] == '[' {
		k := strings.IndexByte(v[j:], ']')
		if k <= 1 {
			return at, at
		}
		for _, c := range v[j+1 : j+k] {
			if !strings.ContainsRune(blockGlyphs+"#=-. *>", c) {
				return at, at
			}
		}
		return j, j + k + 1
	}
	k := j
	for k < len(v) {
		c, size := utf8.DecodeRuneInString(v[k:])
		if !strings.ContainsRune(blockGlyphs, c) {
			break
		}
		k += size
	}
	if k == j {
		return at, at
	}
	return j, k
}

// barPairs pairs each full glyph with its empty one.
var barPairs = [][2]rune{{'█', '░'}, {'▓', '░'}, {'■', '□'}, {'▰', '▱'}, {'▮', '▯'}, {'⬛', '⬜'}, {'#', '-'}, {'=', ' '}, {'*', ' '}}

func redrawBar(bar string, percent int) string {
	open, close := "", ""
	inner := bar
	if strings.HasPrefix(bar, "[") {
		open, close, inner = "[", "]", bar[1:len(bar)-1]
	}
	rs := []rune(inner)
	full, empty := rune(0), rune(0)
	for _, p := range barPairs {
		if full == 0 && slices.Contains(rs, p[0]) {
			full = p[0]
		}
	}
	for _, e := range []rune{'░', '▒', '□', '▱', '▯', '⬜', '-', '.', ' '} {
		if empty == 0 && slices.Contains(rs, e) {
			empty = e
		}
	}
	for _, p := range barPairs {
		if full == 0 && empty == p[1] {
			full = p[0]
		}
		if empty == 0 && full == p[0] {
			empty = p[1]
		}
	}
	if full == 0 || empty == 0 {
		full, empty = '█', '░'
	}
	n := cells(len(rs), percent)
	return open + strings.Repeat(string(full), n) + strings.Repeat(string(empty), len(rs)-n) + close
}

// New is a STATE.md in the shape of GSD's template, for a project that has none.
func New(v Values, now time.Time) []byte {
	var b strings.Builder
	b.WriteString("# Project State\n\n")
	b.WriteString("## Project Reference\n\nSee: .planning/PROJECT.md\n\n")
	b.WriteString("## Current Position\n\n")
	b.WriteString(PhaseText(v) + "\n")
	if v.Phase != "" {
		b.WriteString(PlanText(v) + "\n")
	}
	b.WriteString(StatusText(v) + "\n")
	b.WriteString("Last activity: " + now.UTC().Format("2006-01-02") + " — STATE.md reconstructed by gsd state --write\n\n")
	if v.PercentKnown {
		b.WriteString(ProgressText(v) + "\n\n")
	}
	b.WriteString("## Session Continuity\n\nLast session: " + now.UTC().Format("2006-01-02 15:04") + "\nStopped at: unknown\nResume file: None\n")
	return []byte(b.String())
}
