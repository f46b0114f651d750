package journal

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Stream reads a journal's lines from r one at a time, as Parse reads them (the same events,
// IDs, parents and skipped lines), and hands fn each event in the order of the lines, without
// holding more than one line. linear reports whether the events are one chain in that order,
// as a single writer makes them: then Order keeps that order, and fn saw the events in the
// order gsd shows them, and the problems are Parse's. When they are not (a union merge of two
// branches), Stream stops handing events at the first that breaks the chain, and the caller
// reads the whole journal instead (Parse, Order, and Parse's problems). fn may be nil: Stream then only checks the chain and collects the problems.
// The chain is judged conservatively: an event without a parent whose sequence number could
// match an earlier event's is taken as breaking it.
func Stream(r io.Reader, fn func(Event) error) (linear bool, probs []Problem, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	line := 0
	var prevID string
	var prevSeq, maxSeq int64
	n := 0 // events read
	linear = true
	for {
		l, torn, long, eof, err := readLine(br, &buf)
		if err != nil {
			return false, probs, err
		}
		if eof {
			return linear, probs, nil
		}
		line++
		if long > 0 {
			probs = append(probs, Problem{Line: line, Message: tornMsg(torn, fmt.Sprintf("a line of %d bytes, over the %d a journal line may hold", long, MaxLine))})
			continue
		}
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		ev, perr := parseLine(l)
		if perr != nil {
			probs = append(probs, Problem{Line: line, Message: tornMsg(torn, perr.Error())})
			continue
		}
		ev.ID = IDOf(l)
		if n > 0 && linear {
			// Parse's parent (link) and its judgement (implausible), for an event that follows
			// the one before it; anything else is left to Parse.
			var parent *Event
			switch {
			case ev.Prev != "":
				linear = ev.Prev == prevID
				parent = &Event{Seq: prevSeq}
			case ev.Seq > 1 && ev.Seq-1 == prevSeq:
				ev.Prev, parent = prevID, &Event{Seq: prevSeq}
			case ev.Seq > 1 && ev.Seq-1 > maxSeq:
				// No event numbered one less before it: link gives it no parent.
			default:
				linear = false // a second root, or a parent further up
			}
			if linear {
				if msg := implausible(ev, false, parent); msg != "" {
					probs = append(probs, Problem{Line: line, Message: msg})
					maxSeq = max(maxSeq, ev.Seq) // as link numbers it: a later line may name it
					continue
				}
			}
		}
		n++
		prevID, prevSeq, maxSeq = ev.ID, ev.Seq, max(maxSeq, ev.Seq)
		if linear && fn != nil {
			if err := fn(ev); err != nil {
				return linear, probs, err
			}
		}
	}
}

func tornMsg(torn bool, msg string) string {
	if torn {
		return "torn last line (no newline): " + msg
	}
	return msg
}

// readLine reads the next line of br into *buf, without its newline; eof at the end. torn says
// the line ended with the input rather than a newline. A line longer than MaxLine (without a
// carriage return before its newline, as Parse counts) is not kept: long is its length.
func readLine(br *bufio.Reader, buf *[]byte) (l []byte, torn bool, long int, eof bool, err error) {
	b := (*buf)[:0]
	size := 0
	var last, before byte // the line's last two bytes
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if size <= MaxLine+2 {
			b = append(b, chunk...)
		}
		for _, c := range chunk[max(len(chunk)-2, 0):] {
			before, last = last, c
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if size == 0 {
				return nil, false, 0, true, nil
			}
			torn = true
		case err != nil:
			return nil, false, 0, false, err
		}
		*buf = b
		n := size
		if !torn {
			n-- // the newline
			last = before
		}
		if n > MaxLine {
			if last == '\r' {
				n--
			}
			if n > MaxLine {
				return nil, torn, n, false, nil
			}
		}
		if !torn {
			b = b[:len(b)-1]
		}
		return b, torn, 0, false, nil
	}
}
