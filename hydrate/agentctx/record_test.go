package agentctx

import (
	"strings"
	"testing"
	"time"
)

// TestRecordBound: a record whose texts are all at their caps in four-byte characters still
// encodes within MaxFileSize (active forms, then finished todos give way), and decodes back.
func TestRecordBound(t *testing.T) {
	wide := strings.Repeat("𝄞", 500)
	r := Record{Agent: Claude, SessionID: strings.Repeat("s", 100), Root: "/home/ann/src/tasklist", CapturedAt: time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC), Event: "Stop"}
	r.Prompt = shapePrompt(wide)
	for i := 0; i < MaxTools; i++ {
		r.Tools = append(r.Tools, "mcp__"+strings.Repeat("x", 50)+string(rune('a'+i)))
	}
	for i := 0; i < MaxTodos; i++ {
		st := Complete
		if i == MaxTodos-1 {
			st = InProgress
		}
		r.Todos = append(r.Todos, Todo{Content: todoText(wide), Status: st, ActiveForm: todoText(wide)})
	}
	for i := 0; i < MaxFiles; i++ {
		r.Files = append(r.Files, strings.Repeat("d/", 100)+string(rune('a'+i)))
	}
	data, err := r.Encode()
	if err != nil || len(data) > MaxFileSize {
		t.Fatalf("%d bytes, %v", len(data), err)
	}
	back, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.Prompt != r.Prompt || len(back.Todos) == 0 || back.Todos[len(back.Todos)-1].Status != InProgress {
		t.Errorf("decoded: %d todos, prompt %q", len(back.Todos), back.Prompt)
	}
	checkBounds(t, &back.Capture)
}

// TestDecodeRefuses: what is not a record of this version is none.
func TestDecodeRefuses(t *testing.T) {
	for _, data := range []string{"", "{", "[]", `{"schemaVersion":2,"agent":"claude"}`, `{"schemaVersion":1}`, `{"schemaVersion":1,"agent":"vim"}`, strings.Repeat(" ", 3*MaxFileSize)} {
		if r, err := Decode([]byte(data)); err == nil {
			t.Errorf("%.30q: %+v", data, r)
		}
	}
	// A record edited by hand past the bounds is held to them.
	r, err := Decode([]byte(`{"schemaVersion":1,"agent":"codex","lastTools":["a","b c","` + strings.Repeat("x", 100) + `"],"todos":[{"content":"x","status":"done"},{"content":"y","status":"weird"},{"content":"","status":"pending"}],"files":["` + strings.Repeat("f", 400) + `","ok.go"]}`))
	if err != nil || len(r.Tools) != 1 || len(r.Todos) != 1 || r.Todos[0].Status != Complete || len(r.Files) != 1 {
		t.Errorf("held to its bounds: %+v, %v", r, err)
	}
}

// TestDecodeWhere: a record's session, project and cursor, read without the rest, are the
// record's; anything else is no record.
func TestDecodeWhere(t *testing.T) {
	r := Record{Agent: Claude, SessionID: "s1", Root: "/p", Cursor: Cursor{Path: "/t.jsonl", ID: "1:2", Offset: 99, Sum: "ab"}}
	r.Prompt = "p"
	data, err := r.Encode()
	if err != nil {
		t.Fatal(err)
	}
	w, ok := DecodeWhere(data)
	if !ok || w.SessionID != "s1" || w.Root != "/p" || w.Cursor != r.Cursor {
		t.Errorf("%+v, %v", w, ok)
	}
	for _, bad := range []string{"", "{", `{"schemaVersion":2,"sessionId":"s1"}`} {
		if _, ok := DecodeWhere([]byte(bad)); ok {
			t.Errorf("%q read as a record", bad)
		}
	}
}
