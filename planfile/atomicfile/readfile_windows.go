package atomicfile

import (
	"io/fs"
	"os"
)

// Open is os.OpenFile (Unix's version keeps regular files out of the runtime's poller).
func Open(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
