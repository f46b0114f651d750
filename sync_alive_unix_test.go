//go:build unix

package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// alive says whether the process pid runs (a zombie, dead but not yet reaped, does not).
func alive(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || syscall.Kill(n, 0) != nil {
		return false
	}
	if stat, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil {
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && i+2 < len(stat) {
			return stat[i+2] != 'Z'
		}
	}
	return true
}
