//go:build !unix

package rootfs

// openFlags are added to every open: none here. On Windows a named pipe lives in its own
// namespace (\\.\pipe\), not in a directory an os.Root can reach, so an open in the project
// cannot wait on one; what is not a regular file is refused by its type once opened, as on Unix.
const openFlags = 0
