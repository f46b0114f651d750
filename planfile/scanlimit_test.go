package planfile

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/roadmap/testcorpus"
)

// pathological builds inputs made so that a tolerant scan's look-aheads never find what they
// look for: without the work budget each took minutes (quadratic), found by the hostile-input
// tests of issue 4.
func pathological(size int) map[string][]byte {
	hdr := "<!-- Session progress for ann -->\n<!-- Plan: .planning/x.md -->\n\n"
	task := "<tasks>\n<task status=\"pending\"><name>a</name></task>\n</tasks>\n"
	rep := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return map[string][]byte{
		"unclosed fences":      []byte(hdr + rep("```x\n") + task),
		"unclosed children":    []byte(hdr + "<tasks>\n<task status=\"pending\">" + rep("<a>") + "</task>\n</tasks>\n"),
		"distinct children":    []byte(hdr + "<tasks>\n<task status=\"pending\">" + rep("<a><b><c><d><e><f><g>") + "</task>\n</tasks>\n"),
		"backticks in a line":  []byte(hdr + "<tasks>\n<task status=\"pending\"><name>" + rep("`` `") + "</name></task>\n</tasks>\n"),
		"unclosed comments":    []byte(hdr + "<tasks>\n<task status=\"pending\"><name>" + rep("<!--") + "</name></task>\n</tasks>\n"),
		"tildes":               []byte(hdr + "<tasks>\n<task status=\"pending\">\n" + rep("~~~x\n") + "</task>\n</tasks>\n"),
		"many tasks":           []byte(hdr + "<tasks>\n" + rep("<task>") + "\n</tasks>\n"),
		"unclosed tags":        []byte(hdr + "<tasks>\n<task status=\"pending\">" + rep("<a x=\"") + "</task>\n</tasks>\n"),
		"nested tasks opening": []byte(hdr + rep("<tasks>\n<task>\n")),
		"descending fences":    []byte(hdr + descending(size) + task),
		// Markdown task sections: more than MaxTasks, markers no heading claims, blank lines
		// between a heading and its marker, unclosed fences between headings.
		"task headings":      []byte(hdr + rep("### Task 1\n")),
		"stray markers":      []byte(hdr + "### Task 1\nx\n" + rep("<!-- gsd:task status=\"pending\" -->\n")),
		"blank lines":        []byte(hdr + "### Task 1\n" + rep("\n") + "<!-- gsd:task -->\n"),
		"fenced headings":    []byte(hdr + rep("### 1. a\n```x\n")),
		"unreadable markers": []byte(hdr + rep("### Task 1\n<!-- gsd:task status=\"x y=z -->\n")),
		// Task lists: a Tasks heading per item, items nested under one, blank lines between an
		// item and its marker.
		"task lists":   []byte(hdr + rep("## Tasks\n1. a\n")),
		"nested items": []byte(hdr + "## Tasks\n1. a\n" + rep("   1. b\n")),
		"blank items":  []byte(hdr + "## Tasks\n1. a\n" + rep("\n") + "   <!-- gsd:task -->\n"),
	}
}

// descending returns unclosed fences of decreasing length, each of which a closing line of the
// next would not close: a memo of "fences of n or more never close" alone does not help.
func descending(size int) string {
	var b strings.Builder
	for n := 3; b.Len() < size; n++ {
		b.WriteString(strings.Repeat("`", n) + "x\n")
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	slices.Reverse(lines)
	return strings.Join(lines, "\n") + "\n"
}

// TestScanIsLinear: every pathological input of a few megabytes is scanned within the linear work
// budget (a quadratic scan would need terabytes of work), either completely or giving up with
// ErrTooComplex right after the budget runs out. It counts the scanner's work units, the bytes it
// examines, never wall time, so a busy machine cannot make it fail.
func TestScanIsLinear(t *testing.T) {
	size := 2 << 20
	if testing.Short() {
		size = 1 << 20
	}
	// The inputs the scanner reads through today, in a few units of work per byte: a change that
	// made any of them quadratic would show here long before the budget ran out.
	completes := map[string]bool{"unclosed fences": true, "unclosed comments": true, "tildes": true,
		"unclosed tags": true, "descending fences": true, "backticks in a line": true,
		"stray markers": true, "blank lines": true, "nested items": true, "blank items": true}
	for name, src := range pathological(size) {
		p := &File{Src: src, lines: []int{0}}
		s := scanner{src: src, p: p, budget: workPerByte*len(src) + workSlack}
		s.scan()
		t.Logf("%s: %d bytes, %d work units (budget %d), %d tasks, err %v", name, len(src), s.work, s.budget, len(p.Tasks), p.Err)
		// One look-ahead may overshoot the budget before the scanner notices; nothing after.
		if limit := s.budget + len(src) + callCost; s.work > limit {
			t.Errorf("%s: scanning %d bytes took %d work units, more than the linear limit %d", name, len(src), s.work, limit)
		}
		if p.Err != nil && !errors.Is(p.Err, ErrTooComplex) {
			t.Errorf("%s: err %v", name, p.Err)
		}
		if completes[name] && (p.Err != nil || s.work > 4*len(src)) {
			t.Errorf("%s: %d work units for %d bytes, err %v; want a complete scan within 4 units a byte", name, s.work, len(src), p.Err)
		}
		if p.Err != nil {
			if _, err := SetStatus(src, 1, Complete); !errors.Is(err, ErrTooComplex) {
				t.Errorf("%s: SetStatus on an incomplete scan: %v", name, err)
			}
		}
	}
}

// TestRealFilesStayWithinBudget: the plans of real projects (and this package's fixtures) use a
// small fraction of the work budget.
func TestRealFilesStayWithinBudget(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	// The real projects, when GSD_CORPUS names them.
	if dir, ok := testcorpus.Lookup(t); ok {
		corpus, _ := filepath.Glob(filepath.Join(dir, "*", ".planning", "phases", "*", "*.md"))
		paths = append(paths, corpus...)
	}
	worst, worstPath := 0.0, ""
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil || len(src) == 0 {
			continue
		}
		s := scanner{src: src, p: &File{Src: src, lines: []int{0}}, budget: 1 << 62}
		s.scan()
		if r := float64(s.work) / float64(len(src)); r > worst {
			worst, worstPath = r, path
		}
	}
	t.Logf("%d files; most work per byte %.2f (%s)", len(paths), worst, worstPath)
	if worst > workPerByte/3 {
		t.Errorf("%s needs %.1f bytes of work per byte, too close to the budget of %d", worstPath, worst, workPerByte)
	}
}

// TestFencesAgreeWithSkipFence: the indexed answer is skipFence's answer, on many random
// arrangements of fences, info strings and blank space.
func TestFencesAgreeWithSkipFence(t *testing.T) {
	pieces := []string{"```", "~~~", "````", "``", "~~~~~", "x", "\n", " ", "\t", "\r\n", "`"}
	rng := rand.New(rand.NewPCG(4, 4))
	for range 20000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		src := []byte(b.String())
		f := fences{src: src}
		for off := range src {
			if src[off] != '`' && src[off] != '~' {
				continue
			}
			wantEnd, wantOK := skipFence(src, off)
			gotEnd, gotOK := f.skip(off)
			if wantOK != gotOK || wantOK && wantEnd != gotEnd {
				t.Fatalf("%q at %d: skip = %d %v, skipFence = %d %v", src, off, gotEnd, gotOK, wantEnd, wantOK)
			}
		}
	}
}

// TestBlockIsLinear: Plan.Block over thousands of unclosed fences (quadratic before fences).
func TestBlockIsLinear(t *testing.T) {
	src := []byte(strings.Repeat("```x\n", (1<<20)/5) + "<objective>\nhi\n</objective>\n")
	start := time.Now()
	c, ok := Scan(src).Block("objective")
	if d := time.Since(start); d > 3*time.Second || !ok || c.Text != "\nhi\n" {
		t.Errorf("Block: %v %q in %v", ok, c.Text, d)
	}
}
