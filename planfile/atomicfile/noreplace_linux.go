package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// renameNoReplace moves oldpath to newpath unless newpath exists. renameat2 with
// RENAME_NOREPLACE does that in one step, so even a crash cannot leave a second name behind;
// file systems or kernels without it (EINVAL, ENOSYS, ENOTSUP) fall back to link(2).
func renameNoReplace(oldpath, newpath string) error {
	err := unix.Renameat2(unix.AT_FDCWD, oldpath, unix.AT_FDCWD, newpath, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		return linkNoReplace(oldpath, newpath)
	default:
		return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
	}
}
