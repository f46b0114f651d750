//go:build unix

package identity

import (
	"errors"
	"os"
	"syscall"
)

// device is the file-system id of path, so that discovery can stop at a
// mount point as git does.
func device(path string) (uint64, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true // Dev is int32 on some systems
}

func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
