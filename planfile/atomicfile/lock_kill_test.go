//go:build !windows

package atomicfile

import (
	"context"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestLockReleasedWhenHolderKilled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	cmd, _ := startHolder(t, path)
	assertBusy(t, path, 100*time.Millisecond)
	// SIGKILL gives the holder no chance to unlock; the kernel must drop the lock with the
	// process. Wait reaps it, so its descriptors are closed by then.
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	start := time.Now()
	l, err := Lock(context.Background(), path, 2*time.Second)
	if err != nil {
		t.Fatalf("lock after the holder was killed: %v", err)
	}
	_ = l.Unlock()
	// One attempt should do; allow generous slack for a loaded machine.
	if elapsed := time.Since(start); elapsed > 500*time.Millisecond {
		t.Errorf("took %v to take a lock whose holder was killed", elapsed)
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("helper ended with %v, not by SIGKILL", cmd.ProcessState)
	}
}
