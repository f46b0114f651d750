//go:build !unix

package teamsync

import "os/exec"

// ownGroup leaves c as it is: cancelling it kills git (exec.CommandContext's default), and
// WaitDelay bounds the wait for pipes a helper still holds.
func ownGroup(*exec.Cmd) {}
