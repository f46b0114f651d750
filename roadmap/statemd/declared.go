package statemd

import (
	"strconv"
	"strings"
)

// Declared is what STATE.md says about where work is. Each Line is 1-based, 0 when absent.
type Declared struct {
	Phase     string `json:"phase"` // the phase token as written ("07", "12.3.1", "E73"), "" when none
	PhaseLine int    `json:"phaseLine"`
	PhaseText string `json:"phaseText"` // that line, trimmed, as evidence
	PhaseOf   int    `json:"phaseOf"`   // "9 of 9" -> 9; 0 unknown
	Complete  bool   `json:"complete"`  // the Phase or Status line says the phase is complete
	// PhaseComplete: the Phase line itself says so ("Phase: 9 (Name) — COMPLETE"); a Status
	// line's "complete" can be about a plan or the phase before.
	PhaseComplete bool `json:"phaseComplete"`
	// Completed are the phases the Current Position's Phase lines call complete, in order
	// (a STATE.md that keeps a line per recent phase: "Phase: 09 (crosscheck) — COMPLETE").
	Completed []string `json:"completed"`
	Paused    string   `json:"paused"` // "PAUSED at Plan 01 Task 4": any "paused" wording of the Phase or Status line
	Next      string   `json:"next"`   // the phase a Next line names ("Next: ... plan-phase 15"), "" when none
	NextLine  int      `json:"nextLine"`
	// Percent is the Progress line's NN%, -1 when it has none, or one of another scope than the
	// milestone's ("33% (1/3 Phase 2 plans done)", "60% overall; v1.1: 33%").
	Percent int `json:"percent"`
	// PercentLine is the Progress line's, 0 when there is none.
	PercentLine int `json:"percentLine"`
	// StoppedPlan is the plan id the frontmatter's stopped_at says was completed last
	// ("stopped_at: Completed 57-02-PLAN.md" -> "57-02"), "" when it names none. GSD's tools
	// keep the frontmatter current while a body written by hand can lag behind it.
	StoppedPlan     string `json:"stoppedPlan"`
	StoppedPlanLine int    `json:"stoppedPlanLine"`
	// CompletedPlans are the plans STATE.md says were completed: stopped_at's, and a Last activity
	// line's ("Last activity: 2026-02-03 — Completed 03-01-PLAN.md"), in the file's order.
	CompletedPlans []PlanClaim `json:"completedPlans"`
	// MilestoneDone: the frontmatter says the milestone is finished: its progress map counts
	// every phase completed, or its percent is 100. (Its status is no such word: GSD writes
	// "completed" when a phase completes.)
	MilestoneDone bool `json:"milestoneDone"`
	// StatusDone: the frontmatter's status says complete ("status: complete", "completed"),
	// which GSD's tools write when a phase or a milestone is finished; the body's Phase and
	// Status lines may still be the ones written while it was executed.
	StatusDone bool `json:"statusDone"`
	// Milestone is the frontmatter's milestone and its name ("v1.2 Visual Browsing"; the
	// version alone when the name is GSD's placeholder "milestone"), "" when it gives none.
	Milestone string `json:"milestone"`
	// Updated is the newest date STATE.md gives for itself (frontmatter last_updated or
	// last_activity, the Last activity line), as YYYY-MM-DD; "" when it gives none.
	Updated     string `json:"updated"`
	UpdatedLine int    `json:"updatedLine"`
}

// Declared reads the phase from, in this order, the frontmatter's current_phase, the Current
// Position's Phase line ("Phase: 9 of 9 (Name)", "**Current Phase:** Phase 1 — Name") or,
// without that section, a Phase line before the first "## " section.
func (d *Doc) Declared() Declared {
	dec := Declared{Percent: -1}
	if i, v, ok := d.frontmatterKey("current_phase"); ok {
		if tok, _, _ := phaseToken(v); tok != "" {
			dec.Phase, dec.PhaseLine, dec.PhaseText = tok, i+1, strings.TrimSpace(d.lines[i].text)
		}
	}
	agrees := true // the Phase line is about the declared phase
	if i, ok := d.field["Phase"]; ok {
		_, _, v, _ := fieldAt(d.lines[i].text)
		tok, _, end := phaseToken(v)
		if dec.Phase == "" && tok != "" {
			dec.Phase, dec.PhaseLine, dec.PhaseText = tok, i+1, strings.TrimSpace(strings.TrimPrefix(d.lines[i].text, "\ufeff"))
		}
		if tok != "" && !samePhase(tok, dec.Phase) {
			// The frontmatter names another phase: this line's words are about that one.
			agrees = false
		} else {
			if n, _, _ := ofCount(v, end); n > 0 {
				dec.PhaseOf = n
			}
			dec.Complete = phaseSaysComplete(v[end:])
			dec.PhaseComplete = dec.Complete
			dec.Paused = paused(v)
		}
	}
	if i, ok := d.field["Status"]; ok && agrees {
		_, _, v, _ := fieldAt(d.lines[i].text)
		dec.Complete = dec.Complete || statusComplete(v)
		if dec.Paused == "" {
			dec.Paused = paused(v)
		}
	}
	if i, ok := d.field["Progress"]; ok {
		_, _, v, _ := fieldAt(d.lines[i].text)
		dec.PercentLine = i + 1
		if n, _, _, _, ok := ownPercent(v); ok {
			dec.Percent = n
		}
	}
	for i := d.start; i < d.end && i < len(d.lines); i++ {
		if d.fenced[i] {
			continue
		}
		if field, _, v, ok := fieldAt(d.lines[i].text); ok && field == "Phase" {
			if tok, _, end := phaseToken(v); tok != "" && phaseSaysComplete(v[end:]) {
				dec.Completed = append(dec.Completed, tok)
			}
		}
	}
	dec.Next, dec.NextLine = d.next()
	if i, v, ok := d.frontmatterKey("stopped_at"); ok {
		if id := completedPlan(v); id != "" {
			dec.StoppedPlan, dec.StoppedPlanLine = id, i+1
			dec.CompletedPlans = append(dec.CompletedPlans, PlanClaim{Plan: id, Line: i + 1, Text: strings.TrimSpace(d.lines[i].text)})
		}
	}
	dec.MilestoneDone = d.milestoneDone()
	if _, v, ok := d.frontmatterKey("status"); ok {
		dec.StatusDone = statusComplete(v)
	}
	if _, v, ok := d.frontmatterKey("milestone"); ok {
		dec.Milestone = yamlScalar(v)
		if _, name, ok := d.frontmatterKey("milestone_name"); ok && dec.Milestone != "" {
			if name = yamlScalar(name); name != "" && !strings.EqualFold(name, "milestone") {
				dec.Milestone += " " + name
			}
		}
	}
	for _, key := range []string{"last_updated", "last_activity"} {
		if i, v, ok := d.frontmatterKey(key); ok {
			dec.noteDate(v, i+1)
		}
	}
	for i := d.start; i < d.end && i < len(d.lines); i++ {
		if name, _, v, ok := splitLabel(d.lines[i].text); ok && strings.EqualFold(name, "last activity") {
			dec.noteDate(v, i+1)
			if id := completedIn(v); id != "" {
				dec.CompletedPlans = append(dec.CompletedPlans, PlanClaim{Plan: id, Line: i + 1, Text: strings.TrimSpace(d.lines[i].text)})
			}
		}
	}
	return dec
}

// milestoneDone reads the frontmatter's word on the milestone (Declared.MilestoneDone).
func (d *Doc) milestoneDone() bool {
	nums := map[string]int{}
	for _, e := range d.progressMap() {
		if n, err := strconv.Atoi(strings.Trim(e.val, " \t\"'%")); err == nil {
			nums[e.key] = n
		}
	}
	total, hasTotal := nums["total_phases"]
	done, hasDone := nums["completed_phases"]
	if hasTotal && hasDone {
		return total > 0 && done >= total
	}
	return nums["percent"] == 100
}

// progressEntry is one entry of the frontmatter's progress: map: its line, key and value as
// written.
type progressEntry struct {
	line     int
	key, val string
}

// progressMap is the frontmatter's progress: map ("progress:" and the indented lines under it).
func (d *Doc) progressMap() []progressEntry {
	var out []progressEntry
	inProgress := false
	for i := 1; i < d.fmEnd; i++ {
		t := d.lines[i].text
		trimmed := strings.TrimLeft(t, " \t")
		if len(trimmed) == len(t) {
			inProgress = strings.HasPrefix(trimmed, "progress:")
			continue
		}
		if key, val, ok := strings.Cut(trimmed, ":"); ok && inProgress {
			out = append(out, progressEntry{i, key, val})
		}
	}
	return out
}

// noteDate keeps the date v starts with when it is newer than the one kept.
func (dec *Declared) noteDate(v string, line int) {
	if d := LeadingDate(v); d != "" && d > dec.Updated {
		dec.Updated, dec.UpdatedLine = d, line
	}
}

// LeadingDate returns the YYYY-MM-DD date that v starts with (after quotes and spaces), or "".
func LeadingDate(v string) string {
	v = strings.TrimLeft(v, " \t\"'")
	if len(v) < 10 {
		return ""
	}
	for i := 0; i < 10; i++ {
		c := v[i]
		if i == 4 || i == 7 {
			if c != '-' {
				return ""
			}
		} else if c < '0' || c > '9' {
			return ""
		}
	}
	if len(v) > 10 && v[10] >= '0' && v[10] <= '9' {
		return ""
	}
	return v[:10]
}

// completedPlan reads the plan id of a stopped_at value that says a plan was completed
// ("Completed 57-02-PLAN.md (settle tests)" -> "57-02"); "" for anything else.
func completedPlan(v string) string {
	v = strings.Trim(v, " \t\"'")
	rest, ok := cutPrefixFold(v, "completed ")
	if !ok {
		return ""
	}
	tok, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
	id, ok := cutSuffixFold(tok, "-PLAN.md")
	if !ok || id == "" {
		return ""
	}
	return id
}

// PlanClaim is STATE.md saying that a plan was completed.
type PlanClaim struct {
	Plan string `json:"plan"` // the plan id ("03-01")
	Line int    `json:"line"`
	Text string `json:"text"` // the line, trimmed
}

// completedIn reads the plan id a Last activity value says was completed, after its date
// ("2026-02-03 — Completed 03-01-PLAN.md" -> "03-01"); "" for anything else.
func completedIn(v string) string {
	for i := 0; i+len("completed ") <= len(v); i++ {
		if strings.EqualFold(v[i:i+len("completed ")], "completed ") && (i == 0 || v[i-1] == ' ' || v[i-1] == '\t') {
			return completedPlan(v[i:])
		}
	}
	return ""
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// frontmatterKey finds a top-level key of the frontmatter: its line index and value, trimmed.
func (d *Doc) frontmatterKey(key string) (int, string, bool) {
	i, v, ok := d.frontmatterValue(key)
	return i, strings.TrimSpace(v), ok
}

// frontmatterValue is frontmatterKey with the value as written after the colon.
func (d *Doc) frontmatterValue(key string) (int, string, bool) {
	for i := 1; i < d.fmEnd; i++ {
		if v, ok := strings.CutPrefix(d.lines[i].text, key+":"); ok {
			return i, v, true
		}
	}
	return 0, "", false
}

// yamlScalar is a frontmatter value as YAML reads a plain or quoted scalar: quotes removed, a
// " #" comment dropped, null and ~ empty.
func yamlScalar(v string) string {
	if len(v) > 0 && (v[0] == '"' || v[0] == '\'') {
		if end := strings.IndexByte(v[1:], v[0]); end >= 0 {
			return v[1 : 1+end]
		}
	}
	if i := strings.Index(v, " #"); i >= 0 {
		v = v[:i]
	}
	v = strings.TrimSpace(v)
	if v == "~" || strings.EqualFold(v, "null") {
		return ""
	}
	return v
}

// phaseSaysComplete reads what follows the phase token of a Phase line ("of 8 (Name) — COMPLETE"):
// a parenthesised name ("(context complete)") is not a status, nor a plan that is complete.
func phaseSaysComplete(rest string) bool {
	rest = dropParens(rest)
	i := indexComplete(rest)
	return i >= 0 && !hasPlanWord(rest[:i])
}

// paused returns a value's wording from "paused" on, without trailing punctuation.
func paused(v string) string {
	i := indexPaused(v)
	if i < 0 {
		return ""
	}
	return strings.TrimRight(v[i:], " \t.;,)*")
}

// next finds the phase named by a Next line ("Next: Run /gsd:plan-phase 15", "- **Next action:**
// `/gsd-execute-phase 05-...`"): in the Current Position fields first, then the Session
// Continuity section, then anywhere.
func (d *Doc) next() (string, int) {
	body := 0
	if d.fmEnd > 0 {
		body = d.fmEnd + 1
	}
	regions := [][2]int{{d.start, d.end}}
	for i := body; i < len(d.lines); i++ {
		if lv, title := d.headingAt(i); lv > 0 && strings.EqualFold(title, "Session Continuity") {
			regions = append(regions, [2]int{i + 1, d.sectionEnd(i)})
			break
		}
	}
	regions = append(regions, [2]int{body, len(d.lines)})
	for _, r := range regions {
		for i := r[0]; i < r[1]; i++ {
			if d.fenced[i] {
				continue
			}
			name, _, v, ok := splitLabel(d.lines[i].text)
			if !ok || !strings.HasPrefix(strings.ToLower(name), "next") {
				continue
			}
			if tok := nextPhase(v); tok != "" {
				return tok, i + 1
			}
		}
	}
	return "", 0
}
