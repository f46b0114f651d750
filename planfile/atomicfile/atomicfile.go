// Package atomicfile replaces files atomically and serialises read-modify-write cycles
// with an advisory lock.
//
// gsd rewrites session files from agents' hooks, often from several processes at once. A reader
// must only ever see the old or the new content (never a torn or empty file, even after a crash),
// and two writers must never lose each other's update. WriteFile and CreateExclusive give the first
// guarantee by writing a synced temporary file next to the target and renaming it into place; Lock
// gives the second with an OS advisory lock that dies with its holder.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// WriteFile atomically replaces the file at path with data.
//
// It writes a temporary file in the target's directory, syncs it, renames it over the target and
// syncs the directory. A symlink at path is followed (also when dangling): the link stays a link
// and its final target is replaced. An existing file keeps its permission bits (not its owner); a
// new file gets perm less the umask, as with os.WriteFile. Only regular files are replaced. On
// failure the temporary file is removed and the target is untouched, except when only the final
// directory sync fails: the new content is then in place but may not survive a crash.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	// Renaming over a directory fails anyway, but over a FIFO or device node it would silently
	// swap the node for a plain file; refuse both up front, before any temporary file exists.
	if fi, err := os.Lstat(target); err == nil && !fi.Mode().IsRegular() {
		if target == path {
			return fmt.Errorf("write %s: not a regular file", path)
		}
		return fmt.Errorf("write %s: %s is not a regular file", path, target)
	}
	if err := replaceFile(target, data, perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// NotRegularError is a write refused because its name holds something other than a regular
// file: a symbolic link (never written through: it may lead to any file of the project, one git
// tracks or git's own config), a directory, a FIFO, a device or a socket.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; nothing is written through it", e.Path, TypeName(e.Mode))
}

// CheckRegular says whether path names a regular file (true) or nothing (false), without
// following a symbolic link or opening anything; anything else there is a *NotRegularError.
// It is the one refusal every writer of a session directory goes through.
func CheckRegular(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return true, nil
}

// WriteRegular atomically replaces the regular file at path with data, or creates it, as
// WriteFile does, but never through a symbolic link: a link or anything else that is not a
// regular file at path is refused (CheckRegular) before a temporary file exists. The rename
// replaces the name itself, so a link put there in the meantime is replaced, not followed.
func WriteRegular(path string, data []byte, perm fs.FileMode) error {
	if _, err := CheckRegular(path); err != nil {
		return err
	}
	if err := replaceFile(path, data, perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// WriteFileUnsynced is WriteFile without waiting for the disk: a reader sees the old content or
// the new, whole, never a mix; but after a power loss soon after it returns the file may hold the
// old content (or, on some file systems, nothing). For a file whose loss costs nothing that is
// not made again on the next run (where an agent's transcript was last read), written on every
// turn of an agent, where two fsyncs would cost more than the rest of the work.
func WriteFileUnsynced(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if fi, err := os.Lstat(target); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("write %s: not a regular file", path)
	}
	tmp, err := writeTemp(filepath.Dir(target), filepath.Base(target), data, perm, false)
	if err == nil {
		err = beforeRename(tmp)
	}
	if err == nil {
		err = renameReplace(tmp, target)
	}
	if err != nil {
		if tmp != "" {
			_ = removeFile(tmp)
		}
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReplaceUnsynced is WriteFileUnsynced for a file rewritten often by writers that take turns
// (they hold a lock): where it can, it writes a spare file beside the target (".<name>.spare",
// made with perm the first time) and exchanges it with the target in one step, then empties it,
// so that no file is created or deleted per write (on Linux, with renameat2's RENAME_EXCHANGE;
// creating and deleting a file each time costs more than the write itself when done several
// times a second). Elsewhere, and for a target that does not exist yet, it is
// WriteFileUnsynced.
func ReplaceUnsynced(path string, data []byte, perm fs.FileMode) error {
	target, err := resolve(path)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	fi, err := os.Lstat(target)
	if err != nil || !fi.Mode().IsRegular() {
		return WriteFileUnsynced(path, data, perm)
	}
	done, err := replaceSwapped(target, data, perm)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !done {
		return WriteFileUnsynced(path, data, perm)
	}
	return nil
}

// spareName is the spare file ReplaceUnsynced keeps beside target.
func spareName(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".spare")
}

// CreateExclusive writes data to a new file at path, atomically, failing with an error that wraps
// fs.ErrExist if anything (even a dangling symlink) already exists there.
//
// The data goes to a synced temporary file first, which is then moved to path with an operation
// that refuses to replace an existing name (renameat2 RENAME_NOREPLACE or link(2) on Unix,
// MoveFileEx without MOVEFILE_REPLACE_EXISTING on Windows). Creating path with O_EXCL and writing
// into it would be simpler, but a crash or a full disk could then leave a truncated file under
// the final name; this way path either does not exist or holds all of data. A new file gets perm
// less the umask.
func CreateExclusive(path string, data []byte, perm fs.FileMode) error {
	return createExclusive(path, data, perm, true)
}

// CreateExclusiveUnsynced is CreateExclusive without waiting for the disk: the file appears
// whole or not at all, but a power loss right after it returns may lose it. For copies whose
// loss costs nothing that is not kept elsewhere (a pre-compaction snapshot of a session that is
// itself durable).
func CreateExclusiveUnsynced(path string, data []byte, perm fs.FileMode) error {
	return createExclusive(path, data, perm, false)
}

func createExclusive(path string, data []byte, perm fs.FileMode, durable bool) error {
	// A cheap early answer for the common case; the move below is what actually guarantees that
	// nothing is overwritten when another process creates path concurrently.
	if _, err := os.Lstat(path); err == nil {
		return fmt.Errorf("create %s: %w", path, fs.ErrExist)
	}
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, filepath.Base(path), data, perm, durable)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := beforeRename(tmp); err != nil {
		_ = removeFile(tmp)
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := renameNoReplace(tmp, path); err != nil {
		_ = removeFile(tmp)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("create %s: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("create %s: %w", path, err)
	}
	if !durable {
		return nil
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	return nil
}

// IsTemp reports whether name (a base name or a path) has the form of this package's temporary
// files: "." + the target's base name + a random decimal number.
//
// Temporary files only outlive a call when the process crashes, and a crash leaves nothing but
// such dot-files. A file that matches may also belong to a write in progress in another process:
// remove them with RemoveTemps, never directly. The pattern is loose (".bashrc2" matches too):
// use it only with the target's base name (see RemoveTemps).
func IsTemp(name string) bool {
	name = filepath.Base(name)
	if len(name) < 3 || name[0] != '.' {
		return false
	}
	i := len(name)
	for i > 0 && '0' <= name[i-1] && name[i-1] <= '9' {
		i--
	}
	// Need at least one digit, and at least one character of target name between the dot and
	// the digits.
	return i < len(name) && i >= 2
}

// testHookBeforeRename, when set by a test, runs after the temporary file tmp has been written
// and synced and before it is renamed into place; an error aborts the write there. It lets
// tests check that a failure at the last moment still removes the temporary file.
var testHookBeforeRename func(tmp string) error

func beforeRename(tmp string) error {
	if testHookBeforeRename != nil {
		return testHookBeforeRename(tmp)
	}
	return nil
}

// maxSymlinks bounds symlink chains, as the kernel's ELOOP limit does.
const maxSymlinks = 40

// resolve returns the file that writing to path should replace: path itself, or the final target
// of the symlink chain at path, also when that target does not exist yet (the write creates it,
// which filepath.EvalSymlinks cannot express). The directory part is always resolved with
// filepath.EvalSymlinks, because it becomes the temporary file's directory and a lexical
// filepath.Dir would get "a/link/../b" wrong where the kernel gets it right.
func resolve(path string) (string, error) {
	for range maxSymlinks {
		dir, base := filepath.Split(path) // unlike filepath.Dir, does not clean away ".."
		if dir == "" {
			dir = "."
		}
		// A missing directory is left as it is: the write then fails naming it.
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		path = filepath.Join(dir, base)
		fi, err := os.Lstat(path)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && fi.Mode()&fs.ModeSymlink == 0) {
			return path, nil
		}
		if err != nil {
			return "", err
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's own (already resolved) directory; no Join, so that ".."
			// in dest is also left to EvalSymlinks in the next round.
			dest = dir + string(filepath.Separator) + dest
		}
		path = dest
	}
	return "", fmt.Errorf("resolve symlinks: more than %d links", maxSymlinks)
}

// tempName returns a fresh temporary name for target base name base in dir. The pattern matches
// what renameio uses on Unix, so IsTemp recognises the temporary files of both.
func tempName(dir, base string) string {
	return filepath.Join(dir, "."+base+strconv.FormatInt(rand.Int64(), 10))
}

// writeTemp creates a new temporary file for base in dir with perm (less the umask), writes data,
// syncs and closes it, and returns its name. On failure nothing is left behind.
func writeTemp(dir, base string, data []byte, perm fs.FileMode, durable bool) (string, error) {
	var (
		f   *os.File
		err error
	)
	// O_EXCL makes a name collision (astronomically unlikely with 63 random bits, or a stale
	// file from a crash) an error we retry instead of two writers sharing one temporary file.
	for range 100 {
		f, err = Open(tempName(dir, base), os.O_RDWR|os.O_CREATE|os.O_EXCL, perm) // (a regular file: no poller)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", tempCreateError(dir, err)
	}
	lockTemp(f)
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = removeFile(tmp)
		return "", err
	}
	return tmp, nil
}

// tempCreateError reports a failure to create a temporary file in dir by naming dir rather than
// the random temporary name, which would only confuse: "create temporary file in /x/missing: no
// such file or directory". The cause stays wrapped for errors.Is.
func tempCreateError(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("create temporary file in %s: %w", dir, err)
}
