//go:build unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/google/renameio/v2"
)

// replaceFile atomically replaces target (already resolved, regular or missing) with data.
// renameio does the temporary file, its fsync and the rename; this adds what it leaves out.
func replaceFile(target string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(target)
	pf, err := renameio.NewPendingFile(target,
		// Without WithTempDir renameio probes os.TempDir() and, when it is on the same file
		// system, puts the temporary file there: a crash would then leave debris in /tmp, and
		// the probe itself creates and renames two files per call. Always use the target's
		// directory, where the rename is guaranteed to stay on one file system.
		renameio.WithTempDir(dir),
		renameio.WithPermissions(perm),
		// Copies the permission bits of an existing regular file, bypassing the umask.
		renameio.WithExistingPermissions(),
	)
	if err != nil {
		return tempCreateError(dir, err)
	}
	// Removes the temporary file unless CloseAtomicallyReplace succeeded; its own error adds
	// nothing to the one being returned.
	defer func() { _ = pf.Cleanup() }()
	lockTemp(pf.File)
	if _, err := pf.Write(data); err != nil {
		return err
	}
	if err := beforeRename(pf.Name()); err != nil {
		return err
	}
	if err := pf.CloseAtomicallyReplace(); err != nil {
		return err
	}
	// renameio does not sync the directory, so after a crash the rename itself could be lost and
	// the old content come back.
	return syncDir(dir)
}

// renameReplace moves oldpath over newpath, atomically, without syncing anything.
func renameReplace(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }

// syncDir makes a rename or link in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer func() { _ = d.Close() }()
	err = d.Sync()
	// Some file systems (certain FUSE and network ones) cannot fsync a directory and say so with
	// EINVAL or ENOTSUP; the rename has happened and there is nothing more to do there.
	if err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// linkNoReplace moves oldpath to newpath unless newpath exists, with link(2), which fails with
// EEXIST instead of replacing (POSIX, and supported by every Unix file system gsd expects).
func linkNoReplace(oldpath, newpath string) error {
	if err := os.Link(oldpath, newpath); err != nil {
		return err
	}
	// newpath is complete now. A failure to drop the second name would leave only a stale
	// dot-file that IsTemp recognises, not a reason to report the creation as failed.
	_ = os.Remove(oldpath)
	return nil
}

// removeFile removes a temporary file.
func removeFile(name string) error {
	return os.Remove(name)
}
