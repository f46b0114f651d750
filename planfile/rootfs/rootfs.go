// Package rootfs opens a project directory as a read-only fs.FS that no path can lead out of:
// gsd reads every project file through it.
//
// On Linux it opens each name with one openat2 call resolving beneath the project directory
// (RESOLVE_BENEATH: the kernel refuses "..", absolute paths and symlinks that would leave it).
// os.Root gives the same confinement everywhere, but opens each path component in turn and
// registers every file with the runtime's poller: about a dozen system calls for what openat2
// does in one, on every file of every agent turn. Where openat2 is missing (old kernels,
// seccomp filters) and on other systems, it is os.Root's FS.
//
// ReadFile and ReadDirNames read through any fs.FS; on the openat2 FS they work on the file
// descriptor directly, without an os.File.
package rootfs

import (
	"errors"
	"io/fs"
	"os"
)

// ErrEscapes is the error for a path that would leave the directory (through "..", an absolute
// symlink or one leading outside). Its text is os.Root's, so callers see one message either way.
var ErrEscapes = errors.New("path escapes from parent")

// Open returns dir as a confined fs.FS.
func Open(dir string) (fs.FS, error) {
	if fsys, ok, err := openBeneath(dir); ok || err != nil {
		return fsys, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return r.FS(), nil
}
