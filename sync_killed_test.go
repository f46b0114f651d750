//go:build !windows

package main

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestKilledSyncsLoseNothing: one user on two machines marks tasks and syncs, each sync killed
// (SIGKILL) at a random moment; the repository's work tree, index, HEAD and branches are as
// they were after every kill, and once both machines sync to the end, every event either ever
// had is in both journals once, the journals are the same bytes, and the ref stops moving.
func TestKilledSyncsLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts git and gsd processes: go test without -short runs it")
	}
	needGit(t)
	bin := gsdBin(t)
	w := newSyncWorld(t, bin)
	machines := []string{w.clone("laptop"), w.clone("desktop")}
	w.must(machines[0], "ann", "1770112800", "hydrate")
	w.mustSync(machines[0], "ann", "1770112900")
	w.mustSync(machines[1], "ann", "1770113000")
	t0 := time.Now()
	w.mustSync(machines[0], "ann", "1770113000")
	life := time.Since(t0)
	rng := rand.New(rand.NewPCG(35, 8))
	seen := map[string]bool{}
	killed := 0
	for i := 0; i < 40 || killed < 10 && i < 200; i++ {
		d := machines[i%2]
		st := []string{"mark-complete", "mark-in-progress", "mark-pending"}[rng.IntN(3)]
		_ = w.gsd(d, "ann", fmt.Sprint(1770113100+i), st, fmt.Sprint(1+rng.IntN(3)))
		for _, l := range eventLines(t, d, "ann") {
			seen[l] = true
		}
		before := w.gitState(d)
		c := exec.Command(bin, "sync")
		c.Dir, c.Env = d, w.userEnv("ann", fmt.Sprintf("SOURCE_DATE_EPOCH=%d", 1770113100+i))
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(life))))
		if c.Process.Kill() == nil {
			killed++
		}
		_ = c.Wait()
		if after := w.gitState(d); after != before {
			t.Fatalf("a killed sync changed the repository's state:\nbefore:\n%s\nafter:\n%s", before, after)
		}
	}
	// To the end: git processes a kill left behind may still hold a ref's lock for a moment.
	syncs := func(d string) {
		t.Helper()
		for try := 0; ; try++ {
			r := w.sync(d, "ann", "1770114000")
			if r.code == 0 {
				return
			}
			if try == 20 || !strings.Contains(r.stderr, "lock") {
				t.Fatalf("sync in %s: exit %d\n%s%s", filepath.Base(d), r.code, r.stdout, r.stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	w.converge("ann", seen, syncs, machines...)
	t.Logf("%d syncs killed, %d events", killed, len(eventLines(t, machines[0], "ann")))
}
