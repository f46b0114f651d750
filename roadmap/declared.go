package roadmap

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Declared is what STATE.md says about where work is.
type Declared struct {
	Phase     string // the phase as written ("07", "Phase 1 — Viz Site MVP"); "" when it names none
	PhaseLine int    // its 1-based line
	PhaseText string // that line, trimmed, as evidence
}

// Num parses the declared phase's number.
func (d Declared) Num() (PhaseNum, bool) {
	f := strings.Fields(d.Phase)
	if len(f) > 1 && strings.EqualFold(f[0], "phase") {
		f = f[1:]
	}
	if len(f) == 0 {
		return PhaseNum{}, false
	}
	return ParsePhaseNum(strings.Trim(f[0], ",:;.*()\"'"))
}

// ReadDeclared reads STATE.md beside the roadmap. A missing STATE.md declares nothing.
func ReadDeclared(fsys fs.FS, planningDir string) (Declared, error) {
	name := path.Join(planningDir, "STATE.md")
	b, err := readText(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return Declared{}, nil
	}
	if err != nil {
		return Declared{}, err
	}
	return ParseDeclared(b), nil
}

// ParseDeclared finds STATE.md's declared phase: the frontmatter's current_phase, else the
// first "Phase:" / "**Phase:**" / "**Current Phase:**" line outside tables and code.
func ParseDeclared(src []byte) Declared {
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	lines := strings.Split(string(src), "\n")
	start := 0
	if len(lines) > 0 && strings.TrimSpace(lines[0]) == "---" {
		for i := 1; i < len(lines); i++ {
			t := strings.TrimSpace(strings.TrimSuffix(lines[i], "\r"))
			if t == "---" {
				start = i + 1
				break
			}
			if v, ok := strings.CutPrefix(t, "current_phase:"); ok {
				v = strings.Trim(strings.TrimSpace(v), "\"'")
				if d := (Declared{Phase: v, PhaseLine: i + 1, PhaseText: t}); v != "" {
					if _, ok := d.Num(); ok {
						return d
					}
				}
			}
		}
	}
	fence := false
	for i := start; i < len(lines); i++ {
		t := strings.TrimSpace(strings.TrimSuffix(lines[i], "\r"))
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fence = !fence
			continue
		}
		if fence || t == "" || t[0] == '|' {
			continue
		}
		v, ok := "", false
		for _, label := range []string{"Phase:", "**Phase:**", "**Phase**:", "Current Phase:", "**Current Phase:**", "**Current Phase**:"} {
			if v, ok = strings.CutPrefix(t, label); ok {
				break
			}
		}
		if !ok {
			continue
		}
		d := Declared{Phase: strings.TrimSpace(v), PhaseLine: i + 1, PhaseText: t}
		if _, ok := d.Num(); ok {
			return d
		}
	}
	return Declared{}
}
