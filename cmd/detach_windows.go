package cmd

import (
	"os/exec"
	"syscall"
)

// detach starts c in a process group of its own, with no console: it outlives the hook.
func detach(c *exec.Cmd) {
	c.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | 0x00000008} // DETACHED_PROCESS
}
