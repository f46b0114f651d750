//go:build unix

package identity

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileGitFilesRefused: a git config that is /dev/zero or a FIFO, and a FIFO as HEAD, are
// refused at once, never read until memory runs out or waited on forever.
func TestHostileGitFilesRefused(t *testing.T) {
	for name, setup := range map[string]func(f *fixture){
		"config is /dev/zero": func(f *fixture) { must(t, os.Symlink("/dev/zero", f.path("home/.gitconfig"))) },
		"config is a FIFO":    func(f *fixture) { must(t, syscall.Mkfifo(f.path("proj/.git/config"), 0o644)) },
		"HEAD is a FIFO": func(f *fixture) {
			must(t, os.Remove(f.path("proj/.git/HEAD")))
			must(t, syscall.Mkfifo(f.path("proj/.git/HEAD"), 0o644))
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			f.repo("proj", "main")
			setup(f)
			done := make(chan error, 1)
			go func() { _, err := FindUser(f.identityEnv("proj")); done <- err }()
			select {
			case err := <-done:
				if strings.Contains(name, "config") && (err == nil || !strings.Contains(err.Error(), "not a regular file")) {
					t.Errorf("err = %v", err)
				}
			case <-time.After(time.Minute):
				t.Fatal("FindUser hangs")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
