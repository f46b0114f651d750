package planfile

import "strings"

// Task lists.
//
// Some plans without <task> elements or task headings write their tasks as a list under a
// heading that names them:
//
//	## Tasks
//
//	1. Add the CSV encoder in `export/csv.go`.
//	2. Serve it from `GET /export.csv`.
//	   - nested items, paragraphs and code fences belong to task 2
//
// or as a checklist ("- [ ] ...", "- [x] ...", "1. [ ] ..."). When a file has no <task>
// element and no "### Task N" or "## Plan NN-MM" sections, each item of such a list is one task
// (before numbered "### N." headings are considered: a list the plan itself calls its tasks says
// more than a heading's number).
//
// What counts (taskLists, fed by the scan line by line): the list must come directly under a
// heading whose text, ignoring case, an outline number ("3. Tasks") and a final colon, is one of
// tasksHeadings, before any other heading: numbered lists elsewhere (verification steps, success criteria) and lists under a
// sub-heading of the Tasks section are not tasks. Its items are numbered ("1." or "1)") or
// checkboxes ("- [ ]", "* [x]", "+ [X]"), whichever the first item is; the first item is
// indented at most three spaces; an item is the list's own when it is indented less than the
// content of the item before it, anything more indented (nested lists, continuation lines) is
// that item's body, and so is text between items. Lines in fenced code and HTML comments are
// never items.
//
// A session records an item's status as it does a section's: a marker comment on the line right
// under the item's first line, indented to the item's content so that it stays inside the item:
//
//	2. Serve it from `GET /export.csv`.
//	   <!-- gsd:task status="pending" -->
//
// A checked item ("- [x]") bootstraps as complete: the plan says so, as a <task status="...">
// would. Afterwards the marker is the status; the checkbox is the plan's text and never edited.

// tasksHeadings are the heading texts that announce a task list (lower case).
var tasksHeadings = []string{
	"tasks", "task list", "steps", "implementation tasks", "implementation steps", "execution steps",
	"任务", "步骤", "实施步骤", "执行步骤",
}

// item is a line that could be a task list's item.
type item struct {
	start, end int    // the line, without its line end
	next       int    // the start of the following line
	indent     int    // columns before the list marker
	content    int    // the column of the item's content
	ordered    bool   // "1." or "1)", not a checkbox bullet
	checked    bool   // "[x]"
	text       string // the item's text, after its marker and checkbox
	pad        string // the marker line's indentation: the item's prefix with every mark a space
}

// listItem reads the line src[pos:le] as a list item, if it is one.
func listItem(src []byte, pos, le int) (item, bool) {
	end := le
	if end > pos && src[end-1] == '\r' {
		end--
	}
	line := src[pos:end]
	col, i := 0, 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		if line[i] == '\t' {
			col += 4 - col%4
		} else {
			col++
		}
		i++
	}
	it := item{start: pos, end: end, next: nextLine(src, le), indent: col}
	j := i
	for j < len(line) && j-i < 9 && line[j] >= '0' && line[j] <= '9' {
		j++
	}
	switch {
	case j > i && j < len(line) && (line[j] == '.' || line[j] == ')'):
		it.ordered = true
		j++
	case j == i && j < len(line) && (line[j] == '-' || line[j] == '*' || line[j] == '+'):
		j++
	default:
		return item{}, false
	}
	// At least one space after the marker; up to four belong to it, more start indented text.
	k := j
	for k < len(line) && (line[k] == ' ' || line[k] == '\t') && k-j < 4 {
		k++
	}
	if k == j {
		return item{}, false
	}
	if k < len(line) && (line[k] == ' ' || line[k] == '\t') {
		k = j + 1
	}
	it.content = col + (k - i)
	var pad strings.Builder
	for _, c := range line[:k] {
		if c == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	it.pad = pad.String()
	rest := line[k:]
	if len(rest) >= 3 && rest[0] == '[' && rest[2] == ']' && (len(rest) == 3 || rest[3] == ' ' || rest[3] == '\t') {
		switch rest[1] {
		case ' ':
		case 'x', 'X':
			it.checked = true
		default:
			if !it.ordered {
				return item{}, false
			}
		}
		if rest[1] == ' ' || it.checked {
			rest = rest[3:]
		}
	} else if !it.ordered {
		return item{}, false // a plain bullet is a note, not a task
	}
	it.text = strings.TrimSpace(string(rest))
	if it.text == "" {
		return item{}, false
	}
	return it, true
}

// isTasksHeading reports whether a heading's text announces a task list.
func isTasksHeading(text string) bool {
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	if i > 0 && i < len(text) && strings.IndexByte(".):", text[i]) >= 0 {
		text = text[i+1:]
	}
	text = strings.TrimSpace(text)
	text = strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(text, ":"), "："))
	for _, h := range tasksHeadings {
		if strings.EqualFold(text, h) {
			return true
		}
	}
	return false
}

// taskLists collects the items of a file's task lists as the scan meets its lines: after a
// Tasks heading and until the next heading, the items at the list's own level.
type taskLists struct {
	open   bool   // the lines read are directly under a Tasks heading
	top    int    // 1 + the index in items of the list's last item so far; 0 before its first
	items  []item // every task list's items, in file order
	closes []int  // for each item, where its list ends (the next heading); -1 until known
}

// heading ends the list being read, and opens one under a Tasks heading.
func (l *taskLists) heading(h heading) {
	for i := len(l.closes) - 1; i >= 0 && l.closes[i] < 0; i-- {
		l.closes[i] = h.start
	}
	l.open, l.top = isTasksHeading(h.text), 0
}

// item takes a list item under a Tasks heading when it is one of the list's own: the first
// indented at most three spaces (more is code, or an item nested in text: no list here), the
// others less indented than the content of the item before them and of its kind (more indented,
// or of another kind, they are that item's body).
func (l *taskLists) item(it item) {
	if l.top == 0 && it.indent > 3 {
		l.open = false
		return
	}
	if top := l.top - 1; top >= 0 && (it.indent >= l.items[top].content || it.ordered != l.items[top].ordered) {
		return
	}
	l.items = append(l.items, it)
	l.closes = append(l.closes, -1)
	l.top = len(l.items)
}

// ends is where each item's task ends: the next item of its list, or the list's end (n, the end
// of the file, when no heading follows).
func (l *taskLists) ends(n int) []int {
	ends := make([]int, len(l.items))
	for i := range l.items {
		switch {
		case i+1 < len(l.items) && (l.closes[i] < 0 || l.items[i+1].start < l.closes[i]):
			ends[i] = l.items[i+1].start
		case l.closes[i] >= 0:
			ends[i] = l.closes[i]
		default:
			ends[i] = n
		}
	}
	return ends
}

// listSections records the tasks of a file's task lists, as section records a heading's.
func (s *scanner) listSections(tasks []item, ends []int, markers []markerAt) bool {
	for i := range tasks {
		it := &tasks[i]
		h := heading{start: it.start, end: it.end, next: it.next, text: it.text}
		if !s.section(&h, ends[i], markers) {
			return false
		}
		sec := s.p.Tasks[len(s.p.Tasks)-1].Section
		sec.Item, sec.Checked, sec.pad = true, it.checked, it.pad
	}
	return true
}

// mayBeItem reports whether a line (trimmed on the left) could open a list item: the scan asks
// listItem only about those.
func mayBeItem(trimmed []byte) bool {
	c := trimmed[0]
	return c >= '0' && c <= '9' || c == '-' || c == '*' || c == '+'
}
