// Package rootfs opens a project directory as a read-only fs.FS that no path can lead out of:
// gsd reads every project file through it.
//
// It is os.Root's FS, on every system: os.Root resolves each name beneath the directory and
// refuses "..", absolute paths and symlinks that would leave it. Two things are added. Every
// file is opened non-blocking where the system has O_NONBLOCK (see openFlags), so that opening
// a named pipe never waits for a writer; and ReadFile refuses, by the type and size the opened
// file's fstat gives, anything but a regular file of bounded size.
package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
)

// ErrEscapes is the error for a path that would leave the directory (through "..", an absolute
// symlink or one leading outside). Its text is os.Root's, whose own error is not exported.
var ErrEscapes = errors.New("path escapes from parent")

// Open returns dir as a confined fs.FS, to be released with Close.
func Open(dir string) (fs.FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	return &rootFS{root: r}, nil
}

// Close releases the directory descriptor behind an FS that Open returned; for another fs.FS
// it does nothing. A process that opens many projects (gsd mcp, on every call) must close each.
func Close(fsys fs.FS) error {
	if c, ok := fsys.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// rootFS is os.Root's FS, its files opened with openFlags. It implements fs.StatFS (a Stat
// opens nothing) and fs.ReadDirFS, but not fs.ReadFileFS, whose os.Root version opens
// blocking: fs.ReadFile goes through Open.
type rootFS struct {
	root *os.Root
	mu   sync.Mutex
	dirs map[string]*os.Root // directories opened by dirRoot, by name
}

func (r *rootFS) Close() error {
	r.closeDirs()
	return r.root.Close()
}

// Open opens name for reading, never waiting on a named pipe where the system has O_NONBLOCK.
func (r *rootFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	f, err := inDir(r, name, func(d *os.Root, name string) (*os.File, error) {
		return d.OpenFile(name, os.O_RDONLY|openFlags, 0)
	})
	if err != nil {
		return nil, escapeErr(err)
	}
	return f, nil
}

// Stat returns the file information of name, following a final symlink, without opening it.
func (r *rootFS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	fi, err := inDir(r, name, (*os.Root).Stat)
	return fi, escapeErr(err)
}

// ReadDir lists directory name in name order, as fs.ReadDirFS asks, through Open. Its errors
// name the file as given, not joined to the root's path as os.Root's files are named.
func (r *rootFS) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.(*os.File).ReadDir(-1)
	if err != nil {
		return nil, relErr(name, err)
	}
	slices.SortFunc(ents, func(x, y fs.DirEntry) int { return strings.Compare(x.Name(), y.Name()) })
	return ents, nil
}

// relErr names name in err, an error of a file opened as name.
func relErr(name string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return &fs.PathError{Op: pe.Op, Path: name, Err: pe.Err}
	}
	return err
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
