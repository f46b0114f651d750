package rootfs

// What the tests of package rootfs_test need of the listing cache: its settling time, which
// they shorten, and which file systems it trusts.
var (
	SettleTime = &settleTime
	TrustedFS  = trustedFS
)
