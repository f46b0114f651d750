package atomicfile

import (
	"os"
	"testing"

	"golang.org/x/sys/windows"
)

func TestIsTransientWindows(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{windows.ERROR_SHARING_VIOLATION, true},
		{windows.ERROR_ACCESS_DENIED, true},
		{windows.ERROR_LOCK_VIOLATION, true},
		{&os.LinkError{Op: "rename", Old: "a", New: "b", Err: windows.ERROR_SHARING_VIOLATION}, true},
		{windows.ERROR_FILE_NOT_FOUND, false},
		{windows.ERROR_PATH_NOT_FOUND, false},
		{windows.ERROR_ALREADY_EXISTS, false},
	} {
		if got := isTransient(tc.err); got != tc.want {
			t.Errorf("isTransient(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
