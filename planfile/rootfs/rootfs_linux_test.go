package rootfs

import (
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux the project is read through openat2 whenever the kernel has it; the tests above then
// cover that implementation (and the os.Root fallback elsewhere).
func TestLinuxUsesOpenat2(t *testing.T) {
	dir := t.TempDir()
	fd, err := unix.Openat2(unix.AT_FDCWD, dir, &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC})
	kernelHas := err == nil
	if kernelHas {
		unix.Close(fd)
	}
	fsys, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, used := fsys.(*beneath); used != kernelHas {
		t.Errorf("openat2 available: %v, but Open returned %T", kernelHas, fsys)
	}
}

// A FIFO is seen by Stat without blocking, so that readers can refuse it before opening it.
func TestStatFIFODoesNotBlock(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan fs.FileInfo, 1)
	go func() {
		fi, _ := fs.Stat(fsys, "fifo")
		done <- fi
	}()
	select {
	case fi := <-done:
		if fi == nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("Stat(fifo) = %v", fi)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Stat of a FIFO blocked")
	}
}
