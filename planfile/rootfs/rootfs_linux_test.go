package rootfs

import "testing"

// On Linux the project is read through openat2 when the kernel has it; the tests above then
// cover that implementation (and the os.Root fallback elsewhere).
func TestLinuxUsesOpenat2(t *testing.T) {
	fsys, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := fsys.(*beneath); !ok {
		t.Logf("openat2 is not available on this kernel: the os.Root fallback is in use (%T)", fsys)
	}
}
