package planfile

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/gsd-tools/gsd/roadmap/testcorpus"
)

func TestXMLReadsAmbiguousAttributes(t *testing.T) {
	src := "<tasks>\n" +
		"<task type=\"a &amp; b\" gate='x' id=\"&#55;\">\n<name>N &amp; M</name>\n<action>x</action>\n</task>\n" +
		"<task type=\"c &lt; d\">\n<name>N & M</name>\n<action>a < b</action>\n</task>\n" + // tag is XML, body is not
		"<task type=\"c & d\">\n<name>Bare</name>\n</task>\n" + // tag is not XML: as written
		"<task type=auto name=\"x &amp; y\">\n</task>\n" + // tag is not XML: as written
		"<task type=\"auto\" status=\"pending\" title=\"p &quot;q&quot;\"/>\n" +
		"</tasks>\n"
	p := Scan([]byte(src))
	if len(p.Tasks) != 5 {
		t.Fatalf("%d tasks", len(p.Tasks))
	}
	for i, w := range []struct{ typ, name string }{
		{"a & b", "N &amp; M"}, // child text as written
		{"c < d", "N & M"},
		{"c & d", "Bare"},
		{"auto", "x &amp; y"},
		{"auto", `p "q"`},
	} {
		tk := &p.Tasks[i]
		if got := tk.Type(); got != w.typ {
			t.Errorf("task %d: type %q, want %q", i+1, got, w.typ)
		}
		if got := tk.Name(); got != w.name {
			t.Errorf("task %d: name %q, want %q", i+1, got, w.name)
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
	if why := xmlAgreement(p, true); why != "" {
		t.Error(why)
	}
}

// The checker can fail: a tag directly inside a task but in a code fence is a child to etree and
// not to the scanner.
func TestXMLAgreementSeesDisagreement(t *testing.T) {
	p := Scan([]byte("<tasks>\n<task type=\"auto\">\n<name>A</name>\n```\n<b/>\n```\n</task>\n</tasks>\n"))
	if why := xmlAgreement(p, true); !strings.Contains(why, "child element 2 is <b>") {
		t.Errorf("strict: %q", why)
	}
	if why := xmlAgreement(p, false); why != "" {
		t.Errorf("not strict: %q", why)
	}
}

// TestXMLAgreesOnCorpus reads every plan of the real projects (GSD_CORPUS) and requires etree and the scanner to read every task alike, wherever etree can
// read it: its start tag, and the whole element when that is well-formed XML.
func TestXMLAgreesOnCorpus(t *testing.T) {
	root := testcorpus.Dir(t)
	var plans, tasks, tags, whole int
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
		if why := xmlAgreement(p, true); why != "" {
			t.Errorf("%s: %s", path, why)
		}
		for i := range p.Tasks {
			tk := &p.Tasks[i]
			tasks++
			if parseTask(shadow(tk.tag)) != nil {
				tags++
			}
			if tk.Closed && parseTask(src[tk.Span.Start:tk.Span.End]) != nil {
				whole++
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
	t.Logf("%d plans, %d tasks: etree reads %d start tags and %d whole task elements, all as the scanner does", plans, tasks, tags, whole)
}

// xmlAgreement checks every task of p against etree's reading of it. Wherever etree parses a
// start tag, it must find the scanner's attributes in the scanner's order, AttrValue must give
// its values, and a decoder of the test's own must agree with both; where it does not, AttrValue
// gives the value as written. Where etree parses the whole task element, it must find the
// scanner's children in order, with the same text once decoded. Only with strict does that hold
// for tasks with code, comments, CDATA or processing instructions directly inside, which etree
// reads as markup and the scanner does not: any input then may differ, real plans may not.
func xmlAgreement(p *File, strict bool) string {
	for i := range p.Tasks {
		tk := &p.Tasks[i]
		if el := parseTask(shadow(tk.tag)); el != nil {
			if len(el.Attr) != len(tk.Attrs) {
				return fmt.Sprintf("task %d: %d attributes to etree, %d to the scanner", i+1, len(el.Attr), len(tk.Attrs))
			}
			for j, a := range el.Attr {
				s := tk.Attrs[j]
				if a.FullKey() != s.Name || a.Value != decodeXML(s.Value) || a.Value != tk.xmlValue(j) {
					return fmt.Sprintf("task %d: etree read %s=%q, scanner %s=%q, AttrValue %q", i+1, a.FullKey(), a.Value, s.Name, s.Value, tk.xmlValue(j))
				}
			}
		} else {
			for j, a := range tk.Attrs {
				if tk.xmlValue(j) != a.Value {
					return fmt.Sprintf("task %d: %s=%q not XML, yet read as %q", i+1, a.Name, a.Value, tk.xmlValue(j))
				}
			}
		}
		if !tk.Closed {
			continue
		}
		body := p.Src[tk.Span.Start:tk.Span.End]
		if !strict && (bytes.ContainsAny(body, "`~") || bytes.Contains(body, []byte("<!")) || bytes.Contains(body, []byte("<?"))) {
			continue
		}
		el := parseTask(body)
		if el == nil {
			continue
		}
		k := 0
		for c := range el.ChildElementsSeq() {
			if k >= len(tk.Children) || c.FullTag() != tk.Children[k].Name {
				return fmt.Sprintf("task %d: child element %d is <%s> to etree", i+1, k+1, c.FullTag())
			}
			if text, leaf := leafText(c); leaf && text != decodeXML(tk.Children[k].Text) {
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
