package rootfs

import (
	"io/fs"
	"testing"
)

// What the tests of package rootfs_test share with this package's own tests of the listing
// cache: a short settling time, waiting for it, the skip on a file system it does not trust,
// growing a directory to the size it is for, and the caching FS (skipped without openat2).
var (
	ShortSettle  = shortSettle
	Settle       = settle
	OnTrustedFS  = onTrustedFS
	GrowDir      = growDir
	OpenCachingT = func(t *testing.T, root, cache string) fs.FS { return openCachingT(t, root, cache) }
)
