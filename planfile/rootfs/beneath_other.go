//go:build !linux

package rootfs

import "io/fs"

// openBeneath is Linux's; elsewhere Open uses os.Root.
func openBeneath(string) (fs.FS, bool, error) { return nil, false, nil }
