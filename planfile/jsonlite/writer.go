package jsonlite

import "strconv"

// Indented writes one JSON value as encoding/json's Encoder writes it with SetIndent("", "  ")
// and SetEscapeHTML(false): each member and element on a line of its own, indented two spaces a
// level, "key": value, empty objects and arrays as {} and [], and a newline after the value. The
// caller says what comes in order (Open, Key, the values, Close); Indented lays it out.
//
// It is for reports written on a fresh process that encoding/json would first build codecs for
// by reflection, then write compact and indent in a second pass.
type Indented struct {
	buf      []byte
	depth    int
	empty    bool // the object or array just opened has nothing in it yet
	afterKey bool // a key was written: its value follows on the same line
}

// NewIndented returns a writer appending to dst.
func NewIndented(dst []byte) *Indented { return &Indented{buf: dst} }

// Bytes ends the value with its newline and returns what was written: call it once, after the
// last Close.
func (w *Indented) Bytes() []byte { return append(w.buf, '\n') }

// next places what comes next: after its key on the same line, else (inside an object or
// array) after a comma, on a new line.
func (w *Indented) next() {
	if w.afterKey {
		w.afterKey = false
		return
	}
	if w.depth == 0 {
		return
	}
	if !w.empty {
		w.buf = append(w.buf, ',')
	}
	w.empty = false
	w.newline(w.depth)
}

func (w *Indented) newline(depth int) {
	w.buf = append(w.buf, '\n')
	for range depth {
		w.buf = append(w.buf, ' ', ' ')
	}
}

// Open starts an object ('{') or an array ('[').
func (w *Indented) Open(c byte) {
	w.next()
	w.buf = append(w.buf, c)
	w.depth++
	w.empty = true
}

// Close ends the object ('}') or array (']') opened last.
func (w *Indented) Close(c byte) {
	w.depth--
	if !w.empty {
		w.newline(w.depth)
	}
	w.buf = append(w.buf, c)
	w.empty = false
}

// Key writes an object member's key; its value is written next.
func (w *Indented) Key(k string) {
	w.next()
	w.buf = AppendString(w.buf, k, false)
	w.buf = append(w.buf, ':', ' ')
	w.afterKey = true
}

// String writes a string.
func (w *Indented) String(s string) {
	w.next()
	w.buf = AppendString(w.buf, s, false)
}

// Int writes an integer.
func (w *Indented) Int(n int) {
	w.next()
	w.buf = strconv.AppendInt(w.buf, int64(n), 10)
}

// Bool writes true or false.
func (w *Indented) Bool(b bool) {
	w.next()
	w.buf = strconv.AppendBool(w.buf, b)
}

// Null writes null.
func (w *Indented) Null() {
	w.next()
	w.buf = append(w.buf, "null"...)
}

// StringOrNull writes *s, or null when s is nil.
func (w *Indented) StringOrNull(s *string) {
	if s == nil {
		w.Null()
		return
	}
	w.String(*s)
}

// StringField writes a member whose value is a string; IntField, BoolField and
// StringOrNullField likewise.
func (w *Indented) StringField(k, s string) {
	w.Key(k)
	w.String(s)
}

func (w *Indented) IntField(k string, n int) {
	w.Key(k)
	w.Int(n)
}

func (w *Indented) BoolField(k string, b bool) {
	w.Key(k)
	w.Bool(b)
}

func (w *Indented) StringOrNullField(k string, s *string) {
	w.Key(k)
	w.StringOrNull(s)
}
