package cmd

import (
	"io"
	"os"
	"time"
)

// readWithin is gsd's one read of stdin with a deadline: r read to its end, at most limit bytes,
// waiting at most wait for it to end; ok is false when wait ran out first, or when r is a
// terminal, which no agent writes to. A file is waited on by pollFile where the system has
// poll(2); any other reader by a goroutine, left behind when the wait runs out.
func readWithin(r io.Reader, limit int64, wait time.Duration) (data []byte, ok bool, err error) {
	if f, isFile := r.(*os.File); isFile {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			return nil, false, nil
		}
		if data, ok, err, polled := pollFile(f, limit, wait); polled {
			return data, ok, err
		}
	}
	type result struct {
		data []byte
		err  error
	}
	done := make(chan result, 1)
	go func() {
		data, err := io.ReadAll(io.LimitReader(r, limit))
		done <- result{data, err}
	}()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case res := <-done:
		return res.data, true, res.err
	case <-timer.C:
		return nil, false, nil
	}
}
