package rootfs

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// readFlags open a file for ReadFile. O_NONBLOCK: a named pipe opens at once (to be refused by
// its fstat) instead of waiting for a writer, so no Stat is needed first. O_NOCTTY: a terminal
// never becomes gsd's controlling one.
const readFlags = unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY

// readFile is ReadFile on the descriptor itself: openat2, fstat, reads, close.
func (b *beneath) readFile(name string, limit int64) ([]byte, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := b.openat2(name, readFlags)
	if err != nil {
		return nil, b.openFileErr(name, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return readStated(fd, name, limit, &st)
}

// openFileErr is readFile's error for a name openat2 could not open. A socket (ENXIO) or a
// device whose driver refused is named by its type, as when files were stat'ed before opening.
func (b *beneath) openFileErr(name string, err error) error {
	if err != unix.ENOENT && err != unix.EXDEV {
		if fi, serr := b.stat(name, 0); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return readErr(name, &NotRegularError{Type: fi.Mode().Type()})
		}
	}
	return &fs.PathError{Op: "openat", Path: name, Err: pathErr(err)}
}
