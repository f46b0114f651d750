package journal

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/planfile"
)

// FuzzParse: any bytes parse without panicking; every event read re-encodes to a line that
// reads back the same; Last, reading from the end, finds the same last event as Parse.
func FuzzParse(f *testing.F) {
	golden, _ := os.ReadFile(filepath.Join("testdata", "golden.jsonl"))
	f.Add(golden)
	f.Add(golden[:len(golden)-7])
	f.Add([]byte("garbage\n{\"schemaVersion\":1,\"seq\":1,\"type\":\"mark\"}\r\n\n{"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, probs := Parse(data)
		for _, ev := range evs {
			line, err := Encode(ev)
			if err != nil {
				t.Fatal(err)
			}
			back, p := Parse(line)
			if len(p) != 0 || len(back) != 1 {
				t.Fatalf("event %+v re-encoded as %q reads back as %+v, %v", ev, line, back, p)
			}
			ev.Time = ev.Time.UTC()
			if !reflect.DeepEqual(normal(back[0]), normal(ev)) {
				t.Fatalf("round trip: %+v became %+v", ev, back[0])
			}
		}
		for _, p := range probs {
			if p.Line < 1 {
				t.Fatalf("problem without a line: %v", p)
			}
		}
		last, ok, _, err := LastOf(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if ok && last.ID != evs[len(evs)-1].ID {
			t.Fatalf("Last's ID %s, Parse's %s", last.ID, evs[len(evs)-1].ID)
		}
		if ok {
			last.Prev = evs[len(evs)-1].Prev // Parse links the events of old journals (link)
		}
		if ok != (len(evs) > 0) || ok && !reflect.DeepEqual(normal(last), normal(evs[len(evs)-1])) {
			t.Fatalf("Last = %+v (%v), Parse's last of %d = %+v", last, ok, len(evs), evs)
		}
	})
}

// normal makes events comparable with DeepEqual: times by instant, empty slices as nil.
func normal(ev Event) Event {
	ev.ID = ""
	ev.Time = time.Unix(0, ev.Time.UnixNano()).UTC()
	if len(ev.Carried) == 0 {
		ev.Carried = nil
	}
	return ev
}

const fuzzPlan = `# Plan

<tasks>
<task type="auto">
  <name>Task 1: One</name>
</task>
<task type="auto" status='complete'>
  <name>Task 2: Two</name>
</task>
<task type="checkpoint:human-verify">
  <what-built>Three</what-built>
</task>
<task type="auto"><name>Task 4: Four</name></task>
</tasks>
`

// FuzzReplay: for any sequence of writes (marks, restores of earlier versions, hand edits
// reconciled, archives, fresh bootstraps), the events the writer records replay to the session
// the writes produced, after every event.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{0x10, 0x21, 0x32, 0xC0, 0x43, 0xD1, 0xE0, 0x11, 0xF0, 0x22})
	f.Add([]byte{0xE0, 0xE0, 0x10, 0xF0, 0xD0})
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 64 {
			ops = ops[:64] // every prefix is replayed: keep an execution cheap
		}
		boot, err := planfile.Bootstrap([]byte(fuzzPlan), "ann", ".planning/phases/01-x/01-01-PLAN.md", time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC))
		if err != nil {
			t.Fatal(err)
		}
		statuses := []planfile.Status{planfile.Pending, planfile.InProgress, planfile.Complete}
		var evs []Event
		var truth [][]byte // the session after each event, nil when none
		cur, exists := []byte(nil), false
		seq := int64(0)
		add := func(ev Event) {
			seq++
			ev.Seq, ev.Time = seq, time.Unix(seq, 0)
			ev.SHA256 = Hash(cur, exists)
			line, err := Encode(ev) // events go through the file format, as in a real journal
			if err != nil {
				t.Fatal(err)
			}
			back, p := Parse(line)
			if len(p) != 0 {
				t.Fatal(p)
			}
			evs = append(evs, back[0])
			if exists {
				truth = append(truth, bytes.Clone(cur))
			} else {
				truth = append(truth, nil)
			}
		}
		cur, exists = boot, true
		add(Event{Type: Bootstrap, Session: string(cur)})
		for i, op := range ops {
			switch {
			case op < 0xC0: // mark task (op>>4)%4+1 with status op%3
				if !exists {
					continue
				}
				n, st := int(op>>4)%4+1, statuses[int(op)%3]
				out, err := planfile.SetStatus(cur, n, st)
				if err == planfile.ErrUnchanged {
					continue // nothing written, nothing recorded
				}
				if err != nil {
					t.Fatal(err)
				}
				cur = out
				add(Event{Type: Mark, Task: n, New: string(st)})
			case op < 0xD0: // restore an earlier version
				k := int(op) % len(truth)
				if truth[k] == nil {
					continue
				}
				cur, exists = bytes.Clone(truth[k]), true
				add(Event{Type: Restore, Session: string(cur)})
			case op < 0xE0: // a hand edit, noticed by the next write
				if !exists {
					continue
				}
				cur = append(bytes.Clone(cur), []byte("<!-- edited "+string(rune('a'+i%26))+" -->\n")...)
				add(Event{Type: Reconcile, Session: string(cur)})
			case op < 0xF0: // snapshot, then archive
				if !exists {
					continue
				}
				add(Event{Type: Snapshot, Snapshot: "current-plan.20260203100000.manual"})
				cur, exists = nil, false
				add(Event{Type: Archive})
			default: // a fresh bootstrap
				cur, exists = boot, true
				add(Event{Type: Bootstrap, Session: string(cur)})
			}
		}
		for i, ev := range evs {
			// The fast way, where it applies (from the last base event), must be exact by
			// itself: Replay falls back to the slow way only to name a disagreeing event.
			base := 0
			for j := i; j >= 0; j-- {
				if IsBase(evs[j]) {
					base = j
					break
				}
			}
			if b := evs[base]; truth[base] != nil {
				fast, ok := replayFast(State{Exists: true, Session: []byte(b.Session), Seq: b.Seq}, evs[base+1:i+1])
				if !ok || !bytes.Equal(fast.Session, truth[i]) || fast.Seq != ev.Seq {
					t.Fatalf("fast replay to seq %d: ok %v\n%s\nwant\n%s", ev.Seq, ok, fast.Session, truth[i])
				}
			}
			st, err := Replay(evs, func(e Event) bool { return e.Seq > ev.Seq })
			if err != nil {
				t.Fatalf("replay to seq %d: %v", ev.Seq, err)
			}
			if st.Exists != (truth[i] != nil) || !bytes.Equal(st.Session, truth[i]) || st.Seq != ev.Seq {
				t.Fatalf("replay to seq %d (%s): exists %v seq %d\n%s\nwant\n%s", ev.Seq, ev.Type, st.Exists, st.Seq, st.Session, truth[i])
			}
		}
		st, err := Replay(evs, nil)
		if err != nil || st.Exists != exists || !bytes.Equal(st.Session, cur) {
			t.Fatalf("full replay: %v, exists %v\n%s\nwant\n%s", err, st.Exists, st.Session, cur)
		}
	})
}

// TestReplayRefusesAMismatch: a hash that disagrees is an error, never a guess.
func TestReplayRefusesAMismatch(t *testing.T) {
	boot, _ := planfile.Bootstrap([]byte(fuzzPlan), "ann", ".planning/phases/01-x/01-01-PLAN.md", time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC))
	evs := []Event{
		{Seq: 1, Type: Bootstrap, Session: string(boot), SHA256: Hash(boot, true)},
		{Seq: 2, Type: Mark, Task: 1, New: "complete", SHA256: Hash(boot, true)},
	}
	if _, err := Replay(evs, nil); err == nil {
		t.Fatal("replay accepted a mark whose hash is not the result's")
	}
	if _, err := Replay(evs[1:], nil); err == nil {
		t.Fatal("replay guessed a session without a base event")
	}
}

// FuzzParseLine: whatever the line, a line read as an event is one a writer could have written:
// this schema, a sequence number and every count in range, a type; and it writes back (Encode)
// as a line that reads as the same event. The seeds are the odd spellings a hand-written reader
// once had to agree with encoding/json on: odd spacing, duplicate and differently cased keys, a
// second "carried", escapes, leading zeros.
func FuzzParseLine(f *testing.F) {
	golden, _ := os.ReadFile(filepath.Join("testdata", "golden.jsonl"))
	for _, l := range bytes.Split(golden, []byte("\n")) {
		f.Add(l)
	}
	f.Add([]byte(`{"seq":01,"type":"mark"}`))
	f.Add([]byte(`{"seq":1,"SEQ":2,"type":"m\u00e9","name":"\ud800"}`))
	f.Add([]byte(` { "seq" : -3 , "time" : "2026-02-03T10:00:00.5+01:00" } `))
	f.Add([]byte(`{"seq":1,"size":-4,"carried":[]}`))
	f.Add([]byte(`{"carried":[{"task":1,"name":"a","from":2,"status":"x"},{"name":"b","task":2,"task":3}],"carried":[{"task":4}]}`))
	f.Add([]byte(`{"carried":null,"size":07}`))
	f.Add([]byte(` {"carried" : [ { } , {"Task":1} ] } `))
	f.Fuzz(func(t *testing.T, l []byte) {
		ev, err := parseLine(l)
		if err != nil {
			return
		}
		if ev.SchemaVersion != SchemaVersion || ev.Seq < 1 || ev.Seq > MaxSeq || ev.Type == "" || !numbersInRange(ev) {
			t.Fatalf("%q read as an event no writer writes: %+v", l, ev)
		}
		b, err := Encode(ev)
		if err != nil {
			t.Fatalf("%q: read, but does not write back: %v", l, err)
		}
		back, err := parseLine(bytes.TrimRight(b, "\n"))
		if err != nil || !reflect.DeepEqual(back, ev) && !(back.Time.Equal(ev.Time) && sameBut(back, ev)) {
			t.Fatalf("%q: writes back as %q, read as %+v (%v), not %+v", l, b, back, err, ev)
		}
	})
}

// sameBut reports whether a and b are the same event but for the time's location.
func sameBut(a, b Event) bool {
	a.Time, b.Time = time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

// FuzzEncode: Encode writes what encoding/json writes for the event (without HTML escaping,
// the schema version set, the time in UTC), and fails where it fails.
func FuzzEncode(f *testing.F) {
	f.Add(int64(3), int64(1770112800), "mark", "cli", "", 2, "Task <2> & \"more\"", "pending", "complete", "01-01-PLAN.md", "", "note\n\t\x01\u2028", 0, "ab12", "", 1, "carried \xff", 0, "")
	f.Add(int64(1), int64(-70000000000), "bootstrap", "", "i-1", 0, "", "", "", "", "snap.md", "", 9, "", "<session>\n", 0, "", 3, "in-progress")
	f.Add(int64(7), int64(253402300800), "carry", "hook", "", 0, "", "", "", "", "", "", 0, "", "", 0, "", 0, "")
	f.Fuzz(func(t *testing.T, seq, unix int64, typ, source, instance string, task int, name, old, nw, plan, snapshot, note string, size int, sha, session string, ctask int, cname string, cfrom int, cstatus string) {
		ev := Event{Seq: seq, Time: time.Unix(unix, unix%1000*1e6).In(time.FixedZone("X", 3600)), Type: typ, Source: source,
			Instance: instance, Task: task, Name: name, Old: old, New: nw, Plan: plan, Snapshot: snapshot, Note: note,
			Size: size, SHA256: sha, Session: session, Volatile: size%2 == 0}
		if ctask != 0 {
			ev.Carried = []Carried{{Task: ctask, Name: cname, From: cfrom, Status: cstatus}, {Task: ctask + 1}}
		}
		want := ev
		want.SchemaVersion = SchemaVersion
		want.Time = want.Time.UTC()
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		werr := enc.Encode(want)
		got, err := Encode(ev)
		if (err != nil) != (werr != nil) || err != nil && err.Error() != werr.Error() {
			t.Fatalf("Encode error %v, encoding/json's %v", err, werr)
		}
		if err == nil && !bytes.Equal(got, buf.Bytes()) {
			t.Fatalf("Encode wrote\n%s\nencoding/json\n%s", got, buf.Bytes())
		}
	})
}
