//go:build unix

package rootfs

import (
	"errors"
	"io/fs"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A named pipe nobody writes to is refused at once, by its type, and so is a socket (which
// cannot be opened at all).
func TestReadFileNotRegular(t *testing.T) {
	root := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", filepath.Join(root, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for kind, fsys := range fsysOf(t, root) {
		for name, typ := range map[string]fs.FileMode{"fifo": fs.ModeNamedPipe, "sock": fs.ModeSocket} {
			done := make(chan error, 1)
			go func() {
				_, err := ReadFile(fsys, name, 100)
				done <- err
			}()
			select {
			case err := <-done:
				var nr *NotRegularError
				if !errors.As(err, &nr) || nr.Type != typ {
					t.Errorf("%s: ReadFile(%s): %v; want a *NotRegularError of type %v", kind, name, err, typ)
				}
				if want := "read " + name + ": not a regular file (" + typ.String() + ")"; err == nil || err.Error() != want {
					t.Errorf("%s: ReadFile(%s): %v; want %q", kind, name, err, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatalf("%s: ReadFile(%s) blocked", kind, name)
			}
		}
		done := make(chan error, 1)
		go func() {
			_, err := ReadDirNames(fsys, "fifo")
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotDir) {
				t.Errorf("%s: ReadDirNames(fifo): %v; want ErrNotDir", kind, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: ReadDirNames(fifo) blocked", kind)
		}
	}
}
