package atomicfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// returnsWithin runs f and fails the test if it has not returned after a minute: a hang detector
// for calls that must end by themselves, not a measure of speed.
func returnsWithin[T any](t *testing.T, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(time.Minute):
		t.Fatal("still running after a minute: it hangs")
		panic("unreachable")
	}
}

func TestLockFileCreatedAndReleased(t *testing.T) {
	path := filepath.Join(t.TempDir(), "STATE.md.lock")
	l, err := CreateLockFile(path, 0, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	host, _ := os.Hostname()
	if lines := strings.Split(string(b), "\n"); err != nil || len(lines) != 4 || lines[0] != strconv.Itoa(os.Getpid()) || lines[2] != host {
		t.Errorf("lock file holds %q, %v; want pid, time, host", b, err)
	}
	// Held: a second taker waits out its timeout, even though the file is older than stale.
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(path, old, old)
	if l2, err := CreateLockFile(path, 20*time.Millisecond, time.Second); err == nil || !strings.Contains(err.Error(), "held by another process") {
		t.Errorf("second CreateLockFile on a held, old lock = %v, %v", l2, err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left after Release: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Errorf("second Release: %v", err)
	}
}

func TestLockFileFreshIsWaitedFor(t *testing.T) {
	path := filepath.Join(t.TempDir(), "STATE.md.lock")
	// Another tool's lock (no flock, no host line), fresh.
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := CreateLockFile(path, 20*time.Millisecond, time.Hour)
	if err == nil || !strings.Contains(err.Error(), "held by another process (waited 20ms; remove it if no GSD tool is running)") {
		t.Fatalf("err = %v", err)
	}
	// Once older than stale it is reclaimed, in one attempt.
	old := time.Now().Add(-2 * time.Hour)
	_ = os.Chtimes(path, old, old)
	l, err := CreateLockFile(path, 0, time.Hour)
	if err != nil {
		t.Fatalf("stale lock not reclaimed: %v", err)
	}
	_ = l.Release()
}

// TestLockFileNotAFile: a directory (which cannot be removed: it is not empty) or a FIFO at the
// lock path never makes the wait spin or block; it ends after the timeout, saying what is there.
func TestLockFileNotAFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "STATE.md.lock")
	if err := os.MkdirAll(filepath.Join(path, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(path, old, old)
	err := returnsWithin(t, func() error { _, err := CreateLockFile(path, 50*time.Millisecond, time.Second); return err })
	if err == nil || !strings.Contains(err.Error(), "is a directory, not a lock file (waited 50ms") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(path, "sub")); err != nil {
		t.Errorf("the directory was touched: %v", err)
	}
}

// TestLockFileReclaimIsAtomic: many takers start at once on an abandoned lock; never are two of
// them inside at the same time (the second reclaimer must not remove the first's fresh lock).
func TestLockFileReclaimIsAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "STATE.md.lock")
	for round := range 20 {
		if err := os.WriteFile(path, []byte("999999999\n2020-01-01T00:00:00Z\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		_ = os.Chtimes(path, old, old)
		var inside, most atomic.Int32
		var wg sync.WaitGroup
		start := make(chan struct{})
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				l, err := CreateLockFile(path, 30*time.Second, 10*time.Second)
				if err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(time.Millisecond)
				inside.Add(-1)
				if err := l.Release(); err != nil {
					t.Error(err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if most.Load() != 1 {
			t.Fatalf("round %d: %d holders of the lock at once", round, most.Load())
		}
	}
}

func TestLockDirSameLockByAnyPath(t *testing.T) {
	dir := t.TempDir()
	planning := filepath.Join(dir, ".planning")
	if err := os.Mkdir(planning, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(planning, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	l, err := LockDir(context.Background(), planning, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{planning, link, filepath.Join(dir, "x", "..", ".planning")} {
		_ = os.MkdirAll(filepath.Join(dir, "x"), 0o755)
		if l2, err := LockDir(context.Background(), p, 10*time.Millisecond); !errors.Is(err, ErrLocked) {
			t.Errorf("LockDir(%s) while held = %v, %v", p, l2, err)
		}
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	l, err = LockDir(context.Background(), link, 0)
	if err != nil {
		t.Fatalf("after Unlock: %v", err)
	}
	_ = l.Unlock()
	if entries, _ := os.ReadDir(planning); len(entries) != 0 && filepath.Separator == '/' {
		t.Errorf("LockDir created %v", entries)
	}
}

func TestReadFileCapsAndRefuses(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small")
	_ = os.WriteFile(small, []byte("12345"), 0o644)
	if b, err := ReadFile(small, 5); err != nil || string(b) != "12345" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(small, 4); err == nil || !strings.Contains(err.Error(), "larger than the 4 bytes") {
		t.Errorf("over the cap: %v", err)
	}
	if _, err := ReadFile(dir, 100); err == nil || !strings.Contains(err.Error(), "not a regular file (a directory)") {
		t.Errorf("directory: %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestMkdirAllAndRemove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", "c")
	if err := MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("again: %v", err)
	}
	f := filepath.Join(dir, "f")
	_ = os.WriteFile(f, nil, 0o644)
	if err := MkdirAll(f, 0o755); err == nil {
		t.Error("MkdirAll over a file succeeded")
	}
	if err := Remove(f); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(f); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("not removed: %v", err)
	}
}

func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-TempGrace - time.Minute)
	for _, name := range []string{".STATE.md123", ".STATE.md456", ".ROADMAP.md123", ".STATE.mdx", "STATE.md"} {
		p := filepath.Join(dir, name)
		_ = os.WriteFile(p, nil, 0o644)
		_ = os.Chtimes(p, old, old)
	}
	_ = os.WriteFile(filepath.Join(dir, ".STATE.md789"), nil, 0o644) // young: maybe a live write
	if n := RemoveTemps(dir, "STATE.md"); n != 2 {
		t.Errorf("removed %d", n)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, de := range entries {
		names = append(names, de.Name())
	}
	if got := strings.Join(names, " "); got != ".ROADMAP.md123 .STATE.md789 .STATE.mdx STATE.md" {
		t.Errorf("left %s", got)
	}
}
