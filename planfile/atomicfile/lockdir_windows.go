package atomicfile

import (
	"context"
	"os"
	"path/filepath"
	"time"
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

func openNoBlock(name string) (*os.File, error) { return os.Open(name) }

// processDead is never sure on Windows; stale locks there are judged by age alone.
func processDead(int) bool { return false }

func lockFileBlocking(*os.File) {}
