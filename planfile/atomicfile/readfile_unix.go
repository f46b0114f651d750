//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"

	"github.com/gsd-tools/gsd/planfile/rootfs"
	"golang.org/x/sys/unix"
)

// readRegular is ReadFile with raw system calls: open (non-blocking, so a FIFO cannot hold it
// up), then rootfs.ReadFD, the reader of every file gsd reads on Unix: one fstat, reads into a
// buffer of the file's size, close. Going through os.File would add an fcntl and the runtime
// poller's registration to every file of every agent turn.
func readRegular(name string, limit int64) ([]byte, error) {
	fd, err := openRetry(name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	b, err := rootfs.ReadFD(fd, name, limit)
	var nr *rootfs.NotRegularError
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, rootfs.ErrTooLarge):
		return nil, tooLarge(name, limit)
	case errors.Is(err, rootfs.ErrIsDir):
		return nil, notRegular(name, fs.ModeDir)
	case errors.As(err, &nr):
		return nil, notRegular(name, nr.Type)
	}
	return nil, err
}

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
