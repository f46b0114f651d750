package rootfs

import (
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// fileInfo is an fs.FileInfo read with fstat, as os.File's Stat gives it.
type fileInfo struct {
	name string
	sys  unix.Stat_t
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.sys.Size }
func (fi *fileInfo) Mode() fs.FileMode  { return fileMode(fi.sys.Mode) }
func (fi *fileInfo) ModTime() time.Time { return time.Unix(fi.sys.Mtim.Unix()) }
func (fi *fileInfo) IsDir() bool        { return fi.Mode().IsDir() }

// Sys returns the *unix.Stat_t the information was read from.
func (fi *fileInfo) Sys() any { return &fi.sys }
