//go:build !unix

package main

import (
	"fmt"
	"os"
)

func gsdFsize() int {
	fmt.Fprintln(os.Stderr, "gsd-fsize: no file size limits here")
	return 2
}
