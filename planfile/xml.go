package planfile

import (
	"bytes"
	"strings"

	"github.com/beevik/etree"
)

// xmlValue is the value of t's i-th attribute as XML means it. Where the scanner's raw value
// could mean something else to XML, a quoted value holding a reference ("a &amp; b", "&#65;") or
// a carriage return (which XML reads as a newline), etree reads a shadow of the task built from
// the spans: the start tag as written and its end tag. Its value is used when it read the same
// attributes in the same order as the scanner; when etree cannot parse the tag (a bare '&', an
// unquoted value) or reads it otherwise, the value as written stands. Nothing is ever written
// through etree: edits splice the scanner's spans.
//
// Every other value is the scanner's because it is then exactly etree's, and etree costs more
// than the scan itself: on the 604 tasks of the corpus etree reads every start tag and 245 whole
// task elements as the scanner does (TestXMLAgreesOnCorpus), FuzzScan checks the same on any
// input, and reading every queried task through etree doubled the instructions of a whole
// `gsd hydrate` (a shadow per task, without the whole element, still cost 12%).
func (t *Task) xmlValue(i int) string {
	a := t.Attrs[i]
	if a.Quote == 0 || !strings.ContainsAny(a.Value, "&\r") || t.tag == nil {
		return a.Value
	}
	el := parseTask(shadow(t.tag))
	if el == nil || len(el.Attr) != len(t.Attrs) {
		return a.Value
	}
	for j := range el.Attr {
		if el.Attr[j].FullKey() != t.Attrs[j].Name {
			return a.Value
		}
	}
	return el.Attr[i].Value
}

// shadow is the task element that start tag tag opens, with nothing inside.
func shadow(tag []byte) []byte {
	if bytes.HasSuffix(tag, []byte("/>")) {
		return tag
	}
	return append(tag[:len(tag):len(tag)], "</task>"...)
}

// parseTask returns the root of b if b is exactly one well-formed <task> element.
func parseTask(b []byte) *etree.Element {
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
