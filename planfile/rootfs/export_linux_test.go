package rootfs

// SettleTime lets the tests of package rootfs_test shorten the listing cache's settling time.
var SettleTime = &settleTime
