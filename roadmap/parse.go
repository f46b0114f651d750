package roadmap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// Roadmap is what ROADMAP.md says about the project's phases.
type Roadmap struct {
	Path       string      // the file it was parsed from, relative to the project root
	Phases     []Entry     // one per phase number and milestone, in numeric order, then listed order
	Title      string      // the title of its first heading ("Roadmap: Finch" gives "Finch"), or ""
	Milestones []Milestone // every milestone it names, in the order it names them
	Problems   []Problem   // rows and lines it could not make sense of
}

// Entry is one phase as the roadmap describes it, merged from its checklist
// line, its detail heading and its progress table row.
type Entry struct {
	Num    PhaseNum
	Name   string
	Line   int // 1-based line of the phase's first mention
	Status Status

	Collapsed bool // every mention is inside a collapsed <details> block (a shipped milestone)
	Inserted  bool // marked "(INSERTED)" or with status Inserted
	// Disputed: the roadmap's own marks disagree on whether the phase is complete (a progress
	// table row "Complete" beside an unchecked checkbox): its Status is then no evidence of
	// its own, and the disk decides.
	Disputed bool
	// shared: another milestone lists a phase of the same number (it was started with
	// --reset-phase-numbers), so the number alone does not say which phase, nor which
	// directories are its own (see dirIndex.scope).
	shared bool

	// ClaimLine, when Disputed, is the line whose mark calls the phase complete, whatever its
	// Status (a checked box beside a row "In Progress" still claims it): ClaimTable, a progress
	// table row's Status cell; ClaimBox, a checklist line's "[x]"; else a heading's or checklist
	// line's "(complete)" mark. The mark to correct if the disk disagrees; 0 otherwise.
	ClaimLine  int
	ClaimTable bool
	ClaimBox   bool

	// What the progress table's plans cell says ("2/3", "0/TBD"): TableLine
	// is 0 when the phase has no row or the row has no plans column;
	// PlansTotal is -1 when the total is not a number.
	TableLine  int
	PlansDone  int
	PlansTotal int

	Order     int // the roadmap's listed order: 0 for the phase it names first
	Milestone int // index into Roadmap.Milestones of the milestone it belongs to; -1 for none
}

// facts is what the parts of the roadmap say about one phase beyond its Entry, kept while they
// are merged: the Entry itself is filled in place.
type facts struct {
	nameRank       uint8  // which source the name came from: higher is fuller
	table          Status // the progress table's Status cell
	mark           Status // an explicit "(In Progress)" / "(completed ...)" mark
	box            Status // the checklist checkbox
	markLine       int32  // the line of mark
	tableLine      int32  // the line of table (its row)
	boxLine        int32  // the line of box (its checklist line)
	milestone      int32  // the milestone whose section or <details> block first named it, -1
	tableMilestone int32  // 1 + the index in phaseTable.tableMilestones of its progress table row's Milestone cell, 0 for none
	lastLine       int32  // the line of its last mention
}

// phaseTable is the phases a roadmap names, as its lines are read: one Entry and its facts per
// phase number and milestone (see get), in the order the roadmap first names them.
type phaseTable struct {
	entries []Entry
	extra   []facts
	byNum   phaseIndex
	ms      *milestones
	// The Milestone cells of progress table rows: few tables have the column, so the facts
	// of every phase do not carry a string for it.
	tableMilestones []string
	// The later entries of a number (other milestones' phases of it), by its first entry: nil
	// unless some milestone reset the numbers, which few roadmaps do.
	same map[int][]int
}

// get returns the entry and facts of phase n, named on line l as name (in a progress table row
// whose Milestone cell says cell), making them at its first mention.
//
// A phase is a number within a milestone: a milestone started with /gsd-new-milestone
// --reset-phase-numbers lists phases 1, 2, 3 again, and they are its own, not the shipped
// milestone's. So a line in another milestone's section or <details> block than the one that
// named n first makes a phase of its own; a line in none (the progress table, a "Phase Details"
// section) names the phase of n that pick says.
func (t *phaseTable) get(n PhaseNum, l mdLine, name, cell string) (*Entry, *facts) {
	owner := int32(t.ms.owner())
	first, ok := t.byNum.lookup(n)
	i := first
	if ok {
		i = t.pick(first, owner, name, cell)
	}
	if i < 0 || !ok {
		i = len(t.entries)
		t.entries = append(t.entries, Entry{Num: n, Line: l.num, Collapsed: l.collapsed, Order: i})
		t.extra = append(t.extra, facts{milestone: -1})
		if !ok {
			t.byNum.store(n, i)
		} else {
			if t.same == nil {
				t.same = map[int][]int{}
			}
			t.same[first] = append(t.same[first], i)
		}
	}
	e, f := &t.entries[i], &t.extra[i]
	f.lastLine = int32(l.num)
	if f.milestone < 0 {
		f.milestone = owner
	}
	e.Collapsed = e.Collapsed && l.collapsed
	return e, f
}

// pick chooses, among the phases of one number (first is the first of them), the one a line
// owned by milestone owner (-1 for none) names, or -1 for a new one.
func (t *phaseTable) pick(first int, owner int32, name, cell string) int {
	if m := t.extra[first].milestone; t.same == nil && (owner < 0 || m < 0 || m == owner) {
		return first // one phase of that number: every roadmap that does not reset numbers
	}
	if owner >= 0 {
		// The owner's own phase of n, else one no milestone has claimed yet, else a new one.
		unclaimed := -1
		for _, i := range t.numbered(first) {
			switch m := t.extra[i].milestone; {
			case m == owner:
				return i
			case m < 0 && unclaimed < 0:
				unclaimed = i
			}
		}
		return unclaimed
	}
	// A line outside every milestone about a number several list: the phase of the milestone
	// its Milestone cell names, else the one of its name, else the last listed.
	c := cellKey(cell)
	named, last := -1, first
	for _, i := range t.numbered(first) {
		if m := t.extra[i].milestone; c != "" && m >= 0 && t.ms.list[m].namedBy(c) {
			return i
		}
		if named < 0 && sameName(t.entries[i].Name, name) {
			named = i
		}
		last = i
	}
	if named >= 0 {
		return named
	}
	return last
}

// numbered is the entries of first's number: first, then the later ones.
func (t *phaseTable) numbered(first int) []int {
	return append([]int{first}, t.same[first]...)
}

// sameName reports whether two mentions name one phase: the same name, or one a fuller spelling
// of the other ("Auth - Login Flow" of "Auth").
func sameName(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	return a != "" && (strings.EqualFold(a, b) || len(b) > len(a) && b[len(a)] == ' ' && strings.EqualFold(a, b[:len(a)]))
}

// tableMilestone returns f's progress table Milestone cell, "" for none.
func (t *phaseTable) tableMilestone(f *facts) string {
	if f.tableMilestone == 0 {
		return ""
	}
	return t.tableMilestones[f.tableMilestone-1]
}

const (
	nameFromTable = iota + 1
	nameFromHeading
	nameFromChecklist
)

// ParseRoadmap reads the phases out of a ROADMAP.md. It never fails: lines it
// does not understand are skipped, and an empty or unrelated file gives a
// roadmap without phases.
//
// A phase's status comes from, in order of precedence: its progress table row
// (GSD rewrites the table on every completed plan, so it is the freshest); an
// explicit status mark on its checklist line or heading ("(In Progress)",
// "(completed 2026-01-05)"); its checkbox ("[x]" complete, "[ ]" not started,
// or inserted when marked "(INSERTED)"); and finally, for a phase mentioned
// only inside a collapsed <details> block, complete, since GSD collapses
// shipped milestones. Fenced code and HTML comments are ignored.
func ParseRoadmap(path string, src []byte) *Roadmap { return parseRoadmap(path, string(src)) }

// parseRoadmap is ParseRoadmap on the file's text: every name in the result is a slice of it.
func parseRoadmap(path string, src string) *Roadmap {
	lines := newLineScanner(src)
	// A line names at most one new phase, so room for as many phases as lines never has to
	// grow: the entries are built in place, in the order the roadmap names them, and become
	// Roadmap.Phases without a copy. (Memory a process never touches costs it nothing: a
	// roadmap of prose and few phases leaves most of it untouched.)
	maxLines := strings.Count(src, "\n") + 1
	t := &phaseTable{
		entries: make([]Entry, 0, maxLines),
		extra:   make([]facts, 0, maxLines),
		// Phases are numbered densely, at most one a line: the index is sized once, by make,
		// whose fresh memory (unlike a grown slice's) is not cleared where it is never used.
		byNum: phaseIndex{plain: make([]int32, min(maxLines+1, maxPlainIndex))},
		ms:    newMilestones(),
	}
	ms := t.ms

	r := &Roadmap{Path: path}
	title := ""
	for l, ok := lines.Next(); ok; l, ok = lines.Next() {
		if strings.Contains(l.text, "|") {
			if next, ok := lines.Peek(); ok && isDelimiterRow(next.text) {
				lines.Next()
				parseTable(r, l, lines, t)
				continue
			}
		}
		if ms.observe(l) {
			continue
		}
		if boxChar, rest, ok := matchChecklist(l.text); ok {
			n, name, marks, ok := phaseRef(rest)
			if !ok {
				continue
			}
			e, f := t.get(n, l, name, "")
			mention(e, f, name, nameFromChecklist, marks, l.num)
			box := StatusNotStarted
			switch {
			case boxChar != " ":
				box = StatusComplete
			case marks.inserted:
				box = StatusInserted
			}
			if f.box == StatusUnknown {
				f.box, f.boxLine = box, int32(l.num)
			}
			continue
		}
		if text, ok := matchHeading(l.text); ok {
			if strings.HasPrefix(strings.TrimSpace(l.text), "# ") && title != "" && indexFold(text, "roadmap") >= 0 {
				// A second roadmap in the file: the one above it is history (see supersede).
				ms.supersede(l.num, title)
			}
			if title == "" && strings.HasPrefix(strings.TrimSpace(l.text), "# ") {
				title = text
				if _, after, ok := strings.Cut(text, ":"); ok && strings.Contains(strings.ToLower(text[:len(text)-len(after)]), "roadmap") {
					title = after
				}
				title = cleanName(cutDescription(title))
			}
			n, name, marks, ok := phaseRef(text)
			if !ok {
				continue
			}
			e, f := t.get(n, l, name, "")
			mention(e, f, name, nameFromHeading, marks, l.num)
		}
	}

	r.Milestones = ms.finish()
	entries := t.entries
	for i := range entries {
		e, f := &entries[i], &t.extra[i]
		if f.milestone < 0 {
			// A phase only an earlier roadmap of the file names is that roadmap's.
			if m := ms.earlierRoadmap(int(f.lastLine), &r.Milestones); m >= 0 {
				f.milestone = int32(m)
			}
		}
		e.Status = f.status(e.Collapsed)
		e.Disputed = f.disputed()
		if e.Disputed {
			switch {
			case f.table == StatusComplete:
				e.ClaimTable, e.ClaimLine = true, int(f.tableLine)
			case f.mark == StatusComplete:
				e.ClaimLine = int(f.markLine)
			case f.box == StatusComplete:
				e.ClaimBox, e.ClaimLine = true, int(f.boxLine)
			}
		}
		e.Inserted = e.Inserted || e.Status == StatusInserted
		e.Milestone = r.milestoneOf(e, f, t.tableMilestone(f))
		if e.Milestone >= 0 {
			r.Milestones[e.Milestone].Phases = append(r.Milestones[e.Milestone].Phases, e.Num)
		}
	}
	r.Phases = slices.Clip(entries)
	r.Title = title
	// Numbers tie only where milestones share them; most roadmaps list phases in numeric order
	// already.
	if !slices.IsSortedFunc(r.Phases, byNumber) {
		slices.SortFunc(r.Phases, byNumber)
	}
	for i := 1; t.same != nil && i < len(r.Phases); i++ {
		if r.Phases[i].Num.Equal(r.Phases[i-1].Num) {
			r.Phases[i].shared, r.Phases[i-1].shared = true, true
		}
	}
	return r
}

// byNumber orders entries by number, then (several milestones' phases of one number) in the
// roadmap's listed order.
func byNumber(a, b Entry) int {
	if c := a.Num.Compare(b.Num); c != 0 {
		return c
	}
	return cmp.Compare(a.Order, b.Order)
}

// phaseIndex finds a phase's entry by number. Most roadmaps number their phases 1, 2, 3...:
// those are found by indexing a slice, without hashing; the rest ("3.1", "E73", "16A") by a map.
type phaseIndex struct {
	plain []int32 // 1 + the entry's index, by number, for numbers of one segment without prefix or suffix
	other map[phaseKey]int
}

// maxPlainIndex bounds the numbers kept in phaseIndex.plain: a roadmap's phases are numbered
// densely, and a stray "Phase 20260105" must not cost a slice of that length.
const maxPlainIndex = 1 << 14

// lookup returns the index of n's entry; ok is false before its first mention.
func (x *phaseIndex) lookup(n PhaseNum) (int, bool) {
	if k, ok := plainIndex(n); ok {
		if k < len(x.plain) && x.plain[k] > 0 {
			return int(x.plain[k]) - 1, true
		}
		return 0, false
	}
	i, ok := x.other[n.Key()]
	return i, ok
}

// store records i as the index of n's entry.
func (x *phaseIndex) store(n PhaseNum, i int) {
	if k, ok := plainIndex(n); ok {
		if k >= len(x.plain) {
			x.plain = slices.Grow(x.plain, k+1-len(x.plain))
			x.plain = x.plain[:cap(x.plain)]
		}
		x.plain[k] = int32(i) + 1
		return
	}
	if x.other == nil {
		x.other = make(map[phaseKey]int)
	}
	x.other[n.Key()] = i
}

// plainIndex is n's index in phaseIndex.plain, when n is kept there.
func plainIndex(n PhaseNum) (int, bool) {
	if k, ok := n.Plain(); ok && k >= 0 && k < maxPlainIndex {
		return k, true
	}
	return 0, false
}

// milestoneOf decides which milestone a phase belongs to: the one whose section or <details>
// block first named it; else the one whose range holds it (the last one not shipped, where
// several do); else the one its progress table row names (cell); -1 when none does.
func (r *Roadmap) milestoneOf(e *Entry, f *facts, cell string) int {
	if f.milestone >= 0 {
		return int(f.milestone)
	}
	// The first milestone whose range holds it; where ranges overlap (the numbers restarted:
	// v4.0 is "Phases 1-6", v4.1 "Phases 7-11", v1.0 was "Phases 1-8"), the last one not shipped,
	// whose phases the roadmap lists while the shipped ones' are archived.
	in := -1
	for i := range r.Milestones {
		if m := &r.Milestones[i]; m.Contains(e.Num) {
			if in < 0 || !m.Shipped() {
				in = i
			}
		}
	}
	if in >= 0 {
		return in
	}
	if c := cellKey(cell); c != "" {
		for i := range r.Milestones {
			if r.Milestones[i].namedBy(c) {
				return i
			}
		}
	}
	return -1
}

// cellKey is a progress table's Milestone cell as namedBy compares it.
func cellKey(cell string) string { return strings.ToLower(strings.Trim(cell, " *_`")) }

// namedBy reports whether c, a Milestone cell's cellKey, names m ("v1.0" and "v1.0 MVP" name
// v1.0).
func (m *Milestone) namedBy(c string) bool {
	k := m.key
	return k != "" && c != "" && (k == c || strings.HasPrefix(c, k+" ") || strings.Contains(k, c))
}

// Listed returns the phases of milestone i (every phase when i < 0) in the roadmap's listed
// order, which is the order of execution GSD users write them in; it can differ from numeric
// order.
func (r *Roadmap) Listed(i int) []Entry {
	if r == nil {
		return nil
	}
	byOrder := func(a, b Entry) int { return cmp.Compare(a.Order, b.Order) } // orders are unique
	if i < 0 && slices.IsSortedFunc(r.Phases, byOrder) {
		return slices.Clip(r.Phases) // listed in numeric order: no copy (a thousand phases is 150 KB)
	}
	var out []Entry
	for _, e := range r.Phases {
		if i < 0 || e.Milestone == i {
			out = append(out, e)
		}
	}
	if !slices.IsSortedFunc(out, byOrder) {
		slices.SortFunc(out, byOrder)
	}
	return out
}

// mention records a checklist line or heading (line) naming the phase: its name (ranked by
// where it came from) and what its parenthesised marks say; the first explicit mark wins.
func mention(e *Entry, f *facts, name string, rank int, marks phaseMarks, line int) {
	setName(e, f, name, rank)
	e.Inserted = e.Inserted || marks.inserted
	if marks.status != StatusUnknown && f.mark == StatusUnknown {
		f.mark, f.markLine = marks.status, int32(line)
	}
}

func setName(e *Entry, f *facts, name string, rank int) {
	// A fuller spelling of the same name wins over a rank: "Auth - Login Flow" from a table
	// cell over "Auth" cut from a heading's description.
	fuller := e.Name != "" && len(name) > len(e.Name) && strings.HasPrefix(name, e.Name+" ")
	if name != "" && (rank > int(f.nameRank) || fuller) {
		e.Name, f.nameRank = name, uint8(max(rank, int(f.nameRank)))
	}
}

// status merges what the parts say about the phase's status, in order of precedence; a phase
// mentioned only inside collapsed blocks is complete.
func (f *facts) status(collapsed bool) Status {
	for _, s := range []Status{f.table, f.mark, f.box} {
		if s != StatusUnknown {
			return s
		}
	}
	if collapsed {
		return StatusComplete
	}
	return StatusUnknown
}

// disputed reports whether the parts disagree on whether the phase is complete: one calls it
// complete, another not started, planned or in progress.
func (f *facts) disputed() bool {
	var complete, open bool
	for _, s := range []Status{f.table, f.mark, f.box} {
		switch s {
		case StatusComplete:
			complete = true
		case StatusNotStarted, StatusPlanned, StatusInProgress:
			open = true
		}
	}
	return complete && open
}

// indexFold is strings.Index ignoring ASCII case, for an ASCII sub; indexes
// stay valid in s whatever else s holds.
func indexFold(s, sub string) int {
	if sub == "" {
		return 0
	}
	c := sub[0]
	lo, up := c|0x20, c&^0x20 // both cases of an ASCII letter; other bytes are their own case
	if c < 'A' || c > 'z' || c > 'Z' && c < 'a' {
		lo, up = c, c
	}
	if lo == up {
		// The first byte has one case ('<' of "<summary"): jump from one to the next.
		for i := 0; i+len(sub) <= len(s); {
			j := strings.IndexByte(s[i:], lo)
			if j < 0 || i+j+len(sub) > len(s) {
				return -1
			}
			if strings.EqualFold(s[i+j:i+j+len(sub)], sub) {
				return i + j
			}
			i += j + 1
		}
		return -1
	}
	for i := 0; i+len(sub) <= len(s); i++ {
		// Only where the first byte matches is the whole compared: most lines hold no match.
		if b := s[i]; (b == lo || b == up) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// hasVersion reports whether s has a version such as "v1.1".
func hasVersion(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if versionAt(s, i) > i {
			return true
		}
	}
	return false
}

// versionAt returns the end of the version starting at lower[i] ("v1.9.0", and a lettered
// series' "ve.2.1" of "vE.2.1"), or i when none starts there.
func versionAt(lower string, i int) int {
	if lower[i] != 'v' || i > 0 && isLetter(lower[i-1]) {
		return i
	}
	j := i + 1
	if j+2 < len(lower) && isLetter(lower[j]) && lower[j+1] == '.' && isDigit(lower[j+2]) {
		j += 2
	}
	if j >= len(lower) || !isDigit(lower[j]) {
		return i
	}
	for j < len(lower) && (isDigit(lower[j]) || lower[j] == '.' && j+1 < len(lower) && isDigit(lower[j+1])) {
		j++
	}
	return j
}

// phaseMarks is what the parenthesised groups of a checklist line or heading
// say: "(INSERTED)" is recorded apart from the status because an inserted
// phase can be complete.
type phaseMarks struct {
	status   Status
	inserted bool
}

// phaseRef parses "Phase 3.1: Name (INSERTED) - description" at the start of
// s, after optional bold markers or symbols.
func phaseRef(s string) (PhaseNum, string, phaseMarks, bool) {
	end := phaseWordEnd(s)
	if end < 0 {
		return PhaseNum{}, "", phaseMarks{}, false
	}
	bold := strings.Contains(s[:end], "**") || strings.Contains(s[:end], "__")
	n, rest, ok := parsePhasePrefix(s[end:])
	if !ok {
		return PhaseNum{}, "", phaseMarks{}, false
	}
	var marks phaseMarks
	for _, group := range parenGroups(rest) {
		switch st := ParseStatus(group); st {
		case StatusUnknown:
		case StatusInserted:
			marks.inserted = true
		default:
			if marks.status == StatusUnknown {
				marks.status = st
			}
		}
	}
	name := trimNameLead(rest)
	described := true // the name may be followed by " - description"
	if bold {
		// "**Phase 1: Name** - desc", where the emphasis holds the whole name (which may
		// itself contain " - "), or "**Phase 1:** Name - desc" where it closes before it.
		for _, em := range []string{"**", "__"} {
			if rest, ok := strings.CutPrefix(name, em); ok {
				name = trimNameLead(rest)
				break
			}
			if i := strings.Index(name, em); i >= 0 {
				name, described = name[:i], false
				break
			}
		}
	}
	if described {
		name = cutDescription(name)
	}
	if i := strings.Index(name, "✅"); i >= 0 {
		// "Phase 10: Testing ✅ COMPLETED": the check mark GSD gives shipped work is a mark,
		// not part of the name.
		if marks.status == StatusUnknown {
			marks.status = StatusComplete
		}
		name = name[:i]
	}
	return n, cleanName(name), marks, true
}

// cleanName trims a phase name taken from a checklist line, heading or table
// cell: the description after a dash, trailing "(...)" groups and emphasis.
func cleanName(s string) string {
	if plainName(s) {
		return s // "Phase 12", "Foundation": most names need nothing done
	}
	s = strings.Trim(s, " \t*_")
	for strings.HasSuffix(s, ")") {
		i := strings.LastIndexByte(s, '(')
		if i < 0 {
			break
		}
		s = strings.TrimRight(s[:i], " \t")
	}
	s = strings.Trim(s, " \t*_:.-—–")
	for i := 0; i < len(s); i++ {
		// Squeeze runs of space only where there are any: most names have none.
		if c := s[i]; c == '\t' || c >= 0x80 || c == ' ' && i+1 < len(s) && s[i+1] == ' ' {
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// plainName reports whether cleanName would return s as it is: ASCII letters, digits and single
// inner spaces, ending in a letter or digit.
func plainName(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && (c != ' ' || s[i-1] == ' ') {
			return false
		}
	}
	return true
}

// cutDescription cuts the description off a checklist line or heading's name: "Auth - the
// login flow" is "Auth". A name in bold or in a table cell is not cut: it may hold " - ".
func cutDescription(s string) string {
	for _, sep := range []string{" - ", " — ", " – ", " -- "} {
		if i := strings.Index(s, sep); i >= 0 {
			s = s[:i]
		}
	}
	return s
}

// trimCell trims the blanks and emphasis around a table cell: what strings.Trim(s, " \t*_`")
// trims, without building the cut set on every cell of every row.
func trimCell(s string) string {
	if n := len(s); n > 0 && !isCellPad(s[0]) && !isCellPad(s[n-1]) {
		return s
	}
	i, j := 0, len(s)
	for i < j && isCellPad(s[i]) {
		i++
	}
	for j > i && isCellPad(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isCellPad(c byte) bool { return c == ' ' || c == '\t' || c == '*' || c == '_' || c == '`' }

// trimNameLead trims what separates a phase number from its name: what
// strings.TrimLeft(s, ".: \t-—–") trims, without decoding runes.
func trimNameLead(s string) string {
	for s != "" {
		switch c := s[0]; {
		case c == '.' || c == ':' || c == ' ' || c == '\t' || c == '-':
			s = s[1:]
		case strings.HasPrefix(s, "—") || strings.HasPrefix(s, "–"): // both three bytes long
			s = s[len("—"):]
		default:
			return s
		}
	}
	return s
}

// isDelimiterRow reports whether line is a table's header delimiter row such
// as "|---|:---:|".
func isDelimiterRow(line string) bool {
	t := strings.TrimSpace(line)
	if !strings.Contains(t, "-") || !strings.Contains(t, "|") {
		return false
	}
	return strings.Trim(t, "|-: \t") == ""
}

// splitRow splits a table row into trimmed cells; the outer pipes are
// optional and a missing space before a pipe ("In Progress|") is fine.
func splitRow(line string) []string { return splitRowInto(nil, line) }

// splitRowInto is splitRow reusing cells' storage, for the rows of one table.
func splitRowInto(cells []string, line string) []string {
	t := trimSpace(line)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	cells = cells[:0]
	for {
		i := strings.IndexByte(t, '|')
		if i < 0 {
			return append(cells, trimSpace(t))
		}
		cells = append(cells, trimSpace(t[:i]))
		t = t[i+1:]
	}
}

// trimSpace is strings.TrimSpace, quicker for a table cell's usual padding of spaces and tabs.
// The commonest cell, " text " around printable ASCII, is answered by its first test.
func trimSpace(s string) string {
	n := len(s)
	if n > 0 && s[0]-'!' < 0x5f && s[n-1]-'!' < 0x5f { // '!' to DEL at both ends: trimmed already
		return s
	}
	if n > 2 && s[0] == ' ' && s[n-1] == ' ' && s[1]-'!' < 0x5f && s[n-2]-'!' < 0x5f {
		return s[1 : n-1]
	}
	return trimSpaceSlow(s)
}

func trimSpaceSlow(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	s = s[i:j]
	if s != "" && (s[0] < ' ' || s[0] >= 0x80 || s[len(s)-1] < ' ' || s[len(s)-1] >= 0x80) {
		return strings.TrimSpace(s) // another space character, ASCII or not, may follow
	}
	return s
}

// parseTable reads the rows of the table whose header is head, its delimiter row already read,
// leaving the first line after the table unread. Only tables with both a Phase and a Status
// column count; the columns are found by name, so their order and number do not matter. Rows
// it cannot read, and rows whose cells are shifted, are recorded as problems of r.
func parseTable(r *Roadmap, head mdLine, lines *lineScanner, t *phaseTable) {
	header := splitRow(head.text)
	var cells []string
	phaseCol, statusCol, plansCol := tableColumns(header)
	msCol := -1
	for c, h := range header {
		if strings.HasPrefix(strings.ToLower(strings.Trim(h, " *_`")), "milestone") {
			msCol = c
			break
		}
	}
	problem := func(line int, format string, args ...any) {
		r.Problems = append(r.Problems, Problem{Severity: SeverityWarning, File: r.Path, Line: line, Message: fmt.Sprintf(format, args...)})
	}
	for {
		l, ok := lines.Peek()
		if !ok || !strings.Contains(l.text, "|") {
			return
		}
		lines.Next()
		if phaseCol < 0 || statusCol < 0 {
			continue
		}
		cells = splitRowInto(cells, l.text)
		if phaseCol >= len(cells) {
			problem(l.num, "progress table row has no phase cell; row ignored")
			continue
		}
		n, name, ok := phaseCell(cells[phaseCol])
		if !ok && (isRangeCell(cells[phaseCol]) || hasVersion(strings.ToLower(cells[phaseCol]))) {
			// "1-8 | v1.0 | Complete", "v1.6 (Phases 1-31)", "**vE.2.1**": a milestone's row (a
			// shipped one's summary, or the heading of its phases' rows), not a phase.
			continue
		}
		if !ok {
			if strings.Trim(strings.Join(cells, ""), " -—–:") != "" {
				problem(l.num, "progress table row: cannot read phase %s; row ignored", textfmt.Quote(cells[phaseCol]))
			}
			continue
		}
		st, moved := rowStatus(cells, len(header), phaseCol, statusCol)
		shifted := len(cells) != len(header) || moved
		done, total, plansOK := -1, -1, false
		if plansCol >= 0 && plansCol < len(cells) {
			done, total, plansOK = plansCell(cells[plansCol])
		}
		if !plansOK && shifted {
			for c, cell := range cells {
				if c != phaseCol && c != statusCol {
					if done, total, plansOK = plansCell(cell); plansOK {
						break
					}
				}
			}
		}
		switch {
		case len(cells) != len(header):
			problem(l.num, "progress table row for phase %s has %d cells, the header %d; read as best it could be", n, len(cells), len(header))
		case moved:
			says := "is empty"
			if c := cells[statusCol]; !blankCell(c) {
				says = "says " + textfmt.Quote(c)
			}
			problem(l.num, "progress table row for phase %s has its cells shifted (its Status cell %s); read as best it could be", n, says)
		case st == StatusUnknown && statusCol < len(cells) && !blankCell(cells[statusCol]):
			problem(l.num, "progress table row for phase %s: unknown status %s", n, textfmt.Quote(cells[statusCol]))
		}
		cell := ""
		if msCol >= 0 && msCol < len(cells) {
			cell = cells[msCol]
		}
		e, f := t.get(n, l, name, cell)
		if cell != "" && f.tableMilestone == 0 {
			t.tableMilestones = append(t.tableMilestones, cell)
			f.tableMilestone = int32(len(t.tableMilestones))
		}
		setName(e, f, name, nameFromTable)
		if f.table == StatusUnknown {
			f.table, f.tableLine = st, int32(l.num)
		}
		if plansOK && e.TableLine == 0 {
			e.TableLine, e.PlansDone, e.PlansTotal = l.num, done, total
		}
	}
}

// isRangeCell reports whether a phase cell holds a range of phases ("1-8", "Phases 11–17").
func isRangeCell(cell string) bool {
	first, last := phaseRange("phases " + strings.ToLower(strings.TrimPrefix(strings.ToLower(strings.Trim(cell, " \t*_`")), "phases ")))
	return !first.IsZero() && !last.IsZero()
}

// rowStatus reads a progress table row's status. A row with a missing or
// extra cell has its columns shifted: when its status cell says nothing, the
// one cell that reads as a status is taken. A row with as many cells as the
// header can be shifted too (a cell left out, an empty one added at the end):
// when its status cell is empty or holds another column's kind of value (a
// date, a plans count) and exactly one other cell reads as a status, that one is
// taken, and moved says so.
func rowStatus(cells []string, headerLen, phaseCol, statusCol int) (st Status, moved bool) {
	st = StatusUnknown
	if statusCol < len(cells) {
		st = ParseStatus(cells[statusCol])
	}
	if st != StatusUnknown {
		return st, false
	}
	if len(cells) != headerLen {
		for c, cell := range cells {
			if c != phaseCol {
				if s := ParseStatus(cell); s != StatusUnknown {
					return s, false
				}
			}
		}
		return st, false
	}
	if statusCol >= len(cells) || !otherColumns(cells[statusCol]) && !blankCell(cells[statusCol]) {
		return st, false
	}
	found := StatusUnknown
	for c, cell := range cells {
		if c == phaseCol || c == statusCol {
			continue
		}
		if s := ParseStatus(cell); s != StatusUnknown {
			if found != StatusUnknown {
				return st, false // two cells read as statuses: no telling which
			}
			found = s
		}
	}
	return found, found != StatusUnknown
}

// blankCell reports whether a table cell says nothing: empty, or a dash.
func blankCell(cell string) bool { return strings.Trim(cell, " -—–") == "" }

// otherColumns reports whether a cell holds what a progress table's other columns do rather
// than a status: a date ("2026-03-17") or a plans count ("2/3").
func otherColumns(cell string) bool {
	c := trimCell(cell)
	if _, _, ok := plansCell(c); ok {
		return true
	}
	return statemd.LeadingDate(c) != ""
}

// tableColumns finds a table header's Phase, Status and Plans columns (-1
// when absent).
func tableColumns(header []string) (phaseCol, statusCol, plansCol int) {
	phaseCol, statusCol, plansCol = -1, -1, -1
	for c, h := range header {
		h = strings.ToLower(strings.Trim(h, " *_`"))
		switch {
		case phaseCol < 0 && strings.HasPrefix(h, "phase"):
			phaseCol = c
		case statusCol < 0 && strings.HasPrefix(h, "status"):
			statusCol = c
		case plansCol < 0 && strings.HasPrefix(h, "plans"):
			plansCol = c
		}
	}
	return phaseCol, statusCol, plansCol
}

// plansCell parses a progress table's plans cell: "2/3", "0/TBD", "0/?",
// "4/4 (13-05 deferred)". total is -1 when it is not a number.
func plansCell(cell string) (done, total int, ok bool) {
	c := trimCell(cell)
	slash := strings.IndexByte(c, '/')
	if slash < 0 {
		return 0, 0, false
	}
	a, b := trimSpace(c[:slash]), trimSpace(c[slash+1:])
	a = strings.TrimPrefix(a, "+") // "+2"
	d, n, ok := segment(a)
	if !ok || n != len(a) {
		return 0, 0, false // a done count too long to be one is no count, as a total is not
	}
	t, _, ok := segment(b) // "4 (13-05 deferred)" is 4
	if !ok {
		return d, -1, true
	}
	return d, t, true
}

// phaseCell parses a progress table's phase cell: "1. Foundation",
// "3.1 Name", "4.1. Name", "01 Foundation", optionally "Phase 1: Name" or bold.
func phaseCell(cell string) (PhaseNum, string, bool) {
	n, rest, ok := phaseCellPrefix(cell)
	if !ok {
		return PhaseNum{}, "", false
	}
	return n, cleanName(trimNameLead(rest)), true
}

// phaseCellPrefix parses the phase number of a phase cell and returns what
// follows it.
func phaseCellPrefix(cell string) (PhaseNum, string, bool) {
	c := trimCell(cell)
	if len(c) > 6 && c[0]|0x20 == 'p' && strings.EqualFold(c[:5], "phase") && (c[5] == ' ' || c[5] == '\t') {
		c = strings.TrimLeft(c[6:], " \t")
	}
	n, rest, ok := parsePhasePrefix(c)
	if !ok {
		return PhaseNum{}, "", false
	}
	if rest != "" && !separatesName(rest) {
		return PhaseNum{}, "", false
	}
	if len(rest) > 1 && rest[0] == '-' && isDigit(rest[1]) {
		return PhaseNum{}, "", false // a date such as 2026-01-05, not "1 - Name"
	}
	return n, rest, true
}

// separatesName reports whether rest, what follows a phase number, starts with one of " \t.:-—–".
func separatesName(rest string) bool {
	switch rest[0] {
	case ' ', '\t', '.', ':', '-':
		return true
	}
	return strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–")
}
