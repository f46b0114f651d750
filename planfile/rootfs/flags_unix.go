//go:build unix

package rootfs

import "syscall"

// openFlags are added to every open. O_NONBLOCK: a named pipe opens at once, to be refused by
// the type its fstat gives, instead of waiting for a writer; a regular file or a directory
// reads as without it. Because the type is taken from the file already opened, nothing can
// swap a named pipe in between a check and the open. O_NOCTTY: a terminal never becomes gsd's
// controlling one.
const openFlags = syscall.O_NONBLOCK | syscall.O_NOCTTY
