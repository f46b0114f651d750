// Package planfile reads and edits GSD plan files (NN-MM-PLAN.md) and the per-user session files
// copied from them (.planning/sessions/<user>/current-plan.md).
//
// Most real plans are not well-formed XML (bare '&', "a < b", Map<K, V>, JSX, code fences inside
// <action>), so no XML parser can read one whole. A tolerant scanner walks the bytes once and
// records byte spans: the <tasks> block, each <task> start tag and its attributes, each child
// element and its raw text, skipping fenced code, inline code and HTML comments. A start tag whose
// attribute values XML would read otherwise than as written (references) is then handed to etree
// for them (see readXML). Edits splice bytes at the recorded spans and never re-serialise
// anything, so every byte not being changed stays as it was. A file without <task> elements is
// read for Markdown task sections instead ("### Task 1: ...", see section.go), or the items of a
// "## Tasks" list (list.go), whose statuses a session keeps in one marker comment under each
// heading or item.
package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Span is a half-open byte range [Start, End) of the scanned source.
type Span struct{ Start, End int }

// Attr is one attribute of a <task> start tag, as written.
type Attr struct {
	Name  string
	Value string // the raw value between the quotes, not entity-decoded
	Quote byte   // '"', '\'' or 0 when unquoted
	Span  Span   // the whole attribute, name to closing quote
	Val   Span   // the value only, without quotes
}

// Child is one element directly inside a <task>, such as <name> or <action>.
type Child struct {
	Name string
	Text string // raw text between the tags, as written
	Line int    // line of the start tag, 1-based
	Span Span   // start of the start tag to end of the end tag
}

// Task is one <task> element of the <tasks> block, or one Markdown task section of a file that
// has no <task> element.
type Task struct {
	Number   int    // 1-based position among the plan's tasks
	Line     int    // line of the start tag, 1-based
	Tag      Span   // the start tag, '<' through '>'
	Span     Span   // the whole element, start tag through </task> (or to where it was cut off)
	Attrs    []Attr // in source order
	Children []Child
	Closed   bool // a matching </task> was found
	// Feature is set when the task is a <feature> element of a test-first plan (GSD's TDD plan:
	// "type: tdd", one <feature> per red-green cycle, no <task>): a task whose tdd is implied.
	Feature bool
	// Section is set when the task is a Markdown section ("### Task 1: ...", see section.go)
	// rather than a <task> element: Tag is then its status marker (its heading when it has
	// none), Attrs the marker's, and its one child, "body", the text under the heading.
	Section *Section

	tag []byte // the bytes of the start tag, for xmlValue
}

// Attr returns the first attribute called name, as the scanner read it: the raw value and the
// spans an edit needs.
func (t *Task) Attr(name string) (Attr, bool) {
	for _, a := range t.Attrs {
		if a.Name == name {
			return a, true
		}
	}
	return Attr{}, false
}

// AttrValue is the value of the first attribute called name as XML means it: references decoded
// (by etree, see xmlValue) when the start tag is well-formed XML, otherwise as written.
func (t *Task) AttrValue(name string) (string, bool) {
	for i, a := range t.Attrs {
		if a.Name == name {
			return t.xmlValue(i), true
		}
	}
	return "", false
}

// Type is the task's type attribute ("auto", "checkpoint:human-verify", ...), "" if absent.
func (t *Task) Type() string {
	v, _ := t.AttrValue("type")
	return v
}

// IsCheckpoint reports whether the task is a checkpoint (type "checkpoint:human-verify",
// "checkpoint:decision", ...): a human answers it, after the work before it is done.
func (t *Task) IsCheckpoint() bool { return strings.HasPrefix(t.Type(), "checkpoint") }

// StatusText is the raw status attribute value and whether the attribute is present.
func (t *Task) StatusText() (string, bool) {
	a, ok := t.Attr("status")
	return a.Value, ok
}

// Child returns the first child element called name; its text is as written, never decoded.
func (t *Task) Child(name string) (Child, bool) {
	for _, c := range t.Children {
		if c.Name == name {
			return c, true
		}
	}
	return Child{}, false
}

// Name is a readable label for the task: its <name> (or <title>) text, or, for tasks without one
// such as checkpoints, the type and the first line of the first child.
func (t *Task) Name() string {
	if t.Section != nil {
		return firstLine(t.Section.Title)
	}
	for _, n := range []string{"name", "title"} {
		if c, ok := t.Child(n); ok {
			if s := firstLine(c.Text); s != "" {
				return s
			}
		}
	}
	for _, n := range []string{"name", "title"} {
		if v, ok := t.AttrValue(n); ok && strings.TrimSpace(v) != "" {
			return firstLine(v)
		}
	}
	label := t.Type()
	if label == "" {
		label = "task"
	}
	for _, c := range t.Children {
		if s := firstLine(c.Text); s != "" {
			return label + ": " + textfmt.Clip(s, 72)
		}
	}
	return fmt.Sprintf("%s %d", label, t.Number)
}

// Problem is something wrong with the file that the scanner noticed and stepped over.
type Problem struct {
	Line    int
	Message string
}

// File is the result of scanning a plan or session file.
type File struct {
	Src      []byte
	Header   Header
	Tasks    []Task
	Blocks   []Span // each <tasks> ... </tasks> block
	Problems []Problem
	// Err is set when the scan gave up before the end of the file (ErrTooComplex: the file is
	// built to make a tolerant scan slow, or has more than MaxTasks tasks). Tasks and Blocks
	// then describe only the part before that, and nothing may be written from them.
	Err error

	lines []int // byte offset of the start of each line
}

// Line returns the 1-based line number of byte offset off.
func (p *File) Line(off int) int {
	lo, hi := 0, len(p.lines)
	for lo < hi {
		m := (lo + hi) / 2
		if p.lines[m] <= off {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// ErrTooComplex is Plan.Err when the scan gave up: see MaxTasks and workPerByte.
var ErrTooComplex = errors.New("too complex to scan")

// MaxTasks bounds the tasks of one file: real plans have a handful, and each task costs memory.
const MaxTasks = 10000

// workPerByte bounds the scan's running time. A tolerant scan looks ahead for closing fences,
// backticks and end tags, and on input crafted so that none of them is ever found (thousands of
// unclosed "```x" lines, "<a>" repeated a million times) those look-aheads would make it
// quadratic: minutes for a few megabytes. The scanner counts the bytes it examines and gives up
// with ErrTooComplex beyond workPerByte*len(src)+workSlack; real files stay far below it.
const (
	workPerByte = 48
	workSlack   = 8 << 20
	callCost    = 16
)

// Scan reads src, tolerating anything: it never panics and always returns. What it could not
// make sense of is listed in Problems; if it had to give up, Err says so.
func Scan(src []byte) *File {
	p := &File{Src: src}
	p.lines = append(p.lines, 0)
	for i, c := range src {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	p.Header = parseHeader(src)
	s := scanner{src: src, p: p, budget: workPerByte*len(src) + workSlack}
	s.scan()
	return p
}

// scan reads the <task> elements; when there are none, a test-first plan's <feature> elements;
// when there are none either, the Markdown task sections.
func (s *scanner) scan() {
	s.run()
	if len(s.p.Tasks) == 0 && !s.stopped() {
		s.features()
	}
	if len(s.p.Tasks) == 0 && !s.stopped() {
		s.sections()
	}
}

// scanner walks the source line by line outside tasks, and tag by tag inside them.
type scanner struct {
	feature bool // tasks are <feature> elements (see features), not <task>
	src     []byte
	p       *File
	pos     int
	work    int // bytes examined so far, look-aheads included
	budget  int // the most work allowed
	fences  fences
}

// spend charges n bytes of work; once the budget is gone it records why, and every look-ahead
// then reports the end of the file, so the scan winds down at once.
func (s *scanner) spend(n int, at int) bool {
	s.work += n
	if s.work <= s.budget || s.p.Err != nil {
		return s.p.Err == nil
	}
	s.p.Err = &LineError{Line: s.p.Line(min(at, len(s.src))),
		Err: fmt.Errorf("%w (gave up here after examining %d MiB)", ErrTooComplex, s.work>>20)}
	s.problem(at, "the scan gave up here: %v", ErrTooComplex)
	s.pos = len(s.src)
	return false
}

// stopped reports whether the scan gave up.
func (s *scanner) stopped() bool { return s.p.Err != nil }

// fence is skipFence, charged to the budget.
func (s *scanner) fence(off int) (int, bool) {
	if s.stopped() {
		return 0, false
	}
	if s.fences.src == nil {
		s.fences.src = s.src
	}
	end, ok := s.fences.skip(off)
	n := 1
	if ok {
		n = end - off
	}
	if !s.spend(n, off) {
		return 0, false
	}
	return end, ok
}

// fences answers skipFence's question (where does the fenced block opening at off end, if it
// does) without scanning to the end of the file for every fence that never closes: thousands of
// unclosed "```x" lines made that quadratic. On first use for a fence character it lists the
// lines that could close such a fence, with the longest run after each; a fence longer than any
// closing line after it fails at once, and one that closes is handed to skipFence, whose scan
// stops at the closing line.
type fences struct {
	src     []byte
	indexed [2]bool  // '`', '~'
	lines   [2][]int // start offsets of lines that are only a run of the character (and space)
	longest [2][]int // longest[k][i]: the longest such run among lines[k][i:]
}

func (f *fences) skip(off int) (int, bool) {
	src := f.src
	ch, k := src[off], 0
	if ch == '~' {
		k = 1
	}
	n := 0
	for off+n < len(src) && src[off+n] == ch {
		n++
	}
	if n < 3 {
		return 0, false
	}
	if !f.indexed[k] {
		f.index(k, ch)
	}
	from := nextLine(src, lineEndAt(src, off))
	i, _ := slices.BinarySearch(f.lines[k], from)
	if i == len(f.lines[k]) || f.longest[k][i] < n {
		return 0, false
	}
	return skipFence(src, off)
}

// index lists the lines that could close a fence of ch, exactly as skipFence tests them.
func (f *fences) index(k int, ch byte) {
	f.indexed[k] = true
	src := f.src
	var runs []int
	for i := 0; i < len(src); {
		le := lineEndAt(src, i)
		line := bytes.TrimLeft(src[i:le], " \t")
		m := 0
		for m < len(line) && line[m] == ch {
			m++
		}
		if m >= 3 && len(bytes.TrimSpace(line[m:])) == 0 {
			f.lines[k] = append(f.lines[k], i)
			runs = append(runs, m)
		}
		if le >= len(src) {
			break
		}
		i = le + 1
	}
	f.longest[k] = make([]int, len(runs))
	best := 0
	for j := len(runs) - 1; j >= 0; j-- {
		best = max(best, runs[j])
		f.longest[k][j] = best
	}
}

func (s *scanner) problem(off int, format string, args ...any) {
	s.p.Problems = append(s.p.Problems, Problem{Line: s.p.Line(off), Message: fmt.Sprintf(format, args...)})
}

// run finds <tasks> blocks: a "<tasks>" at the start of a line (after indentation), outside
// fenced code and comments; and tasks (<task>, or <feature> for features) written outside one.
func (s *scanner) run() {
	for s.pos < len(s.src) && !s.stopped() {
		lineStart := s.pos
		lineEnd := lineEndAt(s.src, lineStart)
		trimmed := bytes.TrimLeft(s.src[lineStart:lineEnd], " \t")
		at := lineStart + (lineEnd - lineStart - len(trimmed))
		switch {
		case len(trimmed) > 0 && (trimmed[0] == '`' || trimmed[0] == '~'):
			if end, ok := s.fence(at); ok {
				s.pos = end
				continue
			}
		case bytes.HasPrefix(trimmed, []byte("<!--")):
			end := bytes.Index(s.src[at+4:], []byte("-->"))
			if end < 0 {
				return // an unclosed comment hides the rest of the file, as it would from a browser
			}
			s.pos = at + 4 + end + 3
			continue
		case !s.feature && hasTag(trimmed, "tasks"):
			s.pos = at + tagLen(trimmed)
			s.tasksBlock(at)
			continue
		case hasTag(trimmed, s.elem()):
			// A task written without the <tasks> block around it ("## Tasks" then <task>
			// elements): a task when its element is closed; a line of prose otherwise.
			tasks, problems := len(s.p.Tasks), len(s.p.Problems)
			s.task(at)
			if s.stopped() || len(s.p.Tasks) > tasks && s.p.Tasks[tasks].Closed {
				continue
			}
			s.p.Tasks, s.p.Problems = s.p.Tasks[:tasks], s.p.Problems[:problems]
		}
		s.pos = nextLine(s.src, lineEnd)
	}
}

// features finds the <feature> elements of a test-first plan, as run finds a <task> written
// without <tasks>: at the start of a line, outside fenced code and comments, and a task only
// when its element is closed.
func (s *scanner) features() {
	s.feature, s.pos = true, 0
	s.run()
	s.feature = false
}

// elem is the element a task is.
func (s *scanner) elem() string {
	if s.feature {
		return "feature"
	}
	return "task"
}

// tasksBlock scans the inside of a <tasks> block from s.pos until </tasks>.
func (s *scanner) tasksBlock(start int) {
	for {
		off, kind := s.nextMarkup(s.pos, "task", "tasks")
		switch kind {
		case markEOF:
			s.problem(start, "<tasks> is never closed")
			s.p.Blocks = append(s.p.Blocks, Span{start, len(s.src)})
			s.pos = len(s.src)
			return
		case markClose:
			s.pos = off + len("</tasks>")
			s.p.Blocks = append(s.p.Blocks, Span{start, s.pos})
			return
		case markOpen:
			s.task(off)
		case markOther:
			s.pos = off + 1
		}
	}
}

// task scans one <task> element whose '<' is at off.
func (s *scanner) task(off int) {
	t := Task{Number: len(s.p.Tasks) + 1, Line: s.p.Line(off), Feature: s.feature}
	if t.Number > MaxTasks {
		s.p.Err = &LineError{Line: t.Line, Err: fmt.Errorf("%w: more than %d tasks", ErrTooComplex, MaxTasks)}
		s.problem(off, "task %d: more than %d tasks; the scan stops here", t.Number, MaxTasks)
		s.pos = len(s.src)
		return
	}
	end, attrs, selfClosing, ok := parseStartTag(s.src, off, 1+len(s.elem()))
	if !ok {
		s.problem(off, "task %d: start tag is never closed with '>'", t.Number)
		s.pos = len(s.src)
		return
	}
	t.Tag = Span{off, end}
	t.Attrs = attrs
	t.tag = s.src[off:end:end]
	s.pos = end
	if selfClosing {
		t.Closed = true
		t.Span = t.Tag
		s.p.Tasks = append(s.p.Tasks, t)
		return
	}
	for {
		at, kind := s.nextMarkup(s.pos, "", s.elem())
		switch kind {
		case markEOF:
			s.problem(off, "task %d: <%s> is never closed", t.Number, s.elem())
			t.Span = Span{off, len(s.src)}
			s.pos = len(s.src)
			s.p.Tasks = append(s.p.Tasks, t)
			return
		case markClose:
			t.Closed = true
			s.pos = at + len("</>") + len(s.elem())
			t.Span = Span{off, s.pos}
			s.p.Tasks = append(s.p.Tasks, t)
			return
		case markOpen, markOther:
			name := tagName(s.src[at+1:])
			switch name {
			case s.elem(), "/tasks":
				// A new task, or the end of the block, before </task>: this one ends here.
				s.problem(off, "task %d: <%s> is not closed before line %d", t.Number, s.elem(), s.p.Line(at))
				t.Span = Span{off, at}
				s.p.Tasks = append(s.p.Tasks, t)
				s.pos = at // tasksBlock picks up from the tag that cut this task short
				return
			case "", "tasks":
				s.pos = at + 1
				continue
			}
			if name[0] == '/' { // a stray end tag
				s.pos = at + 1
				continue
			}
			s.child(&t, at, name)
		}
	}
}

// child records the element <name ...>...</name> starting at off, a direct child of t.
func (s *scanner) child(t *Task, off int, name string) {
	end, _, selfClosing, ok := parseStartTag(s.src, off, 1+len(name))
	if !ok {
		s.pos = off + 1
		return
	}
	c := Child{Name: name, Line: s.p.Line(off)}
	if selfClosing {
		c.Span = Span{off, end}
		t.Children = append(t.Children, c)
		s.pos = end
		return
	}
	closeAt, found := s.findClose(end, name)
	if !found {
		// Not an element after all (a bare "<div>" in prose, say): step over the '<'.
		s.pos = off + 1
		return
	}
	c.Text = string(s.src[end:closeAt])
	s.pos = closeAt + len("</") + len(name) + 1
	c.Span = Span{off, s.pos}
	t.Children = append(t.Children, c)
}

// findClose finds "</name>" from off, outside code and comments, stopping at </task>.
func (s *scanner) findClose(off int, name string) (int, bool) {
	for {
		at, kind := s.nextMarkup(off, "", "")
		if kind == markEOF {
			return 0, false
		}
		rest := s.src[at:]
		if bytes.HasPrefix(rest, []byte("</")) {
			n := tagName(rest[2:])
			if n == name && closesAt(rest, 2+len(n)) {
				return at, true
			}
			if n == s.elem() || n == "tasks" {
				return 0, false
			}
		}
		off = at + 1
	}
}

type markKind int

const (
	markEOF   markKind = iota
	markOpen           // a start tag of the wanted element
	markClose          // the end tag of the enclosing element
	markOther          // some other '<'
)

// nextMarkup finds the next '<' at or after off that is not inside fenced code, inline code or
// an HTML comment, and classifies it: a start tag of open ("" for none), an end tag of close.
func (s *scanner) nextMarkup(off int, open, close string) (at int, kind markKind) {
	if s.stopped() {
		return len(s.src), markEOF
	}
	start := off
	defer func() {
		// Each call also costs a fixed amount: a million '<' a few bytes apart cost more than
		// their bytes.
		if !s.spend(at-start+callCost, at) {
			at, kind = len(s.src), markEOF
		}
	}()
	src := s.src
	for off < len(src) && !s.stopped() {
		i := bytes.IndexAny(src[off:], "<`~")
		if i < 0 {
			break
		}
		off += i
		c := src[off]
		switch {
		case c == '`':
			if isLineStart(src, off) {
				if end, ok := s.fence(off); ok {
					off = end
					continue
				}
			}
			end, n := skipInlineCode(src, off)
			if !s.spend(n, off) {
				return len(src), markEOF
			}
			off = end
			continue
		case c == '~' && isLineStart(src, off):
			if end, ok := s.fence(off); ok {
				off = end
				continue
			}
		case c == '<':
			rest := src[off:]
			if bytes.HasPrefix(rest, []byte("<!--")) {
				end := bytes.Index(rest[4:], []byte("-->"))
				if end < 0 {
					return len(src), markEOF
				}
				off += 4 + end + 3
				continue
			}
			if close != "" && bytes.HasPrefix(rest, []byte("</"+close)) && closesAt(rest, 2+len(close)) {
				return off, markClose
			}
			if open != "" && hasTag(rest, open) {
				return off, markOpen
			}
			return off, markOther
		}
		off++
	}
	return len(src), markEOF
}

// hasTag reports whether b starts with a start tag "<name" followed by whitespace, '>' or '/'.
func hasTag(b []byte, name string) bool {
	if len(b) < len(name)+2 || b[0] != '<' || string(b[1:1+len(name)]) != name {
		return false
	}
	switch b[1+len(name)] {
	case ' ', '\t', '\n', '\r', '>', '/':
		return true
	}
	return false
}

// closesAt reports whether an end tag name ending at b[n] is followed by optional white space
// (line ends included, as in XML) and '>'.
func closesAt(b []byte, n int) bool {
	for n < len(b) && isSpace(b[n]) {
		n++
	}
	return n < len(b) && b[n] == '>'
}

// tagLen is the length of a start tag at the start of b, or 1 if it does not end on this line.
func tagLen(b []byte) int {
	if i := bytes.IndexByte(b, '>'); i >= 0 {
		return i + 1
	}
	return 1
}

// tagName reads an XML-ish element name at the start of b ("/name" for end tags); "" if none.
func tagName(b []byte) string {
	i := 0
	if i < len(b) && b[i] == '/' {
		i++
	}
	start := i
	for i < len(b) {
		c := b[i]
		if c == '_' || c == '-' || c == ':' || c == '.' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || (i > start && c >= '0' && c <= '9') {
			i++
			continue
		}
		break
	}
	if i == start {
		return ""
	}
	if c := b[start]; c == '-' || c == '.' || c == ':' {
		return ""
	}
	return string(b[:i])
}

// parseStartTag parses the attributes of the start tag at src[off:], whose name takes the first
// nameLen bytes (including '<'). Quoted values may contain '>' and newlines. It returns the offset
// just past '>', and ok=false when the tag never ends.
func parseStartTag(src []byte, off, nameLen int) (end int, attrs []Attr, selfClosing, ok bool) {
	i := off + nameLen
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '>':
			return i + 1, attrs, false, true
		case c == '/' && i+1 < len(src) && src[i+1] == '>':
			return i + 2, attrs, true, true
		case c == '<':
			return 0, nil, false, false // a new tag begins: this one was never closed
		default:
			a := Attr{Span: Span{Start: i}}
			j := i
			for j < len(src) && !isSpace(src[j]) && src[j] != '=' && src[j] != '>' && src[j] != '<' && !(src[j] == '/' && j+1 < len(src) && src[j+1] == '>') {
				j++
			}
			if j == i { // a stray character such as '/' on its own
				i++
				continue
			}
			a.Name = string(src[i:j])
			k := j
			for k < len(src) && isSpace(src[k]) {
				k++
			}
			if k < len(src) && src[k] == '=' {
				k++
				for k < len(src) && isSpace(src[k]) {
					k++
				}
				if k >= len(src) {
					return 0, nil, false, false
				}
				if q := src[k]; q == '"' || q == '\'' {
					e := bytes.IndexByte(src[k+1:], q)
					if e < 0 {
						return 0, nil, false, false
					}
					a.Quote = q
					a.Val = Span{k + 1, k + 1 + e}
					j = k + 1 + e + 1
				} else {
					e := k
					for e < len(src) && !isSpace(src[e]) && src[e] != '>' && !(src[e] == '/' && e+1 < len(src) && src[e+1] == '>') {
						e++
					}
					a.Val = Span{k, e}
					j = e
				}
				a.Value = string(src[a.Val.Start:a.Val.End])
			} else {
				a.Val = Span{j, j}
			}
			a.Span.End = j
			attrs = append(attrs, a)
			i = j
		}
	}
	return 0, nil, false, false
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isLineStart reports whether only spaces and tabs stand between the line's start and off.
func isLineStart(src []byte, off int) bool {
	for i := off - 1; i >= 0; i-- {
		switch src[i] {
		case ' ', '\t':
			continue
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// skipFence skips a fenced code block opening at off (a run of 3+ backticks or tildes at line
// start) and returns the offset after its closing line. A fence that never closes is not treated
// as one: one stray ``` must not hide every task after it.
func skipFence(src []byte, off int) (int, bool) {
	ch := src[off]
	n := 0
	for off+n < len(src) && src[off+n] == ch {
		n++
	}
	if n < 3 {
		return 0, false
	}
	i := nextLine(src, lineEndAt(src, off))
	for i < len(src) {
		le := lineEndAt(src, i)
		line := bytes.TrimLeft(src[i:le], " \t")
		m := 0
		for m < len(line) && line[m] == ch {
			m++
		}
		if m >= n && len(bytes.TrimSpace(line[m:])) == 0 {
			return nextLine(src, le), true
		}
		i = nextLine(src, le)
	}
	return 0, false
}

// skipInlineCode skips an inline code span opening at off; a backtick run without a matching run
// later on the same line is literal text. It also returns how many bytes it examined. (It looks
// for the end of the line as it goes: finding it first would make a long line of backticks
// quadratic.)
func skipInlineCode(src []byte, off int) (end, examined int) {
	n := 0
	for off+n < len(src) && src[off+n] == '`' {
		n++
	}
	i := off + n
	for i < len(src) && src[i] != '\n' {
		if src[i] != '`' {
			i++
			continue
		}
		m := 0
		for i+m < len(src) && src[i+m] == '`' {
			m++
		}
		if m == n {
			return i + m, i + m - off
		}
		i += m
	}
	return off + n, i - off
}

// lineEndAt returns the offset of the '\n' ending the line containing off (or len(src)).
func lineEndAt(src []byte, off int) int {
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(src)
}

func nextLine(src []byte, lineEnd int) int {
	if lineEnd < len(src) {
		return lineEnd + 1
	}
	return len(src)
}

// firstLine is the first non-blank line of s, trimmed (a task name from a multi-line element).
func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return s
}
