package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/windows"
)

// windowsBackoff bounds how long a rename or removal waits for another process (an antivirus
// scanner, the search indexer, or a gsd reader that has the target open) to let go of a file.
// Such holds last milliseconds; a second in total covers them without making a real failure,
// such as a read-only target, hang for long.
var windowsBackoff = backoff{first: time.Millisecond, max: 100 * time.Millisecond, budget: time.Second}

// replaceFile atomically replaces target (already resolved, regular or missing) with data.
// renameio has nothing for Windows, so this does the same steps itself.
func replaceFile(target string, data []byte, perm fs.FileMode) error {
	// Keep an existing file's mode; on Windows that is only its read-only attribute.
	if fi, err := os.Stat(target); err == nil {
		perm = fi.Mode().Perm()
	}
	tmp, err := writeTemp(filepath.Dir(target), filepath.Base(target), data, perm, true)
	if err != nil {
		return err
	}
	if err := beforeRename(tmp); err != nil {
		_ = removeFile(tmp)
		return err
	}
	// MOVEFILE_WRITE_THROUGH returns only once the move is on disk, which stands in for the
	// directory fsync done on Unix (Windows cannot fsync a directory).
	err = moveFile(tmp, target, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH)
	if err != nil {
		_ = removeFile(tmp)
		return err
	}
	return nil
}

// renameReplace moves oldpath over newpath, atomically, without waiting for the disk.
func renameReplace(oldpath, newpath string) error {
	return moveFile(oldpath, newpath, windows.MOVEFILE_REPLACE_EXISTING)
}

// renameNoReplace moves oldpath to newpath unless newpath exists: without
// MOVEFILE_REPLACE_EXISTING, MoveFileEx fails with ERROR_ALREADY_EXISTS or ERROR_FILE_EXISTS,
// which errors.Is matches to fs.ErrExist.
func renameNoReplace(oldpath, newpath string) error {
	return moveFile(oldpath, newpath, windows.MOVEFILE_WRITE_THROUGH)
}

// moveFile calls MoveFileEx, retrying while the failure looks transient.
func moveFile(oldpath, newpath string, flags uint32) error {
	from, err := windows.UTF16PtrFromString(oldpath)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	to, err := windows.UTF16PtrFromString(newpath)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	err = retry(func() error { return windows.MoveFileEx(from, to, flags) }, isTransient, windowsBackoff, time.Sleep)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
	return nil
}

// isTransient reports whether err is one of the errors Windows gives while another process
// briefly holds a file open without FILE_SHARE_DELETE. ERROR_ACCESS_DENIED is also what a
// read-only target gives, so that case fails only after windowsBackoff's budget.
func isTransient(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) ||
		errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// removeFile removes a temporary file, waiting out the same transient holds: a scanner often
// opens a file right after it was written.
func removeFile(name string) error {
	return retry(func() error { return os.Remove(name) }, isTransient, windowsBackoff, time.Sleep)
}

// syncDir does nothing on Windows: directories cannot be fsynced there, and the moves use
// MOVEFILE_WRITE_THROUGH instead.
func syncDir(string) error { return nil }
