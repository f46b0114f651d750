//go:build !linux

package atomicfile

import "io/fs"

// replaceSwapped is not done here: no portable exchange of two names (ReplaceUnsynced then
// writes a new file).
func replaceSwapped(string, []byte, fs.FileMode) (bool, error) { return false, nil }
