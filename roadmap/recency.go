package roadmap

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// Confidence says how sure a position is: high when what the project says agrees (STATE.md,
// the roadmap and the disk point at one phase), medium when a person would still read it this
// way but another reading is defensible, low when the signals conflict and the choice is a
// judgement.
type Confidence string

// The confidences, surest first.
const (
	ConfidenceHigh   Confidence = "high"
	ConfidenceMedium Confidence = "medium"
	ConfidenceLow    Confidence = "low"
)

// Alternative is another reading of where the project stands that a person could defend:
// its phase and active plan ("" for none), why it is not the one chosen, and what it rests on.
type Alternative struct {
	Phase    string     `json:"phase"` // "" for none: the milestone is finished
	Plan     string     `json:"plan"`  // "" for none: the phase needs planning, or there is no phase
	Why      string     `json:"why"`
	Evidence []Evidence `json:"evidence"`
	PlanID   string     `json:"-"` // the plan's id ("55-01"), what gsd start takes
}

// String renders the alternative as "phase N, plan P: why".
func (a Alternative) String() string {
	where := "no current phase"
	if a.Phase != "" {
		where = "phase " + a.Phase
		if a.Plan != "" {
			where += ", plan " + a.Plan
		} else {
			where += " (no plan to resume)"
		}
	}
	return where + ": " + a.Why
}

// StartArg is what "gsd start" takes to follow the alternative: its plan's id, else its path;
// "" when it has no plan.
func (a Alternative) StartArg() string {
	if a.Plan == "" {
		return ""
	}
	if a.PlanID != "" {
		return a.PlanID
	}
	return a.Plan
}

// laterWork returns the index, in phases (listed order), of the last phase after from whose
// directory holds a finished plan (a plan with its SUMMARY): the latest work the disk shows
// past from; -1 when there is none. It reads only the directories of phases after from, from
// the last back, and stops at the first with finished work.
func (d *dirIndex) laterWork(phases []Entry, from int) (int, error) {
	for k := len(phases) - 1; k > from; k-- {
		if n := phases[k].Num; n.Backlog() || n.Inserted(phases[from].Num) || n.Compare(phases[from].Num) <= 0 {
			// Parked ideas; urgent work inserted under from, which returns to it; and phases
			// of a lower number, which a roadmap may name again further down.
			continue
		}
		ph, err := d.phase(phases[k])
		if err != nil {
			return -1, err
		}
		for _, pl := range ph.Plans {
			if pl.Done() {
				return k, nil
			}
		}
	}
	return -1, nil
}

// latestSummaryDate is the newest "completed:" date (YYYY-MM-DD) the frontmatter of phase e's
// SUMMARYs gives, and the SUMMARY it is in; "" when none gives one. About half of real
// SUMMARYs date themselves this way.
func (d *dirIndex) latestSummaryDate(e Entry) (date, file string, err error) {
	ph, err := d.phase(e)
	if err != nil {
		return "", "", err
	}
	for _, pl := range ph.Plans {
		if pl.Summary == "" {
			continue
		}
		if v := frontmatterDate(d.fsys, pl.Summary, "completed"); v > date {
			date, file = v, pl.Summary
		}
	}
	return date, file, nil
}

// frontmatterDate reads the date a frontmatter key of the file name gives ("completed:
// 2026-02-12"), read as every project file is (readText); "" when the file cannot be read (a
// SUMMARY that went away, or is no text, dates nothing), has no frontmatter, no such key or no
// date there.
func frontmatterDate(fsys fs.FS, name, key string) string {
	b, err := readText(fsys, name)
	if err != nil {
		return ""
	}
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if !bytes.HasPrefix(b, []byte("---")) {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n")[1:] {
		l = strings.TrimRight(l, "\r")
		if l == "---" {
			break
		}
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			return statemd.LeadingDate(v)
		}
	}
	return ""
}

// reading is one way to read the position: a phase of p.Phases (or -1 for none: the milestone
// finished) and why.
type reading struct {
	at  int
	why string
	ev  []Evidence
}

// alternative records r as another reading of the position.
func (p *Position) alternative(d *dirIndex, r reading) error {
	alt := Alternative{Why: r.why, Evidence: r.ev}
	if r.at >= 0 {
		e := p.Phases[r.at]
		alt.Phase = e.Num.String()
		if p.Phase != nil && p.Phase.Num.Equal(e.Num) {
			return nil // the chosen phase is no alternative to itself
		}
		ph, err := d.phase(e)
		if err != nil {
			return err
		}
		for _, pl := range ph.Plans {
			if !pl.Done() {
				alt.Plan, alt.PlanID = pl.Path, pl.ID
				break
			}
		}
	} else if p.Phase == nil {
		return nil
	}
	for _, a := range p.Alternatives {
		if a.Phase == alt.Phase {
			return nil
		}
	}
	p.Alternatives = append(p.Alternatives, alt)
	return nil
}

// nextOpen is the first phase after i (listed order) that is not closed; -1 when none is.
func (d *dirIndex) nextOpen(phases []Entry, i int) (int, error) {
	for j := i + 1; j < len(phases); j++ {
		if phases[j].Num.Backlog() {
			continue
		}
		closed, err := d.closed(phases[j])
		if err != nil {
			return -1, err
		}
		if !closed {
			return j, nil
		}
	}
	return -1, nil
}

// stoppedAt is the index in phases of the phase whose plan STATE.md's stopped_at names, -1 when
// it names none of them.
func stoppedAt(phases []Entry, decl statemd.Declared) int {
	if decl.StoppedPlan == "" {
		return -1
	}
	n, _, ok := parsePhasePrefix(decl.StoppedPlan) // "57-02", "CK-01-02": the plan id's phase
	if !ok {
		return -1
	}
	for i, e := range phases {
		if e.Num.Equal(n) {
			return i
		}
	}
	return -1
}

// laterReading is where the latest work on disk puts the project: phase k if it is unfinished,
// else the next phase after it that is not closed (-1: every phase through the last is done).
func (d *dirIndex) laterReading(phases []Entry, k int) (int, error) {
	done, _, err := d.finished(phases[k])
	if err != nil || !done {
		return k, err
	}
	return d.nextOpen(phases, k)
}

// datedNewer reports whether STATE.md dates itself after the latest work: its own date is a
// later day than every "completed:" date the SUMMARYs of phase k give (false when either side
// has no date). The evidence says so.
func (d *dirIndex) stateNewer(decl statemd.Declared, e Entry, statePath string) (bool, []Evidence, error) {
	if decl.Updated == "" {
		return false, nil, nil
	}
	date, file, err := d.latestSummaryDate(e)
	if err != nil || date == "" {
		return false, nil, err
	}
	ev := []Evidence{
		{Decision: "phase", File: statePath, Line: decl.UpdatedLine, Says: "STATE.md is dated " + decl.Updated},
		{Decision: "phase", File: file, Line: 0, Says: fmt.Sprintf("phase %s's latest SUMMARY is dated %s", e.Num, date)},
	}
	return decl.Updated > date, ev, nil
}
