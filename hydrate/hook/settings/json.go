package settings

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// node is a JSON value and where it lies in the source.
type node struct {
	kind       byte // '{', '[', '"', or 'v' for numbers, true, false and null
	start, end int  // the value's bytes, [start, end)
	members    []member
	elems      []*node
	str        string // a string's decoded value
}

// member is one "key": value of an object.
type member struct {
	key      string
	keyStart int // the key's opening quote
	val      *node
}

func (n *node) member(key string) (*node, bool) {
	if n == nil || n.kind != '{' {
		return nil, false
	}
	// The last one wins, as with encoding/json and JavaScript's JSON.parse.
	for i := len(n.members) - 1; i >= 0; i-- {
		if n.members[i].key == key {
			return n.members[i].val, true
		}
	}
	return nil, false
}

// path follows object keys from n; no keys is n itself.
func (n *node) path(keys ...string) (*node, bool) {
	for _, k := range keys {
		var ok bool
		if n, ok = n.member(k); !ok {
			return nil, false
		}
	}
	return n, true
}

// parse scans a settings file: strict JSON (encoding/json decides), an object at the top.
func parse(src []byte) (*node, error) {
	if !json.Valid(src) {
		var v any
		err := json.Unmarshal(src, &v)
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("line %d: not valid JSON (%v); not touching it", lineOf(src, int(se.Offset)), err)
		}
		return nil, fmt.Errorf("not valid JSON (%v); not touching it", err)
	}
	p := &parser{src: src}
	n := p.value()
	if n.kind != '{' {
		return nil, errors.New("not a JSON object; not touching it")
	}
	return n, nil
}

func lineOf(src []byte, off int) int {
	off = min(max(off, 0), len(src))
	return 1 + bytes.Count(src[:off], []byte("\n"))
}

// parser walks JSON already known to be valid.
type parser struct {
	src []byte
	pos int
}

func (p *parser) ws() {
	for p.pos < len(p.src) && strings.IndexByte(" \t\r\n", p.src[p.pos]) >= 0 {
		p.pos++
	}
}

func (p *parser) value() *node {
	p.ws()
	n := &node{start: p.pos}
	switch c := p.src[p.pos]; c {
	case '{':
		n.kind = '{'
		p.pos++
		for {
			p.ws()
			if p.src[p.pos] == '}' {
				p.pos++
				break
			}
			if p.src[p.pos] == ',' {
				p.pos++
				p.ws()
			}
			keyStart := p.pos
			key := p.value()
			p.ws()
			p.pos++ // ':'
			n.members = append(n.members, member{key: key.str, keyStart: keyStart, val: p.value()})
		}
	case '[':
		n.kind = '['
		p.pos++
		for {
			p.ws()
			if p.src[p.pos] == ']' {
				p.pos++
				break
			}
			if p.src[p.pos] == ',' {
				p.pos++
			}
			n.elems = append(n.elems, p.value())
		}
	case '"':
		n.kind = '"'
		i := p.pos + 1
		for p.src[i] != '"' {
			if p.src[i] == '\\' {
				i++
			}
			i++
		}
		p.pos = i + 1
		_ = json.Unmarshal(p.src[n.start:p.pos], &n.str)
	default:
		n.kind = 'v'
		for p.pos < len(p.src) && strings.IndexByte(" \t\r\n,]}", p.src[p.pos]) < 0 {
			p.pos++
		}
	}
	n.end = p.pos
	return n
}

// layout is how a container's children are laid out: each on its own line with an indentation,
// or all on one line.
type layout struct {
	multiline bool
	outer     string // indentation of the line the container opens on
	inner     string // indentation of its children
	eol       string
}

func layoutOf(src []byte, n *node, firstChild int) layout {
	l := layout{outer: lineIndent(src, n.start), eol: "\n"}
	if bytes.Contains(src, []byte("\r\n")) {
		l.eol = "\r\n"
	}
	if firstChild < 0 {
		// Empty: lay the new child out on its own line, one unit deeper.
		l.multiline = true
		l.inner = l.outer + indentUnit(src)
		return l
	}
	l.multiline = bytes.ContainsAny(src[n.start:firstChild], "\n")
	l.inner = lineIndent(src, firstChild)
	return l
}

// lineIndent is the whitespace that starts the line holding off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// indentUnit guesses the file's indentation step from its first indented line: two spaces when
// there is none.
func indentUnit(src []byte) string {
	for _, line := range bytes.Split(src, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) < len(line) && len(bytes.TrimSpace(t)) > 0 {
			return string(line[:len(line)-len(t)])
		}
	}
	return "  "
}

// render marshals v for insertion at l's child position.
func (l layout) render(v any) (string, error) {
	if !l.multiline {
		b, err := marshal(v, "", "")
		return string(spaceAfterColons(b)), err
	}
	unit := strings.TrimPrefix(l.inner, l.outer)
	if unit == "" || unit == l.inner {
		unit = "  "
	}
	b, err := marshal(v, l.inner, unit)
	return strings.ReplaceAll(string(b), "\n", l.eol), err
}

func marshal(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if prefix != "" || indent != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// spaceAfterColons turns compact JSON's `"k":v` and `,` into `"k": v` and `, ` for one-line
// containers, which people write with spaces.
func spaceAfterColons(b []byte) []byte {
	var out []byte
	inStr := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		out = append(out, c)
		switch {
		case inStr && c == '\\':
			i++
			out = append(out, b[i])
		case c == '"':
			inStr = !inStr
		case !inStr && (c == ':' || c == ','):
			out = append(out, ' ')
		}
	}
	return out
}

func splice(src []byte, at, end int, repl string) []byte {
	out := make([]byte, 0, len(src)-(end-at)+len(repl))
	out = append(out, src[:at]...)
	out = append(out, repl...)
	return append(out, src[end:]...)
}

// insertAfter adds text as the last child of container n, whose last child ends at lastEnd
// (-1 when n is empty) and whose first child starts at firstStart.
func insert(src []byte, n *node, firstStart, lastEnd int, child func(layout) (string, error)) ([]byte, error) {
	l := layoutOf(src, n, firstStart)
	text, err := child(l)
	if err != nil {
		return nil, err
	}
	if lastEnd < 0 {
		// "{}" or "[ ]": replace the inside.
		return splice(src, n.start+1, n.end-1, l.eol+l.inner+text+l.eol+l.outer), nil
	}
	if l.multiline {
		return splice(src, lastEnd, lastEnd, ","+l.eol+l.inner+text), nil
	}
	return splice(src, lastEnd, lastEnd, ", "+text), nil
}

func insertMember(src []byte, obj *node, key string, v any) ([]byte, error) {
	first, last := -1, -1
	if len(obj.members) > 0 {
		first, last = obj.members[0].keyStart, obj.members[len(obj.members)-1].val.end
	}
	return insert(src, obj, first, last, func(l layout) (string, error) {
		k, _ := marshal(key, "", "")
		val, err := l.render(v)
		return string(k) + ": " + val, err
	})
}

func insertElem(src []byte, arr *node, v any) ([]byte, error) {
	first, last := -1, -1
	if len(arr.elems) > 0 {
		first, last = arr.elems[0].start, arr.elems[len(arr.elems)-1].end
	}
	return insert(src, arr, first, last, func(l layout) (string, error) { return l.render(v) })
}

// removeChild cuts the child spanning [start, end) at index i of n children, with its separator:
// the comma before it when it is the last, else the comma after it; an only child leaves "{}"
// or "[]".
func removeChild(src []byte, n *node, i, count int, starts, ends func(int) int) []byte {
	switch {
	case count == 1:
		return splice(src, n.start+1, n.end-1, "")
	case i == count-1:
		return splice(src, ends(i-1), ends(i), "")
	default:
		return splice(src, starts(i), starts(i+1), "")
	}
}

func removeElem(src []byte, arr *node, i int) []byte {
	return removeChild(src, arr, i, len(arr.elems),
		func(j int) int { return arr.elems[j].start }, func(j int) int { return arr.elems[j].end })
}

func removeMember(src []byte, obj *node, key string) []byte {
	for i := len(obj.members) - 1; i >= 0; i-- {
		if obj.members[i].key == key {
			return removeChild(src, obj, i, len(obj.members),
				func(j int) int { return obj.members[j].keyStart }, func(j int) int { return obj.members[j].val.end })
		}
	}
	return src
}
