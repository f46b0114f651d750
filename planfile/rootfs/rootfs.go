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
func Open(dir string) (fs.FS, error) { return OpenCaching(dir, "") }

// OpenCaching is Open with a listing cache in cacheDir ("" for none): ReadCachedDirNames takes
// directories' names from it while they are unchanged, and Close stores what it learnt. The
// cache is Linux's; on other systems cacheDir is not used.
func OpenCaching(dir, cacheDir string) (fs.FS, error) {
	return OpenWith(dir, Options{ListingCache: cacheDir})
}

// Options are how OpenWith opens a directory.
type Options struct {
	ListingCache string // the listing cache's directory (see OpenCaching); "" for none
	// Record keeps every name read, with what identified it then (AppendInputs). Linux's; on
	// other systems nothing is recorded.
	Record bool
}

// OpenWith is Open with the listing cache and the record of inputs that o asks for.
func OpenWith(dir string, o Options) (fs.FS, error) {
	if fsys, ok, err := openBeneath(dir, o); ok || err != nil {
		return fsys, err
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootFS{FS: r.FS(), root: r}, nil
}

// Close stores the listings an FS from OpenCaching learnt and releases the directory
// descriptors behind an FS that Open returned; for another fs.FS it does nothing. A process
// that opens many projects (gsd mcp, on every call) must close each.
func Close(fsys fs.FS) error {
	if c, ok := fsys.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// AppendInputs appends to dst every name fsys (from OpenWith, with Options.Record) has read,
// each with the device, inode, size, ctime and mtime it had, or with its absence; Unchanged
// checks them against the directory as it is now. ok is false when fsys records nothing, or read
// something that cannot be checked so: a name it could not read for another reason than its
// absence, a name on another file system than the directory (a mount) or on one whose times are
// not trusted (network and FUSE file systems), or a name changed less than the settling time
// (3 s) before fsys was opened, which a change in the same tick of a coarse clock could leave
// looking the same.
func AppendInputs(dst []byte, fsys fs.FS) (_ []byte, ok bool) {
	if r, ok := fsys.(interface{ appendInputs([]byte) ([]byte, bool) }); ok {
		return r.appendInputs(dst)
	}
	return dst, false
}

// Unchanged reports whether every name in inputs (AppendInputs' encoding) is, beneath the
// directory root, as it was when it was read: on the same device and inode with the same size,
// ctime and mtime, or still missing. Any other input (a torn one) is not unchanged.
func Unchanged(root string, inputs []byte) bool { return unchanged(root, inputs) }

// PathKey returns what identifies the file at path and its state: its device, inode, size,
// ctime and mtime (following symlinks); ok is false when it cannot be stat'ed, or on a system
// without the record of inputs.
func PathKey(path string) (key string, ok bool) { return pathKey(path) }

// rootFS is os.Root's FS with the Root kept, to be closed.
type rootFS struct {
	fs.FS
	root *os.Root
}

func (r *rootFS) Close() error { return r.root.Close() }

func (r *rootFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(r.FS, name) }

func (r *rootFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(r.FS, name) }

func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(r.FS, name) }
