//go:build unix

package atomicfile

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// openRetry is open(2), close-on-exec, retried when a signal interrupts it.
func openRetry(name string, flag int, perm uint32) (int, error) {
	for {
		fd, err := unix.Open(name, flag|unix.O_CLOEXEC, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// Open opens a regular file as os.OpenFile does, without registering it with the runtime's
// poller: a regular file gains nothing from it, and os.OpenFile's attempt costs four fcntl and
// epoll calls on every open. Its descriptor is blocking (flag must not ask for O_NONBLOCK).
func Open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	fd, err := openRetry(name, flag, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}
