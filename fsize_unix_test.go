//go:build unix

package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/gsd-tools/gsd/cmd"
)

// gsdFsize is the program gsd-fsize FILE ARGS...: gsd ARGS under a file size limit of FILE's
// size plus 16 bytes, with SIGXFSZ ignored, so that a write growing FILE fails partway with
// EFBIG, as one does on a full disk (ENOSPC).
func gsdFsize() int {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gsd-fsize FILE ARGS...")
		return 2
	}
	fi, err := os.Stat(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	signal.Ignore(syscall.SIGXFSZ)
	limit := uint64(fi.Size()) + 16
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Fprintln(os.Stderr, "setrlimit:", err)
		return 2
	}
	return cmd.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr)
}
