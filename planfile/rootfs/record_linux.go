package rootfs

import (
	"bytes"
	"io/fs"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// An FS opened with Options.Record keeps every name it read, each with the device, inode, size,
// ctime and mtime its fstat gave before the read (statKey), or with its absence: what a result
// derived from those reads rests on. While every name still stats the same, the files and
// directories hold what was read, for the reason the listing cache trusts a directory's key: any
// write, create, remove or rename moves a ctime, and nothing in user space sets one back. The
// same settling rule applies: an input whose last change is not settleTime older than the
// opening of the FS makes the record unusable (Inputs' ok is false), since a change within the
// same tick of a coarse clock could leave its key as it was.

// record is what an FS has read since it was opened.
type record struct {
	mu     sync.Mutex
	opened time.Time // every input's last change must precede it by settleTime
	dev    uint64    // the root's device: a name on another (a mount) is not trusted
	inputs []input   // in the order read; a name read twice is in it twice (none is, on real projects)
	ok     bool      // false once a read cannot be replayed (see add)
}

// input is a name read, as it was.
type input struct {
	name     string
	nofollow bool   // stat'ed without following a final symlink
	key      string // statKey, or "" when the name was missing
}

// newRecord starts the record of an FS whose root is open at dirfd. It is spoilt from the start
// when the root is on a file system whose times are not trusted (localFS).
func newRecord(dirfd int) *record {
	r := &record{opened: time.Now()}
	var st unix.Stat_t
	r.ok = fstat(dirfd, &st) == nil && localFS(dirfd)
	r.dev = uint64(st.Dev)
	return r
}

// add records that name, stat'ed (following a final symlink unless nofollow) with result st and
// err, was read. A missing name (ENOENT, or ENOTDIR for a file on the way) is recorded as such;
// any other error, an input on another device or one not settled spoils the record.
func (r *record) add(name string, nofollow bool, st *unix.Stat_t, err error) {
	if r == nil {
		return
	}
	in := input{name: name, nofollow: nofollow}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ok {
		return
	}
	switch {
	case err == unix.ENOENT || err == unix.ENOTDIR:
	case err != nil || uint64(st.Dev) != r.dev || !settled(st, r.opened):
		r.ok = false
		return
	default:
		in.key = statKey(st)
	}
	r.inputs = append(r.inputs, in)
}

// addFD records name, open at fd, from an fstat of it.
func (r *record) addFD(name string, fd int) {
	if r == nil {
		return
	}
	var st unix.Stat_t
	r.add(name, false, &st, fstat(fd, &st))
}

// appendInputs is AppendInputs on the openat2 FS.
func (b *beneath) appendInputs(dst []byte) ([]byte, bool) {
	r := b.rec
	if r == nil {
		return dst, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.ok {
		return dst, false
	}
	for _, in := range r.inputs {
		flag := byte('f')
		if in.nofollow {
			flag = 'l'
		}
		dst = append(append(append(append(append(dst, flag), in.name...), 0), in.key...), '\n')
	}
	return dst, true
}

// unchanged is Unchanged on Linux.
func unchanged(root string, inputs []byte) bool {
	fd, err := unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	for len(inputs) > 0 {
		// A name may hold a newline, but never a NUL; a key holds neither.
		name, rest, ok := bytes.Cut(inputs, []byte{0})
		key, rest, ok2 := bytes.Cut(rest, []byte{'\n'})
		if !ok || !ok2 || len(name) < 2 || name[0] != 'f' && name[0] != 'l' {
			return false
		}
		p := unsafe.String(&name[1], len(name)-1)
		if !fs.ValidPath(p) {
			return false
		}
		flags := 0
		if name[0] == 'l' {
			flags = unix.AT_SYMLINK_NOFOLLOW
		}
		err := fstatat(fd, p, &st, flags)
		switch {
		case len(key) == 0:
			if err != unix.ENOENT && err != unix.ENOTDIR {
				return false // there now, or not knowable
			}
		case err != nil || !sameKey(unsafe.String(&key[0], len(key)), &st):
			return false
		}
		inputs = rest
	}
	return true
}

// pathKey is PathKey on Linux.
func pathKey(path string) (string, bool) {
	var st unix.Stat_t
	if fstatat(unix.AT_FDCWD, path, &st, 0) != nil {
		return "", false
	}
	return statKey(&st), true
}
