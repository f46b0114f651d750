package roadmap

import (
	"fmt"
	"path"
	"strings"
	"unicode"
)

// Milestone is one milestone as ROADMAP.md names it: in its "## Milestones" list, as a heading
// over its phases ("### 🚧 v1.1 Search (In Progress)"), or as the summary of the collapsed
// <details> block GSD folds a shipped milestone into.
type Milestone struct {
	Name       string
	Line       int    // the first line naming it
	Status     Status // StatusComplete (shipped), StatusInProgress, StatusPlanned or StatusUnknown
	StatusLine int    // the line its status comes from
	StatusText string // that line, trimmed, as evidence
	// First and Last are the range its text gives ("Phases 54-59"); zero when it gives none.
	First, Last PhaseNum
	Collapsed   bool       // named by the summary of a <details> block (GSD's shipped form)
	Phases      []PhaseNum // its phases, in the order the roadmap lists them
	key         string
	roadmap     int // which roadmap of the file last named it (see milestones.supersede)
}

// Shipped reports whether the milestone is history.
func (m *Milestone) Shipped() bool { return m.Status == StatusComplete }

// archives reports whether dir, a phase directory archived under milestones/<version>-phases/,
// is one of the milestone's: its version is the milestone's, or a word of its name.
func (m *Milestone) archives(dir string) bool {
	v, ok := strings.CutSuffix(path.Base(path.Dir(dir)), "-phases")
	if !ok || v == "" {
		return false
	}
	v = strings.ToLower(v)
	if v == m.key {
		return true
	}
	name := strings.ToLower(m.Name)
	for i := 0; ; {
		j := strings.Index(name[i:], v)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(v)
		if (at == 0 || !versionByte(name[at-1])) && (end == len(name) || !versionByte(name[end])) {
			return true
		}
		i = at + 1
	}
}

// versionByte reports whether c can continue a version ("v1.0" is not a word of "v1.0.1").
func versionByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '.' }

// Contains reports whether n is in the milestone's range ("Phases 11-17" holds 11, 11.1 and
// 17.2; not 18).
func (m *Milestone) Contains(n PhaseNum) bool {
	if m.First.IsZero() || n.Prefix() != m.First.Prefix() {
		return false
	}
	last := m.Last
	if last.IsZero() {
		last = m.First
	}
	top, ok := last.Int()
	v, vok := n.Int()
	if !ok || !vok {
		return n.Compare(m.First) >= 0 && n.Compare(last) <= 0
	}
	return n.Compare(m.First) >= 0 && v <= top
}

// milestones tracks, line by line, which milestone owns what the roadmap says next: the one
// whose heading section the line is in, or the one whose <details> block it is in.
type milestones struct {
	list         []*Milestone
	section      int // the milestone whose heading section we are in, -1
	sectionLevel int
	inList       bool // inside a "## Milestones" section, whose bullets each name one
	listLevel    int
	details      int // the milestone of the <details> block we are in, -1
	// The roadmaps of a file that holds several (a shipped milestone's whole roadmap left at
	// the top, the new one below under its own "# Roadmap: ..." title): where each later one
	// begins, and the title of the one it follows.
	later     []int
	titles    []string
	synthetic []int // per earlier roadmap, the index of the milestone standing for it, -1
}

func newMilestones() *milestones { return &milestones{section: -1, details: -1} }

// owner is the milestone that owns the current line, -1 for none.
func (ms *milestones) owner() int {
	if ms.details >= 0 {
		return ms.details
	}
	return ms.section
}

// observe updates the context with line l and reports whether l named a milestone (and so
// names no phase).
func (ms *milestones) observe(l mdLine) bool {
	if !l.collapsed {
		ms.details = -1
	}
	if text, level, ok := headingLevel(l.text); ok {
		if ms.section >= 0 && level <= ms.sectionLevel {
			ms.section = -1
		}
		if ms.inList && level <= ms.listLevel {
			ms.inList = false
		}
		if strings.EqualFold(strings.Trim(text, " \t*_:"), "milestones") {
			ms.inList, ms.listLevel = true, level
			return true
		}
		if level == 1 {
			return false // the document's title, not a milestone
		}
		if m, ok := parseMilestone(text, false); ok {
			i := ms.add(m, l)
			ms.section, ms.sectionLevel = i, level
			return true
		}
		return false
	}
	if i := indexFold(l.text, "<summary"); i >= 0 {
		t := l.text[i:]
		if j := strings.IndexByte(t, '>'); j >= 0 {
			t = t[j+1:]
		}
		if j := indexFold(t, "</summary"); j >= 0 {
			t = t[:j]
		}
		if m, ok := parseMilestone(t, false); ok {
			m.Collapsed = l.collapsed
			ms.details = ms.add(m, l)
			return true
		}
		return false
	}
	if ms.inList {
		if _, _, ok := matchChecklist(l.text); ok {
			return false
		}
		t := strings.TrimSpace(l.text)
		if len(t) > 2 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ' {
			if m, ok := parseMilestone(t[2:], true); ok {
				ms.add(m, l)
				return true
			}
		}
	}
	return false
}

// add records m, merging it with a milestone of the same key named earlier (the list entry and
// the heading of one milestone), and returns its index.
func (ms *milestones) add(m Milestone, l mdLine) int {
	m.Line = l.num
	if m.Status != StatusUnknown {
		m.StatusLine, m.StatusText = l.num, strings.TrimSpace(l.text)
	}
	m.roadmap = len(ms.later)
	for i, o := range ms.list {
		if o.key != m.key {
			continue
		}
		if o.roadmap < m.roadmap && m.Status != StatusUnknown {
			// A later roadmap's word on a milestone is newer than an earlier one's.
			o.Status, o.StatusLine, o.StatusText = m.Status, m.StatusLine, m.StatusText
		}
		o.roadmap = m.roadmap
		if o.Status == StatusUnknown && m.Status != StatusUnknown {
			o.Status, o.StatusLine, o.StatusText = m.Status, m.StatusLine, m.StatusText
		}
		if o.First.IsZero() {
			o.First, o.Last = m.First, m.Last
		}
		o.Collapsed = o.Collapsed || m.Collapsed
		return i
	}
	ms.list = append(ms.list, &m)
	return len(ms.list) - 1
}

// finish settles each milestone's status: a milestone GSD collapsed is shipped unless its
// text says otherwise; one that only a roadmap superseded by a later one in the same file names
// is history.
func (ms *milestones) finish() []Milestone {
	out := make([]Milestone, len(ms.list))
	for i, m := range ms.list {
		if m.Status == StatusUnknown && m.Collapsed {
			m.Status, m.StatusLine = StatusComplete, m.Line
		}
		if m.roadmap < len(ms.later) && m.Status != StatusComplete {
			at := ms.later[m.roadmap]
			m.Status, m.StatusLine = StatusComplete, at
			m.StatusText = fmt.Sprintf("%s: named only by an earlier roadmap, superseded by the one at line %d", m.Name, at)
		}
		out[i] = *m
	}
	return out
}

// supersede records that a later roadmap, under its own title, begins on line: everything
// the roadmap titled title said above it is history.
func (ms *milestones) supersede(line int, title string) {
	ms.later = append(ms.later, line)
	ms.titles = append(ms.titles, title)
	ms.synthetic = append(ms.synthetic, -1)
	ms.section, ms.details, ms.inList = -1, -1, false
}

// earlierRoadmap returns the milestone standing for the earlier roadmap whose text last
// named a phase on line (adding it, shipped, to list when first needed), or -1 when line is
// in the file's last roadmap.
func (ms *milestones) earlierRoadmap(line int, list *[]Milestone) int {
	r := 0
	for r < len(ms.later) && line >= ms.later[r] {
		r++
	}
	if r == len(ms.later) {
		return -1
	}
	if ms.synthetic[r] < 0 {
		name := strings.TrimSpace(ms.titles[r])
		if name == "" {
			name = "earlier roadmap"
		}
		first := 1
		if r > 0 {
			first = ms.later[r-1]
		}
		*list = append(*list, Milestone{Name: name, Line: first, Status: StatusComplete, StatusLine: ms.later[r],
			StatusText: fmt.Sprintf("an earlier roadmap, superseded by the one at line %d", ms.later[r]), roadmap: r})
		ms.synthetic[r] = len(*list) - 1
	}
	return ms.synthetic[r]
}

// headingLevel is matchHeading with the heading's level.
func headingLevel(s string) (string, int, bool) {
	text, ok := matchHeading(s)
	if !ok {
		return "", 0, false
	}
	t := strings.TrimLeft(s, " \t")
	return text, len(t) - len(strings.TrimLeft(t, "#")), true
}

// parseMilestone reads a milestone from a heading, a <summary> or (inList) a bullet of the
// "## Milestones" list: "🚧 **v1.9.0 Polish** — Phases 54-59 (in progress)", "Milestone 2:
// Production v1.0 (Phases 11-17) -- in progress", "✅ v1.0 MVP (Phases 1-4) — SHIPPED".
// Outside the list, text that names neither a milestone nor a version is not one.
func parseMilestone(text string, inList bool) (Milestone, bool) {
	text, checked := cutCheckbox(text)
	if phaseWordEnd(text) >= 0 {
		return Milestone{}, false
	}
	var m Milestone
	switch {
	case checked:
		m.Status = StatusComplete // "[x] v1.3 Search": checked off, as a phase's box is
	case strings.ContainsAny(text, "✅✓✔"):
		m.Status = StatusComplete
	case strings.Contains(text, "🚧") || strings.Contains(text, "🟡") || strings.Contains(text, "🔵") || strings.Contains(text, "⏳") || strings.Contains(text, "🔄"):
		m.Status = StatusInProgress
	case strings.Contains(text, "📋") || strings.Contains(text, "🔮"):
		m.Status = StatusPlanned
	}
	t := strings.TrimLeftFunc(linkTexts(text), func(r rune) bool { return !(unicode.IsLetter(r) || unicode.IsNumber(r)) })
	if rest, ok := currentLabel(t); ok {
		// "Current Milestone: v1.20 Backlog Burndown": the label says which milestone is current;
		// the name is what follows it.
		t = rest
		if m.Status == StatusUnknown {
			m.Status = StatusInProgress
		}
	}
	lower := strings.ToLower(t)
	named := strings.HasPrefix(lower, "milestone") && !strings.HasPrefix(lower, "milestones")
	if !named && !hasVersion(lower) && !(inList && m.Status != StatusUnknown) {
		return Milestone{}, false
	}
	if m.Status == StatusUnknown {
		m.Status = milestoneStatus(lower)
	}
	m.First, m.Last = phaseRange(lower)
	m.Name = cleanName(cutDescription(strings.ReplaceAll(strings.ReplaceAll(t, "**", ""), "__", "")))
	m.key = milestoneKey(lower, m.Name)
	return m, true
}

// cutCheckbox cuts a task-list box ("[x] ", "[ ] ") from the start of text ("<summary>[x] v1.3
// Search"), reporting whether it was checked: the box is not part of the name.
func cutCheckbox(text string) (string, bool) {
	t := strings.TrimLeft(text, " \t")
	if len(t) < 3 || t[0] != '[' || t[2] != ']' || !strings.ContainsRune(" xX", rune(t[1])) {
		return text, false
	}
	return strings.TrimLeft(t[3:], " \t"), t[1] != ' '
}

// currentLabel cuts a "Current Milestone:" or "Active Milestone:" label from the start of t.
func currentLabel(t string) (string, bool) {
	label, rest, ok := strings.Cut(t, ":")
	if !ok {
		return t, false
	}
	switch strings.ToLower(strings.Join(strings.Fields(strings.Trim(label, "*_ ")), " ")) {
	case "current milestone", "active milestone":
		return strings.TrimLeft(rest, " \t*_"), strings.TrimSpace(rest) != ""
	}
	return t, false
}

// linkTexts is text with each Markdown link "[text](target)" replaced by its text.
func linkTexts(text string) string {
	var b strings.Builder
	for {
		before, linkText, _, after, ok := mdLink(text)
		if !ok {
			break
		}
		b.WriteString(before)
		b.WriteString(linkText)
		text = after
	}
	if b.Len() == 0 {
		return text
	}
	b.WriteString(text)
	return b.String()
}

// milestoneStatus reads the status words of a milestone's text; the first that occurs wins.
func milestoneStatus(lower string) Status {
	best, at := StatusUnknown, len(lower)+1
	for _, w := range []struct {
		word   string
		status Status
	}{
		{"in progress", StatusInProgress}, {"in-progress", StatusInProgress},
		{"started", StatusInProgress}, {"active", StatusInProgress},
		{"shipped", StatusComplete}, {"complete", StatusComplete}, {"released", StatusComplete},
		{"planned", StatusPlanned}, {"not started", StatusPlanned}, {"upcoming", StatusPlanned},
	} {
		if i := strings.Index(lower, w.word); i >= 0 && i < at {
			best, at = w.status, i
		}
	}
	return best
}

// phaseRange finds "phases 54-59" (or "phase 5", "phases 11–17", "phases 3 to 6") in lower.
func phaseRange(lower string) (PhaseNum, PhaseNum) {
	for i := 0; i < len(lower); {
		j := strings.Index(lower[i:], "phase")
		if j < 0 {
			break
		}
		pos := i + j
		k := pos + len("phase")
		i = k
		if pos > 0 && isLetter(lower[pos-1]) {
			continue
		}
		if k < len(lower) && lower[k] == 's' {
			k++
		}
		k = skipSpace(lower, k)
		// Upper-cased for series prefixes ("e73" is E73); a range fits in a few dozen bytes.
		first, rest, ok := parsePhasePrefix(strings.ToUpper(lower[k:min(len(lower), k+48)]))
		if !ok {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		for _, sep := range []string{"-", "–", "—", "TO ", "THROUGH "} {
			if r, ok := strings.CutPrefix(rest, sep); ok {
				if last, _, ok := parsePhasePrefix(strings.TrimLeft(r, " \t")); ok {
					return first, last
				}
			}
		}
		return first, PhaseNum{}
	}
	return PhaseNum{}, PhaseNum{}
}

// milestoneKey is what identifies a milestone across the places that name it: "milestone 2",
// else its version ("v1.9.0"), else its name.
func milestoneKey(lower, name string) string {
	if rest, ok := strings.CutPrefix(lower, "milestone"); ok {
		f := strings.Fields(strings.TrimLeft(rest, " \t:"))
		if len(f) > 0 {
			return "milestone " + strings.Trim(f[0], ":.,")
		}
	}
	for i := 0; i+1 < len(lower); i++ {
		if j := versionAt(lower, i); j > i {
			return lower[i:j]
		}
	}
	return strings.ToLower(name)
}
