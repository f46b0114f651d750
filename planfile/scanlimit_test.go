package planfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
	}
}

// TestScanIsLinear: every pathological input of a few megabytes is scanned in well under a
// second (a quadratic scan takes minutes), either completely or giving up with ErrTooComplex.
func TestScanIsLinear(t *testing.T) {
	size := 2 << 20
	if testing.Short() {
		size = 1 << 20
	}
	for name, src := range pathological(size) {
		start := time.Now()
		p := Scan(src)
		d := time.Since(start)
		t.Logf("%s: %d bytes, %v, %d tasks, err %v", name, len(src), d, len(p.Tasks), p.Err)
		if d > 3*time.Second {
			t.Errorf("%s: scanning %d bytes took %v", name, len(src), d)
		}
		if p.Err != nil && !errors.Is(p.Err, ErrTooComplex) {
			t.Errorf("%s: err %v", name, p.Err)
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
	corpus, _ := filepath.Glob("/work/shared/corpus/*/.planning/phases/*/*.md")
	paths = append(paths, corpus...)
	worst, worstPath := 0.0, ""
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil || len(src) == 0 {
			continue
		}
		s := scanner{src: src, p: &Plan{Src: src, lines: []int{0}}, budget: 1 << 62}
		s.run()
		if r := float64(s.work) / float64(len(src)); r > worst {
			worst, worstPath = r, path
		}
	}
	t.Logf("%d files; most work per byte %.2f (%s)", len(paths), worst, worstPath)
	if worst > workPerByte/3 {
		t.Errorf("%s needs %.1f bytes of work per byte, too close to the budget of %d", worstPath, worst, workPerByte)
	}
}
