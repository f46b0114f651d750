package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockFile is a held lock file: one that exists while it is held, in the style of GSD's own
// tooling (STATE.md.lock), so that tools which know nothing of flock respect it too.
type LockFile struct {
	path string
	f    *os.File
	fi   fs.FileInfo
}

// CreateLockFile takes the lock file at path: it creates path exclusively, holding the holder's
// pid, the time and the host name, one per line, and keeps it open with a flock on it until
// Release. While path exists it waits, at most timeout, and takes path for abandoned, and
// removes it, when:
//
//   - it is a regular file no gsd holds a flock on, and
//   - it is older than stale, or it names this host and a pid no process has here (its holder
//     was killed).
//
// The removal is atomic with respect to other gsd processes: it happens while holding the flock
// on the very file that was judged, after checking that path still names that file, so two
// processes can never both remove a lock and the second never removes the first's fresh one.
// Anything at path but a regular file (a directory, a FIFO) is never removed or opened for
// writing, and never makes the wait spin: the wait ends after timeout with an error that says
// what is there. The lock file's directory must exist. Windows has no flock: there the holder's
// open handle protects its lock file, since Windows refuses to remove a file that is open.
func CreateLockFile(path string, timeout, stale time.Duration) (*LockFile, error) {
	deadline := time.Now().Add(timeout)
	host, _ := os.Hostname()
	for {
		l, err := createLockFile(path, host)
		if err == nil {
			return l, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		busy := reclaim(path, host, stale)
		if busy == nil {
			continue // gone, or removed as abandoned: try again at once
		}
		if !time.Now().Before(deadline) {
			return nil, fmt.Errorf("%s: %w (waited %v; remove it if no GSD tool is running)", path, busy, timeout)
		}
		time.Sleep(lockRetryDelay)
	}
}

func createLockFile(path, host string) (*LockFile, error) {
	content := strconv.Itoa(os.Getpid()) + "\n" + time.Now().UTC().Format(time.RFC3339) + "\n" + host + "\n"
	// The lock file is made whole and flocked under a temporary name, then linked into place
	// (link fails if path exists): so path never names an empty or unlocked file that a crash
	// right after its creation would leave looking like someone else's fresh lock.
	dir, base := filepath.Dir(path), filepath.Base(path)
	if openBlocksRemove {
		// Windows: the temporary name could not be removed while this process holds the file
		// open, and the open handle is the lock there. path is created directly, which leaves
		// no moment at which it names a file nobody holds open.
		g, err := createDirectly(path, content)
		if err != nil {
			return nil, err
		}
		fi, err := g.Stat()
		if err != nil {
			_ = g.Close()
			return nil, err
		}
		return &LockFile{path: path, f: g, fi: fi}, nil
	}
	f, err := os.OpenFile(tempName(dir, base), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, tempCreateError(dir, err)
	}
	tmp := f.Name()
	lockFileBlocking(f)
	_, err = f.WriteString(content)
	if err == nil {
		err = os.Link(tmp, path)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// No hard links here (some FUSE and FAT file systems): create path exclusively.
			var g *os.File
			if g, err = createDirectly(path, content); err == nil {
				_ = f.Close()
				f = g
			}
		}
	}
	_ = os.Remove(tmp)
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == tmp {
		err = fmt.Errorf("create %s: %w", path, pe.Err) // not the temporary name, which would confuse
	}
	var fi fs.FileInfo
	if err == nil {
		fi, err = os.Lstat(path)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return &LockFile{path: path, f: f, fi: fi}, nil
}

// createDirectly creates path exclusively with content, flocked, for file systems without links.
func createDirectly(path, content string) (*os.File, error) {
	g, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	lockFileBlocking(g)
	if _, err := g.WriteString(content); err != nil {
		_ = g.Close() // first: Windows cannot remove a file while it is open
		_ = os.Remove(path)
		return nil, err
	}
	return g, nil
}

// errHeld says that a lock file is in use.
var errHeld = errors.New("held by another process")

// reclaim removes the lock file at path if it is abandoned (see CreateLockFile) and returns nil
// when path is now free to try; otherwise an error saying why it is not.
func reclaim(path, host string, stale time.Duration) error {
	if openBlocksRemove {
		return reclaimUnopened(path, stale)
	}
	f, err := openNoBlock(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("is %s, not a lock file", TypeName(fi.Mode()))
	}
	if !tryLockFile(f) {
		return errHeld // a live gsd holds it, however old
	}
	if cur, err := os.Lstat(path); err != nil || !os.SameFile(fi, cur) {
		return nil // replaced or removed meanwhile: look again
	}
	data, _ := io.ReadAll(io.LimitReader(f, 4096))
	lines := strings.Split(string(data), "\n")
	dead := false
	if len(lines) >= 3 && host != "" && lines[2] == host {
		pid, err := strconv.Atoi(lines[0])
		dead = err == nil && pid != os.Getpid() && processDead(pid)
	}
	if !dead && time.Since(fi.ModTime()) <= stale {
		return errHeld
	}
	return removeAbandoned(path)
}

// removeAbandoned removes a lock file judged abandoned; nil when path is now free to try.
func removeAbandoned(path string) error {
	if err := Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if heldOpen(err) {
			return errHeld // Windows: its holder, or a newcomer's fresh lock, has it open
		}
		return fmt.Errorf("abandoned, but cannot be removed: %w", err)
	}
	return nil
}

// reclaimUnopened is reclaim for Windows, where a waiter's handle on the lock file, however
// brief, would make its holder's removal fail, and a crowd of waiters polling it would keep it
// failing. So the file is judged without being opened: by its type and age (Lstat reads only
// its attributes), not by its pid, which Windows cannot check anyway (processDead). A live
// holder keeps its handle open, so Windows refuses to remove its lock, however old.
func reclaimUnopened(path string, stale time.Duration) error {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("is %s, not a lock file", TypeName(fi.Mode()))
	}
	if time.Since(fi.ModTime()) <= stale {
		return errHeld
	}
	return removeAbandoned(path)
}

// Release removes the lock file, if path still names the file this lock created, syncs its
// directory and drops the flock. Calling it again does nothing.
func (l *LockFile) Release() error {
	if l.f == nil {
		return nil
	}
	var err error
	if openBlocksRemove {
		// Windows cannot remove a file its holder has open: close first. Until the removal
		// the file is fresh (held for milliseconds), so no waiter takes it for abandoned.
		err = l.f.Close()
	}
	if cur, lerr := os.Lstat(l.path); lerr == nil && os.SameFile(l.fi, cur) {
		if rerr := Remove(l.path); err == nil && !errors.Is(rerr, fs.ErrNotExist) {
			err = rerr
		}
	}
	if !openBlocksRemove {
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
	}
	l.f = nil
	if err != nil {
		return fmt.Errorf("release %s: %w", filepath.Base(l.path), err)
	}
	return nil
}
