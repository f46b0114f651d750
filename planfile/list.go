package planfile

import "strings"

// Task lists.
//
// Some plans without <task> elements or task headings write their tasks as a list under a
// heading that names them:
//
//	## Tasks
//
//	1. Restore the missing helper in `lesson_service.py`.
//	2. Pass the lesson metadata to it.
//	   - nested items, paragraphs and code fences belong to task 2
//
// or as a checklist ("- [ ] ...", "- [x] ...", "1. [ ] ..."). When a file has no <task>
// element and no "### Task N" or "## Plan NN-MM" sections, each item of such a list is one task
// (before numbered "### N." headings are considered: a list the plan itself calls its tasks says
// more than a heading's number).
//
// What counts: the list must come directly under a heading whose text, ignoring case, an
// outline number ("3. Tasks") and a final colon, is one of tasksHeadings, before any other
// heading: numbered lists elsewhere (verification steps, success criteria) and lists under a
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
//	2. Pass the lesson metadata to it.
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

// listTasks picks, from the candidate items (in file order), the items of the task lists: those
// directly under a Tasks heading, at the list's own level. ends[i] is where task i ends: the
// next item of its list, or the next heading (n, the end of the file, when there is none).
func listTasks(hs []heading, items []item, n int) (tasks []item, ends []int) {
	k := 0 // headings and items are in file order, and the regions do not overlap: one pass
	for i := range hs {
		if !isTasksHeading(hs[i].text) {
			continue
		}
		from, to := hs[i].next, n
		if i+1 < len(hs) {
			to = hs[i+1].start
		}
		var top *item
		first := len(tasks)
		for ; k < len(items) && items[k].start < to; k++ {
			it := &items[k]
			if it.start < from {
				continue
			}
			if top == nil {
				if it.indent > 3 {
					break // indented code, or an item nested in text: not a list of tasks
				}
			} else if it.indent >= top.content || it.ordered != top.ordered {
				continue // nested in the item before it, or another list in its body
			}
			if top != nil {
				ends = append(ends, it.start)
			}
			top = it
			tasks = append(tasks, *it)
		}
		if len(tasks) > first {
			ends = append(ends, to)
		}
	}
	return tasks, ends
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
