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

// fileReader is an FS that reads files itself (the openat2 FS).
type fileReader interface {
	readFile(name string, limit int64) ([]byte, error)
}

// dirNamesReader is an FS that lists directories itself (the openat2 FS).
type dirNamesReader interface {
	readDirNames(name string) ([]string, error)
}

// ReadFile reads the regular file name, of at most limit bytes. It reads nothing else: a named
// pipe, a socket or a device is refused by its type. On the openat2 FS that takes one open (a
// non-blocking one, so that a named pipe cannot hold it up) and an fstat; through any other FS,
// a Stat before the open.
//
// A failure to open or stat name is returned as the FS reports it: errors.Is(err,
// fs.ErrNotExist) for a missing file, errors.Is(err, ErrEscapes) for a symlink leading outside.
// Any other failure is an *fs.PathError with Op "read" whose Err is ErrIsDir, a
// *NotRegularError, ErrTooLarge or, for an I/O error, the system's error (as os.File's Read
// reports it).
func ReadFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	limit = min(limit, math.MaxInt-1)
	if r, ok := fsys.(fileReader); ok {
		return r.readFile(name, limit)
	}
	return readFileFS(fsys, name, limit)
}

// readFileFS is ReadFile through fsys.Open. Only a Stat first keeps it from opening a named
// pipe, which would block until someone wrote to it.
func readFileFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	if fi, err := fs.Stat(fsys, name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, readErr(name, &NotRegularError{Type: fi.Mode().Type()})
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, escapeErr(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := checkRegular(name, fi.Mode(), fi.Size(), limit); err != nil {
		return nil, err
	}
	return readAll(name, f, fi.Size(), limit)
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
			if _, ok := err.(*fs.PathError); !ok {
				err = readErr(name, err)
			}
			return nil, err
		}
	}
}

func readErr(name string, err error) error {
	return &fs.PathError{Op: "read", Path: name, Err: err}
}

// escapeErr gives os.Root's escape error (an error of its own, with ErrEscapes's text) as
// ErrEscapes, so that callers test for one error.
func escapeErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Err != nil && pe.Err != ErrEscapes && pe.Err.Error() == ErrEscapes.Error() {
		return &fs.PathError{Op: pe.Op, Path: pe.Path, Err: ErrEscapes}
	}
	return err
}

// ReadDirNames lists the names in directory name, in no particular order, without the lstat of
// every entry that fs.ReadDir does through an os.Root. A name that is not a directory gives an
// error with errors.Is(err, ErrNotDir); a missing one, fs.ErrNotExist.
func ReadDirNames(fsys fs.FS, name string) ([]string, error) {
	if r, ok := fsys.(dirNamesReader); ok {
		return r.readDirNames(name)
	}
	return readDirNamesFS(fsys, name)
}

// readDirNamesFS is ReadDirNames through fsys.Open: Readdirnames when the file has it (an
// os.File, from os.Root), else ReadDir. A Stat first keeps it from opening a named pipe.
func readDirNamesFS(fsys fs.FS, name string) ([]string, error) {
	notDir := &fs.PathError{Op: "readdirent", Path: name, Err: ErrNotDir}
	if fi, err := fs.Stat(fsys, name); err == nil && !fi.IsDir() {
		return nil, notDir
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, escapeErr(err)
	}
	defer f.Close()
	if rd, ok := f.(interface{ Readdirnames(int) ([]string, error) }); ok {
		return rd.Readdirnames(-1)
	}
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, notDir
	}
	ents, err := rd.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ents))
	for i, e := range ents {
		names[i] = e.Name()
	}
	return names, nil
}
