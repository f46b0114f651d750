package journal

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

var t0 = time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)

// TestGoldenLines pins the bytes of each kind of event: the journal is a file format others read.
func TestGoldenLines(t *testing.T) {
	evs := []Event{
		{Seq: 1, Time: t0, Type: Bootstrap, Source: "cli", Plan: ".planning/phases/01-x/01-01-PLAN.md", Session: "<!-- s -->\n", SHA256: Hash([]byte("<!-- s -->\n"), true)},
		{Seq: 2, Time: t0.In(time.FixedZone("CET", 3600)), Type: Mark, Source: "hook", Instance: "abc-123", Task: 2, Name: "Task 2: <b> & \"q\"", Old: "pending", New: "complete", Plan: ".planning/phases/01-x/01-01-PLAN.md", SHA256: strings.Repeat("a", 64)},
		{Seq: 3, Time: t0, Type: Snapshot, Source: "cli", Snapshot: "current-plan.20260203100000.manual", Note: "manual: before the refactor", SHA256: strings.Repeat("a", 64)},
		{Seq: 4, Time: t0, Type: Archive, Source: "cli", Snapshot: "current-plan.20260203100000.stale", Note: "stale"},
		{Seq: 5, Time: t0, Type: Carry, Source: "cli", Snapshot: "current-plan.20260203100000.carried", Carried: []Carried{{Task: 1, Name: "A", From: 2, Status: "complete"}, {Task: 2, Name: "B"}}, Session: "x", SHA256: Hash([]byte("x"), true)},
	}
	var got bytes.Buffer
	for _, ev := range evs {
		line, err := Encode(ev)
		if err != nil {
			t.Fatal(err)
		}
		got.Write(line)
	}
	want, err := os.ReadFile(filepath.Join("testdata", "golden.jsonl"))
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(filepath.Join("testdata", "golden.jsonl"), got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("encoded events differ from testdata/golden.jsonl (UPDATE_GOLDEN=1 go test, then review):\n%s", got.Bytes())
	}
	back, probs := Parse(want)
	if len(probs) != 0 || len(back) != len(evs) {
		t.Fatalf("golden lines parse to %d events, problems %v", len(back), probs)
	}
	if !back[1].Time.Equal(t0) || back[1].Time.Location() != time.UTC {
		t.Errorf("time %v: want %v in UTC", back[1].Time, t0)
	}
}

func TestParseSkipsBadLines(t *testing.T) {
	good1, _ := Encode(Event{Seq: 1, Time: t0, Type: Mark, Task: 1, New: "complete"})
	good2, _ := Encode(Event{Seq: 2, Time: t0, Type: Mark, Task: 1, New: "pending"})
	data := string(good1) + "garbage\n\n" + `{"schemaVersion":9,"seq":3,"type":"mark"}` + "\n" + strings.TrimSuffix(string(good2), "\n") + "\r\n" + `{"schemaVer`
	evs, probs := Parse([]byte(data))
	if len(evs) != 2 || evs[0].Seq != 1 || evs[1].Seq != 2 {
		t.Fatalf("events %+v", evs)
	}
	want := []string{"line 2: not a journal event", "line 4: schema version 9, not 1", "line 6: torn last line (no newline): not a journal event"}
	if len(probs) != len(want) {
		t.Fatalf("problems %v, want %v", probs, want)
	}
	for i := range want {
		if probs[i].String() != want[i] {
			t.Errorf("problem %d: %q, want %q", i, probs[i], want[i])
		}
	}
}

func write(t *testing.T, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLastReadsBackwardsPastLongLines(t *testing.T) {
	big := strings.Repeat("x", 50_000) // longer than the first chunk read from the end
	l1, _ := Encode(Event{Seq: 7, Time: t0, Type: Bootstrap, Session: big, SHA256: Hash([]byte(big), true)})
	l2, _ := Encode(Event{Seq: 8, Time: t0, Type: Reconcile, Session: big, SHA256: Hash([]byte(big), true)})
	for _, tc := range []struct {
		data    string
		seq     int64
		ok      bool
		nprobs  int
		comment string
	}{
		{"", 0, false, 0, "empty"},
		{string(l1), 7, true, 0, "one line"},
		{string(l1) + string(l2), 8, true, 0, "two long lines"},
		{string(l1) + string(l2)[:100], 7, true, 1, "torn last line"},
		{string(l1) + "junk\n" + `{"seq":`, 7, true, 2, "garbage then torn"},
		{"junk\nmore junk", 0, false, 2, "only garbage"},
	} {
		ev, ok, probs, err := Last(write(t, tc.data))
		if err != nil || ok != tc.ok || ev.Seq != tc.seq || len(probs) != tc.nprobs {
			t.Errorf("%s: seq %d ok %v problems %v err %v; want seq %d ok %v %d problems", tc.comment, ev.Seq, ok, probs, err, tc.seq, tc.ok, tc.nprobs)
		}
	}
	if _, ok, _, err := Last(filepath.Join(t.TempDir(), "missing")); ok || err != nil {
		t.Errorf("missing journal: ok %v err %v", ok, err)
	}
}

// TestAppendAfterTornLineRemovesIt: a torn last line (a write cut short by a crash) is removed
// by the next write, which then leaves a journal with nothing to warn about; its event follows
// the last whole one.
func TestAppendAfterTornLineRemovesIt(t *testing.T) {
	l1, _ := Encode(Event{Seq: 1, Time: t0, Type: Mark, Task: 1, New: "complete"})
	p := write(t, string(l1)+`{"schemaVersion":1,"se`)
	if err := Append(p, Event{Seq: 2, Time: t0, Type: Mark, Task: 1, New: "pending"}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	evs, probs := Parse(data)
	if len(evs) != 2 || evs[1].Seq != 2 || len(probs) != 0 || evs[1].Prev != IDOf(l1) {
		t.Fatalf("events %+v problems %v in\n%s", evs, probs, data)
	}
	if !bytes.HasSuffix(data, []byte("}\n")) {
		t.Errorf("journal does not end with a whole line:\n%s", data)
	}
}

// TestRecordIsLastThenAppend: Record gives build what Last gives, and writes what Append would,
// on a missing journal, a whole one and one with a torn last line.
func TestRecordIsLastThenAppend(t *testing.T) {
	l1, _ := Encode(Event{Seq: 1, Time: t0, Type: Mark, Task: 1, New: "complete", SHA256: "h1"})
	next := []Event{{Seq: 9, Time: t0, Type: Rehydrated, Size: 3}, {Seq: 10, Time: t0, Type: Mark, Task: 2, New: "pending"}}
	for _, tc := range []struct {
		name, data string
		missing    bool
	}{
		{name: "missing", missing: true},
		{name: "empty"},
		{name: "whole", data: string(l1)},
		{name: "torn", data: string(l1) + `{"schemaVersion":1,"se`},
		{name: "torn but parses", data: strings.TrimSuffix(string(l1), "\n")},
		{name: "garbage", data: "junk\n" + `{"seq":`},
	} {
		viaRecord, viaAppend := write(t, tc.data), write(t, tc.data)
		if tc.missing {
			viaRecord, viaAppend = filepath.Join(t.TempDir(), FileName), filepath.Join(t.TempDir(), FileName)
		}
		wantLast, wantOK, wantProbs, err := Last(viaAppend)
		if err != nil {
			t.Fatal(err)
		}
		if err := Append(viaAppend, next...); err != nil {
			t.Fatal(err)
		}
		probs, err := Record(viaRecord, func(last Event, ok bool) []Event {
			if ok != wantOK || last.Seq != wantLast.Seq || last.SHA256 != wantLast.SHA256 {
				t.Errorf("%s: build given %+v %v, Last gives %+v %v", tc.name, last, ok, wantLast, wantOK)
			}
			return next
		})
		if n := len(wantProbs); n > 0 && strings.HasPrefix(wantProbs[n-1].Message, "torn last line") {
			wantProbs[n-1] = Problem{Repaired: true, Message: fmt.Sprintf("removed a torn last line of %d bytes (a write cut short): %s",
				len(tc.data)-strings.LastIndexByte(tc.data, '\n')-1, textfmt.Quote(tc.data[strings.LastIndexByte(tc.data, '\n')+1:]))}
		}
		if err != nil || fmt.Sprint(probs) != fmt.Sprint(wantProbs) {
			t.Errorf("%s: problems %v err %v, want %v", tc.name, probs, err, wantProbs)
		}
		got, _ := os.ReadFile(viaRecord)
		want, _ := os.ReadFile(viaAppend)
		if !bytes.Equal(got, want) || !bytes.HasSuffix(got, []byte("}\n")) {
			t.Errorf("%s: Record wrote\n%s\nAppend\n%s", tc.name, got, want)
		}
	}
}

// TestRecordRefusesASymlink: a journal that is a symlink is neither followed nor written.
func TestRecordRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	if err := os.WriteFile(target, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, FileName)
	if err := os.Symlink(target, p); err != nil {
		t.Skip("symlinks unavailable:", err)
	}
	checkRefused(t, p, "a symbolic link")
	if data, _ := os.ReadFile(target); len(data) != 0 {
		t.Errorf("written through the symlink: %q", data)
	}
}

func TestNotAFileIsRefusedWithoutOpening(t *testing.T) {
	dir := filepath.Join(t.TempDir(), FileName)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	checkRefused(t, dir, "a directory")
}

// checkRefused checks that every entry point refuses the journal p, which is what.
func checkRefused(t *testing.T, p, what string) {
	t.Helper()
	var fe *FileTypeError
	if err := Append(p, Event{Seq: 1, Type: Mark}); !errors.As(err, &fe) || !strings.Contains(err.Error(), "is "+what) {
		t.Errorf("Append: %v, want a FileTypeError saying %q", err, what)
	}
	if _, _, _, err := Last(p); !errors.As(err, &fe) {
		t.Errorf("Last: %v", err)
	}
	called := false
	if _, err := Record(p, func(Event, bool) []Event { called = true; return nil }); !errors.As(err, &fe) || called {
		t.Errorf("Record: %v (build called: %v)", err, called)
	}
	if _, err := check(p); !errors.As(err, &fe) {
		t.Errorf("check: %v", err)
	}
}
