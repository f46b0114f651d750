package agentctx

import (
	"io/fs"
	"strconv"
	"syscall"
)

// fileID is the file's identity: its creation time (a file replaced under the same name is
// created anew).
func fileID(fi fs.FileInfo) string {
	d, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	if !ok {
		return ""
	}
	return strconv.FormatInt(d.CreationTime.Nanoseconds(), 10)
}
