//go:build !unix

package cmd

import (
	"os"
	"time"
)

// pollFile does not poll where there is no poll(2): readWithin waits on a goroutine instead.
func pollFile(*os.File, int64, time.Duration) (data []byte, ok bool, err error, polled bool) {
	return nil, false, nil, false
}
