package statemd

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzRewrite: Rewrite never panics; it changes the file exactly when it reports changes; the
// lines it does not report are kept byte for byte, in order, only field lines (and the blank
// lines and heading around them) added; a second run changes nothing; and the result declares
// the phase and percent it was given.
func FuzzRewrite(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "*.input.md"))
	for _, in := range inputs {
		b, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint16(7), uint8(12), uint8(3), uint8(60), uint8(0xff))
	}
	for _, s := range []string{
		"", "# Project State", "## Current Position\n\nPhase: 1\n", "---\ncurrent_phase: \"07\"\n---\n",
		"---\nprogress:\n  percent: 5\n---\n## Current Position\r\n**Plan:** 1 of 2\r\n",
		"## Current Position\n## Current Position\nStatus: x", "\ufeff## Current Position\nProgress: 5%",
		"```\n## Current Position\nPhase: 3\n", "Phase: 3 of 4\n\n## Next\nPhase: 9\n",
		"## Current Position\n\n- **Phase:** E73 — PAUSED\n- **Progress:** [###---] 50% (v1)\n",
		"---\ncurrent_phase: 2\ncurrent_phase_name: 'API'\ncurrent_plan: 1\nprogress:\n  percent: \"40%\"\n---\nProgress: [██░░] 2/5 plans (40%)\n",
	} {
		f.Add([]byte(s), uint16(3), uint8(4), uint8(2), uint8(50), uint8(7))
	}
	f.Fuzz(func(t *testing.T, src []byte, phase uint16, of, plans, pct, flags uint8) {
		v := Values{PhaseOf: int(of % 20), PlanTotal: int(plans % 5), Percent: int(pct % 101)}
		switch flags >> 4 & 3 {
		case 0:
			v.Phase = strconv.Itoa(int(phase % 60))
		case 1:
			v.Phase = fmt.Sprintf("%d.%d", phase%20, phase>>8%4)
		case 2:
			v.Phase = "E" + strconv.Itoa(int(phase%100))
		}
		v.PlanNumber, v.PlanDone = min(1, v.PlanTotal), 0
		v.Status = []string{"", "Ready to plan", "In progress", "Phase complete"}[flags>>6]
		v.PercentKnown, v.CountsKnown = flags&1 != 0, flags&2 != 0
		if flags&4 != 0 {
			v.PhaseName = "Name"
		}

		held := Parse(string(src)).holds(v) // a person's word that the work is held: the phase stays
		before := Parse(string(src)).Declared()
		if before.PhaseLine > 0 && before.Phase == "" || before.Percent < -1 {
			t.Fatalf("Declared() = %+v", before)
		}
		out, changes := Rewrite(src, v)
		if only := Changes(src, v); !slices.Equal(only, changes) {
			t.Fatalf("Changes gives %+v, Rewrite %+v", only, changes)
		}
		// Nothing returned shares src's bytes (src is read in place): overwriting them
		// changes none of it.
		kept := make([]Change, len(changes))
		for i, c := range changes {
			kept[i] = Change{Field: c.Field, Line: c.Line, Old: strings.Clone(c.Old), New: strings.Clone(c.New)}
		}
		outKept := bytes.Clone(out)
		if len(changes) > 0 {
			saved := bytes.Clone(src)
			for i := range src {
				src[i] = '#'
			}
			if !slices.Equal(kept, changes) || !bytes.Equal(outKept, out) {
				t.Fatalf("the result changed with src's bytes: %+v", changes)
			}
			copy(src, saved)
		}
		if (len(changes) == 0) != bytes.Equal(out, src) {
			t.Fatalf("%d changes, output unchanged %v", len(changes), bytes.Equal(out, src))
		}
		if err := keptOutside(src, out, changes); err != nil {
			t.Fatalf("%v\nsrc %q\nout %q\nchanges %+v", err, src, out, changes)
		}
		if again, ch := Rewrite(out, v); len(ch) != 0 || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %+v\n%q", ch, out)
		}
		d := Parse(string(out)).Declared()
		if v.Phase != "" && !samePhase(d.Phase, v.Phase) && !held {
			t.Fatalf("declares phase %q after a rewrite to %q:\n%q", d.Phase, v.Phase, out)
		}
		// The percent is v's, or, on a line that counts plans or phases beside it, that count's.
		counted := progressCounts(out)
		lineOwn := counted && (d.Percent == Percent(v.CompletedPlans, v.TotalPlans) || d.Percent == Percent(v.CompletedPhases, v.TotalPhases))
		if v.PercentKnown && d.Percent >= 0 && d.Percent != v.Percent && !lineOwn && (v.CountsKnown || !counted) {
			t.Fatalf("declares %d%% after a rewrite to %d%%:\n%q", d.Percent, v.Percent, out)
		}
	})
}

// progressCounts reports whether the Progress line of a STATE.md carries counts beside its own
// percent ("2/5 plans (40%)"), which Rewrite leaves alone when they are not known.
func progressCounts(src []byte) bool {
	d := Parse(string(src))
	i, ok := d.field["Progress"]
	if !ok {
		return false
	}
	_, _, v, _ := fieldAt(d.lines[i].text)
	_, _, _, counts, _ := ownPercent(v)
	return len(counts) > 0
}

// keptOutside checks that out is src with the changes' lines replaced and only added lines
// (fields, blank lines, a Current Position heading) inserted.
func keptOutside(src, out []byte, changes []Change) error {
	sl, ol := splitLines(string(src)), splitLines(string(out))
	replaced := map[int]string{}
	for _, c := range changes {
		if c.Old != "" {
			if c.Line < 1 || c.Line > len(sl) || sl[c.Line-1].text != c.Old {
				return fmt.Errorf("change %+v does not name a line of src", c)
			}
			replaced[c.Line-1] = c.New
		}
	}
	addable := func(s string) bool {
		_, _, _, field := fieldAt(s)
		return s == "" || s == "## Current Position" || field
	}
	j := 0
	for i, l := range sl {
		want := l.text
		if n, ok := replaced[i]; ok {
			want = n
		}
		for j < len(ol) && ol[j].text != want {
			if !addable(ol[j].text) {
				return fmt.Errorf("out line %d %q is neither src line %d %q nor an added field", j+1, ol[j].text, i+1, want)
			}
			j++
		}
		if j == len(ol) {
			return fmt.Errorf("src line %d %q lost", i+1, l.text)
		}
		if ol[j].eol != l.eol && !(i == len(sl)-1 && l.eol == "") {
			return fmt.Errorf("line %d: line ending %q became %q", i+1, l.eol, ol[j].eol)
		}
		j++
	}
	for ; j < len(ol); j++ {
		if !addable(ol[j].text) {
			return fmt.Errorf("out line %d %q appended", j+1, ol[j].text)
		}
	}
	return nil
}
