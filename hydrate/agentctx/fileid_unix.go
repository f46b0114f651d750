//go:build unix

package agentctx

import (
	"io/fs"
	"strconv"
	"syscall"
)

// fileID is the file's identity: its device and inode.
func fileID(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(uint64(st.Ino), 10)
}
