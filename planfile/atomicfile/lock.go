package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked is wrapped by the error Lock returns when its timeout ran out.
var ErrLocked = errors.New("locked by another gsd process")

// lockRetryDelay is the pause between attempts to take a busy lock. Holders keep it for a few
// milliseconds (read, edit, write), so polling often costs little and keeps the wait short.
const lockRetryDelay = 5 * time.Millisecond

// Locked is a held lock; release it with Unlock.
type Locked struct {
	path   string
	unlock func() error // nil once released
}

// Lock takes an exclusive advisory lock on the lock file at path, waiting at most timeout.
//
// The lock file is created with mode 0644 (less the umask) if missing, is never truncated and
// never deleted: deleting it would let a waiter lock a file that a newcomer no longer sees. The
// lock is flock(2) on Unix and LockFileEx on Windows, taken on a descriptor of its own, so it
// excludes other processes and also other Lock calls in the same process; it is not reentrant.
// The OS drops it when the holder exits, even by SIGKILL, and the descriptor is close-on-exec, so
// child processes do not inherit it. A timeout of zero or less tries exactly once. When the
// timeout runs out the error wraps ErrLocked and names the lock file; when ctx ends first it wraps
// ctx's error.
func Lock(ctx context.Context, path string, timeout time.Duration) (*Locked, error) {
	fl := flock.New(path, flock.SetPermissions(0o644))
	if err := poll(ctx, path, timeout, fl.TryLock); err != nil {
		return nil, err
	}
	return &Locked{path: path, unlock: fl.Unlock}, nil
}

// Unlock releases the lock; calling it again does nothing.
func (l *Locked) Unlock() error {
	if l.unlock == nil {
		return nil
	}
	unlock := l.unlock
	l.unlock = nil
	if err := unlock(); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}

// poll calls try until it reports success or an error, or timeout (or ctx) runs out; a timeout
// of zero or less tries once. Only the timeout running out means "busy" (ErrLocked); the
// caller's cancellation or deadline is reported as such. It is the waiting loop of Lock and
// LockDir.
func poll(ctx context.Context, path string, timeout time.Duration, try func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		ok, err := try()
		if err != nil {
			return fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return nil
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("lock %s: %w (waited %v)", path, ErrLocked, max(timeout, 0))
		}
		select {
		case <-ctx.Done():
		case <-time.After(lockRetryDelay):
		}
	}
}
