package cmd

import (
	"os"
	"testing"
)

// TestMain gives the tests a cache directory of their own (GSD_CACHE): the listings and reports
// gsd keeps (gsd help files) go there, not into the user's cache.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gsd-cmd-test-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("GSD_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
