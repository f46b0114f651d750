package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"math"
)

// Errors of ReadFile and ReadDirNames, each wrapped in an *fs.PathError naming the file.
var (
	ErrIsDir    = errors.New("is a directory")
	ErrTooLarge = errors.New("file larger than the limit")
	ErrNotDir   = errors.New("not a directory")
)

// NotRegularError is ReadFile's error for a named pipe, a socket, a device or anything else
// that is neither a regular file nor a directory.
type NotRegularError struct {
	Type fs.FileMode // the file's type bits, as fs.FileMode.Type gives them
}

func (e *NotRegularError) Error() string {
	return "not a regular file (" + e.Type.String() + ")"
}

// ReadFile reads the regular file name, of at most limit bytes. It reads nothing else: a named
// pipe, a socket or a device is refused by its type. Through Open's FS that is one open (a
// non-blocking one, so that a named pipe cannot hold it up: see openFlags) and an fstat of the
// opened file; through any other FS, whose Open may block, a Stat comes before the open.
//
// A failure to open or stat name is returned as the FS reports it: errors.Is(err,
// fs.ErrNotExist) for a missing file, errors.Is(err, ErrEscapes) for a symlink leading outside.
// Any other failure is an *fs.PathError with Op "read" whose Err is ErrIsDir, a
// *NotRegularError, ErrTooLarge or, for an I/O error, the system's error (as os.File's Read
// reports it).
func ReadFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	limit = min(limit, math.MaxInt-1)
	f, err := open(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, relErr(name, err)
	}
	if err := checkRegular(name, fi.Mode(), fi.Size(), limit); err != nil {
		return nil, err
	}
	return readAll(name, f, fi.Size(), limit)
}

// open opens name without blocking on a named pipe: through Open's FS, whose opens do not
// block; through another, only after a Stat has refused what is neither a regular file nor a
// directory (which leaves a race with a rename, for FSs that only tests use).
func open(fsys fs.FS, name string) (fs.File, error) {
	r, ok := fsys.(*rootFS)
	if !ok {
		if fi, err := fs.Stat(fsys, name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			return nil, readErr(name, &NotRegularError{Type: fi.Mode().Type()})
		}
		f, err := fsys.Open(name)
		return f, escapeErr(err)
	}
	f, err := r.Open(name)
	if err == nil || errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrEscapes) {
		return f, err
	}
	// A socket (ENXIO) or a device whose driver refused is named by its type, as it would be
	// once opened.
	if fi, serr := r.Stat(name); serr == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, readErr(name, &NotRegularError{Type: fi.Mode().Type()})
	}
	return nil, err
}

// checkRegular refuses, by its mode and size, a file ReadFile would not read.
func checkRegular(name string, mode fs.FileMode, size, limit int64) error {
	switch {
	case mode.IsDir():
		return readErr(name, ErrIsDir)
	case !mode.IsRegular():
		return readErr(name, &NotRegularError{Type: mode.Type()})
	case size > limit:
		return readErr(name, ErrTooLarge)
	}
	return nil
}

// readAll reads r to its end into a buffer of the file's size and a byte more (to see the end,
// or that the file grew), as os.ReadFile does, refusing more than limit bytes.
func readAll(name string, r io.Reader, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, size+1)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew since it was stat'ed
		}
		n, err := r.Read(b[len(b):min(int64(cap(b)), limit+1)])
		b = b[:len(b)+n]
		if int64(len(b)) > limit {
			return nil, readErr(name, ErrTooLarge)
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // os.File names the file by its path joined to the root's
			}
			return nil, readErr(name, err)
		}
	}
}

func readErr(name string, err error) error {
	return &fs.PathError{Op: "read", Path: name, Err: err}
}

// ReadDirNames lists the names in directory name, in no particular order, without the lstat of
// every entry that fs.ReadDir does through an os.Root. A name that is not a directory gives an
// error with errors.Is(err, ErrNotDir); a missing one, fs.ErrNotExist.
func ReadDirNames(fsys fs.FS, name string) ([]string, error) {
	notDir := &fs.PathError{Op: "readdirent", Path: name, Err: ErrNotDir}
	f, err := open(fsys, name)
	var nr *NotRegularError
	if errors.As(err, &nr) {
		return nil, notDir
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if rd, ok := f.(interface{ Readdirnames(int) ([]string, error) }); ok {
		names, err := rd.Readdirnames(-1) // an os.File, from Open's FS
		if err != nil {
			// Only then is the type asked for: a listing of a file fails.
			if fi, serr := f.Stat(); serr == nil && !fi.IsDir() {
				return nil, notDir
			}
			return nil, relErr(name, err)
		}
		return names, nil
	}
	if fi, err := f.Stat(); err != nil {
		return nil, relErr(name, err)
	} else if !fi.IsDir() {
		return nil, notDir
	}
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, notDir
	}
	ents, err := rd.ReadDir(-1)
	if err != nil {
		return nil, relErr(name, err)
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names, nil
}
