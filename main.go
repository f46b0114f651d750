package main

import (
	"os"

	"github.com/gsd-tools/gsd/cmd"
)

func main() {
	growStack(0)
	os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// growStack grows the main goroutine's stack while it is one frame deep. A goroutine starts
// with 8 KiB, and gsd's commands run deeper than that (cobra, then the parsers); each doubling
// on the way copies every frame and decodes its stack map, which a process that lives a few
// milliseconds pays in full. One growth here, with nothing to copy, replaces them: gsd hydrate
// takes about 4% less time (median of 100 paired runs against a build without it).
//
//go:noinline
func growStack(i int) byte {
	var frame [16 << 10]byte
	return frame[i]
}
