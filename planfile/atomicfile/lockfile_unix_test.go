//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockFileOfDeadHolderReclaimedAtOnce: a lock whose holder was SIGKILLed on this host is
// taken over in the first attempt (timeout 0), although it is far younger than stale.
func TestLockFileOfDeadHolderReclaimedAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "STATE.md.lock")
	cmd := helperCommand(helperEnv + "=exit")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	host, _ := os.Hostname()
	content := strconv.Itoa(pid) + "\n" + time.Now().UTC().Format(time.RFC3339) + "\n" + host + "\n"
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := CreateLockFile(path, 0, time.Hour)
	if err != nil {
		t.Fatalf("lock of a dead holder not reclaimed at once: %v", err)
	}
	_ = l.Release()
	// Another host's lock with the same pid is not judged by our process table.
	content = strconv.Itoa(pid) + "\n" + time.Now().UTC().Format(time.RFC3339) + "\nother-" + host + "\n"
	_ = os.WriteFile(path, []byte(content), 0o644)
	if _, err := CreateLockFile(path, 0, time.Hour); err == nil || !strings.Contains(err.Error(), "held by another process") {
		t.Errorf("another host's lock reclaimed: %v", err)
	}
}

func TestFIFOsNeverBlock(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "STATE.md.lock")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	err := returnsWithin(t, func() error { _, err := CreateLockFile(fifo, 20*time.Millisecond, time.Second); return err })
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a lock file") {
		t.Errorf("CreateLockFile on a FIFO = %v", err)
	}
	err = returnsWithin(t, func() error { _, err := ReadFile(fifo, 100); return err })
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a named pipe)") {
		t.Errorf("ReadFile of a FIFO = %v", err)
	}
	err = returnsWithin(t, func() error { _, err := ReadFile("/dev/zero", 1<<20); return err })
	if err == nil || !strings.Contains(err.Error(), "not a regular file (a device)") {
		t.Errorf("ReadFile of /dev/zero = %v", err)
	}
	err = returnsWithin(t, func() error { _, err := LockDir(t.Context(), fifo, 0); return err })
	if err == nil {
		t.Error("LockDir on a FIFO succeeded")
	}
}
