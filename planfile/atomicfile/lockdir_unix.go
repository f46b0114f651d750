//go:build unix

package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// LockDir takes an exclusive advisory lock on the directory dir itself, waiting at most
// timeout; otherwise it behaves as Lock.
//
// Locking the directory rather than a file in it creates nothing: there is no lock file to show
// in `git status`, to be deleted or replaced by a FIFO, and the lock belongs to the directory's
// inode, so every process that reaches dir, by whatever path or symlink, takes the same lock.
// On Unix it is flock(2) on a read-only descriptor of dir; on Windows, which cannot lock a
// directory, it is Lock on the file ".gsd.lock" inside dir.
func LockDir(ctx context.Context, dir string, timeout time.Duration) (*Locked, error) {
	// O_DIRECTORY and O_NONBLOCK: a FIFO in dir's place is refused at once, never waited on. A
	// bare descriptor, not an os.File: the runtime's poller has nothing to do with a lock.
	fd, err := openRetry(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", dir, &fs.PathError{Op: "open", Path: dir, Err: err})
	}
	closeFD := func() error { return unix.Close(fd) }
	unsupported := false
	err = poll(ctx, dir, timeout, func() (bool, error) {
		err := unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, unix.EWOULDBLOCK), errors.Is(err, unix.EINTR):
			return false, nil
		case flockUnsupported(err):
			unsupported = true
		}
		return false, err
	})
	if unsupported {
		// Some network file systems emulate flock with fcntl locks, which need a descriptor
		// open for writing, impossible on a directory. Every process sees the same file
		// system, so all fall back alike: to a lock file in dir.
		_ = closeFD()
		return Lock(ctx, filepath.Join(dir, ".gsd.lock"), timeout)
	}
	if err != nil {
		_ = closeFD()
		return nil, err
	}
	// Closing the only descriptor releases the flock.
	return &Locked{path: dir, unlock: closeFD}, nil
}

// lockTemp takes a flock on a temporary file for as long as its writer has it open, so that
// RemoveTemps can tell a live writer's file from a crashed one's. Failing to lock only makes the
// file look abandoned sooner, so errors are ignored.
func lockTemp(f *os.File) {
	_ = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

// tryLockFile reports whether f could be locked exclusively, that is whether no live process
// holds a flock on it; the lock is released when f is closed. Where flock is not supported it
// reports true: the caller's other evidence (age, a dead pid) decides alone.
func tryLockFile(f *os.File) bool {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	return err == nil || flockUnsupported(err)
}

// openBlocksRemove is Windows' (see there): on Unix an open file can be removed.
const openBlocksRemove = false

// heldOpen is Windows': on Unix an open file can be removed.
func heldOpen(error) bool { return false }

// flockUnsupported reports whether a flock error means the file system cannot lock this
// descriptor at all, rather than that someone holds the lock.
func flockUnsupported(err error) bool {
	return errors.Is(err, unix.EBADF) || errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EINVAL) ||
		errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP)
}

// openNoBlock opens name for reading without ever blocking: a FIFO opens at once (and is then
// refused by the caller as not regular), where a plain open would wait for a writer forever.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|unix.O_NONBLOCK, 0)
}

// processDead reports whether no process with this pid exists on this host.
func processDead(pid int) bool {
	return pid > 0 && errors.Is(unix.Kill(pid, 0), unix.ESRCH)
}

// lockFileBlocking waits for an exclusive flock on f; errors leave f unlocked, which only lets
// a reclaimer judge it by its content and age.
func lockFileBlocking(f *os.File) {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if !errors.Is(err, unix.EINTR) {
			return
		}
	}
}
