package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// FuzzStream: when Stream says the journal is one chain, it read what Parse reads, line for line
// (the same problems), and its events are Order's, in Order's order.
func FuzzStream(f *testing.F) {
	golden, _ := os.ReadFile(filepath.Join("testdata", "golden.jsonl"))
	f.Add(golden)
	f.Add(golden[:len(golden)-7])
	lines := bytes.SplitAfter(golden, []byte("\n"))
	slices.Reverse(lines)
	f.Add(bytes.Join(lines, nil)) // out of order: not a chain
	f.Add(bytes.ReplaceAll(golden, []byte("\n"), []byte("\r\n")))
	f.Add([]byte("garbage\n{\"schemaVersion\":1,\"seq\":1,\"type\":\"mark\"}\r\n\n{"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, probs := Parse(data)
		var got []Event
		linear, sprobs, err := Stream(bytes.NewReader(data), func(ev Event) error { got = append(got, ev); return nil })
		if err != nil {
			t.Fatal(err)
		}
		if !linear {
			return // the caller reads it whole (Parse, Order): Parse's problems are the ones
		}
		if !reflect.DeepEqual(sprobs, probs) {
			t.Fatalf("problems: Stream %v, Parse %v", sprobs, probs)
		}
		want := Order(evs)
		if len(got) != len(want) {
			t.Fatalf("Stream handed %d events, Order has %d", len(got), len(want))
		}
		for i := range want {
			if !reflect.DeepEqual(normal(got[i]), normal(want[i])) {
				t.Fatalf("event %d: Stream %+v, Order %+v", i, got[i], want[i])
			}
		}
	})
}

func TestStreamLongLine(t *testing.T) {
	ok := `{"schemaVersion":1,"seq":1,"time":"2026-02-03T10:00:00Z","type":"mark","sha256":""}`
	for _, eol := range []string{"\n", "\r\n"} {
		data := ok + eol + strings.Repeat("x", MaxLine+3) + eol + ok + eol
		_, probs := Parse([]byte(data))
		_, sprobs, err := Stream(strings.NewReader(data), nil)
		if err != nil || !reflect.DeepEqual(sprobs, probs) || len(probs) != 1 {
			t.Errorf("%q: Stream %v, %v; Parse %v", eol, sprobs, err, probs)
		}
	}
}
