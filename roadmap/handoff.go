package roadmap

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/roadmap/trace"
)

// RuleHandoff is the rule of GSD's pause files (/gsd:pause-work's HANDOFF.json and
// .continue-here.md): newer than every other piece of evidence, their phase and plan declare the
// position, as STATE.md's does.
const RuleHandoff Rule = "handoff"

// Handoff is the pause file the position weighed: the newest of the planning directory's
// HANDOFF.json and .continue-here.md and the current phase's .continue-here.md.
type Handoff struct {
	trace.Handoff
	// InForce says it is newer than the other evidence (the newest commit of work, STATE.md, the
	// SUMMARYs) and what it says stands; else History says what overtook it.
	InForce bool   `json:"inForce"`
	History string `json:"history"`
}

// The pause files, in a planning directory or a phase directory.
const (
	handoffJSON  = "HANDOFF.json"
	continueHere = ".continue-here.md"
)

// readHandoff reads the pause file at name: nil when there is none, or it says nothing (not
// JSON, no front matter, too large, unreadable).
func readHandoff(fsys fs.FS, name string) *trace.Handoff {
	b, err := readText(fsys, name)
	if err != nil || len(b) > trace.MaxHandoffSize {
		return nil
	}
	parse := trace.ParseContinueHere
	if path.Base(name) == handoffJSON {
		parse = trace.ParseHandoffJSON
	}
	h, ok := parse(b)
	if !ok {
		return nil
	}
	h.File = name
	return &h
}

// newestHandoff is the newest pause file of the planning directory and of phaseDir ("" for
// none); a dated one beats an undated one. nil when there is none.
func newestHandoff(fsys fs.FS, planningDir, phaseDir string) *trace.Handoff {
	var best *trace.Handoff
	names := []string{path.Join(planningDir, handoffJSON), path.Join(planningDir, continueHere)}
	if phaseDir != "" {
		names = append(names, path.Join(phaseDir, continueHere))
	}
	for _, name := range names {
		if h := readHandoff(fsys, name); h != nil && (best == nil || h.Time.After(best.Time)) {
			best = h
		}
	}
	return best
}

// weighHandoff judges the newest pause file against what else dates the work: it is history
// when its status says so, when it gives no date, when a commit of work or a SUMMARY was
// committed after it, when STATE.md dates itself after it, or when the plan it names has its
// SUMMARY. In force, its phase (and plan) become the position (followHandoff).
func (p *Position) weighHandoff(idx *dirIndex, commits []trace.Commit) (*Handoff, error) {
	phaseDir := ""
	if p.Phase != nil {
		phaseDir = p.Phase.Dir
	}
	th := newestHandoff(idx.fsys, idx.planningDir, phaseDir)
	if th == nil {
		return nil, nil
	}
	h := &Handoff{Handoff: *th}
	status := strings.ToLower(h.Status)
	switch {
	case strings.Contains(status, "supersed") || strings.Contains(status, "archiv") || strings.Contains(status, "complete") || strings.Contains(status, "done"):
		h.History = fmt.Sprintf("its status is %s", textQuote(h.Status))
	case h.Time.IsZero():
		h.History = "it gives no date (timestamp or last_updated)"
	default:
		for _, c := range commits {
			if !c.Time.After(h.Time) {
				break // newest first: the rest are older
			}
			if WorkCommit(c) {
				h.History = fmt.Sprintf("work was committed after it (%s %s)", c.Short(), trace.Clip(c.Subject, 80))
				break
			}
			if added := summaryAdded(c, idx.planningDir); added != "" {
				h.History = fmt.Sprintf("%s was committed after it (%s)", added, c.Short())
				break
			}
		}
		if d := p.Declared.Updated; h.History == "" && d != "" && d > h.Time.Format(time.DateOnly) {
			h.History = fmt.Sprintf("STATE.md is dated after it (%s)", d)
		}
	}
	if h.History != "" {
		return h, nil
	}
	if err := p.followHandoff(idx, h); err != nil {
		return nil, err
	}
	h.InForce = h.History == ""
	return h, nil
}

// summaryAdded is the SUMMARY under planningDir commit c added, "" when none.
func summaryAdded(c trace.Commit, planningDir string) string {
	for _, f := range c.Files {
		if f.Status == 'A' && strings.HasSuffix(f.Path, "SUMMARY.md") && strings.HasPrefix(f.Path, planningDir+"/") {
			return path.Base(f.Path)
		}
	}
	return ""
}

// followHandoff takes the phase and plan the pause file h names, when they are the milestone's
// and the plan (or, naming none, the phase) is unfinished; it says in h.History why not
// otherwise.
func (p *Position) followHandoff(idx *dirIndex, h *Handoff) error {
	n, ok := handoffPhase(h.Phase)
	if !ok {
		h.History = fmt.Sprintf("its phase %s is no phase number", textQuote(h.Phase))
		return nil
	}
	k, err := p.committedPhase(idx, n)
	if err != nil || k < 0 {
		if err == nil {
			h.History = fmt.Sprintf("its phase %s is not one of the milestone's", n)
		}
		return err
	}
	ph, err := idx.phase(p.Phases[k])
	if err != nil {
		return err
	}
	var pl *Plan
	if h.Plan != "" {
		for i := range ph.Plans {
			if handoffNames(h.Plan, n, ph.Plans[i]) {
				pl = &ph.Plans[i]
				break
			}
		}
		if pl == nil {
			h.History = fmt.Sprintf("its plan %s is not on disk", textQuote(h.Plan))
			return nil
		}
		if pl.Done() {
			h.History = fmt.Sprintf("its plan %s has its SUMMARY", pl.ID)
			return nil
		}
	}
	says := fmt.Sprintf("%s, dated %s, is the newest word on where work stands: phase %s", path.Base(h.File), h.Time.Format(time.RFC3339), n)
	if pl != nil {
		says += ", plan " + pl.ID
	}
	if h.Task > 0 {
		says += ", task " + strconv.Itoa(h.Task)
	}
	samePlan := pl != nil && p.Active != nil && p.Active.Path == pl.Path
	if p.Phase != nil && p.Phase.Num.Equal(n) && (pl == nil || samePlan) {
		p.evidence("phase", h.File, 0, says)
		return nil
	}
	if err := p.overrule(idx, k, ph, pl, RuleHandoff, path.Base(h.File)+" is newer and says otherwise"); err != nil {
		return err
	}
	p.evidence("phase", h.File, 0, says)
	p.doubt()
	return nil
}

// handoffPhase reads a pause file's phase: a number ("58") or a phase directory's name
// ("02-sentinel-data-access").
func handoffPhase(s string) (PhaseNum, bool) {
	if n, ok := ParsePhaseNum(s); ok {
		return n, true
	}
	if n, _, ok := phaseDirName(s); ok {
		return n, true
	}
	return PhaseNum{}, false
}

// handoffNames says whether a pause file's plan ("1", "01", "58-01", "58-01-PLAN.md") names pl,
// a plan of phase n.
func handoffNames(s string, n PhaseNum, pl Plan) bool {
	s = strings.TrimSuffix(strings.TrimSuffix(s, ".md"), "-PLAN")
	if num, sub, ok := planNumSub(s); ok {
		return pl.key.num == num && pl.key.sub == sub && pl.key.phase == n.Key()
	}
	kind, key, _ := classify(s + "-PLAN.md")
	return kind == kindPlan && key.pair() == pl.key
}

// textQuote quotes a pause file's text for a message.
func textQuote(s string) string { return strconv.Quote(trace.Clip(s, 60)) }
