package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The test binary doubles as a helper process, so cross-process tests need no separate program:
// with helperEnv set, TestMain does the helper's job instead of running tests.
const (
	helperEnv  = "ATOMICFILE_TEST_HELPER" // "hold" or "increment"
	helperLock = "ATOMICFILE_TEST_LOCK"
	helperFile = "ATOMICFILE_TEST_COUNTER"
	helperN    = "ATOMICFILE_TEST_N"
)

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "":
		os.Exit(m.Run())
	case "exit":
		os.Exit(0)
	case "hold":
		os.Exit(helperHold(os.Getenv(helperLock)))
	case "increment":
		n, _ := strconv.Atoi(os.Getenv(helperN))
		for range n {
			if err := increment(os.Getenv(helperLock), os.Getenv(helperFile)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown helper", os.Getenv(helperEnv))
		os.Exit(2)
	}
}

// helperHold takes the lock, says "locked" on stdout, and holds the lock until stdin closes.
func helperHold(path string) int {
	l, err := Lock(context.Background(), path, 10*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := l.Unlock(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// increment does one locked read-modify-write of the decimal counter in file.
func increment(lockPath, file string) error {
	l, err := Lock(context.Background(), lockPath, 30*time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = l.Unlock() }()
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	n := 0
	if len(data) > 0 {
		if n, err = strconv.Atoi(string(data)); err != nil {
			return fmt.Errorf("counter file holds %q: %w", data, err)
		}
	}
	return WriteFile(file, []byte(strconv.Itoa(n+1)), 0o644)
}

// helperCommand returns a command running this test binary as a helper with env added.
func helperCommand(env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	// Under -race a process sleeps a second before exiting (to let racing goroutines report);
	// helpers have nothing to report that late, and tests wait for their exit.
	cmd.Env = append(os.Environ(), "GORACE="+os.Getenv("GORACE")+" atexit_sleep_ms=0")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stderr = os.Stderr
	return cmd
}

// startHolder starts a helper process that holds the lock at path, and returns once it does.
// Closing the returned stdin makes it unlock and exit.
func startHolder(t *testing.T, path string) (*exec.Cmd, io.WriteCloser) {
	t.Helper()
	cmd := helperCommand(helperEnv+"=hold", helperLock+"="+path)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper did not take the lock: %q, %v", line, err)
	}
	return cmd, stdin
}

// assertBusy checks that Lock on path gives up after timeout with the documented error.
func assertBusy(t *testing.T, path string, timeout time.Duration) {
	t.Helper()
	start := time.Now()
	l, err := Lock(context.Background(), path, timeout)
	elapsed := time.Since(start)
	if err == nil {
		_ = l.Unlock()
		t.Fatal("took a lock that is held elsewhere")
	}
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("got %v, want ErrLocked", err)
	}
	if msg := err.Error(); !strings.Contains(msg, path) || !strings.Contains(msg, "locked by another gsd process") {
		t.Errorf("error does not say who holds what: %v", err)
	}
	if elapsed < timeout {
		t.Errorf("gave up after %v, before the %v timeout", elapsed, timeout)
	}
}

func TestLockExcludesWithinProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	first, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// A second Lock in the same process opens its own descriptor, so flock(2) (and
	// LockFileEx) treat it like another process.
	assertBusy(t, path, 100*time.Millisecond)
	if err := first.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := first.Unlock(); err != nil {
		t.Errorf("second Unlock: %v", err)
	}
	second, err := Lock(context.Background(), path, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("lock after Unlock: %v", err)
	}
	if err := second.Unlock(); err != nil {
		t.Fatal(err)
	}
}

func TestLockWaitsForRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	first, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		_ = first.Unlock()
	}()
	start := time.Now()
	second, err := Lock(context.Background(), path, 5*time.Second)
	if err != nil {
		t.Fatalf("waiting for a released lock: %v", err)
	}
	defer func() { _ = second.Unlock() }()
	if elapsed := time.Since(start); elapsed > 2*time.Second {
		t.Errorf("took %v to notice the release", elapsed)
	}
}

func TestLockZeroTimeoutTriesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	first, err := Lock(context.Background(), path, 0)
	if err != nil {
		t.Fatal(err)
	}
	assertBusy(t, path, 0)
	_ = first.Unlock()
}

func TestLockContextCanceled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	first, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = first.Unlock() }()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = Lock(ctx, path, 10*time.Second)
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrLocked) {
		t.Fatalf("got %v, want context.Canceled and not ErrLocked", err)
	}
	if !strings.Contains(err.Error(), path) {
		t.Errorf("error does not name the lock file: %v", err)
	}
}

func TestLockFileKeptAndNotTruncated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gsd.lock")
	// Created when missing ...
	l, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "") // ... and never deleted.
	assertPerm(t, path, 0o644) // 0644 is inside any usual umask.
	// An existing file is opened as it is, never truncated.
	if err := os.WriteFile(path, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o600); err != nil { // WriteFile leaves an existing file's mode
		t.Fatal(err)
	}
	if l, err = Lock(context.Background(), path, time.Second); err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	assertContent(t, path, "keep")
	assertPerm(t, path, 0o600)
}

func TestLockMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "gsd.lock")
	_, err := Lock(context.Background(), path, 50*time.Millisecond)
	if !errors.Is(err, os.ErrNotExist) || errors.Is(err, ErrLocked) || !strings.HasPrefix(err.Error(), "lock "+path+": ") {
		t.Fatalf("got %v, want a not-exist error naming %s", err, path)
	}
}

func TestLockExcludesOtherProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gsd.lock")
	cmd, stdin := startHolder(t, path)
	assertBusy(t, path, 200*time.Millisecond)
	// Orderly release: the helper unlocks and exits when its stdin closes.
	_ = stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("helper: %v", err)
	}
	l, err := Lock(context.Background(), path, time.Second)
	if err != nil {
		t.Fatalf("lock after the other process released it: %v", err)
	}
	_ = l.Unlock()
}

func TestLockCounterGoroutines(t *testing.T) {
	dir := t.TempDir()
	lockPath, counter := filepath.Join(dir, "gsd.lock"), filepath.Join(dir, "counter")
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Go(func() { errs <- increment(lockPath, counter) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	assertContent(t, counter, strconv.Itoa(n))
	if got := dirNames(t, dir); strings.Join(got, " ") != "counter gsd.lock" {
		t.Errorf("directory holds %q", got)
	}
}

func TestLockCounterProcesses(t *testing.T) {
	dir := t.TempDir()
	lockPath, counter := filepath.Join(dir, "gsd.lock"), filepath.Join(dir, "counter")
	const procs, each, local = 4, 10, 10
	var cmds []*exec.Cmd
	for range procs {
		cmd := helperCommand(helperEnv+"=increment", helperLock+"="+lockPath,
			helperFile+"="+counter, helperN+"="+strconv.Itoa(each))
		cmd.Stdout = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	// This process competes too.
	for range local {
		if err := increment(lockPath, counter); err != nil {
			t.Error(err)
		}
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("helper: %v", err)
		}
	}
	assertContent(t, counter, strconv.Itoa(procs*each+local))
}
