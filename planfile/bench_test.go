package planfile

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// benchPlan is a typical plan: frontmatter, context, five tasks with code fences and prose that
// is not XML.
func benchPlan() []byte {
	var b strings.Builder
	b.WriteString("---\nphase: 03-api\nplan: 02\ntype: execute\n---\n\n<objective>\nBuild it & test it.\n</objective>\n\n<tasks>\n")
	for i := 1; i <= 5; i++ {
		fmt.Fprintf(&b, "<task type=\"auto\">\n  <name>Task %d: Step %d</name>\n  <files>src/a%d.ts</files>\n  <action>\nUse Map<string, number> when a < b && c.\n\n```ts\nconst x = <div>{y}</div>;\n```\n  </action>\n  <verify>npm test</verify>\n  <done>ok</done>\n</task>\n\n", i, i, i)
	}
	b.WriteString("</tasks>\n\n<verification>\n- [ ] tests pass\n</verification>\n")
	return []byte(b.String())
}

func BenchmarkScan(b *testing.B) {
	src := benchPlan()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if p := Scan(src); len(p.Tasks) != 5 {
			b.Fatal(len(p.Tasks))
		}
	}
}

func BenchmarkSetStatus(b *testing.B) {
	src, err := Bootstrap(benchPlan(), "ann", ".planning/phases/03-api/03-02-PLAN.md", time.Unix(0, 0))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := SetStatus(src, 3, Complete); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBootstrap(b *testing.B) {
	src := benchPlan()
	for b.Loop() {
		if _, err := Bootstrap(src, "ann", ".planning/phases/03-api/03-02-PLAN.md", time.Unix(0, 0)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRead is what listing a session costs: a scan, then every task's name and type (the
// queries that would go through etree).
func BenchmarkRead(b *testing.B) {
	src := benchPlan()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		p := Scan(src)
		for i := range p.Tasks {
			if p.Tasks[i].Name() == "" || p.Tasks[i].Type() != "auto" {
				b.Fatal(i)
			}
		}
	}
}
