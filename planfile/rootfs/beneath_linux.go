package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"sync"

	"golang.org/x/sys/unix"
)

// beneath is a directory whose names are opened with openat2(RESOLVE_BENEATH).
type beneath struct {
	mu    sync.Mutex
	dirfd int
}

var how = unix.OpenHow{
	Flags:   unix.O_RDONLY | unix.O_CLOEXEC,
	Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
}

// openBeneath opens dir for openat2; ok is false (and err nil) when this kernel cannot.
func openBeneath(dir string) (fs.FS, bool, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, false, nil // os.OpenRoot says what is wrong, in its words
	}
	b := &beneath{dirfd: fd}
	probe, err := b.openat2(".", unix.O_PATH|unix.O_CLOEXEC)
	if err != nil {
		unix.Close(fd)
		return nil, false, nil // no openat2 here (ENOSYS, or EPERM from a seccomp filter)
	}
	unix.Close(probe)
	return b, true, nil
}

// maxOpenRetries bounds openat2's retries on EAGAIN.
const maxOpenRetries = 16

func (b *beneath) openat2(name string, flags uint64) (int, error) {
	h := how
	h.Flags = flags
	for tries := 0; ; tries++ {
		fd, err := unix.Openat2(b.dirfd, name, &h)
		// EAGAIN: a rename or mount raced the resolution (RESOLVE_BENEATH), worth another try;
		// but with O_NONBLOCK it can also mean a file under another process's lease, which
		// retrying at once would only spin on.
		if err == unix.EINTR || err == unix.EAGAIN && tries < maxOpenRetries {
			continue
		}
		return fd, err
	}
}

// Close closes the directory's descriptor.
func (b *beneath) Close() error {
	b.mu.Lock()
	fd := b.dirfd
	b.dirfd = -1
	b.mu.Unlock()
	if fd < 0 {
		return os.ErrClosed
	}
	return unix.Close(fd)
}

// Open opens name for reading. A FIFO blocks, as with os.Open: callers Stat first (or use
// ReadFile, which never blocks).
func (b *beneath) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := b.openat2(name, how.Flags)
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: pathErr(err)}
	}
	return &file{File: os.NewFile(uintptr(fd), name), b: b, name: name}, nil
}

// file is an opened name; its directory entries' Info is confined too (os.File's would lstat
// the name relative to the working directory).
type file struct {
	*os.File
	b    *beneath
	name string
}

// ReadDir lists the directory, each entry's Info read beneath the root.
func (f *file) ReadDir(n int) ([]fs.DirEntry, error) {
	ents, err := f.File.ReadDir(n)
	for i, e := range ents {
		ents[i] = &dirEntry{b: f.b, dir: f.name, name: e.Name(), typ: e.Type()}
	}
	return ents, err
}

// Stat returns the file information of name, following a final symlink as os.Root's FS does.
func (b *beneath) Stat(name string) (fs.FileInfo, error) { return b.stat(name, 0) }

// stat is Stat, or Lstat with O_NOFOLLOW: an O_PATH descriptor (which opens nothing, not even
// a FIFO), fstat'ed and closed.
func (b *beneath) stat(name string, nofollow uint64) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := b.openat2(name, unix.O_PATH|unix.O_CLOEXEC|nofollow)
	if err != nil {
		return nil, &fs.PathError{Op: "statat", Path: name, Err: pathErr(err)}
	}
	defer unix.Close(fd)
	fi := &fileInfo{name: path.Base(name)}
	if err := fstat(fd, &fi.sys); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return fi, nil
}

// pathErr names an escape as os.Root does; other errors stay (ENOENT is fs.ErrNotExist).
func pathErr(err error) error {
	if errors.Is(err, unix.EXDEV) {
		return ErrEscapes
	}
	return err
}
