package jsonlite

import (
	"bytes"
	"encoding/json"
	"strconv"
	"testing"
)

// build writes the value the program p describes with w, and the same value as compact JSON
// whose leaves encoding/json wrote, and returns the rest of p. A byte chooses what comes: a
// string (the next byte gives its length), an integer, a boolean, null, or an object or array
// whose members follow up to a closing byte.
func build(w *Indented, compact *bytes.Buffer, p []byte, depth int) []byte {
	if len(p) == 0 {
		w.Null()
		compact.WriteString("null")
		return p
	}
	op, p := p[0], p[1:]
	switch op % 6 {
	case 0:
		n := 0
		if len(p) > 0 {
			n, p = min(int(p[0]%16), len(p)-1), p[1:]
		}
		s := string(p[:n])
		w.String(s)
		compact.Write(encodingJSON(s, false))
		return p[n:]
	case 1:
		n := int(op) * 1_000_003 * (int(op%2)*2 - 1)
		w.Int(n)
		compact.WriteString(strconv.Itoa(n))
	case 2:
		w.Bool(op&8 != 0)
		compact.WriteString(strconv.FormatBool(op&8 != 0))
	case 3:
		w.StringOrNull(nil)
		compact.WriteString("null")
	default:
		obj := op%6 == 4 && depth < 8
		open, close := byte('['), byte(']')
		if obj {
			open, close = '{', '}'
		}
		w.Open(open)
		compact.WriteByte(open)
		for k := 0; len(p) > 0 && p[0] != 0xff && depth < 8; k++ {
			if k > 0 {
				compact.WriteByte(',')
			}
			if obj {
				key := "k\"<" + strconv.Itoa(k)
				w.Key(key)
				compact.Write(encodingJSON(key, false))
				compact.WriteByte(':')
			}
			p = build(w, compact, p, depth+1)
		}
		if len(p) > 0 {
			p = p[1:]
		}
		w.Close(close)
		compact.WriteByte(close)
	}
	return p
}

// FuzzIndented: what Indented writes is what encoding/json's Encoder writes with SetIndent("",
// "  "): its compact text indented by json.Indent, and a newline.
func FuzzIndented(f *testing.F) {
	for _, s := range []string{"", "\x04\xff", "\x05\xff", "\x04\x00\x03ab\x01\x02\xff", "\x05\x05\x04\xff\xff\x00\x02<>", "\x04\x04\x04\x03\xff\xff\xff"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		w := NewIndented([]byte("x"))
		var compact bytes.Buffer
		build(w, &compact, p, 0)
		var want bytes.Buffer
		want.WriteString("x")
		if err := json.Indent(&want, compact.Bytes(), "", "  "); err != nil {
			t.Fatalf("the reference is not JSON: %v\n%s", err, compact.Bytes())
		}
		want.WriteByte('\n')
		if got := w.Bytes(); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("Indented wrote\n%s\nencoding/json\n%s", got, want.Bytes())
		}
	})
}

// TestIndentedEncoder checks one value against encoding/json's Encoder itself, not only its
// Indent: a struct with nested, empty and null members.
func TestIndentedEncoder(t *testing.T) {
	type inner struct {
		A []int           `json:"a"`
		B map[string]bool `json:"b"`
	}
	v := struct {
		S string   `json:"s"`
		N *string  `json:"n"`
		E []string `json:"e"`
		I []inner  `json:"i"`
	}{S: "<x & y>", E: []string{}, I: []inner{{A: []int{1, -2}, B: map[string]bool{}}}}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	w := NewIndented(nil)
	w.Open('{')
	w.Key("s")
	w.String(v.S)
	w.Key("n")
	w.StringOrNull(v.N)
	w.Key("e")
	w.Open('[')
	w.Close(']')
	w.Key("i")
	w.Open('[')
	w.Open('{')
	w.Key("a")
	w.Open('[')
	w.Int(1)
	w.Int(-2)
	w.Close(']')
	w.Key("b")
	w.Open('{')
	w.Close('}')
	w.Close('}')
	w.Close(']')
	w.Close('}')
	if got := w.Bytes(); !bytes.Equal(got, want.Bytes()) {
		t.Errorf("Indented wrote\n%s\nencoding/json\n%s", got, want.Bytes())
	}
}
