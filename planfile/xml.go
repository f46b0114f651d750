package planfile

import (
	"bytes"
	"strings"
	"sync"

	"github.com/beevik/etree"
)

// taskXML is what etree reads of one task, worked out on the first query (most commands ask a
// handful of tasks for a name or type; edits need only the scanner's spans).
//
// The scanner finds the spans; etree parses what is XML in them. The document handed to etree is
// the task element itself when it is well-formed XML, and otherwise a shadow built from the
// spans: the task's start tag followed by one empty element per child the scanner found, which is
// well-formed whenever the start tag is (and, with a bare "<task>" in its place, always). Child
// text is never taken from etree: it is returned as written, so "&amp;" stays "&amp;". Where both
// read the same bytes they must agree (attribute names, order and values, child names and
// order); where they do not, or etree cannot parse the start tag, the scanner's reading is used.
// Nothing is ever written through etree.
type taskXML struct {
	once sync.Once
	src  []byte // the scanned file

	el    *etree.Element // the task as etree read it; nil only if even the bare shadow failed
	whole bool           // el is the task element itself, not a shadow
	attrs bool           // el's attributes are the start tag's, read by etree and agreeing
	kids  []int          // kids[k]: the index in Task.Children of el's k-th child element
	// disagree says why etree's reading of the task element or of its start tag was set aside
	// though etree parsed it ("" when it was not): the scanner and etree read the bytes apart.
	disagree string
}

// view returns etree's reading of t, parsing on first use.
func (t *Task) view() *taskXML {
	x := t.xml
	if x == nil { // a Task not made by Scan: nothing to parse
		x = &taskXML{}
		x.once.Do(func() {})
		return x
	}
	x.once.Do(func() { x.read(t) })
	return x
}

func (x *taskXML) read(t *Task) {
	// The whole element first: a task without code or stray markup in it is XML as it stands.
	if t.Closed {
		if el := parseXML(x.src[t.Span.Start:t.Span.End]); el != nil {
			why := agree(t, el, true)
			if why == "" {
				x.el, x.whole, x.attrs = el, true, true
				x.kids = make([]int, len(t.Children))
				for i := range x.kids {
					x.kids[i] = i
				}
				return
			}
			x.disagree = why
		}
	}
	// Then the shadow: the start tag as written, or a bare <task> when the tag is not XML.
	tag := x.src[t.Tag.Start:t.Tag.End]
	var kids []byte
	for i, c := range t.Children {
		if plainName(c.Name) {
			kids = append(kids, '<')
			kids = append(kids, c.Name...)
			kids = append(kids, "/>"...)
			x.kids = append(x.kids, i)
		}
	}
	if el := parseXML(shadow(tag, kids)); el != nil {
		why := agree(t, el, false)
		if why == "" {
			x.el, x.attrs = el, true
			return
		}
		if x.disagree == "" {
			x.disagree = why
		}
	}
	x.el = parseXML(shadow([]byte("<task>"), kids))
}

// shadow is tag (a start tag, possibly self-closing) with kids inside and the end tag after.
func shadow(tag, kids []byte) []byte {
	if bytes.HasSuffix(tag, []byte("/>")) {
		if len(kids) == 0 {
			return tag
		}
		tag = append(bytes.TrimRight(tag[:len(tag)-2], " \t\r\n"), '>')
	}
	b := make([]byte, 0, len(tag)+len(kids)+len("</task>"))
	b = append(b, tag...)
	b = append(b, kids...)
	return append(b, "</task>"...)
}

// parseXML returns the root of b if b is exactly one well-formed <task> element.
func parseXML(b []byte) *etree.Element {
	doc := etree.NewDocument()
	doc.ReadSettings.PreserveDuplicateAttrs = true // the scanner keeps every attribute; so must etree
	if err := doc.ReadFromBytes(b); err != nil {
		return nil
	}
	var root *etree.Element
	for _, tok := range doc.Child {
		switch tok := tok.(type) {
		case *etree.Element:
			if root != nil {
				return nil
			}
			root = tok
		case *etree.CharData:
			if !tok.IsWhitespace() {
				return nil
			}
		}
	}
	if root == nil || root.FullTag() != "task" {
		return nil
	}
	return root
}

// agree says how etree's reading el of t differs from the scanner's, "" when it does not: the
// same attributes in the same order with the same values once references are decoded, and (for
// the whole element) the same child elements in the same order.
func agree(t *Task, el *etree.Element, whole bool) string {
	if len(el.Attr) != len(t.Attrs) {
		return "attribute count"
	}
	for i := range el.Attr {
		a, b := &el.Attr[i], &t.Attrs[i]
		if a.FullKey() != b.Name {
			return "attribute " + b.Name
		}
		// Only a reference or a carriage return can make a value read differently: XML decodes
		// the one and turns the other into a newline.
		if a.Value != b.Value && (b.Quote == 0 || !strings.ContainsAny(b.Value, "&\r")) {
			return "attribute " + b.Name + " value"
		}
	}
	if whole {
		k := 0
		for c := range el.ChildElementsSeq() {
			if k >= len(t.Children) || c.FullTag() != t.Children[k].Name {
				return "child elements"
			}
			k++
		}
		if k != len(t.Children) {
			return "child elements"
		}
	}
	return ""
}

// plainName reports whether name is an XML name the shadow can hold as it stands: letters,
// digits, '_', '-', '.' and at most one ':' between two parts.
func plainName(name string) bool {
	before, after, found := strings.Cut(name, ":")
	return plainPart(before) && (!found || plainPart(after))
}

func plainPart(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c == '-' || c == '.' || c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return true
}
