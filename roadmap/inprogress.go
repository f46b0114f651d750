package roadmap

import (
	"slices"
	"strings"
)

// InProgressPhases returns InProgress(ParseRoadmap(path, src)) without building
// the whole roadmap, for the check every agent turn makes. A phase can only be
// in progress through a text that says "progress" (in any case or spelling
// ParseStatus accepts) or a 🚧, so only those lines are read in full; the
// other rows of a progress table are read only when they concern a phase
// found in progress, since an earlier row's status would take precedence. A
// checklist or heading marked "(In Progress)" is rare and its precedence
// rules subtle: the full parse decides then.
func InProgressPhases(src []byte) []PhaseNum {
	lines := visibleLines(src)
	type row struct {
		line                  int // index into lines
		headerLen             int
		phaseCol, statusCol   int
		mentionsProgress, hit bool
	}
	var rows []row
	decided := map[string]Status{} // first known status among progress rows
	first := map[string]int{}      // index into rows of that row
	var order []PhaseNum

	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if i+1 < len(lines) && strings.Contains(l.text, "|") && isDelimiterRow(lines[i+1].text) {
			header := splitRow(l.text)
			phaseCol, statusCol, _ := tableColumns(header)
			j := i + 2
			for ; j < len(lines) && strings.Contains(lines[j].text, "|"); j++ {
				if phaseCol < 0 || statusCol < 0 {
					continue
				}
				r := row{line: j, headerLen: len(header), phaseCol: phaseCol, statusCol: statusCol}
				if r.mentionsProgress = mentionsProgress(lines[j].text); r.mentionsProgress {
					cells := splitRow(lines[j].text)
					if phaseCol >= len(cells) {
						continue
					}
					n, _, ok := phaseCell(cells[phaseCol])
					if !ok {
						continue
					}
					st := rowStatus(cells, len(header), phaseCol, statusCol)
					k := n.String()
					if _, seen := decided[k]; !seen && st != StatusUnknown {
						decided[k], first[k] = st, len(rows)
						if st == StatusInProgress {
							order = append(order, n)
						}
					}
				}
				rows = append(rows, r)
			}
			i = j - 1
			continue
		}
		if !mentionsProgress(l.text) {
			continue
		}
		text := ""
		if _, rest, ok := matchChecklist(l.text); ok {
			text = rest
		} else if h, ok := matchHeading(l.text); ok {
			text = h
		} else {
			continue
		}
		if _, _, marks, ok := phaseRef(text); ok && marks.status == StatusInProgress {
			return InProgress(ParseRoadmap("", src))
		}
	}
	if len(order) == 0 {
		return nil
	}
	// A row before the one that says "in progress", for the same phase, with
	// a known status of its own, decides instead.
	var out []PhaseNum
	for _, n := range order {
		k := n.String()
		ok := true
		for _, r := range rows[:first[k]] {
			if r.mentionsProgress {
				continue // already weighed above
			}
			cell, found := nthCell(lines[r.line].text, r.phaseCol)
			if !found {
				continue
			}
			if m, isPhase := phaseCellNum(cell); !isPhase || !m.Equal(n) {
				continue
			}
			cells := splitRow(lines[r.line].text)
			if rowStatus(cells, r.headerLen, r.phaseCol, r.statusCol) != StatusUnknown {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	slices.SortFunc(out, func(a, b PhaseNum) int { return a.Compare(b) })
	return slices.CompactFunc(out, func(a, b PhaseNum) bool { return a.Equal(b) })
}

// mentionsProgress reports whether s contains "progress" in any case, '*'
// allowed between its letters (ParseStatus drops emphasis markers), or 🚧:
// every text ParseStatus reads as in progress does.
func mentionsProgress(s string) bool {
	const word = "progress"
	for i := 0; i < len(s); i++ {
		if s[i]|0x20 != 'p' {
			continue
		}
		k, j := 0, i
		for j < len(s) && k < len(word) {
			switch {
			case s[j] == '*':
			case s[j]|0x20 == word[k]:
				k++
			default:
				j = len(s)
				continue
			}
			j++
		}
		if k == len(word) {
			return true
		}
	}
	return strings.Contains(s, "🚧")
}

// nthCell returns splitRow(line)[col] without splitting the whole row.
func nthCell(line string, col int) (string, bool) {
	t := strings.TrimSpace(line)
	t = strings.TrimPrefix(t, "|")
	t = strings.TrimSuffix(t, "|")
	for ; col > 0; col-- {
		i := strings.IndexByte(t, '|')
		if i < 0 {
			return "", false
		}
		t = t[i+1:]
	}
	if i := strings.IndexByte(t, '|'); i >= 0 {
		t = t[:i]
	}
	return strings.TrimSpace(t), true
}
