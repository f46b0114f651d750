// Package statemd is STATE.md's text: it reads the Current Position fields and the frontmatter
// with their line numbers, and rewrites them byte-exactly, only ever replacing a value with a
// better-informed one. It decides nothing about where a project stands: the caller works that
// out (from the roadmap and the disk) and hands the values in.
//
// It lives under roadmap because STATE.md is the report of the model roadmap keeps: roadmap
// reads what STATE.md declares when it decides the Position, and derives the Values it should
// say (roadmap.Project.StateValues, beside that reading), which hydrate has written here under
// GSD's lock. It imports only roadmap/phasenum (one phase-number grammar), never roadmap
// itself, so roadmap can import it.
package statemd

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/gsd-tools/gsd/roadmap/phasenum"
)

// line is one line of STATE.md with its line ending kept apart.
type line struct {
	text string
	eol  string // "\n", "\r\n", or "" for a last line without one
}

func splitLines(s string) []line {
	out := make([]line, 0, strings.Count(s, "\n")+1) // one allocation, not a dozen
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, line{text: s})
			break
		}
		l := line{text: s[:i], eol: "\n"}
		if strings.HasSuffix(l.text, "\r") {
			l.text, l.eol = l.text[:len(l.text)-1], "\r\n"
		}
		out = append(out, l)
		s = s[i+1:]
	}
	return out
}

func join(lines []line) []byte {
	n := 0
	for _, l := range lines {
		n += len(l.text) + len(l.eol)
	}
	b := make([]byte, 0, n)
	for _, l := range lines {
		b = append(b, l.text...)
		b = append(b, l.eol...)
	}
	return b
}

// Doc is a parsed STATE.md.
type Doc struct {
	lines []line
	fmEnd int // index of the line closing a leading YAML frontmatter; 0 when there is none
	// heading is the Current Position heading's index, -1 when there is none. The fields are
	// read in [start, end): the section up to the next heading of its level or higher, or,
	// without the section (or when it sets no field and those lines set the phase or the
	// plan), the lines before the first "## " heading.
	heading, start, end int
	field               map[string]int // the first line of each field ("Phase", "Plan", "Status", "Progress") in [start, end)
	fenced              []bool         // lines inside a ``` or ~~~ fence (and the fence lines)
}

// Parse reads src. It never fails: what it cannot read is absent. The Doc, and every string it
// gives, share src's bytes: a caller holding a file's bytes that are never written again can pass
// them without a copy (unsafe.String), as a large STATE.md read on every agent turn is worth.
func Parse(src string) *Doc {
	d := &Doc{lines: splitLines(src), heading: -1, field: map[string]int{}}
	d.fenced = make([]bool, len(d.lines))
	if len(d.lines) > 0 && strings.TrimSpace(strings.TrimPrefix(d.lines[0].text, "\ufeff")) == "---" {
		for i := 1; i < len(d.lines); i++ {
			if t := strings.TrimSpace(d.lines[i].text); t == "---" || t == "..." {
				d.fmEnd = i
				break
			}
		}
	}
	body := 0
	if d.fmEnd > 0 {
		body = d.fmEnd + 1
	}
	fence, open := "", 0
	for i := body; i < len(d.lines); i++ {
		t := strings.TrimLeft(d.lines[i].text, " ")
		switch {
		case fence != "":
			d.fenced[i] = true
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			d.fenced[i], fence, open = true, t[:3], i
		}
	}
	if fence != "" {
		// A fence never closed is a typo, not a code block swallowing the rest of the file
		// (and a section appended to the file must be found again).
		clear(d.fenced[open:])
	}
	for i := body; i < len(d.lines); i++ {
		if lv, title := d.headingAt(i); lv > 0 && isPositionTitle(title) {
			d.heading = i
			d.start, d.end = i+1, d.sectionEnd(i)
			break
		}
	}
	if d.heading < 0 {
		// Under another name ("## Where we are", "## Current Status"): the first such section
		// that sets the phase or the plan, rather than a second block appended below it.
		for i := body; i < len(d.lines) && d.heading < 0; i++ {
			if lv, title := d.headingAt(i); lv > 0 && isPositionAlias(title) {
				if end := d.sectionEnd(i); d.setsPosition(i+1, end) {
					d.heading, d.start, d.end = i, i+1, end
				}
			}
		}
	}
	preambleEnd := len(d.lines) // the lines before the first "## " heading end here
	for i := body; i < len(d.lines); i++ {
		if lv, _ := d.headingAt(i); lv == 2 {
			preambleEnd = i
			break
		}
	}
	if d.heading >= 0 && !d.setsField(d.start, d.end) && d.setsPosition(body, preambleEnd) {
		// A Current Position section of tables alone (no field of its own), under a preamble
		// that sets the phase or the plan ("**Phase:** 14-cleanup" below the title): the
		// preamble is the position.
		d.heading = -1
	}
	if d.heading < 0 {
		d.start, d.end = body, preambleEnd
	}
	for i := d.start; i < d.end; i++ {
		if d.fenced[i] {
			continue
		}
		if f, _, _, ok := fieldAt(d.lines[i].text); ok {
			if _, seen := d.field[f]; !seen {
				d.field[f] = i
			}
		}
	}
	return d
}

// setsField reports whether lines [start, end) set any Current Position field, outside code.
func (d *Doc) setsField(start, end int) bool {
	for j := start; j < end; j++ {
		if _, _, _, ok := fieldAt(d.lines[j].text); ok && !d.fenced[j] {
			return true
		}
	}
	return false
}

// setsPosition reports whether lines [start, end) set the phase or the plan, outside code.
func (d *Doc) setsPosition(start, end int) bool {
	for j := start; j < end; j++ {
		if f, _, _, ok := fieldAt(d.lines[j].text); ok && !d.fenced[j] && (f == "Phase" || f == "Plan") {
			return true
		}
	}
	return false
}

// headingAt returns the level and title of a Markdown heading at line i (0 when it is not one).
func (d *Doc) headingAt(i int) (int, string) {
	if d.fenced[i] {
		return 0, ""
	}
	t := strings.TrimPrefix(d.lines[i].text, "\ufeff")
	n := len(t) - len(strings.TrimLeft(t, "#"))
	if n == 0 || n > 6 || n < len(t) && t[n] != ' ' && t[n] != '\t' {
		return 0, ""
	}
	return n, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(t[n:]), "#"))
}

// sectionEnd is the index of the first heading after h of h's level or higher, or len(lines).
func (d *Doc) sectionEnd(h int) int {
	lv, _ := d.headingAt(h)
	for i := h + 1; i < len(d.lines); i++ {
		if l, _ := d.headingAt(i); l > 0 && l <= lv {
			return i
		}
	}
	return len(d.lines)
}

// splitLabel splits a labelled line ("Phase: 3 of 8", "**Phase:** 3", "- **Next action:** ...")
// into the label's name ("Phase"), the label's bytes up to the value (bullet, markers and the
// blanks after it included) and the value.
func splitLabel(text string) (name, label, value string, ok bool) {
	i := 0
	if strings.HasPrefix(text, "\ufeff") {
		i = len("\ufeff")
	}
	if strings.HasPrefix(text[i:], "- ") {
		i += 2
	}
	t := text[i:]
	n := 0
	if strings.HasPrefix(t, "**") {
		j := strings.Index(t[2:], "**")
		if j < 0 {
			return "", "", "", false
		}
		inner, after := t[2:2+j], t[2+j+2:]
		switch {
		case strings.HasSuffix(inner, ":"):
			name, n = inner[:len(inner)-1], 2+j+2
		case strings.HasPrefix(after, ":"):
			name, n = inner, 2+j+3
		default:
			return "", "", "", false
		}
	} else {
		j := strings.IndexByte(t, ':')
		if j <= 0 || j > 40 {
			return "", "", "", false
		}
		name, n = t[:j], j+1
	}
	if !labelName(name) {
		return "", "", "", false
	}
	rest := t[n:]
	sp := len(rest) - len(strings.TrimLeft(rest, " \t"))
	return name, text[:i+n+sp], rest[sp:], true
}

// labelName reports whether s can name a field: letters and single spaces ("Current Phase"),
// so that "Phase 1: State Machine" is a line of prose, not a Phase field.
func labelName(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == ' ' && s[i-1] != ' ') {
			return false
		}
	}
	return true
}

// isPositionTitle reports whether a heading opens the Current Position section: "Current
// Position", also after an emoji ("📍 Current Position") or with a status after it ("CURRENT
// POSITION: IN PROGRESS", "Current Position — Phase 3").
func isPositionTitle(title string) bool { return titled(title, "current position") }

// isPositionAlias reports whether a heading names the position otherwise ("Where we are",
// "Current Status", "Status", "Current State", "Position"): such a section is the position's
// only when it sets the phase or the plan.
func isPositionAlias(title string) bool {
	for _, name := range []string{"where we are", "current status", "current state", "status", "position"} {
		if titled(title, name) {
			return true
		}
	}
	return false
}

// titled reports whether title is name, ignoring case and any emoji or punctuation before it,
// followed by nothing or by a status after a separator.
func titled(title, name string) bool {
	title = strings.TrimLeftFunc(title, func(r rune) bool { return !unicode.IsLetter(r) })
	if len(title) < len(name) || !strings.EqualFold(title[:len(name)], name) {
		return false
	}
	rest := strings.TrimSpace(title[len(name):])
	return rest == "" || strings.IndexByte(":-(", rest[0]) >= 0 ||
		strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") // dashes of three bytes
}

// fieldName maps the label name of a Current Position field to the field (a switch, not a map:
// a map literal would be built at every process start).
func fieldName(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "phase", "current phase":
		return "Phase", true
	case "plan", "current plan":
		return "Plan", true
	case "status":
		return "Status", true
	case "progress":
		return "Progress", true
	}
	return "", false
}

// fieldAt returns the Current Position field a line sets, its label bytes and its value.
func fieldAt(text string) (field, label, value string, ok bool) {
	name, label, value, ok := splitLabel(text)
	if !ok {
		return "", "", "", false
	}
	field, ok = fieldName(name)
	return field, label, value, ok
}

// phaseToken returns the phase token a value starts with and the byte span it occupies; "" when
// the value does not start with one.
func phaseToken(v string) (tok string, start, end int) {
	// The phase a value starts with: "07 of 9", "Phase 12.3.1 — Name", "**E73**", "\"07\"".
	s, e := phaseTokenSpan(v)
	if s < 0 {
		return "", 0, 0
	}
	if e < len(v) && (isAlnum(v[e])) {
		return "", 0, 0 // "3rd", "12abc": not a phase number
	}
	return v[s:e], s, e
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// samePhase reports whether two phase tokens name the same phase, by the one grammar of phase
// numbers (package phasenum) the roadmap reads them with: "07" = "7", "3.1" != "3", "16c" =
// "16C" != "16", "E73" != "73", "CK-01" = "1"; a token that is no phase number ("e73", "v1.8")
// is the same as nothing.
func samePhase(a, b string) bool {
	na, oka := phasenum.Parse(a)
	nb, okb := phasenum.Parse(b)
	return oka && okb && na.Equal(nb)
}

// ofCount finds " of N" right after position at in v: N and its byte span; n = -1 when absent.
func ofCount(v string, at int) (n, start, end int) {
	rest := v[at:]
	t := strings.TrimLeft(rest, " \t")
	if !strings.HasPrefix(t, "of ") {
		return -1, 0, 0
	}
	s := at + len(rest) - len(t) + 3
	for s < len(v) && v[s] == ' ' {
		s++
	}
	e := s
	for e < len(v) && v[e] >= '0' && v[e] <= '9' {
		e++
	}
	n, err := strconv.Atoi(v[s:e])
	if err != nil {
		return -1, 0, 0
	}
	return n, s, e
}

// aOfB parses the "A of B" a Plan value starts with, with the end of "B".
func aOfB(v string) (a, b, end int, ok bool) {
	e := 0
	for e < len(v) && v[e] >= '0' && v[e] <= '9' {
		e++
	}
	a, err := strconv.Atoi(v[:e])
	if err != nil {
		return 0, 0, 0, false
	}
	b, _, end = ofCount(v, e)
	return a, b, end, b >= 0
}

// percentSpan finds the first "NN%" of a Progress value: the number and its byte span.
func percentSpan(v string) (n, start, end int, ok bool) {
	s, e := percentAt(v)
	if s < 0 {
		return 0, 0, 0, false
	}
	n, _ = strconv.Atoi(v[s:e])
	return n, s, e, true
}
