package hydrate

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gsd-tools/gsd/hydrate/config"
)

// configure applies the gsd section of .planning/config.json, the caller's lock timeout and the
// environment (config.Load says which wins).
func (e *Env) configure() error {
	var data []byte
	fi, err := fs.Stat(e.FS, config.File)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return &config.Error{Where: config.File, Err: err}
	case !fi.Mode().IsRegular():
		// Never open a FIFO or a device: GSD's config file is a regular file or nothing.
		return &config.Error{Where: config.File, Err: fmt.Errorf("not a regular file (%v)", fi.Mode().Type())}
	default:
		if data, err = e.readFile(config.File); err != nil {
			return err
		}
	}
	s, err := config.Load(data, e.lockTimeout, e.lookupEnv)
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
