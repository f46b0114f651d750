package hydrate

import (
	"os"
	"testing"
)

// holdFlock keeps the file at path open until the test ends: Windows does not delete open files.
func holdFlock(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
}
