//go:build unix

package rootfs

import (
	"io"
	"io/fs"

	"golang.org/x/sys/unix"
)

// ReadFD is ReadFile on a file already open at fd (which it leaves open): one fstat refuses a
// directory, anything else that is not a regular file and a file over limit bytes; then the
// file is read to its end. name is for errors, which are ReadFile's. It is the raw reader of
// every file gsd reads on Unix, inside the project (ReadFile) and outside it (git's
// configuration, agents' settings: package atomicfile).
func ReadFD(fd int, name string, limit int64) ([]byte, error) {
	var st unix.Stat_t
	if err := fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	return readStated(fd, name, limit, &st)
}

// readStated is ReadFD after the fstat, which gave st.
func readStated(fd int, name string, limit int64, st *unix.Stat_t) ([]byte, error) {
	if err := checkRegular(name, fileMode(uint32(st.Mode)), st.Size, limit); err != nil {
		return nil, err
	}
	return readAll(name, fdReader{fd: fd, name: name}, st.Size, limit)
}

// fstat is unix.Fstat, retried when a signal interrupts it.
func fstat(fd int, st *unix.Stat_t) error {
	for {
		if err := unix.Fstat(fd, st); err != unix.EINTR {
			return err
		}
	}
}

// fdReader reads a descriptor, its errors worded as os.File's.
type fdReader struct {
	fd   int
	name string
}

func (r fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(r.fd, p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, readErr(r.name, err)
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// fileMode converts st_mode to an fs.FileMode, as package os does.
func fileMode(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}
