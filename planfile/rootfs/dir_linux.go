package rootfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Where a linux_dirent64 record keeps its length, its type and its name.
const (
	reclenOff = int(unsafe.Offsetof(unix.Dirent{}.Reclen))
	typeOff   = int(unsafe.Offsetof(unix.Dirent{}.Type))
	nameOff   = int(unsafe.Offsetof(unix.Dirent{}.Name))
)

// direntBufs are getdents64 buffers of 8 KiB, as package os uses: some 250 names a call. A
// directory that fills one (a project of hundreds of phases) goes on with a buffer of 64 KiB:
// each call to ext4's hashed-directory reader has a cost of its own, and listing a thousand
// phases takes some 0.1 ms less in two calls than in six.
var (
	direntBufs    = sync.Pool{New: func() any { b := make([]byte, 8<<10); return &b }}
	bigDirentBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}
)

// maxDirent is the longest linux_dirent64 record: a 255-byte name, its NUL and the padding.
const maxDirent = (nameOff + 256 + 7) &^ 7

// readDirNames is ReadDirNames on the descriptor itself. The names share one string: a
// directory of a thousand plans costs a few allocations, not a thousand.
func (b *beneath) readDirNames(name string) ([]string, error) {
	fd, err := b.openDir(name, ErrNotDir)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	return listNames(fd, name)
}

// listNames lists the names in the directory open at fd; name is for errors.
func listNames(fd int, name string) ([]string, error) {
	// Each batch of records is copied in one piece (a name is shorter than its record), and
	// the names are slices of it: a directory of a thousand phases costs a few allocations.
	var names []string
	err := readDirentBatches(fd, name, func(batch []byte) error {
		arena := make([]byte, len(batch)) // never reallocated, and no byte written twice
		used := 0
		names = slices.Grow(names, len(batch)/32) // records of short names: about 32 bytes
		return parseDirents(batch, func(n []byte, _ uint8) error {
			k := copy(arena[used:], n)
			if k > 0 {
				names = append(names, unsafe.String(&arena[used], k))
			} else {
				names = append(names, "")
			}
			used += k
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return names, nil
}

// ReadDir lists directory name in name order, as fs.ReadDirFS asks. Entries' types come from the
// listing; only a file system that does not give them costs an lstat per entry.
func (b *beneath) ReadDir(name string) ([]fs.DirEntry, error) {
	fd, err := b.openDir(name, unix.ENOTDIR)
	if err != nil {
		return nil, err
	}
	defer unix.Close(fd)
	var ents []fs.DirEntry
	err = readDirents(fd, name, func(n []byte, typ uint8) error {
		e := &dirEntry{b: b, dir: name, name: string(n), typ: direntType(typ)}
		if typ == unix.DT_UNKNOWN {
			fi, err := b.stat(e.path(), unix.O_NOFOLLOW)
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed since it was listed
			}
			if err != nil {
				return err
			}
			e.typ = fi.Mode().Type()
		}
		ents = append(ents, e)
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(ents, func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	return ents, nil
}

// openDir opens directory name. A name that exists but is not a directory gives an
// *fs.PathError with Op "readdirent" and Err notDir, as listing it would.
func (b *beneath) openDir(name string, notDir error) (int, error) {
	if !fs.ValidPath(name) {
		return -1, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	fd, err := b.openat2(name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err == nil {
		return fd, nil
	}
	if err == unix.ENOTDIR {
		// Either name or a directory on the way to it is not one: only the first is notDir.
		if fi, serr := b.stat(name, 0); serr == nil && !fi.IsDir() {
			return -1, &fs.PathError{Op: "readdirent", Path: name, Err: notDir}
		}
	}
	return -1, &fs.PathError{Op: "openat", Path: name, Err: pathErr(err)}
}

// readDirents calls each with every name (but "." and "..") and type that getdents64 gives for
// the directory open at fd.
func readDirents(fd int, name string, each func(name []byte, typ uint8) error) error {
	return readDirentBatches(fd, name, func(batch []byte) error { return parseDirents(batch, each) })
}

// readDirentBatches calls each with every batch of records getdents64 gives for the directory
// open at fd; a batch is valid only during the call.
func readDirentBatches(fd int, name string, each func(batch []byte) error) error {
	pool := &direntBufs
	bp := pool.Get().(*[]byte)
	defer func() { pool.Put(bp) }()
	for {
		n, err := unix.Getdents(fd, *bp)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
		if n <= 0 {
			return nil
		}
		if err := each((*bp)[:n]); err != nil {
			return err
		}
		if pool == &direntBufs && n > len(*bp)-maxDirent {
			// Full: a large directory. The records given are consumed, so the buffer can go.
			pool.Put(bp)
			pool = &bigDirentBufs
			bp = pool.Get().(*[]byte)
		}
	}
}

// parseDirents calls each with the records of buf, stopping at a malformed one as package os
// does.
func parseDirents(buf []byte, each func(name []byte, typ uint8) error) error {
	for len(buf) > nameOff {
		reclen := int(binary.NativeEndian.Uint16(buf[reclenOff:]))
		if reclen <= nameOff || reclen > len(buf) {
			return nil
		}
		rec := buf[:reclen]
		buf = buf[reclen:]
		n := rec[nameOff:]
		if i := bytes.IndexByte(n, 0); i >= 0 {
			n = n[:i]
		}
		if string(n) == "." || string(n) == ".." {
			continue
		}
		if err := each(n, rec[typeOff]); err != nil {
			return err
		}
	}
	return nil
}

// direntType converts a d_type to an fs.FileMode type.
func direntType(t uint8) fs.FileMode {
	switch t {
	case unix.DT_BLK:
		return fs.ModeDevice
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.DT_DIR:
		return fs.ModeDir
	case unix.DT_FIFO:
		return fs.ModeNamedPipe
	case unix.DT_LNK:
		return fs.ModeSymlink
	case unix.DT_SOCK:
		return fs.ModeSocket
	}
	return 0
}

// dirEntry is an entry of ReadDir; its Info is read beneath the root, without following a
// symlink.
type dirEntry struct {
	b         *beneath
	dir, name string
	typ       fs.FileMode
}

func (e *dirEntry) Name() string               { return e.name }
func (e *dirEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *dirEntry) Type() fs.FileMode          { return e.typ }
func (e *dirEntry) Info() (fs.FileInfo, error) { return e.b.stat(e.path(), unix.O_NOFOLLOW) }
func (e *dirEntry) String() string             { return fs.FormatDirEntry(e) }
func (e *dirEntry) path() string               { return path.Join(e.dir, e.name) }
