//go:build !windows

package atomicfile

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
)

func TestLockReleasedWhenHolderKilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	cmd, _ := startHolder(t, path)
	assertBusy(t, path, 0) // held: a single attempt fails
	// SIGKILL gives the holder no chance to unlock; the kernel must drop the lock with the
	// process. Wait reaps it, so its descriptors are closed by then.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	// The event that matters: once the holder is reaped, the very first attempt takes the lock
	// (a timeout of 0 tries exactly once), however slow the machine.
	l, err := Lock(context.Background(), path, 0)
	if err != nil {
		t.Fatalf("first attempt after the holder was killed and reaped: %v", err)
	}
	_ = l.Unlock()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("helper ended with %v, not by SIGKILL", cmd.ProcessState)
	}
}
