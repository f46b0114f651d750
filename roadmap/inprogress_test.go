package roadmap

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sameInProgress fails unless InProgressPhases agrees with the full parse.
func sameInProgress(t *testing.T, src []byte) {
	t.Helper()
	want := InProgress(ParseRoadmap("ROADMAP.md", src))
	got := InProgressPhases(src)
	if !slices.EqualFunc(got, want, func(a, b PhaseNum) bool { return a.Equal(b) }) {
		t.Fatalf("InProgressPhases = %v, the full parse says %v\n%q", got, want, src)
	}
}

func TestInProgressPhases(t *testing.T) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, p := range fixtures {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(p), func(t *testing.T) { sameInProgress(t, b) })
	}
	for _, s := range []string{
		progressHeader + "| 3. A | 1/2 | Complete |\n| 3. A | 1/2 | In progress |\n",            // an earlier row decides
		progressHeader + "| 3. A | 1/2 | - |\n| 03. A | 1/2 | In Progress|\n",                   // an unknown one does not
		"- [ ] **Phase 2: B** (In Progress)\n" + progressHeader + "| 2. B | 0/1 | Complete |\n", // the table wins over a mark
		"### Phase 4: C (in progress)\n",
		"<!-- | 1. A | 1/1 | In progress | -->\n",
		"```\n" + progressHeader + "| 1. A | 1/1 | In progress |\n```\n",
		"| Phase | Status |\n|---|---|\n| 1. A |\n| 2. B | 🚧 |\n| 3. C | x | In Progress |\n",
	} {
		sameInProgress(t, []byte(s))
	}
}

func FuzzInProgressPhases(f *testing.F) {
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	for _, p := range fixtures {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(progressHeader + "| 3. A | 1/2 | Complete |\n| 3. A | 1/2 | In progress |\n"))
	f.Fuzz(func(t *testing.T, src []byte) { sameInProgress(t, src) })
}

// BenchmarkRoadmap1000 compares the full parse of a 1,000-phase roadmap with
// the in-progress fast path.
func BenchmarkRoadmap1000(b *testing.B) {
	var rm strings.Builder
	rm.WriteString("# Roadmap\n\n" + progressHeader)
	for p := 1; p <= 1000; p++ {
		st := "Complete"
		if p == 1000 {
			st = "In progress"
		}
		fmt.Fprintf(&rm, "| %d. Phase %d | 5/5 | %s | - |\n", p, p, st)
	}
	src := []byte(rm.String())
	b.Run("ParseRoadmap", func(b *testing.B) {
		for b.Loop() {
			InProgress(ParseRoadmap("ROADMAP.md", src))
		}
	})
	b.Run("InProgressPhases", func(b *testing.B) {
		for b.Loop() {
			if len(InProgressPhases(src)) != 1 {
				b.Fatal("want one phase in progress")
			}
		}
	})
}
