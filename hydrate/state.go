package hydrate

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/roadmap"
)

// Position is where the project stands, derived from ROADMAP.md and the disk: the spec's
// hydration step 7, as STATE.md's Current Position block records it.
type Position struct {
	Phase       string `json:"phase"`      // the phase number, canonical ("3", "4.1"); "" without phases
	PhaseName   string `json:"phaseName"`  // its name
	PhaseOf     int    `json:"phaseOf"`    // the last whole-numbered phase (decimal insertions are not counted, as GSD does not)
	PlanNumber  int    `json:"plan"`       // the plan being worked on: the first without a SUMMARY, 1-based; PlanTotal when all are done
	PlanDone    int    `json:"planDone"`   // plans of the phase complete
	PlanTotal   int    `json:"planTotal"`  // plans of the phase (FIX plans not counted)
	Status      string `json:"status"`     // "Ready to plan", "Ready to execute", "In progress", "Phase complete", "Complete"
	Percent     int    `json:"percent"`    // plans complete over all plans
	ActivePlan  string `json:"activePlan"` // the plan to work on next, "" if none
	PhasesDone  int    `json:"phasesComplete"`
	PhasesTotal int    `json:"phasesTotal"`
	PlansDone   int    `json:"plansComplete"`
	PlansTotal  int    `json:"plansTotal"`
}

// Lines renders the position as the Current Position block's lines, without line endings.
func (p Position) Lines() (phase, plan, status, progress string) {
	phase = "Phase: " + p.Phase + " of " + strconv.Itoa(p.PhaseOf)
	if p.Phase == "" {
		phase = "Phase: none yet"
	}
	if p.PhaseName != "" {
		phase += " (" + p.PhaseName + ")"
	}
	plan = fmt.Sprintf("Plan: %d of %d in current phase", p.PlanNumber, p.PlanTotal)
	status = "Status: " + p.Status
	progress = "Progress: " + ProgressBar(p.Percent, 10) + " " + strconv.Itoa(p.Percent) + "%"
	return phase, plan, status, progress
}

// ProgressBar draws percent as "[████░░░░░░]", width cells wide.
func ProgressBar(percent, width int) string {
	percent = min(max(percent, 0), 100)
	full := percent * width / 100
	return "[" + strings.Repeat("█", full) + strings.Repeat("░", width-full) + "]"
}

// Difference is one field where STATE.md disagrees with the derived position.
type Difference struct {
	Field   string `json:"field"` // "phase", "plan" or "progress"
	Line    int    `json:"line"`  // STATE.md line, 0 when the field is missing
	Says    string `json:"says"`
	Derived string `json:"derived"`
}

// StatePosition is the derived position and how STATE.md stands against it.
type StatePosition struct {
	Path        string       `json:"path"` // STATE.md, root-relative
	Exists      bool         `json:"exists"`
	Position    Position     `json:"position"`
	Agrees      bool         `json:"agrees"`
	Differences []Difference `json:"differences"`
}

// DerivePosition works out the position from a loaded project. The phase is the current one;
// when there is none (every phase with plans is done), the first phase that neither the roadmap
// nor the disk calls complete or deferred, which is the next to plan; when every phase is done,
// the last.
func DerivePosition(proj *roadmap.Project) Position {
	pos := Position{
		Percent:     proj.Progress.Percent,
		PhasesDone:  proj.Progress.PhasesComplete,
		PhasesTotal: proj.Progress.PhasesTotal,
		PlansDone:   proj.Progress.PlansComplete,
		PlansTotal:  proj.Progress.PlansTotal,
	}
	for _, ph := range proj.Phases {
		// The last whole-numbered phase: "Phase: 10 of 10" with 3.1 and 6.1 inserted, as GSD writes it.
		if n, err := strconv.Atoi(ph.Num.String()); err == nil {
			pos.PhaseOf = max(pos.PhaseOf, n)
		}
	}
	ph := proj.CurrentPhase()
	if ph == nil {
		for i := range proj.Phases {
			ph2 := &proj.Phases[i]
			if open(ph2.Status) && open(ph2.RoadmapStatus) {
				ph = ph2
				break
			}
		}
	}
	allDone := false
	if ph == nil && len(proj.Phases) > 0 {
		ph, allDone = &proj.Phases[len(proj.Phases)-1], true
	}
	if ph == nil {
		pos.Status = "Ready to plan"
		return pos
	}
	pos.Phase, pos.PhaseName = ph.Num.String(), ph.Name
	pos.PlanDone, pos.PlanTotal = ph.Counted()
	pos.PlanNumber = pos.PlanTotal
	k := 0
	for _, pl := range ph.Plans {
		if pl.Fix() {
			continue
		}
		k++
		if !ph.PlanDone(pl) {
			pos.PlanNumber = k
			break
		}
	}
	if proj.Active != nil && proj.CurrentPhase() == ph {
		pos.ActivePlan = proj.Active.Path
	}
	switch {
	case allDone:
		pos.Status = "Complete"
	case len(ph.Plans) == 0:
		pos.Status = "Ready to plan"
	case ph.Status == roadmap.StatusComplete:
		pos.Status = "Phase complete"
	case pos.PlanDone == 0 && ph.Status != roadmap.StatusInProgress:
		pos.Status = "Ready to execute"
	default:
		pos.Status = "In progress"
	}
	return pos
}

// readState reads STATE.md, refusing a binary file: rewriting one would destroy it.
func (e *Env) readState() ([]byte, error) {
	src, err := e.readFile(e.statePath())
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, fmt.Errorf("%s: %w", e.statePath(), roadmap.ErrBinary)
	}
	return src, nil
}

// open reports whether a status leaves work to do.
func open(s roadmap.Status) bool { return s != roadmap.StatusComplete && s != roadmap.StatusDeferred }

// statePath is STATE.md beside the roadmap (a workstream has its own).
func (e *Env) statePath() string { return path.Join(e.PlanningDir, "STATE.md") }

// statePosition derives the position and compares STATE.md with it.
func (e *Env) statePosition(proj *roadmap.Project) (*StatePosition, error) {
	sp := &StatePosition{Path: e.statePath(), Position: DerivePosition(proj), Differences: []Difference{}}
	src, err := e.readState()
	if errors.Is(err, fs.ErrNotExist) {
		return sp, nil
	}
	if err != nil {
		return nil, err
	}
	sp.Exists = true
	if d := compareState(src, sp.Position, true); d != nil {
		sp.Differences = d
	}
	sp.Agrees = len(sp.Differences) == 0
	return sp, nil
}

// State derives the position and says whether STATE.md agrees with it. It writes nothing.
func (e *Env) State() (*StatePosition, error) {
	proj, err := roadmap.Load(e.FS, e.PlanningDir)
	if err != nil {
		return nil, err
	}
	return e.statePosition(proj)
}

// WriteState rewrites STATE.md's Current Position block (Phase, Plan, Status and Progress
// lines) and the progress fields of its frontmatter to the derived position, leaving every other
// byte as it was; a missing STATE.md is created in GSD's template shape. It holds STATE.md.lock
// the way GSD's own tooling does while it reads and writes. It reports whether the file changed.
func (e *Env) WriteState() (*StatePosition, bool, error) {
	proj, err := roadmap.Load(e.FS, e.PlanningDir)
	if err != nil {
		return nil, false, err
	}
	return e.writeState(proj)
}

func (e *Env) writeState(proj *roadmap.Project) (*StatePosition, bool, error) {
	var sp *StatePosition
	changed := false
	err := e.withStateLock(func() error {
		var err error
		if sp, err = e.statePosition(proj); err != nil {
			return err
		}
		var src, out []byte
		if sp.Exists {
			if src, err = e.readState(); err != nil {
				return err
			}
			out = RewriteState(src, sp.Position)
		} else {
			out = NewState(sp.Position, e.now())
		}
		if sp.Exists && bytes.Equal(src, out) {
			return nil
		}
		perm := fs.FileMode(0o644)
		if fi, err := os.Stat(e.abs(sp.Path)); err == nil {
			perm = fi.Mode().Perm()
		}
		if err := atomicfile.WriteFile(e.abs(sp.Path), out, perm); err != nil {
			return fmt.Errorf("%s: %w", sp.Path, err)
		}
		changed = true
		sp.Exists, sp.Agrees, sp.Differences = true, true, []Difference{}
		return nil
	})
	return sp, changed, err
}

// StateLockStale is the age after which a STATE.md.lock is taken to be left behind by a crashed
// process and removed. Holders keep it for the few milliseconds of one read-modify-write, so ten
// seconds is far beyond any live holder. (The value is gsd's choice: GSD's own threshold is not
// written down anywhere we could check.)
const StateLockStale = 10 * time.Second

// withStateLock runs fn holding STATE.md.lock, as GSD's own tooling does (see
// atomicfile.CreateLockFile: abandoned locks are reclaimed atomically, and at once when their
// holder is dead).
func (e *Env) withStateLock(fn func() error) error {
	l, err := atomicfile.CreateLockFile(e.abs(e.statePath()+".lock"), e.lockTimeout, StateLockStale)
	if err != nil {
		return err
	}
	defer l.Release()
	atomicfile.RemoveTemps(filepath.Dir(e.abs(e.statePath())), path.Base(e.statePath()))
	return fn()
}

// stateFields are the Current Position lines gsd owns, in the order GSD writes them.
var stateFields = []string{"Phase", "Plan", "Status", "Progress"}

// stateLine is one line of STATE.md with its line ending kept apart.
type stateLine struct {
	text string
	eol  string
}

func splitLines(src []byte) []stateLine {
	var out []stateLine
	s := string(src)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, stateLine{text: s})
			break
		}
		l := stateLine{text: s[:i], eol: "\n"}
		if strings.HasSuffix(l.text, "\r") {
			l.text, l.eol = l.text[:len(l.text)-1], "\r\n"
		}
		out = append(out, l)
		s = s[i+1:]
	}
	return out
}

// fieldLabel returns the field a line sets ("Phase: 3 of 8" and "**Phase:** 3" set "Phase"),
// the bytes of its label, and whether it is one of stateFields.
func fieldLabel(text string) (field, label, value string, ok bool) {
	t := strings.TrimPrefix(text, "\ufeff")
	lead := len(text) - len(t)
	if t == "" || t[0] != '*' && !strings.ContainsRune("PSC", rune(t[0])) {
		return "", "", "", false
	}
	for _, f := range stateFields {
		for _, form := range stateLabels[f] {
			if strings.HasPrefix(t, form) {
				n := lead + len(form)
				rest := text[n:]
				sp := len(rest) - len(strings.TrimLeft(rest, " \t"))
				return f, text[:n+sp], rest[sp:], true
			}
		}
	}
	return "", "", "", false
}

// stateLabels spells each field's labels: "Phase:", "**Phase:**", "**Phase**:", and for Phase
// and Plan also "**Current Phase:**" (newer STATE.md files write "**Current Phase:** Phase 1 — Name").
var stateLabels = map[string][]string{
	"Phase":    labelForms("Phase", "Current Phase"),
	"Plan":     labelForms("Plan", "Current Plan"),
	"Status":   labelForms("Status"),
	"Progress": labelForms("Progress"),
}

func labelForms(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n+":", "**"+n+":**", "**"+n+"**:")
	}
	return out
}

// currentPosition finds the Current Position section: the index of its heading and the index of
// the line after its last line; -1 when there is none.
func currentPosition(lines []stateLine) (int, int) {
	start := -1
	for i, l := range lines {
		t := strings.TrimSpace(strings.TrimPrefix(l.text, "\ufeff"))
		if start < 0 {
			if strings.HasPrefix(t, "#") && strings.EqualFold(strings.TrimSpace(strings.TrimLeft(t, "#")), "Current Position") {
				start = i
			}
			continue
		}
		if strings.HasPrefix(t, "#") {
			return start, i
		}
	}
	if start < 0 {
		return -1, -1
	}
	return start, len(lines)
}

// compareState lists where STATE.md's Current Position disagrees with pos: the phase number, the
// plan counts and, when withProgress, the percent. Free-text fields (Status, names) are not
// compared: people write prose there.
func compareState(src []byte, pos Position, withProgress bool) []Difference {
	lines := splitLines(src)
	start, end := currentPosition(lines)
	phase, plan, _, progress := pos.Lines()
	want := map[string]string{"Phase": phase, "Plan": plan, "Progress": progress}
	seen := map[string]bool{}
	var diffs []Difference
	if start >= 0 {
		for i := start + 1; i < end; i++ {
			f, _, v, ok := fieldLabel(lines[i].text)
			if !ok || seen[f] {
				continue
			}
			seen[f] = true
			var agrees bool
			switch f {
			case "Phase":
				n, ok := leadingPhase(v)
				agrees = ok && n.String() == pos.Phase && (pos.PhaseOf == 0 || ofCount(v) == pos.PhaseOf || ofCount(v) < 0)
			case "Plan":
				// GSD writes either the plan being worked on (its state tool advances it when a
				// plan completes) or, in older prose, the last plan completed: both agree.
				a, b, ok := aOfB(v)
				agrees = ok && (a == pos.PlanNumber || a == pos.PlanDone) && b == pos.PlanTotal
			case "Progress":
				if !withProgress {
					continue
				}
				p, ok := percentOf(v)
				agrees = ok && p == pos.Percent
			default:
				continue
			}
			if !agrees {
				diffs = append(diffs, Difference{Field: strings.ToLower(f), Line: i + 1, Says: strings.TrimSpace(lines[i].text), Derived: want[f]})
			}
		}
	}
	if withProgress {
		diffs = append(diffs, compareFrontmatter(lines, pos)...)
	}
	for _, f := range []string{"Phase", "Plan", "Progress"} {
		if !seen[f] && (f != "Progress" || withProgress) && pos.Phase != "" {
			line := 0
			if start >= 0 {
				line = start + 1
			}
			diffs = append(diffs, Difference{Field: strings.ToLower(f), Line: line, Says: "no " + f + " line", Derived: want[f]})
		}
	}
	slices.SortStableFunc(diffs, func(a, b Difference) int { return a.Line - b.Line })
	return diffs
}

// compareFrontmatter reports, as one difference, the frontmatter progress numbers that disagree
// with pos.
func compareFrontmatter(lines []stateLine, pos Position) []Difference {
	var says, derived []string
	line := 0
	eachProgressField(lines, pos, func(i int, key string, got string, want int) {
		if got != strconv.Itoa(want) {
			if line == 0 {
				line = i + 1
			}
			says = append(says, key+": "+got)
			derived = append(derived, key+": "+strconv.Itoa(want))
		}
	})
	if line == 0 {
		return nil
	}
	return []Difference{{Field: "frontmatter", Line: line, Says: strings.Join(says, ", "), Derived: strings.Join(derived, ", ")}}
}

// leadingPhase parses the phase number at the start of a Phase value ("03 of 08 (Name)",
// "14 (User Sharing)", "04 — COMPLETE").
func leadingPhase(v string) (roadmap.PhaseNum, bool) {
	f := strings.Fields(v)
	if len(f) > 1 && strings.EqualFold(f[0], "phase") {
		f = f[1:] // "Phase 1 — Name", as "**Current Phase:**" lines put it
	}
	if len(f) == 0 {
		return roadmap.PhaseNum{}, false
	}
	return roadmap.ParsePhaseNum(strings.TrimRight(f[0], ",:;"))
}

// ofCount returns Y of "X of Y", or -1 when the value has no "of".
func ofCount(v string) int {
	f := strings.Fields(v)
	if len(f) >= 3 && f[1] == "of" {
		if n, err := strconv.Atoi(strings.TrimRight(f[2], ",:;")); err == nil {
			return n
		}
	}
	return -1
}

// aOfB parses "2 of 3 in current phase".
func aOfB(v string) (int, int, bool) {
	f := strings.Fields(v)
	if len(f) < 3 || f[1] != "of" {
		return 0, 0, false
	}
	a, err1 := strconv.Atoi(f[0])
	b, err2 := strconv.Atoi(strings.TrimRight(f[2], ",:;"))
	return a, b, err1 == nil && err2 == nil
}

// percentOf finds the "NN%" of a Progress value.
func percentOf(v string) (int, bool) {
	i := strings.IndexByte(v, '%')
	if i <= 0 {
		return 0, false
	}
	j := i
	for j > 0 && v[j-1] >= '0' && v[j-1] <= '9' {
		j--
	}
	n, err := strconv.Atoi(v[j:i])
	return n, err == nil
}

// RewriteState returns src with its Current Position lines (Phase, Plan, Status, Progress) and
// its frontmatter progress numbers set to pos. Each rewritten line keeps its label as written
// ("**Phase:**") and its line ending; missing fields are added after the last one present (or
// after the heading); a file without the section gets one at its end. Every other byte is kept.
func RewriteState(src []byte, pos Position) []byte {
	lines := splitLines(src)
	eol := "\n"
	if len(lines) > 0 && lines[0].eol != "" {
		eol = lines[0].eol
	}
	phase, plan, status, progress := pos.Lines()
	value := map[string]string{}
	for f, l := range map[string]string{"Phase": phase, "Plan": plan, "Status": status, "Progress": progress} {
		_, _, v, _ := fieldLabel(l)
		value[f] = v
	}
	rewriteFrontmatter(lines, pos)

	start, end := currentPosition(lines)
	if start < 0 {
		var b bytes.Buffer
		for _, l := range lines {
			b.WriteString(l.text)
			b.WriteString(l.eol)
		}
		if len(lines) > 0 && lines[len(lines)-1].eol == "" {
			b.WriteString(eol)
		}
		fmt.Fprintf(&b, "%s## Current Position%s%s", eol, eol, eol)
		for _, l := range []string{phase, plan, status} {
			b.WriteString(l + eol)
		}
		b.WriteString(eol + progress + eol)
		return b.Bytes()
	}
	seen := map[string]bool{}
	last := start + 1 // where missing fields go
	if last < end && strings.TrimSpace(lines[last].text) == "" {
		last++
	}
	for i := start + 1; i < end; i++ {
		f, label, _, ok := fieldLabel(lines[i].text)
		if !ok || seen[f] {
			continue
		}
		seen[f] = true
		lines[i].text = label + value[f]
		if f != "Progress" {
			last = i + 1
		}
	}
	var add []stateLine
	for _, f := range stateFields {
		if !seen[f] {
			add = append(add, stateLine{text: f + ": " + value[f], eol: eol})
		}
	}
	if len(add) > 0 {
		if last > 0 && lines[last-1].eol == "" {
			lines[last-1].eol = eol
		}
		lines = append(lines[:last], append(add, lines[last:]...)...)
	}
	var b bytes.Buffer
	for _, l := range lines {
		b.WriteString(l.text)
		b.WriteString(l.eol)
	}
	return b.Bytes()
}

// rewriteFrontmatter sets the numbers of a leading YAML frontmatter's progress map (total_phases,
// completed_phases, total_plans, completed_plans, percent), wherever they are indented; a
// trailing comment stays.
func rewriteFrontmatter(lines []stateLine, pos Position) {
	eachProgressField(lines, pos, func(i int, key string, got string, want int) {
		t := lines[i].text
		j := strings.Index(t, key+":") + len(key) + 1
		for j < len(t) && t[j] == ' ' {
			j++
		}
		lines[i].text = t[:j] + strconv.Itoa(want) + t[j+len(got):]
	})
}

// eachProgressField calls fn for each number of the frontmatter's progress map, with its line
// index, key, the number as written and the derived value.
func eachProgressField(lines []stateLine, pos Position, fn func(i int, key, got string, want int)) {
	if len(lines) == 0 || strings.TrimSpace(strings.TrimPrefix(lines[0].text, "\ufeff")) != "---" {
		return
	}
	nums := map[string]int{
		"total_phases": pos.PhasesTotal, "completed_phases": pos.PhasesDone,
		"total_plans": pos.PlansTotal, "completed_plans": pos.PlansDone, "percent": pos.Percent,
	}
	end := -1
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i].text) == "---" {
			end = i
			break
		}
	}
	inProgress := false
	for i := 1; i < end; i++ {
		t := lines[i].text
		trimmed := strings.TrimLeft(t, " \t")
		if len(trimmed) == len(t) {
			inProgress = strings.HasPrefix(trimmed, "progress:")
			continue
		}
		key, val, ok := strings.Cut(trimmed, ":")
		want, known := nums[key]
		if !inProgress || !ok || !known {
			continue
		}
		rest := strings.TrimLeft(val, " ")
		j := 0
		for j < len(rest) && (rest[j] >= '0' && rest[j] <= '9' || rest[j] == '.') {
			j++
		}
		fn(i, key, rest[:j], want)
	}
}

// NewState is a STATE.md in the shape of GSD's template, for a project that has none.
func NewState(pos Position, now time.Time) []byte {
	phase, plan, status, progress := pos.Lines()
	var b strings.Builder
	b.WriteString("# Project State\n\n")
	b.WriteString("## Project Reference\n\nSee: .planning/PROJECT.md\n\n")
	b.WriteString("## Current Position\n\n")
	for _, l := range []string{phase, plan, status} {
		b.WriteString(l + "\n")
	}
	b.WriteString("Last activity: " + now.UTC().Format("2006-01-02") + " — STATE.md reconstructed by gsd state --write\n\n")
	b.WriteString(progress + "\n\n")
	b.WriteString("## Session Continuity\n\nLast session: " + now.UTC().Format("2006-01-02 15:04") + "\nStopped at: unknown\nResume file: None\n")
	return []byte(b.String())
}

// cheapCurrent finds the current phase and its active plan for the STATE.md check without
// listing every phase: a valid session's plan is in the current phase (staleness checks that its
// phase is the one ROADMAP.md marks in progress), so only its directory is listed. Without a
// valid session, FindCurrent decides.
func (e *Env) cheapCurrent(res *Result) (*roadmap.Phase, *roadmap.Plan, error) {
	if res.Session != nil && (res.State == StateResume || res.State == StateAllComplete) {
		if plan, err := cleanRel(res.Plan); err == nil {
			if num, ok := roadmap.PhaseOf(plan); ok {
				plans, err := e.phasePlans(plan)
				if err != nil {
					return nil, nil, nil // reported by the session's own checks
				}
				ph := &roadmap.Phase{Num: num, Dir: roadmap.PhaseDirOf(plan), Plans: plans}
				for _, pl := range plans {
					if !pl.Done() {
						return ph, &pl, nil
					}
				}
				return ph, nil, nil
			}
		}
	}
	cur, err := roadmap.FindCurrent(e.FS, e.PlanningDir)
	if err != nil || cur == nil {
		return nil, nil, err
	}
	return &cur.Phase, cur.Active, nil
}

// syncState compares STATE.md with the current phase, cheaply: only ROADMAP.md and the current
// phase's directory are read (the Phase and Plan lines are checked, not the project-wide
// Progress, which would need every phase). With write, an out-of-date or missing STATE.md is
// rewritten from the whole project.
func (e *Env) syncState(res *Result, write bool) error {
	src, err := e.readState()
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		if write {
			return err
		}
		return nil // an unreadable STATE.md must not stop hydrate; gsd state reports it
	}
	if !missing {
		ph, active, err := e.cheapCurrent(res)
		if err != nil || ph == nil {
			return err
		}
		proj := &roadmap.Project{Phases: []roadmap.PhaseInfo{{Phase: *ph}}, Current: 0, Active: active}
		pos := DerivePosition(proj)
		pos.PhaseOf = 0 // not known without every phase; not compared
		res.StateDrift = compareState(src, pos, false)
	}
	if !write || !missing && len(res.StateDrift) == 0 {
		return nil
	}
	_, changed, err := e.WriteState()
	if err != nil {
		return err
	}
	res.StateSynced, res.StateDrift = changed, nil
	return nil
}
