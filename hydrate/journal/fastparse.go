package journal

import (
	"bytes"
	"strconv"
	"time"

	"github.com/gsd-tools/gsd/planfile/jsonlite"
)

// fastParse reads a line as gsd writes it (an object of known keys with string and integer
// values, and a carry-over's array of flat objects) about ten times faster than encoding/json,
// which a ten-thousand-event journal needs to be read in a few milliseconds. Anything else it
// does not understand exactly as encoding/json would (other nesting, null, unknown or
// differently cased keys, a second "carried", escapes it does not handle, invalid UTF-8) makes
// it give up: ok false, and the caller uses encoding/json.
func fastParse(l []byte) (ev Event, ok bool) { return fastParseIn(l, nil) }

// interner shares the strings that repeat from line to line (types, sources, statuses, plans,
// task names): ten thousand lines then cost a few allocations each, not sixteen.
type interner map[string]string

func (in interner) get(b []byte) string {
	if in == nil {
		return string(b)
	}
	if s, ok := in[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(in) < 4096 {
		in[s] = s
	}
	return s
}

func fastParseIn(l []byte, in interner) (ev Event, ok bool) {
	rest, ok := jsonlite.Object(jsonlite.Space(l), in.fn(), func(key string, p []byte) ([]byte, bool) {
		if len(p) == 0 {
			return nil, false
		}
		if p[0] == '[' {
			// encoding/json decodes a second array into the elements of the first, keeping
			// the fields the second does not set: not worth imitating.
			if key != "carried" || ev.Carried != nil {
				return nil, false
			}
			c, rest, ok := carried(p, in)
			if !ok {
				return nil, false
			}
			ev.Carried, p = c, rest
		} else if p[0] == '"' {
			var v string
			var rest []byte
			var ok bool
			if key == "sha256" || key == "session" || key == "time" || key == "prev" {
				v, rest, ok = str(p, nil) // unique to each line
			} else {
				v, rest, ok = str(p, in)
			}
			if !ok {
				return nil, false
			}
			p = rest
			switch key {
			case "prev":
				ev.Prev = v
			case "type":
				ev.Type = v
			case "source":
				ev.Source = v
			case "instance":
				ev.Instance = v
			case "name":
				ev.Name = v
			case "old":
				ev.Old = v
			case "new":
				ev.New = v
			case "plan":
				ev.Plan = v
			case "snapshot":
				ev.Snapshot = v
			case "note":
				ev.Note = v
			case "sha256":
				ev.SHA256 = v
			case "session":
				ev.Session = v
			case "time":
				t, ok := parseTime(v)
				if !ok {
					return nil, false
				}
				ev.Time = t
			default:
				return nil, false
			}
		} else {
			n, rest, ok := integer(p)
			if !ok {
				return nil, false
			}
			p = rest
			switch key {
			case "schemaVersion":
				ev.SchemaVersion = int(n)
			case "seq":
				ev.Seq = n
			case "task":
				ev.Task = int(n)
			case "size":
				ev.Size = int(n)
			default:
				return nil, false
			}
		}
		return p, true
	})
	return ev, ok && len(jsonlite.Space(rest)) == 0
}

// carried reads the array at the start of p as encoding/json reads it into a nil []Carried: an
// empty array is an empty slice, not nil.
func carried(p []byte, in interner) ([]Carried, []byte, bool) {
	out := []Carried{}
	p = jsonlite.Space(p[1:])
	if len(p) > 0 && p[0] == ']' {
		return out, p[1:], true
	}
	for {
		c, rest, ok := carriedObject(jsonlite.Space(p), in)
		if !ok {
			return nil, nil, false
		}
		out = append(out, c)
		p = jsonlite.Space(rest)
		switch {
		case len(p) == 0:
			return nil, nil, false
		case p[0] == ',':
			p = p[1:]
		case p[0] == ']':
			return out, p[1:], true
		default:
			return nil, nil, false
		}
	}
}

// carriedObject reads one element of a carry-over: a flat object of Carried's keys.
func carriedObject(p []byte, in interner) (c Carried, _ []byte, _ bool) {
	rest, ok := jsonlite.Object(p, in.fn(), func(key string, p []byte) ([]byte, bool) {
		switch key {
		case "name", "status":
			v, rest, ok := str(p, in)
			if key == "name" {
				c.Name = v
			} else {
				c.Status = v
			}
			return rest, ok
		case "task", "from":
			n, rest, ok := integer(p)
			if key == "task" {
				c.Task = int(n)
			} else {
				c.From = int(n)
			}
			return rest, ok
		}
		return nil, false
	})
	return c, rest, ok
}

// parseTime reads a time as time.Time's JSON decoding does. The form gsd writes
// ("2026-02-03T10:00:00Z") is read directly; any other goes through time.Time's own decoding.
func parseTime(v string) (time.Time, bool) {
	if len(v) == 20 && v[4] == '-' && v[7] == '-' && v[10] == 'T' && v[13] == ':' && v[16] == ':' && v[19] == 'Z' {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t, true
		}
	}
	var t time.Time
	if t.UnmarshalJSON([]byte(strconv.Quote(v))) != nil {
		return t, false
	}
	return t, true
}

// str reads a JSON string at the start of p, interning it when in is not nil.
func str(p []byte, in interner) (string, []byte, bool) { return jsonlite.String(p, in.fn()) }

// fn is in's get for jsonlite, nil for no interning.
func (in interner) fn() func([]byte) string {
	if in == nil {
		return nil
	}
	return in.get
}

// integer reads a JSON integer (no fraction, no exponent, no leading zero) that fits an int32.
func integer(p []byte) (int64, []byte, bool) {
	i := 0
	if i < len(p) && p[i] == '-' {
		i++
	}
	start := i
	for i < len(p) && p[i] >= '0' && p[i] <= '9' {
		i++
	}
	digits := p[start:i]
	if len(digits) == 0 || len(digits) > 9 || len(digits) > 1 && digits[0] == '0' {
		return 0, nil, false
	}
	if i < len(p) && bytes.IndexByte([]byte(".eE"), p[i]) >= 0 {
		return 0, nil, false
	}
	n, err := strconv.ParseInt(string(p[:i]), 10, 64)
	if err != nil {
		return 0, nil, false
	}
	return n, p[i:], true
}
