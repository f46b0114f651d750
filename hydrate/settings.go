package hydrate

import (
	"errors"
	"io/fs"

	"github.com/gsd-tools/gsd/hydrate/config"
)

// configure applies the gsd section of .planning/config.json, the caller's lock timeout and the
// environment (config.Load says which wins).
func (e *Env) configure() error {
	data, err := e.readFile(config.File) // never a FIFO or a device: a regular file or nothing
	var fe *FileError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		data = nil
	case errors.As(err, &fe):
		return &config.Error{Where: config.File, Err: fe.Err}
	case err != nil:
		return &config.Error{Where: config.File, Err: err}
	}
	s, err := config.Load(data, e.lockTimeout, e.environment)
	if err != nil {
		return err
	}
	e.lockTimeout = s.LockTimeout
	if e.hist.KeepSnapshots <= 0 {
		e.hist.KeepSnapshots = s.KeepSnapshots
	}
	if !s.Journal {
		e.hist.NoJournal = true
	}
	e.settings = s
	return nil
}

// Settings are the effective settings and where each came from.
func (e *Env) Settings() *config.Settings { return e.settings }
