package planfile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
		prev := 0
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
			prev = tk.Tag.End
			_ = tk.Name()
		}
		if why := xmlAgreement(p, false); why != "" {
			t.Fatal(why)
		}
	})
}

// FuzzSetStatus: an edit changes only bytes inside one task's start tag, and the task then has
// the status asked for.
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
				tag := p.Tasks[n-1].Tag
				if pre < tag.Start || len(src)-suf > tag.End {
					t.Fatalf("task %d -> %s changed bytes %d..%d outside its tag %+v", n, st, pre, len(src)-suf, tag)
				}
				// Stronger: only that attribute's bytes. A quoted status keeps everything but its
				// value; an unquoted one is rewritten whole; a missing one is inserted at one
				// place, with nothing else touched.
				var keepA, keepB int // src[:keepA] and src[keepB:] must survive as they are
				var mid string       // what goes between them
				if a, ok := p.Tasks[n-1].Attr("status"); ok && a.Quote != 0 {
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

// FuzzBootstrap: bootstrapping leaves no task without a status, and is stable.
func FuzzBootstrap(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := Bootstrap(src, "ann", ".planning/phases/01-a/01-01-PLAN.md", time.Unix(0, 0))
		if err != nil {
			return
		}
		p := Scan(out)
		if p.Header.Plan != ".planning/phases/01-a/01-01-PLAN.md" {
			t.Fatalf("header not found in bootstrapped file: %+v", p.Header)
		}
		for i := range p.Tasks {
			if _, ok := p.Tasks[i].StatusText(); !ok {
				t.Fatalf("task %d has no status after bootstrap", i+1)
			}
		}
		again, err := InjectStatuses(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("inject not idempotent: %v", err)
		}
	})
}
