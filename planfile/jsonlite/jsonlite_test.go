package jsonlite

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// encodingJSON is what encoding/json writes for s (which it cannot fail to write).
func encodingJSON(s string, escapeHTML bool) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(s)
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

var strs = []string{
	"", "plain", `"quoted" \back\slash/`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f\x7f",
	"<a href='x'>&amp;</a>", "é ü 日本 🎉", "\u2028 and \u2029", "bad \xff utf-8 \xc3", "\xed\xa0\x80",
	"Map<K, V> && x > 1",
}

func TestAppendString(t *testing.T) {
	for _, s := range strs {
		for _, html := range []bool{false, true} {
			if got, want := AppendString([]byte("x"), s, html), append([]byte("x"), encodingJSON(s, html)...); !bytes.Equal(got, want) {
				t.Errorf("AppendString(%q, %v) = %s, encoding/json %s", s, html, got, want)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range strs {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, html bool) {
		if got, want := AppendString(nil, s, html), encodingJSON(s, html); !bytes.Equal(got, want) {
			t.Fatalf("AppendString(%q, %v) = %s, encoding/json %s", s, html, got, want)
		}
	})
}

func TestString(t *testing.T) {
	for _, tc := range []struct {
		in, want, rest string
		ok             bool
	}{
		{`"abc",x`, "abc", ",x", true},
		{`"a\"b\u00e9\n" }`, "a\"bé\n", " }", true},
		{`"日本"`, "日本", "", true},
		{`"bad \xff"`, "", "", false}, // encoding/json would replace the byte: not read here
		{"\"ctl \x01\"", "", "", false},
		{`"unterminated`, "", "", false},
		{`"bad escape \q"`, "", "", false},
		{`abc`, "", "", false},
		{``, "", "", false},
	} {
		got, rest, ok := String([]byte(tc.in), nil)
		if got != tc.want || string(rest) != tc.rest || ok != tc.ok {
			t.Errorf("String(%q) = %q, %q, %v; want %q, %q, %v", tc.in, got, rest, ok, tc.want, tc.rest, tc.ok)
		}
	}
	interned := 0
	if s, _, _ := String([]byte(`"x"`), func(b []byte) string { interned++; return string(b) }); s != "x" || interned != 1 {
		t.Errorf("intern not used: %q, %d", s, interned)
	}
}

// FuzzString: what String reads is what encoding/json reads from the same bytes.
func FuzzString(f *testing.F) {
	for _, s := range strs {
		f.Add(append(encodingJSON(s, false), " ,"...))
	}
	f.Add([]byte(`"\ud83c\udf89 \ud800"`))
	f.Fuzz(func(t *testing.T, p []byte) {
		s, rest, ok := String(p, nil)
		if !ok {
			return
		}
		tok := p[:len(p)-len(rest)]
		var want string
		if err := json.Unmarshal(tok, &want); err != nil {
			t.Fatalf("String read %q from %q, which encoding/json refuses: %v", s, tok, err)
		}
		if s != want {
			t.Fatalf("String(%q) = %q, encoding/json %q", tok, s, want)
		}
	})
}

func TestScalar(t *testing.T) {
	for _, tc := range []struct {
		in, rest string
		ok       bool
	}{
		{"true,", ",", true}, {"false}", "}", true}, {"null", "", true}, {"0 ", " ", true},
		{"-12.5e+3]", "]", true}, {"1E9", "", true},
		{"truex", "", false}, {"01", "", false}, {"-", "", false}, {"1.", "", false}, {"1e", "", false},
		{".5", "", false}, {`"s"`, "", false}, {"{}", "", false}, {"[1]", "", false}, {"nul", "", false},
	} {
		rest, ok := Scalar([]byte(tc.in))
		if ok != tc.ok || ok && string(rest) != tc.rest {
			t.Errorf("Scalar(%q) = %q, %v; want %q, %v", tc.in, rest, ok, tc.rest, tc.ok)
		}
	}
}

// FuzzScalar: what Scalar skips is one value encoding/json accepts.
func FuzzScalar(f *testing.F) {
	for _, s := range []string{"true", "null,", "-0.5e10}", "12", "1e", "tru"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, p []byte) {
		rest, ok := Scalar(p)
		if !ok {
			return
		}
		tok := p[:len(p)-len(rest)]
		if len(tok) == 0 || !json.Valid(tok) || strings.ContainsAny(string(tok[:1]), `"{[`) {
			t.Fatalf("Scalar skipped %q of %q, not one scalar encoding/json reads", tok, p)
		}
	})
}

func TestObject(t *testing.T) {
	// member reads string values only.
	member := func(got *[]string) func(string, []byte) ([]byte, bool) {
		return func(key string, p []byte) ([]byte, bool) {
			v, rest, ok := String(p, nil)
			*got = append(*got, key+"="+v)
			return rest, ok
		}
	}
	for _, tc := range []struct {
		in, want, rest string
		ok             bool
	}{
		{`{} x`, "", " x", true},
		{`{ "a" : "1" , "b":"2"},`, "a=1 b=2", ",", true},
		{`{"a":"1",}`, "a=1", "", false},
		{`{"a":1}`, "a=", "", false}, // member gives up
		{`{"a" "1"}`, "", "", false},
		{`{"a":"1"`, "a=1", "", false},
		{`["a"]`, "", "", false},
		{``, "", "", false},
	} {
		var got []string
		rest, ok := Object([]byte(tc.in), nil, member(&got))
		if strings.Join(got, " ") != tc.want || ok != tc.ok || ok && string(rest) != tc.rest {
			t.Errorf("Object(%q) = %q, %q, %v; want %q, %q, %v", tc.in, got, rest, ok, tc.want, tc.rest, tc.ok)
		}
	}
}
