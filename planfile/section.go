package planfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// Markdown task sections.
//
// About a third of real plans without a <task> element write their tasks as Markdown headings
// instead: "### Task 1: Add helpers", "### Step 2: ...", numbered steps "### 1. ...", or, in a
// phase-level plan, "## Plan 31-01: ..." sections. When a file has no <task> element, the
// scanner reads such headings as its tasks, so every command tracks them as it tracks <task>
// elements.
//
// What counts as a section: an ATX heading (up to three spaces, 1 to 6 '#', a space) outside
// fenced code and HTML comments whose text starts, ignoring case,
//  1. "Task N" or "Step N" (N a number), else
//  2. "Plan N..." (a plan id such as 31-01), two or more at one level: a phase-level plan of
//     plan sections (one alone is the plan's own title), else
//  3. "N." "N)" or "N:" at level 3 or deeper: numbered steps (a "## 1." heading numbers the
//     document's own outline: Goal, Context, Verification).
//
// The first of these kinds the file has wins, at the shallowest level it appears: those
// headings are the tasks. A section runs from its heading to the next heading of the same or a
// shallower level; deeper headings, and headings of that level that do not match ("### Issue
// 1", "### In Scope"), are not tasks.
//
// A session file records a section's status in a marker comment, the first non-blank line under
// its heading:
//
//	### Task 1: Add helpers
//	<!-- gsd:task status="pending" -->
//
// Bootstrap inserts one line per section directly under its heading, with the heading's line
// end, and nothing else: removing those lines gives back the plan byte for byte. The marker's
// attributes are read as a <task> start tag's are, so a status change rewrites exactly the bytes
// of one attribute value, as it does for <task status="...">.

// Section is where a Markdown task section's heading and status marker are.
type Section struct {
	Title   string // the heading's text, without the '#'s: the task's name
	Level   int    // the heading's level, 1 to 6
	Heading Span   // the heading line, without its line end
	Marker  Span   // the marker comment, "<!--" through "-->"; zero when HasMarker is false
	// MarkerLine is the marker's line (1-based), 0 when there is none: what an error about
	// the status names.
	MarkerLine int
	// HasMarker: the first non-blank line under the heading is a gsd:task marker.
	HasMarker bool
	// Bad: that marker cannot be read (no "-->" on its line, text after it, a broken
	// attribute); Marker then spans from "<!--" to the end of the line.
	Bad bool
	// Item: the task is an item of a task list (list.go), not a heading: Heading is the item's
	// first line, Title its text after the list marker and checkbox, and Level 0.
	Item bool
	// Checked: the item is a checked checkbox ("- [x]"): without a marker it is complete.
	Checked bool

	nameEnd int    // just after "gsd:task" in the marker: where a first attribute goes
	insert  int    // the start of the line after the heading: where a missing marker goes
	eol     string // the heading's line end: "\n", "\r\n", or "" at the end of the file
	pad     string // what goes before a marker: an item's indentation, "" under a heading
}

// statusLine is the line a message about t's status names: its start tag's, or its marker's.
func (t *Task) statusLine() int {
	if t.Section != nil && t.Section.MarkerLine > 0 {
		return t.Section.MarkerLine
	}
	return t.Line
}

// markerTag opens a status marker.
const markerTag = "gsd:task"

// sectionKind is what a heading's text makes of it.
type sectionKind int

const (
	notSection sectionKind = iota
	taskSection
	planSection
	numberSection
)

type heading struct {
	level      int
	start, end int // the line, without its line end
	next       int // the start of the following line
	text       string
	kind       sectionKind
}

// markerAt is one line whose text starts with "<!-- gsd:task": a marker if it is the first
// non-blank line under a section's heading, a stray one otherwise.
type markerAt struct {
	at, end int // "<!--" and the end of the line, without '\r'
	used    bool
}

// sections reads a file without <task> elements for Markdown task sections.
func (s *scanner) sections() {
	src := s.src
	var hs []heading
	var markers []markerAt
	var lists taskLists
	taskTags := false
	for pos := 0; pos < len(src) && !s.stopped(); {
		le := lineEndAt(src, pos)
		if !s.spend(le-pos+1, pos) {
			return
		}
		line := src[pos:le]
		trimmed := bytes.TrimLeft(line, " \t")
		at := le - len(trimmed)
		switch {
		case len(trimmed) > 0 && (trimmed[0] == '`' || trimmed[0] == '~'):
			if end, ok := s.fence(at); ok {
				pos = end
				continue
			}
		case bytes.HasPrefix(trimmed, []byte("<!--")):
			if isMarker(trimmed) {
				markers = append(markers, markerAt{at: at, end: len(bytes.TrimRight(src[:le], "\r"))})
			}
			end := bytes.Index(src[at+4:], []byte("-->"))
			if end < 0 {
				pos = len(src) // an unclosed comment hides the rest of the file, as run says
				continue
			}
			pos = nextLine(src, lineEndAt(src, at+4+end+3))
			continue
		case at-pos <= 3 && len(trimmed) > 0 && trimmed[0] == '#' && !bytes.ContainsAny(line[:at-pos], "\t"):
			if h, ok := parseHeading(src, pos, le); ok {
				hs = append(hs, h)
				lists.heading(h)
			}
		case hasTag(trimmed, "task"):
			taskTags = true // <task> elements outside a <tasks> block: their lists are not tasks
		case lists.open && len(trimmed) > 0 && mayBeItem(trimmed):
			if it, ok := listItem(src, pos, le); ok {
				lists.item(it)
			}
		}
		pos = nextLine(src, le)
	}
	if s.stopped() {
		return
	}
	kind, level := chooseSections(hs)
	if kind != taskSection && kind != planSection && !taskTags {
		// A task list (list.go) comes before numbered "### N." steps.
		if len(lists.items) > 0 {
			if !s.listSections(lists.items, lists.ends(len(src)), markers) {
				return
			}
			kind = notSection
		}
	}
	for i := range hs {
		h := &hs[i]
		if kind == notSection || h.kind != kind || h.level != level {
			continue
		}
		end := len(src)
		for j := i + 1; j < len(hs); j++ {
			if hs[j].level <= level {
				end = hs[j].start
				break
			}
		}
		if !s.section(h, end, markers) {
			return
		}
	}
	stray := 0
	for _, m := range markers {
		if !m.used {
			if stray == 0 {
				s.problem(m.at, "a gsd:task marker that is not the first line under a task heading is ignored")
			}
			stray++
		}
	}
	if stray > 1 {
		s.problem(len(src), "%d more gsd:task markers are not under a task heading", stray-1)
	}
}

// section records the task of heading h, whose section ends at end.
func (s *scanner) section(h *heading, end int, markers []markerAt) bool {
	src := s.src
	t := Task{Number: len(s.p.Tasks) + 1, Line: s.p.Line(h.start), Closed: true, Span: Span{h.start, end}}
	if t.Number > MaxTasks {
		s.p.Err = &LineError{Line: t.Line, Err: fmt.Errorf("%w: more than %d tasks", ErrTooComplex, MaxTasks)}
		s.problem(h.start, "task %d: more than %d tasks; the scan stops here", t.Number, MaxTasks)
		return false
	}
	sec := &Section{Title: h.text, Level: h.level, Heading: Span{h.start, h.end}, insert: h.next, eol: string(src[h.end:h.next])}
	t.Section = sec
	t.Tag = sec.Heading
	body := h.next
	// The marker: the first non-blank line under the heading, if it is one.
	for pos := h.next; pos < end; {
		le := lineEndAt(src, pos)
		if len(bytes.TrimSpace(src[pos:le])) == 0 {
			pos = nextLine(src, le)
			continue
		}
		if i, _ := slices.BinarySearchFunc(markers, pos, func(m markerAt, at int) int { return m.at - at }); i < len(markers) && markers[i].at < le {
			m := &markers[i]
			m.used = true
			sec.HasMarker = true
			attrs, nameEnd, close, ok := parseMarker(src, m.at, m.end)
			if ok {
				sec.Marker, sec.nameEnd, t.Attrs = Span{m.at, close}, nameEnd, attrs
			} else {
				sec.Bad, sec.Marker = true, Span{m.at, m.end}
				s.problem(m.at, "task %d: the gsd:task marker cannot be read", t.Number)
			}
			t.Tag, sec.MarkerLine = sec.Marker, s.p.Line(m.at)
			body = nextLine(src, le)
		}
		break
	}
	body = min(body, end)
	t.Children = []Child{{Name: "body", Text: string(src[body:end]), Line: s.p.Line(body), Span: Span{body, end}}}
	s.p.Tasks = append(s.p.Tasks, t)
	return true
}

// isMarker reports whether a line (trimmed on the left) opens a gsd:task marker.
func isMarker(line []byte) bool {
	rest := bytes.TrimLeft(line[len("<!--"):], " \t")
	if !bytes.HasPrefix(rest, []byte(markerTag)) {
		return false
	}
	rest = rest[len(markerTag):]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '-' || rest[0] == '\r'
}

// parseMarker reads the marker "<!-- gsd:task a="v" ... -->" at src[at:end] (one line, without
// its line end): its attributes, where its name ends, and the offset just past "-->". Values are
// quoted with either quote, or unquoted up to white space or "-->". Anything else after "-->"
// but white space makes it unreadable.
func parseMarker(src []byte, at, end int) (attrs []Attr, nameEnd, close int, ok bool) {
	line := src[:end]
	i := at + len("<!--")
	for i < end && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	i += len(markerTag)
	nameEnd = i
	for {
		j := i
		for j < end && (line[j] == ' ' || line[j] == '\t') {
			j++
		}
		if bytes.HasPrefix(line[j:], []byte("-->")) {
			if len(bytes.TrimSpace(line[j+3:])) != 0 {
				return nil, 0, 0, false
			}
			return attrs, nameEnd, j + 3, true
		}
		if j == i && len(attrs) > 0 || j >= end {
			return nil, 0, 0, false // attributes run together, or no "-->"
		}
		a := Attr{Span: Span{Start: j}}
		k := j
		for k < end && isNameByte(line[k]) && !bytes.HasPrefix(line[k:], []byte("--")) {
			k++
		}
		if k == j {
			return nil, 0, 0, false
		}
		a.Name = string(line[j:k])
		if k >= end || line[k] != '=' {
			return nil, 0, 0, false
		}
		k++
		if k < end && (line[k] == '"' || line[k] == '\'') {
			q := line[k]
			e := bytes.IndexByte(line[k+1:], q)
			if e < 0 {
				return nil, 0, 0, false
			}
			a.Quote, a.Val = q, Span{k + 1, k + 1 + e}
			k += 1 + e + 1
		} else {
			e := k
			for e < end && line[e] != ' ' && line[e] != '\t' && !bytes.HasPrefix(line[e:], []byte("-->")) {
				e++
			}
			if e == k {
				return nil, 0, 0, false
			}
			a.Val = Span{k, e}
			k = e
		}
		a.Value = string(line[a.Val.Start:a.Val.End])
		a.Span.End = k
		attrs = append(attrs, a)
		i = k
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c == ':' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// parseHeading reads the ATX heading on the line src[pos:le] (indentation already checked).
func parseHeading(src []byte, pos, le int) (heading, bool) {
	end := le
	if end > pos && src[end-1] == '\r' {
		end--
	}
	line := bytes.TrimLeft(src[pos:end], " ")
	n := 0
	for n < len(line) && line[n] == '#' {
		n++
	}
	if n < 1 || n > 6 || n < len(line) && line[n] != ' ' && line[n] != '\t' {
		return heading{}, false
	}
	text := strings.TrimSpace(string(line[n:]))
	// An optional closing sequence: "## Task 1 ##".
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || t[len(t)-1] == ' ' || t[len(t)-1] == '\t') {
		text = strings.TrimSpace(t)
	}
	h := heading{level: n, start: pos, end: end, next: nextLine(src, le), text: text, kind: kindOf(text)}
	return h, true
}

// kindOf classifies a heading's text.
func kindOf(text string) sectionKind {
	word := func(w string) (string, bool) {
		if len(text) < len(w) || !strings.EqualFold(text[:len(w)], w) {
			return "", false
		}
		return strings.TrimLeft(text[len(w):], " \t"), true
	}
	digit := func(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }
	for _, w := range []string{"task", "step"} {
		if rest, ok := word(w); ok && digit(rest) {
			return taskSection
		}
	}
	if rest, ok := word("plan"); ok && len(rest) < len(text)-len("plan") && digit(rest) {
		return planSection
	}
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i > 0 && i < len(text) && strings.IndexByte(".):", text[i]) >= 0 && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t') {
		return numberSection
	}
	return notSection
}

// chooseSections picks which headings are the tasks: the first kind present, at the shallowest
// level it appears (numbered steps only from level 3; plan sections only two or more at a level).
func chooseSections(hs []heading) (sectionKind, int) {
	for _, kind := range []sectionKind{taskSection, planSection, numberSection} {
		var count [7]int
		for _, h := range hs {
			if h.kind == kind && !(kind == numberSection && h.level < 3) {
				count[h.level]++
			}
		}
		for level := 1; level <= 6; level++ {
			if count[level] > 1 || count[level] == 1 && kind != planSection {
				return kind, level
			}
		}
	}
	return notSection, 0
}
