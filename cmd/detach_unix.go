//go:build !windows

package cmd

import (
	"os/exec"
	"syscall"
)

// detach makes c a session of its own: it outlives the hook, whatever the agent does to the
// hook's process group.
func detach(c *exec.Cmd) { c.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
