package atomicfile

import (
	"errors"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// replaceSwapped writes data to target's spare and exchanges the two (renameat2
// RENAME_EXCHANGE), then empties the spare, which now holds the old content. done is false,
// and nothing changed, where the file system cannot exchange (EINVAL, ENOSYS, ENOTSUP).
func replaceSwapped(target string, data []byte, perm fs.FileMode) (done bool, err error) {
	spare := spareName(target)
	f, err := Open(spare, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|unix.O_NOFOLLOW, perm)
	if err != nil {
		return false, err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = beforeRename(spare)
	}
	if err != nil {
		_ = removeFile(spare)
		return false, err
	}
	err = unix.Renameat2(unix.AT_FDCWD, spare, unix.AT_FDCWD, target, unix.RENAME_EXCHANGE)
	switch {
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.ENOTSUP):
		_ = removeFile(spare)
		return false, nil
	case err != nil:
		_ = removeFile(spare)
		return false, &os.LinkError{Op: "rename", Old: spare, New: target, Err: err}
	}
	// The old content is not kept: only the newest is the file's.
	if f, err := Open(spare, os.O_WRONLY|os.O_TRUNC|unix.O_NOFOLLOW, 0); err == nil {
		_ = f.Close()
	}
	return true, nil
}
