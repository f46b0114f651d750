package planfile

import (
	"fmt"

	"github.com/beevik/etree"
)

// Element returns task t as an etree element for queries: the start tag is parsed by etree (so
// attribute values are entity-decoded and a malformed tag is an error), and each child the scanner
// found is attached with its raw text, never decoded. The element is a view: nothing is ever
// written back through it.
func (p *Plan) Element(t *Task) (*etree.Element, error) {
	tag := p.Src[t.Tag.Start:t.Tag.End]
	doc := etree.NewDocument()
	doc.ReadSettings.ValidateInput = true
	buf := make([]byte, 0, len(tag)+len("</task>"))
	buf = append(buf, tag...)
	if tag[len(tag)-2] != '/' {
		buf = append(buf, "</task>"...)
	}
	if err := doc.ReadFromBytes(buf); err != nil {
		return nil, &LineError{Line: t.Line, Err: fmt.Errorf("task %d: start tag is not well-formed XML: %v", t.Number, err)}
	}
	el := doc.Root()
	if el == nil {
		return nil, &LineError{Line: t.Line, Err: fmt.Errorf("task %d: start tag is not well-formed XML", t.Number)}
	}
	el = el.Copy()
	for _, c := range t.Children {
		ce := el.CreateElement(c.Name)
		ce.SetText(c.Text)
	}
	return el, nil
}
