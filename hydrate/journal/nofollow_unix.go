//go:build unix

package journal

import "syscall"

// noFollow makes an open refuse a symlink.
const noFollow = syscall.O_NOFOLLOW
