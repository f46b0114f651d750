package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// ReadFile reads the regular file at name (symlinks followed), refusing anything larger than
// limit bytes. A FIFO, device or directory is refused without being read: opening never blocks
// and /dev/zero is never read until memory runs out. A missing file gives an error wrapping
// fs.ErrNotExist.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, fi, err := OpenRegular(name)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	if fi.Size() > limit {
		return nil, tooLarge(name, limit)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, tooLarge(name, limit)
	}
	return data, nil
}

// OpenRegular opens the regular file at name for reading (symlinks followed), with its
// FileInfo, for a reader that reads only part of it (the end of an agent's transcript). Like
// ReadFile it never blocks and refuses a FIFO, device or directory without reading from it.
func OpenRegular(name string) (*os.File, fs.FileInfo, error) {
	f, err := openNoBlock(name)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err == nil && !fi.Mode().IsRegular() {
		err = notRegular(name, fi.Mode())
	}
	if err != nil {
		_ = f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// tooLarge is ReadFile's error for a file over its limit.
func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s: larger than the %d bytes gsd reads", name, limit)
}

// notRegular is ReadFile's error for anything but a regular file.
func notRegular(name string, m fs.FileMode) error {
	return fmt.Errorf("%s: not a regular file (%s)", name, TypeName(m))
}

// TypeName names a file type for messages: "a directory", "a named pipe", "a symbolic link".
func TypeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return m.Type().String()
}

// MkdirAll creates dir and any missing parents like os.MkdirAll, and syncs the parent of every
// directory it creates, so that after a crash a file written into dir cannot be lost with the
// directory entry that leads to it.
func MkdirAll(dir string, perm fs.FileMode) error {
	dir = filepath.Clean(dir)
	if fi, err := os.Stat(dir); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: dir, Err: errors.New("not a directory")}
	}
	var missing []string
	for d := dir; ; {
		if _, err := os.Lstat(d); err == nil {
			break
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		err := os.Mkdir(d, perm)
		if errors.Is(err, fs.ErrExist) {
			// Another process made it; it syncs the parent itself. A file in its place fails
			// the next Mkdir or the caller's write.
			continue
		}
		if err != nil {
			return err
		}
		if err := syncDir(filepath.Dir(d)); err != nil {
			return err
		}
	}
	return nil
}

// Remove removes the file at name and syncs its directory, so that the removal survives a crash
// (an archived session must not come back beside its archive).
func Remove(name string) error {
	if err := removeFile(name); err != nil {
		return err
	}
	return syncDir(filepath.Dir(name))
}

// TempGrace is how old a temporary file must be before RemoveTemps may take it for debris. A
// live writer holds a lock on its temporary file (see lockTemp) from a moment after creating it
// until it closes it just before the rename; the grace covers those two moments.
const TempGrace = 10 * time.Second

// RemoveTemps removes the temporary files that writers of base (a file name in dir) killed in
// the middle of a write left in dir, and returns how many it removed. It removes a file only
// when all of these hold: its name is "." + a name starting with base + digits (IsTemp), it is a
// regular file, it was last modified more than TempGrace ago, and no process holds a lock on it;
// so it never removes a file that a live writer, in this process or another, may still rename
// into place. The directory is synced when something was removed. Failures are ignored: debris
// is untidy, not wrong.
func RemoveTemps(dir, base string) int {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, de := range entries {
		name := de.Name()
		if !strings.HasPrefix(name, "."+base) || !IsTemp(name) || !de.Type().IsRegular() {
			continue
		}
		if removeIfAbandoned(filepath.Join(dir, name)) {
			n++
		}
	}
	if n > 0 {
		_ = syncDir(dir)
	}
	return n
}

func removeIfAbandoned(path string) bool {
	f, err := openNoBlock(path)
	if err != nil {
		return false
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) <= TempGrace || !tryLockFile(f) {
		return false
	}
	// Holding the lock, check that the name still leads to the file examined.
	if cur, err := os.Lstat(path); err != nil || !os.SameFile(fi, cur) {
		return false
	}
	if openBlocksRemove {
		_ = f.Close() // Windows: our own handle would make the removal fail
	}
	return removeFile(path) == nil
}
