package planfile

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/beevik/etree"
)

func TestXMLReadsStartTagsAndChildren(t *testing.T) {
	src := "<tasks>\n" +
		"<task type=\"a &amp; b\" gate='x' id=\"7\">\n<name>N &amp; M</name>\n<action>x</action>\n</task>\n" + // whole element is XML
		"<task type=\"c &lt; d\">\n<name>N & M</name>\n<action>a < b</action>\n</task>\n" + // tag is XML, body is not
		"<task type=auto>\n<name>Unquoted</name>\n</task>\n" + // tag is not XML
		"<task type=\"auto\" status=\"pending\"/>\n" +
		"</tasks>\n"
	p := Scan([]byte(src))
	if len(p.Tasks) != 4 {
		t.Fatalf("%d tasks", len(p.Tasks))
	}
	want := []struct {
		whole, attrs bool
		typ, name    string
	}{
		{true, true, "a & b", "N &amp; M"},
		{false, true, "c < d", "N & M"},
		{false, false, "auto", "Unquoted"},
		{true, true, "auto", "auto 4"}, // self-closing: the tag is the whole element
	}
	for i, w := range want {
		tk := &p.Tasks[i]
		x := tk.view()
		if x.whole != w.whole || x.attrs != w.attrs || x.el == nil || x.disagree != "" {
			t.Errorf("task %d: whole %v attrs %v el %v disagree %q, want whole %v attrs %v", i+1, x.whole, x.attrs, x.el != nil, x.disagree, w.whole, w.attrs)
		}
		if got := tk.Type(); got != w.typ {
			t.Errorf("task %d: type %q, want %q", i+1, got, w.typ)
		}
		if got := tk.Name(); got != w.name {
			t.Errorf("task %d: name %q, want %q (child text as written)", i+1, got, w.name)
		}
	}
	if v, ok := p.Tasks[0].AttrValue("id"); !ok || v != "7" {
		t.Errorf("id = %q %v", v, ok)
	}
	if _, ok := p.Tasks[0].AttrValue("status"); ok {
		t.Error("task 1 has no status attribute")
	}
	if a, _ := p.Tasks[0].Attr("type"); a.Value != "a &amp; b" {
		t.Errorf("Attr keeps the raw value for edits, got %q", a.Value)
	}
	if c, ok := p.Tasks[1].Child("action"); !ok || c.Text != "a < b" {
		t.Errorf("action = %q %v", c.Text, ok)
	}
	if why := xmlAgreement(p); why != "" {
		t.Error(why)
	}
}

func TestXMLFallsBackWhenReadingsDiffer(t *testing.T) {
	// A tag directly inside the task but in a code fence is a child to etree and not to the
	// scanner: the whole element is set aside for the shadow, which still reads the start tag.
	src := "<tasks>\n<task type=\"auto\">\n<name>A</name>\n```\n<b/>\n```\n</task>\n</tasks>\n"
	p := Scan([]byte(src))
	x := p.Tasks[0].view()
	if x.whole || !x.attrs || x.disagree != "child elements" {
		t.Errorf("whole %v attrs %v disagree %q", x.whole, x.attrs, x.disagree)
	}
	if _, ok := p.Tasks[0].Child("b"); ok {
		t.Error("a fenced <b/> is not a child")
	}
	if got := p.Tasks[0].Name(); got != "A" {
		t.Errorf("name %q", got)
	}
}

// TestXMLAgreesOnCorpus reads every plan of the real projects in ../shared/corpus (beside the
// checkout) and requires etree and the scanner to read every task alike.
func TestXMLAgreesOnCorpus(t *testing.T) {
	root := filepath.Join("..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("the corpus of real projects is missing: %v", err)
	}
	var plans, tasks, whole, tags int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") || !strings.Contains(d.Name(), "PLAN") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		plans++
		p := Scan(src)
		if why := xmlAgreement(p); why != "" {
			t.Errorf("%s: %s", path, why)
		}
		for i := range p.Tasks {
			x := p.Tasks[i].view()
			if x.disagree != "" {
				t.Errorf("%s:%d: etree and the scanner read task %d apart (%s)", path, p.Tasks[i].Line, i+1, x.disagree)
			}
			tasks++
			if x.whole {
				whole++
			}
			if x.attrs {
				tags++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if plans < 100 || tasks < 100 {
		t.Fatalf("only %d plans and %d tasks found under %s", plans, tasks, root)
	}
	t.Logf("%d plans, %d tasks: %d whole elements and %d start tags read by etree", plans, tasks, whole, tags)
}

// xmlAgreement checks, for every task of p, that what etree's reading answers is what the scanner
// read: attribute values decoded by a decoder of its own, child elements in order, the text of
// leaf children, and every query. It returns "" when they agree.
func xmlAgreement(p *Plan) string {
	for i := range p.Tasks {
		tk := &p.Tasks[i]
		x := tk.view()
		if x.el == nil {
			return fmt.Sprintf("task %d: not even the bare shadow parsed", i+1)
		}
		if x.attrs {
			if len(x.el.Attr) != len(tk.Attrs) {
				return fmt.Sprintf("task %d: %d attributes, scanner %d", i+1, len(x.el.Attr), len(tk.Attrs))
			}
			for j, a := range x.el.Attr {
				s := tk.Attrs[j]
				if a.FullKey() != s.Name || a.Value != decodeXML(s.Value) {
					return fmt.Sprintf("task %d: etree read %s=%q, scanner %s=%q", i+1, a.FullKey(), a.Value, s.Name, s.Value)
				}
			}
		}
		for _, n := range []string{"type", "id", "name", "status"} {
			got, ok := tk.AttrValue(n)
			s, sok := tk.Attr(n)
			want := s.Value
			if x.attrs {
				want = decodeXML(s.Value)
			}
			if ok != sok || got != want {
				return fmt.Sprintf("task %d: AttrValue(%s) = %q %v, scanner %q %v", i+1, n, got, ok, s.Value, sok)
			}
		}
		for _, c := range tk.Children {
			got, ok := tk.Child(c.Name)
			var want Child
			for _, w := range tk.Children {
				if w.Name == c.Name {
					want = w
					break
				}
			}
			if !ok || got.Span != want.Span || got.Text != want.Text {
				return fmt.Sprintf("task %d: Child(%s) = %+v %v, scanner %+v", i+1, c.Name, got.Span, ok, want.Span)
			}
		}
		if _, ok := tk.Child("no-such-child"); ok {
			return fmt.Sprintf("task %d: a child that is not there", i+1)
		}
		if !x.whole {
			continue
		}
		k := 0
		for c := range x.el.ChildElementsSeq() {
			if k >= len(tk.Children) || c.FullTag() != tk.Children[k].Name {
				return fmt.Sprintf("task %d: child element %d is <%s> to etree", i+1, k+1, c.FullTag())
			}
			if text, leaf := leafText(c); leaf && !strings.Contains(tk.Children[k].Text, "<![CDATA[") && text != decodeXML(tk.Children[k].Text) {
				return fmt.Sprintf("task %d: <%s> is %q to etree, %q to the scanner", i+1, c.FullTag(), text, tk.Children[k].Text)
			}
			k++
		}
		if k != len(tk.Children) {
			return fmt.Sprintf("task %d: %d child elements to etree, %d to the scanner", i+1, k, len(tk.Children))
		}
	}
	return ""
}

// leafText is the text of an element that holds nothing but text.
func leafText(e *etree.Element) (string, bool) {
	var b strings.Builder
	for _, tok := range e.Child {
		cd, ok := tok.(*etree.CharData)
		if !ok {
			return "", false
		}
		b.WriteString(cd.Data)
	}
	return b.String(), true
}

// decodeXML reads raw text as an XML parser does: line ends normalised to "\n", then the five
// predefined entities and character references decoded. It assumes s is well-formed.
func decodeXML(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i+1:]
		j := strings.IndexByte(s, ';')
		if j < 0 {
			b.WriteString("&" + s)
			return b.String()
		}
		ref := s[:j]
		s = s[j+1:]
		switch {
		case ref == "lt":
			b.WriteByte('<')
		case ref == "gt":
			b.WriteByte('>')
		case ref == "amp":
			b.WriteByte('&')
		case ref == "apos":
			b.WriteByte('\'')
		case ref == "quot":
			b.WriteByte('"')
		case strings.HasPrefix(ref, "#x"):
			n, _ := strconv.ParseUint(ref[2:], 16, 32)
			b.WriteRune(rune(n))
		case strings.HasPrefix(ref, "#"):
			n, _ := strconv.ParseUint(ref[1:], 10, 32)
			b.WriteRune(rune(n))
		default:
			b.WriteString("&" + ref + ";")
		}
	}
}
