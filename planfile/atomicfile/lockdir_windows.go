package atomicfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/windows"
)

// LockDir takes an exclusive lock for the directory dir, waiting at most timeout. Windows cannot
// lock a directory, so this is Lock on the file ".gsd.lock" inside dir.
func LockDir(ctx context.Context, dir string, timeout time.Duration) (*Locked, error) {
	return Lock(ctx, filepath.Join(dir, ".gsd.lock"), timeout)
}

// lockTemp does nothing on Windows, where an open file cannot be deleted anyway.
func lockTemp(*os.File) {}

// tryLockFile reports true: Windows refuses to delete a file another process has open.
func tryLockFile(*os.File) bool { return true }

// openBlocksRemove: package os opens files without FILE_SHARE_DELETE, so while any handle to a
// file is open, in this process or another, removing it (by any of its names) fails with
// ERROR_SHARING_VIOLATION. A lock file's holder keeps its handle open, which is what protects a
// live lock here; everyone else, the holder too when it releases, closes before removing.
const openBlocksRemove = true

// heldOpen reports whether a failure to remove a file says that a process has it open.
func heldOpen(err error) bool { return errors.Is(err, windows.ERROR_SHARING_VIOLATION) }

func openNoBlock(name string) (*os.File, error) { return os.Open(name) }

// processDead is never sure on Windows; stale locks there are judged by age alone.
func processDead(int) bool { return false }

func lockFileBlocking(*os.File) {}
