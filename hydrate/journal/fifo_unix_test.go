//go:build unix

package journal

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestFIFOIsRefusedWithoutOpening(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), FileName)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	// Opening the FIFO would block this test forever: passing is the proof it was not opened.
	checkRefused(t, fifo, "a named pipe")
}
