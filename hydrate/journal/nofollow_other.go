//go:build !unix

package journal

// noFollow is 0 where open has no such flag (check has refused a symlink already).
const noFollow = 0
