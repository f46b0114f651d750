//go:build unix

package cmd

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// pollFile is readWithin for a file: it waits in poll(2) on f's descriptor, with no goroutine,
// no timer and no thread for the runtime to start, which a hook run on every agent start would
// pay in full. polled is always true here.
func pollFile(f *os.File, limit int64, wait time.Duration) (data []byte, ok bool, err error, polled bool) {
	data, ok, err = pollRead(f, limit, wait)
	return data, ok, err, true
}

func pollRead(f *os.File, limit int64, wait time.Duration) (data []byte, ok bool, err error) {
	fd := int(f.Fd())
	deadline := time.Now().Add(wait)
	buf := make([]byte, 0, min(limit, 4096))
	for int64(len(buf)) < limit {
		left := time.Until(deadline)
		if left <= 0 {
			return nil, false, nil
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return nil, false, err
		case n == 0:
			return nil, false, nil
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := unix.Read(fd, buf[len(buf):min(int64(cap(buf)), limit)])
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			continue
		case err != nil:
			return nil, false, &os.PathError{Op: "read", Path: f.Name(), Err: err}
		case k == 0:
			return buf, true, nil
		}
		buf = buf[:len(buf)+k]
	}
	return buf, true, nil
}
