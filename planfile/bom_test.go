package planfile

import (
	"testing"
	"time"
)

// A plan that begins with a byte order mark and a "### Step 1" heading, followed by a "#### 2."
// subsection: the heading on the first line is the task (the mark is not text), and the
// session bootstrapped from it reads back as that task, with its status.
func TestBOMHeadingOnTheFirstLine(t *testing.T) {
	plan := []byte("\xef\xbb\xbf### Step 1\n\nDo a thing.\n\n#### 2. sub\n\nMore.\n")
	p := Scan(plan)
	if len(p.Tasks) != 1 || p.Tasks[0].Name() != "Step 1" {
		t.Fatalf("tasks %d, first %q", len(p.Tasks), p.Tasks[0].Name())
	}
	out, err := Bootstrap(plan, "ann", ".planning/phases/01-x/01-01-PLAN.md", time.Unix(1770112800, 0))
	if err != nil {
		t.Fatal(err)
	}
	s := Scan(out)
	sts, err := s.Statuses()
	if err != nil || len(s.Tasks) != 1 || s.Tasks[0].Name() != "Step 1" || sts[0] != Pending || len(s.CorruptReasons()) > 0 {
		t.Fatalf("the session does not read back: %v %v %v\n%s", err, sts, s.CorruptReasons(), out)
	}
}
