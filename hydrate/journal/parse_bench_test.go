package journal

import (
	"testing"
	"time"
)

// BenchmarkParse reads a journal of 10,000 events as gsd writes them (log, tasks --at, stats).
func BenchmarkParse(b *testing.B) {
	var data []byte
	t := time.Date(2026, 2, 3, 10, 0, 0, 0, time.UTC)
	for i := 1; i <= 10000; i++ {
		ev := Event{Seq: int64(i), Time: t.Add(time.Duration(i) * time.Second), Type: Mark, Source: "cli", Task: i%5 + 1,
			Name: "Task 2: Complete handler", Old: "pending", New: "complete", Plan: ".planning/phases/02-task-api/02-02-PLAN.md",
			SHA256: "9e24c1d0b7a35d0f9e24c1d0b7a35d0f9e24c1d0b7a35d0f9e24c1d0b7a35d0"}
		if i%100 == 0 {
			ev = Event{Seq: int64(i), Time: ev.Time, Type: Carry, Carried: []Carried{{Task: 1, Name: "a", From: 1, Status: "complete"}, {Task: 2, Name: "b"}}, SHA256: ev.SHA256, Session: "<session>\n"}
		}
		line, err := Encode(ev)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, line...)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if evs, probs := Parse(data); len(evs) != 10000 || len(probs) != 0 {
			b.Fatalf("%d events, %v", len(evs), probs)
		}
	}
}
