package planfile

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// ErrUnchanged is returned by SetStatus when the task already has the wanted status: there is
// nothing to write.
var ErrUnchanged = errors.New("status unchanged")

// ErrNoTasks means a plan has neither <task> (nor <feature>) elements nor Markdown task sections
// ("### Task N: ...", see section.go), such as a plan of prose: there is nothing a session could
// track.
var ErrNoTasks = errors.New(noTasks + ": nothing to track")

const noTasks = `no <task> elements and no "### Task N" sections`

// SetStatus returns src with task n's (1-based) status set to st. Only the bytes of that one
// attribute value change; a task without a status attribute gets ` status="st"` after its last
// attribute; an unquoted value is rewritten with quotes. A Markdown task section is edited the
// same way in its gsd:task marker; one without a marker gets the marker line under its heading,
// and an unreadable marker is replaced whole. The result is scanned again and refused unless
// that status is the only thing that changed. ErrUnchanged when it already has st.
func SetStatus(src []byte, n int, st Status) ([]byte, error) {
	if _, ok := ParseStatus(string(st)); !ok {
		return nil, fmt.Errorf("unknown status %s (want %s)", textfmt.Quote(string(st)), AllowedStatuses)
	}
	p := Scan(src)
	if p.Err != nil {
		return nil, p.Err
	}
	if n < 1 || n > len(p.Tasks) {
		return nil, fmt.Errorf("no task %d: the session has %s", n, textfmt.Plural(len(p.Tasks), "task"))
	}
	at, end, repl, err := statusEdit(src, &p.Tasks[n-1], st)
	if err != nil {
		return nil, err
	}
	out := splice(src, at, end, repl)
	if err := verifyEdit(p, Scan(out), map[int]Status{n: st}); err != nil {
		return nil, err
	}
	return out, nil
}

// statusEdit is the one splice that gives t status st: src[at:end] becomes repl.
func statusEdit(src []byte, t *Task, st Status) (at, end int, repl string, err error) {
	if sec := t.Section; sec != nil && (!sec.HasMarker || sec.Bad) {
		if sec.Bad {
			// An unreadable marker is replaced whole, only when it is the whole rest of its
			// line: text after it, another comment, or a marker running over several lines is
			// the person's, and no mark may change it.
			seg := bytes.TrimRight(src[sec.Marker.Start:sec.Marker.End], " \t\r")
			if !bytes.HasSuffix(seg, []byte("-->")) || bytes.Count(seg, []byte("-->")) != 1 {
				return 0, 0, "", &LineError{Line: sec.MarkerLine, Err: fmt.Errorf("task %d has a gsd:task marker gsd cannot read, with more on its line; write it as <!-- gsd:task status=\"pending\" --> by hand", t.Number)}
			}
			return sec.Marker.Start, sec.Marker.Start + len(seg), marker(st), nil
		}
		return sec.insert, sec.insert, markerLine(src, sec, st), nil
	}
	var status []Attr
	for _, a := range t.Attrs {
		if a.Name == "status" {
			status = append(status, a)
		}
	}
	switch len(status) {
	case 0:
		q := string(quoteOf(t))
		return insertAt(t), insertAt(t), " status=" + q + string(st) + q, nil
	case 1:
		a := status[0]
		if a.Value == string(st) && a.Quote != 0 {
			return 0, 0, "", ErrUnchanged
		}
		if a.Quote != 0 {
			return a.Val.Start, a.Val.End, string(st), nil
		}
		return a.Span.Start, a.Span.End, `status="` + string(st) + `"`, nil
	}
	return 0, 0, "", &LineError{Line: t.statusLine(), Err: fmt.Errorf("task %d has %d status attributes; remove all but one by hand", t.Number, len(status))}
}

// marker is a section's status marker comment.
func marker(st Status) string { return `<!-- ` + markerTag + ` status="` + string(st) + `" -->` }

// markerLine is the line inserted under a section's heading: the marker with the heading's own
// line end, or, under a heading that ends the file, the file's line end before it.
func markerLine(src []byte, sec *Section, st Status) string {
	if sec.eol == "" {
		return eol(src) + sec.pad + marker(st)
	}
	return sec.pad + marker(st) + sec.eol
}

// InjectStatuses returns src with status="pending" added to every task start tag that has no
// status attribute, wherever its other attributes stand, and a gsd:task marker under every
// Markdown task section's heading or task list item that has none: pending, or complete for a
// checked item ("- [x]"), the status Task.Status reads there. Tasks that have one are left alone.
func InjectStatuses(src []byte) ([]byte, error) {
	p := Scan(src)
	if p.Err != nil {
		return nil, p.Err
	}
	want := map[int]Status{}
	out := make([]byte, 0, len(src)+len(p.Tasks)*len(marker(Pending)+"\r\n"))
	last := 0
	for i := range p.Tasks {
		t := &p.Tasks[i]
		if _, ok := t.StatusText(); ok || t.Section != nil && t.Section.Bad {
			continue
		}
		st, err := t.Status()
		if err != nil {
			return nil, err
		}
		at, _, repl, err := statusEdit(src, t, st)
		if err != nil {
			return nil, err
		}
		out = append(out, src[last:at]...)
		out = append(out, repl...)
		last = at
		want[t.Number] = st
	}
	out = append(out, src[last:]...)
	if err := verifyEdit(p, Scan(out), want); err != nil {
		return nil, err
	}
	return out, nil
}

// Bootstrap builds a new session file for user from the bytes of the plan at planPath (relative
// to the project root, with '/'): the three header comments, a blank line, then the plan with
// status="pending" injected. The header uses the plan's own line ending, and a byte order mark
// moves to the very start of the file.
func Bootstrap(plan []byte, user, planPath string, started time.Time) ([]byte, error) {
	if !validPlanPath(planPath) {
		return nil, fmt.Errorf("plan path %s cannot be written into a header comment", textfmt.Quote(planPath))
	}
	body, err := InjectStatuses(plan)
	if err != nil {
		return nil, err
	}
	p := Scan(body)
	if len(p.Tasks) == 0 {
		return nil, ErrNoTasks
	}
	nl := eol(plan)
	var out []byte
	if len(body) >= 3 && string(body[:3]) == string(bom) {
		out = append(out, bom...)
		body = body[3:]
	}
	out = fmt.Appendf(out, "<!-- Session progress for %s -->%s<!-- Plan: %s -->%s<!-- Started: %s -->%s%s",
		user, nl, planPath, nl, started.UTC().Format(TimeLayout), nl, nl)
	out = append(out, body...)
	// The session must read back as the tasks the plan has, each with its status: a plan the
	// header changes the reading of is refused, never written as a corrupt session.
	s := Scan(out)
	if sts, err := s.Statuses(); s.Err != nil || err != nil || len(s.Tasks) != len(p.Tasks) || len(s.CorruptReasons()) > 0 || len(sts) != len(p.Tasks) {
		return nil, fmt.Errorf("the session made from it would not read back as its %d tasks; it is not bootstrapped", len(p.Tasks))
	}
	return out, nil
}

// insertAt is where a new attribute goes: right after the task's last attribute, or after the
// element name (a marker's "gsd:task") when it has none.
func insertAt(t *Task) int {
	if len(t.Attrs) > 0 {
		return t.Attrs[len(t.Attrs)-1].Span.End
	}
	if t.Section != nil {
		return t.Section.nameEnd
	}
	if t.Feature {
		return t.Tag.Start + len("<feature")
	}
	return t.Tag.Start + len("<task")
}

// quoteOf picks the quote character the tag already uses.
func quoteOf(t *Task) byte {
	for i := len(t.Attrs) - 1; i >= 0; i-- {
		if q := t.Attrs[i].Quote; q != 0 {
			return q
		}
	}
	return '"'
}

func splice(src []byte, at, end int, repl string) []byte {
	out := make([]byte, 0, len(src)-(end-at)+len(repl))
	out = append(out, src[:at]...)
	out = append(out, repl...)
	return append(out, src[end:]...)
}

// verifyEdit checks that after differs from before only in the statuses of the tasks in want:
// same tasks, same headings, same attributes, same children, same header.
func verifyEdit(before, after *File, want map[int]Status) error {
	refuse := func(format string, args ...any) error {
		return fmt.Errorf("refusing to write: the edit would change more than task statuses (%s)", fmt.Sprintf(format, args...))
	}
	if before.Header != after.Header {
		return refuse("header")
	}
	if len(before.Tasks) != len(after.Tasks) || len(before.Blocks) != len(after.Blocks) {
		return refuse("task count %d became %d", len(before.Tasks), len(after.Tasks))
	}
	for i := range before.Tasks {
		b, a := &before.Tasks[i], &after.Tasks[i]
		st, changing := want[b.Number]
		if (b.Section == nil) != (a.Section == nil) || b.Section != nil && (b.Section.Level != a.Section.Level || b.Section.Title != a.Section.Title || b.Section.Item != a.Section.Item) {
			return refuse("task %d heading", b.Number)
		}
		if len(b.Children) != len(a.Children) {
			return refuse("task %d children", b.Number)
		}
		for j := range b.Children {
			if b.Children[j].Name != a.Children[j].Name || b.Children[j].Text != a.Children[j].Text {
				return refuse("task %d <%s>", b.Number, b.Children[j].Name)
			}
		}
		if !sameAttrsExceptStatus(b.Attrs, a.Attrs) {
			return refuse("task %d attributes", b.Number)
		}
		got, _ := a.StatusText()
		old, _ := b.StatusText()
		if changing && got != string(st) || !changing && got != old {
			return refuse("task %d status %s", b.Number, textfmt.Quote(got))
		}
	}
	return nil
}

func sameAttrsExceptStatus(a, b []Attr) bool {
	var x, y []Attr
	for _, v := range a {
		if v.Name != "status" {
			x = append(x, v)
		}
	}
	for _, v := range b {
		if v.Name != "status" {
			y = append(y, v)
		}
	}
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Name != y[i].Name || x[i].Value != y[i].Value {
			return false
		}
	}
	return true
}
