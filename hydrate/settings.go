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

// WritingSettings are the settings every write uses: the lock's wait, the journal, and the
// automatic snapshots a write may take and prune.
var writingSettings = []string{"lockTimeout", "journal", "keepSnapshots"}

// CheckSettings is the error of a command that uses the settings keys when one of them has a
// bad value in the config file; it is then that command's error, not a warning.
func (e *Env) CheckSettings(keys ...string) error {
	if e.settings == nil {
		return nil
	}
	err := e.settings.Check(keys...)
	if err != nil {
		e.settingsFailed = true
	}
	return err
}

// SettingsWarnings are the one-line warnings for the config file's bad values that this command
// did not use (it used their defaults); none when one of them was the command's error.
func (e *Env) SettingsWarnings() []string {
	if e == nil || e.settings == nil || e.settingsFailed {
		return nil
	}
	var ws []string
	for _, inv := range e.settings.Invalid {
		ws = append(ws, e.settings.InvalidWarning(inv))
	}
	return ws
}
