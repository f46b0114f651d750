//go:build unix

package teamsync

import (
	"os/exec"
	"syscall"
)

// ownGroup starts c in a process group of its own and makes its cancellation kill the whole
// group: git's helpers (ssh, a credential helper, a remote helper) die with it, whether or not
// they heed SIGTERM, and so no pipe is left held open after the time limit.
func ownGroup(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	c.Cancel = func() error {
		if c.Process == nil {
			return nil
		}
		if err := syscall.Kill(-c.Process.Pid, syscall.SIGKILL); err != nil {
			return c.Process.Kill()
		}
		return nil
	}
}
