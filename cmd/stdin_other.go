//go:build !unix

package cmd

import (
	"os"
	"time"
)

// readFileWithin reads f to its end, at most limit bytes, waiting at most wait for it to end;
// ok is false when wait ran out first.
func readFileWithin(f *os.File, limit int64, wait time.Duration) (data []byte, ok bool, err error) {
	return readWithin(f, limit, wait)
}
