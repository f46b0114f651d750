package journal

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// eventTypes are the event types journal.go declares, read from its source: a type added there
// is in this list without anyone remembering to add it.
func eventTypes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "journal.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		var names []string
		isTypes := false
		for _, s := range g.Specs {
			vs := s.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name == "Bootstrap" {
					isTypes = true
				}
				if i < len(vs.Values) {
					if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
						v, _ := strconv.Unquote(lit.Value)
						names = append(names, v)
					}
				}
			}
		}
		if isTypes {
			types = append(types, names...)
		}
	}
	if !slices.Contains(types, Rehydrated) || !slices.Contains(types, Carry) {
		t.Fatalf("event types read from journal.go: %v", types)
	}
	return types
}

// full is an event of type typ with every field that is written set: the fields are checked
// by reflection, so a field added to Event fails this test until it is set here.
func full(t *testing.T, typ string) Event {
	t.Helper()
	ev := Event{
		Seq: 1234, Prev: "0123456789abcdef", Time: time.Date(2026, 2, 3, 10, 0, 0, 500, time.FixedZone("X", 3600)), Type: typ,
		Source: "hook", Instance: "5f0c1e9a-7b3d",
		Task: 3, Name: "Task 3: é <b> \"q\" \\ /", Old: "pending", New: "complete",
		Plan:     ".planning/phases/01-x/01-01-PLAN.md",
		Snapshot: "current-plan.20260203100000-2.carried",
		Carried:  []Carried{{Task: 1, Name: "A", From: 2, Status: "complete"}, {Task: 2, Name: "B"}, {}},
		Note:     "pre-compact: auto\ttab",
		Size:     9876,
		SHA256:   strings.Repeat("a", 64),
		Session:  "<!-- s -->\n\x01",
	}
	v := reflect.ValueOf(ev)
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		if f.Tag.Get("json") == "-" {
			continue
		}
		if v.Field(i).IsZero() && f.Name != "SchemaVersion" { // Encode sets SchemaVersion
			t.Fatalf("the test event leaves %s unset: set it", f.Name)
		}
	}
	for c, i := reflect.ValueOf(ev.Carried[0]), 0; i < c.NumField(); i++ {
		if c.Field(i).IsZero() {
			t.Fatalf("the test event's first Carried leaves %s unset: set it", c.Type().Field(i).Name)
		}
	}
	return ev
}

// TestEveryEventTakesTheFastPath: a line as gsd writes it, of every event type, with every field
// set or with only those always written, is read by the fast reader, which gives what
// encoding/json gives. (FuzzFastParse checks only the lines the fast reader accepts.)
func TestEveryEventTakesTheFastPath(t *testing.T) {
	for _, typ := range eventTypes(t) {
		noCarried := full(t, typ)
		noCarried.Carried = nil
		for _, ev := range []Event{full(t, typ), noCarried, {Seq: 1, Time: t0, Type: typ}} {
			line, err := Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			line = line[:len(line)-1]
			fast, ok := fastParse(line)
			if !ok {
				t.Errorf("%s: the fast reader declines %s", typ, line)
				continue
			}
			var slow Event
			if err := json.Unmarshal(line, &slow); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(fast, slow) {
				t.Errorf("%s:\nfast %+v\nslow %+v", typ, fast, slow)
			}
		}
	}
}
