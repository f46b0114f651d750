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
	"io"
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
	return &rootFS{FS: r.FS(), root: r}, nil
}

// Close releases the directory descriptors behind an FS that Open returned; for another fs.FS
// it does nothing. A process that opens many projects (gsd mcp, on every call) must close each.
func Close(fsys fs.FS) error {
	if c, ok := fsys.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// rootFS is os.Root's FS with the Root kept, to be closed.
type rootFS struct {
	fs.FS
	root *os.Root
}

func (r *rootFS) Close() error { return r.root.Close() }

func (r *rootFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(r.FS, name) }

func (r *rootFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(r.FS, name) }

func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.FS, name) }
