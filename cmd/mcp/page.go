package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// member is one member of a JSON object.
type member struct {
	key   string
	value json.RawMessage
}

// jsonObject is a JSON object whose members keep their order: a command's --json object cut down
// (compact, a page of it) still reads in the command's order.
type jsonObject []member

// objectOf is v's JSON object, member by member.
func objectOf(v any) (jsonObject, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object: %.40s", b)
	}
	var o jsonObject
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var m member
		m.key, _ = t.(string)
		if err := dec.Decode(&m.value); err != nil {
			return nil, err
		}
		o = append(o, m)
	}
	return o, nil
}

// MarshalJSON writes the members in their order.
func (o jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// without is o without the members named keys.
func (o jsonObject) without(keys ...string) jsonObject {
	var out jsonObject
	for _, m := range o {
		if !slices.Contains(keys, m.key) {
			out = append(out, m)
		}
	}
	return out
}

// with is o with member key set to v: replaced where it is, or added at the end.
func (o jsonObject) with(key string, v any) (jsonObject, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	out := append(jsonObject(nil), o...)
	for i := range out {
		if out[i].key == key {
			out[i].value = b
			return out, nil
		}
	}
	return append(out, member{key, b}), nil
}

func (o jsonObject) get(key string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == key {
			return m.value, true
		}
	}
	return nil, false
}

// Page says which part of a list a paged result holds: items from From (0-based) on, Count of
// them, of Total; Next is the From of the next page, null on the last.
type Page struct {
	From  int  `json:"from"`
	Count int  `json:"count"`
	Total int  `json:"total"`
	Next  *int `json:"next"`
}

// pageOf is the object o with its list member key cut to the most items from from on whose
// text (marshalText) fits in MaxResult, and a member "page" saying which. Every other member is
// as it is, on every page, so that each page reads as the whole report does.
func pageOf(o jsonObject, key string, from int) (jsonObject, error) {
	raw, ok := o.get(key)
	if !ok {
		return nil, fmt.Errorf("the result has no %s to page", key)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, fmt.Errorf("%s: %w", key, err)
	}
	if from > len(items) {
		return nil, fmt.Errorf("%sFrom is %d, past the %d %s there are", key, from, len(items), key)
	}
	build := func(n int) (jsonObject, int, error) {
		p := Page{From: from, Count: n, Total: len(items)}
		if from+n < len(items) {
			next := from + n
			p.Next = &next
		}
		list := items[from : from+n]
		if list == nil {
			list = []json.RawMessage{}
		}
		page, err := o.with(key, list)
		if err == nil {
			page, err = page.with("page", p)
		}
		if err != nil {
			return nil, 0, err
		}
		text, err := marshalText(page)
		return page, len(text), err
	}
	// The largest count that fits: a page's length grows with its count.
	lo, hi := 0, len(items)-from
	for lo < hi {
		mid := (lo + hi + 1) / 2
		_, n, err := build(mid)
		if err != nil {
			return nil, err
		}
		if n <= MaxResult {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	page, n, err := build(lo)
	if err != nil {
		return nil, err
	}
	if lo == 0 && from < len(items) || n > MaxResult {
		return nil, fmt.Errorf("a page holding only item %d of %s is over the %d bytes an MCP result may hold", from, key, MaxResult)
	}
	return page, nil
}
