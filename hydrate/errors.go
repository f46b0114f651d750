package hydrate

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gsd-tools/gsd/planfile"
)

// FileError is an error about a file of the project, at a line of it when Line > 0. It reads
// "file:line: message", as compilers write, so that the file is named once and the line is
// never buried in the message; progress turns it into a problem at the same place.
type FileError struct {
	File string // root-relative
	Line int    // 1-based; 0 when the error concerns the whole file
	Err  error
}

func (e *FileError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// fileError locates err in file, taking the line from a planfile.LineError.
func fileError(file string, err error) error {
	var le *planfile.LineError
	if !errors.As(err, &le) {
		return &FileError{File: file, Err: err}
	}
	if error(le) == err {
		err = le.Err // the line moves out of the message
	}
	return &FileError{File: file, Line: le.Line, Err: err}
}

// about renders err as an error about file, naming the file once: "file:line: message".
func about(file string, err error) string {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe.Error()
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "open FILE: permission denied" would name the file twice
	}
	return fileError(file, err).Error()
}

// ErrNoSuchPlan means no plan has the path or id given.
var ErrNoSuchPlan = errors.New("no such plan")

// ArgError is a plan named on the command line that is not one: a path outside the project, or
// neither an existing file nor a plan's id. Callers report it as a usage error.
type ArgError struct{ Err error }

func (e *ArgError) Error() string { return e.Err.Error() }
func (e *ArgError) Unwrap() error { return e.Err }
