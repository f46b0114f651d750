package agentctx

import (
	"bytes"
	"testing"
)

// FuzzFold: whatever a transcript holds, a fold never panics, its capture stays within every
// bound, and it encodes within MaxFileSize. For Claude Code and Codex CLI, folding the lines in
// two windows, the capture carried from one to the next, gives what one window gives.
func FuzzFold(f *testing.F) {
	for _, name := range fixtures {
		data := fixture(f, name)
		agent := Detect(name, nil)
		f.Add(data, agentIndex(agent), uint16(len(data)/2))
	}
	f.Add([]byte(claudePrompt("p")+claudeTodo("t")), uint8(0), uint16(10))
	f.Fuzz(func(t *testing.T, data []byte, which uint8, cut uint16) {
		agent := []string{Claude, Codex, Gemini}[int(which)%3]
		var whole Capture
		Fold(&whole, agent, data, fixtureOpt)
		checkBounds(t, &whole)
		r := Record{Agent: agent, Capture: whole}
		enc, err := r.Encode()
		if err != nil || len(enc) > MaxFileSize {
			t.Fatalf("encoded: %d bytes, %v", len(enc), err)
		}
		if _, err := Decode(enc); err != nil {
			t.Fatalf("decode what was encoded: %v", err)
		}
		if agent == Gemini {
			return // a rewind across windows is the caller's to read afresh (Advance)
		}
		// Cut at a line boundary at or after cut.
		i := min(int(cut), len(data))
		if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
			i += j + 1
		} else {
			i = len(data)
		}
		var two Capture
		Fold(&two, agent, data[:i], fixtureOpt)
		Fold(&two, agent, data[i:], fixtureOpt)
		if a, b := marshal(t, &whole), marshal(t, &two); !bytes.Equal(a, b) {
			t.Fatalf("cut at %d:\n%s\nwhole:\n%s", i, b, a)
		}
	})
}

func agentIndex(agent string) uint8 {
	switch agent {
	case Codex:
		return 1
	case Gemini:
		return 2
	}
	return 0
}
