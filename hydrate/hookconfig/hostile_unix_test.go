//go:build unix

package hookconfig

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileSettingsRefused: a settings file that is /dev/zero, a FIFO or huge is refused with
// an error, promptly and without reading it whole (it used to read /dev/zero until memory ran
// out, and to block forever on a FIFO); nothing is written.
func TestHostileSettingsRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "settings.json")
	huge := filepath.Join(t.TempDir(), "huge.json")
	if err := os.WriteFile(huge, []byte("{"+strings.Repeat(" ", MaxSettingsSize)+"}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, setup := range map[string]func() error{
		"/dev/zero": func() error { return os.Symlink("/dev/zero", path) },
		"a FIFO":    func() error { return syscall.Mkfifo(path, 0o644) },
		"huge":      func() error { return os.Symlink(huge, path) },
	} {
		_ = os.Remove(path)
		if err := setup(); err != nil {
			t.Fatal(err)
		}
		for _, dry := range []bool{true, false} {
			done := make(chan error, 1)
			go func() { _, err := InstallFile(path, Command, dry); done <- err }()
			select {
			case err := <-done:
				if err == nil || !(strings.Contains(err.Error(), "not a regular file") || strings.Contains(err.Error(), "larger than")) {
					t.Errorf("%s (dry run %v): err = %v", name, dry, err)
				}
			case <-time.After(time.Minute):
				t.Fatalf("%s: InstallFile hangs", name)
			}
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("%s: .claude holds %d entries", name, len(entries))
		}
	}
}

// TestSettingsDebrisRemoved: a temporary file a killed install left is removed by the next
// write of settings.json; a young one (maybe a live write) is kept.
func TestSettingsDebrisRemoved(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, name := range []string{".settings.json123", ".settings.json456"} {
		_ = os.WriteFile(filepath.Join(dir, name), []byte("{"), 0o644)
	}
	_ = os.Chtimes(filepath.Join(dir, ".settings.json123"), old, old)
	if _, err := InstallFile(filepath.Join(dir, "settings.json"), Command, false); err != nil {
		t.Fatal(err)
	}
	var names []string
	entries, _ := os.ReadDir(dir)
	for _, de := range entries {
		names = append(names, de.Name())
	}
	if got := strings.Join(names, " "); got != ".settings.json456 settings.json" {
		t.Errorf("left %s", got)
	}
}
