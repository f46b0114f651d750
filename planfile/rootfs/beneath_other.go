//go:build !linux

package rootfs

import "io/fs"

// openBeneath is Linux's; elsewhere Open uses os.Root.
func openBeneath(string, Options) (fs.FS, bool, error) { return nil, false, nil }

// unchanged is Linux's, as the record of inputs is: elsewhere nothing recorded is unchanged.
func unchanged(string, []byte) bool { return false }

// pathKey is Linux's.
func pathKey(string) (string, bool) { return "", false }
