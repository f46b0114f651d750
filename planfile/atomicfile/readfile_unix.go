//go:build unix

package atomicfile

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// readRegular is ReadFile with raw system calls: open (non-blocking, so a FIFO cannot hold it
// up), fstat, reads into a buffer of the file's size, close. Going through os.File would add an
// fcntl and the runtime poller's registration to every file of every agent turn.
func readRegular(name string, limit int64) ([]byte, error) {
	fd, err := openRetry(name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer func() {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}()
	var st unix.Stat_t
	if err := fstatRetry(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		// Rare: package os names the file's type, from the same descriptor.
		f := os.NewFile(uintptr(fd), name)
		fd = -1 // f closes it
		fi, err := f.Stat()
		_ = f.Close()
		if err != nil {
			return nil, err
		}
		return nil, notRegular(name, fi.Mode())
	}
	if st.Size > limit {
		return nil, tooLarge(name, limit)
	}
	// A byte more than the size, to see the end (or that the file grew).
	b := make([]byte, 0, st.Size+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := unix.Read(fd, b[len(b):cap(b)])
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		if n == 0 {
			return b, nil
		}
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, tooLarge(name, limit)
		}
	}
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

func fstatRetry(fd int, st *unix.Stat_t) error {
	for {
		if err := unix.Fstat(fd, st); err != unix.EINTR {
			return err
		}
	}
}
