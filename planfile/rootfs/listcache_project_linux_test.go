package rootfs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/gsd-tools/gsd/planfile/rootfs"
	"github.com/gsd-tools/gsd/roadmap"
)

// On a project of hundreds of phases, phases/ and the phase directories are listed through the
// cache; a phase directory made, or a plan added to one whose listing is cached, is part of the
// next position at once.
func TestListingCacheProject(t *testing.T) {
	rootfs.ShortSettle(t)
	root, cache := t.TempDir(), t.TempDir()
	rootfs.OnTrustedFS(t, root)
	phases := filepath.Join(root, ".planning", "phases")
	write := func(name string) error {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		return os.WriteFile(name, []byte("<task>x</task>\n"), 0o644)
	}
	if err := os.MkdirAll(phases, 0o755); err != nil {
		t.Fatal(err)
	}
	n := rootfs.GrowDir(t, phases, func(i int) error {
		d := filepath.Join(phases, fmt.Sprintf("%02d-a-finished-phase-of-the-project", i+1))
		if err := write(filepath.Join(d, fmt.Sprintf("%02d-01-PLAN.md", i+1))); err != nil {
			return err
		}
		return write(filepath.Join(d, fmt.Sprintf("%02d-01-SUMMARY.md", i+1)))
	})
	locate := func(want string) { // as one gsd process: the cache read, then stored at Close
		t.Helper()
		fsys := rootfs.OpenCachingT(t, root, cache)
		pos, err := roadmap.Locate(fsys, ".planning")
		if err != nil {
			t.Fatal(err)
		}
		if err := rootfs.Close(fsys); err != nil {
			t.Fatal(err)
		}
		got := "finished"
		if pos.Active != nil {
			got = pos.Active.Path
		} else if pos.NeedsPlanning {
			got = "needs planning: " + pos.Phase.Dir
		}
		if got != want {
			t.Fatalf("%d phases: position %q, want %q", n, got, want)
		}
	}
	rootfs.Settle()
	locate("finished")
	if ents, _ := os.ReadDir(cache); len(ents) != 1 {
		t.Fatalf("%d phases (%s): cache files %v, want one", n, phases, ents)
	}
	next := filepath.Join(phases, fmt.Sprintf("%02d-next", n+1))
	if err := os.Mkdir(next, 0o755); err != nil {
		t.Fatal(err)
	}
	locate("needs planning: .planning/phases/" + filepath.Base(next))
	rootfs.Settle()
	locate("needs planning: .planning/phases/" + filepath.Base(next)) // its empty listing cached
	if err := write(filepath.Join(next, fmt.Sprintf("%02d-01-PLAN.md", n+1))); err != nil {
		t.Fatal(err)
	}
	locate(fmt.Sprintf(".planning/phases/%02d-next/%02d-01-PLAN.md", n+1, n+1))
	rootfs.Settle()
	locate(fmt.Sprintf(".planning/phases/%02d-next/%02d-01-PLAN.md", n+1, n+1))
	if err := os.RemoveAll(next); err != nil {
		t.Fatal(err)
	}
	locate("finished")
}
