package planfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func addSeeds(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	// The hostile corpus of the end-to-end tests: binary, NUL bytes, broken tags, bad statuses.
	hostile, _ := filepath.Glob(filepath.Join("..", "testdata", "hostile", "*"))
	paths = append(paths, hostile...)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("<tasks>\n<task type=\"auto\" status=\"pending\"><name>A</name></task>\n</tasks>\n"))
	f.Add([]byte("<tasks><task status=x/><task\n type='a'\n>`</task>`</task></tasks>"))
	// Tasks that are XML, or nearly: references, line ends, CDATA, prefixes, duplicates, code.
	f.Add([]byte("<tasks>\n<task type=\"a &amp; b&#x41;&#66;\" x:id='1'\r\n gate=\"g\r\nh\">\r\n<name>N &lt; M</name><x:y>z</x:y>\r\n</task>\n</tasks>\n"))
	f.Add([]byte("<tasks><task a=\"1\" a=\"2\"><n><![CDATA[<b>&amp;]]></n><m><!-- c --></m></task></tasks>"))
	f.Add([]byte("<tasks><task type=\"auto\"><a>`</a><a>`</a>\n```\n<b/>\n```\n<c>a & b</c></task></tasks>"))
	// Markdown task sections and their markers, hand-edited and not.
	f.Add([]byte("## Tasks\n### Task 1: A\n<!-- gsd:task status=\"pending\" -->\nx\n#### sub\n### Task 2: B\r\n\r\n<!--gsd:task status=done-->\n### 3. C"))
	f.Add([]byte("### 1. A\n<!-- gsd:task id='a' status='x' status=\"y\" -->\n```\n### 2. B\n```\n<!--\n### 3. C\n-->\n### 4) D\n<!-- gsd:task status=\"pe -->x\n"))
	f.Add([]byte("## Plan 01-01: A\n<!-- gsd:task -->\n## Plan 01-02: B\n<!-- gsd:task status=\"complete\" -->\n<!-- gsd:task -->\n###"))
	// Task lists (list.go): numbered and checkbox items, nested lists, fences, comments and
	// markers in and around them, tabs, CRLF, an item that ends the file.
	f.Add([]byte("## Tasks\n1. A\n   - [ ] sub\n   1. nested\n\t2) tab\n```\n3. fenced\n```\n10. B\n    <!-- gsd:task status=\"complete\" -->\n## Verification\n1. not a task"))
	f.Add([]byte("<feature status=\"pending\">\n<name>A</name><files>a.go</files>\n</feature>\n  <feature><behavior>x < y</behavior>\n<feature>\n<name>B</name></feature>\n```\n<feature></feature>\n```\n"))
	f.Add([]byte("## 3. Tasks:\r\n- [x] A\r\n  <!-- gsd:task status=in-progress -->\r\n* [X] B\r\n- plain\r\n+ [ ] C\r\n1. [ ] other list\r\n<!--\r\n- [ ] D\r\n-->\r\n- [ ]"))
	f.Add([]byte("### Steps\n 1.\tA\n<!-- gsd:task -->\n  2.     B\n\n<!-- gsd:task status=\"x -->\n3. [?] C\n<task>\n4. D"))
}

// FuzzScan: the scanner never panics, spans stay in range and in order, and wherever etree's
// reading of a task is used it agrees with the scanner's (xmlAgreement).
func FuzzScan(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p := Scan(src)
		if p.Err != nil && !errors.Is(p.Err, ErrTooComplex) {
			t.Fatalf("scan error %v", p.Err)
		}
		if len(p.Tasks) > MaxTasks {
			t.Fatalf("%d tasks, more than MaxTasks", len(p.Tasks))
		}
		prev, prevSpan := 0, 0
		for i := range p.Tasks {
			tk := &p.Tasks[i]
			if tk.Tag.Start < prev || tk.Tag.End > len(src) || tk.Tag.Start >= tk.Tag.End || tk.Span.End > len(src) {
				t.Fatalf("task %d spans %+v %+v out of order/range (len %d)", i+1, tk.Tag, tk.Span, len(src))
			}
			for _, a := range tk.Attrs {
				if a.Val.Start < tk.Tag.Start || a.Val.End > tk.Tag.End || string(src[a.Val.Start:a.Val.End]) != a.Value {
					t.Fatalf("attribute %q span wrong", a.Name)
				}
			}
			if tk.Section != nil && (tk.Span.Start != tk.Section.Heading.Start || tk.Span.Start < prevSpan || tk.Tag.End > tk.Span.End) {
				t.Fatalf("task %d: section span %+v (tag %+v) overlaps the task before it or misses its marker", i+1, tk.Span, tk.Tag)
			}
			if tk.Section != nil {
				prevSpan = tk.Span.End
			}
			prev = tk.Tag.End
			_ = tk.Name()
		}
		if why := xmlAgreement(p, false); why != "" {
			t.Fatal(why)
		}
	})
}

// FuzzSetStatus: an edit changes only bytes inside one task's start tag (or status marker, or,
// for a section without one, inserts one line under its heading), and the task then has the
// status asked for.
func FuzzSetStatus(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p := Scan(src)
		for n := 1; n <= len(p.Tasks) && n <= 4; n++ {
			for _, st := range []Status{Complete, InProgress, Pending} {
				out, err := SetStatus(src, n, st)
				if errors.Is(err, ErrUnchanged) {
					continue
				}
				if err != nil {
					continue // refused: nothing written, which is allowed
				}
				pre := 0
				for pre < len(src) && pre < len(out) && src[pre] == out[pre] {
					pre++
				}
				suf := 0
				for suf < len(src)-pre && suf < len(out)-pre && src[len(src)-1-suf] == out[len(out)-1-suf] {
					suf++
				}
				tk := &p.Tasks[n-1]
				tag := tk.Tag
				// A new marker line is checked below: where an insertion "starts" is ambiguous
				// when its text begins as the line after it does.
				newLine := tk.Section != nil && !tk.Section.HasMarker
				if !newLine && (pre < tag.Start || len(src)-suf > tag.End) {
					t.Fatalf("task %d -> %s changed bytes %d..%d outside its tag %+v", n, st, pre, len(src)-suf, tag)
				}
				// Stronger: only that attribute's bytes. A quoted status keeps everything but its
				// value; an unquoted one is rewritten whole; a missing one is inserted at one
				// place, with nothing else touched.
				var keepA, keepB int // src[:keepA] and src[keepB:] must survive as they are
				var mid string       // what goes between them
				sec := tk.Section
				if a, ok := tk.Attr("status"); sec != nil && !sec.HasMarker {
					// A marker line with the heading's line end, or the file's before it when
					// the heading ends the file.
					// A list item's marker is indented to the item's content: only blanks.
					if strings.Trim(sec.pad, " \t") != "" || !sec.Item && sec.pad != "" {
						t.Fatalf("task %d: marker indentation %q", n, sec.pad)
					}
					keepA, keepB, mid = sec.insert, sec.insert, sec.pad+`<!-- gsd:task status="`+string(st)+`" -->`+sec.eol
					if sec.eol == "" {
						mid = eol(src) + mid
					}
				} else if sec != nil && sec.Bad {
					// The unreadable marker through its "-->"; blanks after it stay.
					seg := bytes.TrimRight(src[sec.Marker.Start:sec.Marker.End], " \t\r")
					keepA, keepB, mid = sec.Marker.Start, sec.Marker.Start+len(seg), `<!-- gsd:task status="`+string(st)+`" -->`
				} else if ok && a.Quote != 0 {
					keepA, keepB, mid = a.Val.Start, a.Val.End, string(st)
				} else if ok {
					keepA, keepB, mid = a.Span.Start, a.Span.End, `status="`+string(st)+`"`
				} else {
					at := insertAt(&p.Tasks[n-1])
					q := string(quoteOf(&p.Tasks[n-1]))
					keepA, keepB, mid = at, at, " status="+q+string(st)+q
				}
				want := string(src[:keepA]) + mid + string(src[keepB:])
				if string(out) != want {
					t.Fatalf("task %d -> %s: got %q, want only the status attribute changed: %q", n, st, out, want)
				}
				got, err := Scan(out).Tasks[n-1].Status()
				if err != nil || got != st {
					t.Fatalf("after edit task %d status %q err %v", n, got, err)
				}
			}
		}
	})
}

// FuzzBootstrap: bootstrapping leaves no task without a status, and is stable; for Markdown
// task sections, removing the marker lines it inserted gives the plan back byte for byte.
func FuzzBootstrap(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Bootstrap(src, "ann", ".planning/phases/01-a/01-01-PLAN.md", time.Unix(0, 0))
		if err != nil {
			return
		}
		if body, err := InjectStatuses(src); err != nil {
			t.Fatalf("Bootstrap succeeded but InjectStatuses failed: %v", err)
		} else if got := stripInserted(t, src, body); !bytes.Equal(got, src) {
			t.Fatalf("removing the inserted markers does not give the plan back:\n%q\n%q", got, src)
		}
		p := Scan(out)
		if p.Header.Plan != ".planning/phases/01-a/01-01-PLAN.md" {
			t.Fatalf("header not found in bootstrapped file: %+v", p.Header)
		}
		plan := Scan(src)
		for i := range p.Tasks {
			// An unreadable marker the plan carried is left as it was, as a <task> with an
			// unknown status is: hydrate refuses such a plan, naming the line.
			if _, ok := p.Tasks[i].StatusText(); !ok && !(p.Tasks[i].Section != nil && p.Tasks[i].Section.Bad) {
				t.Fatalf("task %d has no status after bootstrap", i+1)
			}
			// The status written is the one the plan gives the task (pending, or complete for a
			// checked item).
			want, err1 := plan.Tasks[i].Status()
			got, err2 := p.Tasks[i].Status()
			if err1 == nil && (err2 != nil || got != want) {
				t.Fatalf("task %d: status %s (%v) after bootstrap, the plan says %s", i+1, got, err2, want)
			}
		}
		again, err := InjectStatuses(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("inject not idempotent: %v", err)
		}
	})
}
