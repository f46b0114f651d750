package rootfs

import (
	"io/fs"
	"testing"
)

// What the tests of package rootfs_test share with this package's own tests of the listing
// cache: a short settling time, waiting for it, the skip on a file system it does not trust,
// the size of directory it is for, and the caching FS (skipped without openat2).
var (
	ShortSettle     = shortSettle
	Settle          = settle
	OnTrustedFS     = onTrustedFS
	CacheMinDirSize = cacheMinDirSize
	OpenCachingT    = func(t *testing.T, root, cache string) fs.FS { return openCachingT(t, root, cache) }
)
