package roadmap

import (
	"path"
	"slices"
	"strings"
	"unicode"

	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/roadmap/trace"
)

// PlanCommits are the commits made for plan pl, oldest first, among log (newest first, as
// trace.ParseLog gives them): those whose scope names pl, or names its phase alone while pl is
// the plan such a scope names (Scope.PlanIn over phasePlans, the phase's plans in order); never a
// merge. The search stops at the commit that added pl's file: what came before is not its work.
// A commit taken back later is left out: by git's `Revert "<subject>"`, or by a revert commit of
// the plan's ("revert(06-02): ...") that changed every file it changed. Commits of planning files
// only (the plan's, its SUMMARY's, STATE.md's) are among them: MatchTasks counts those that
// change a task's files.
func PlanCommits(log []trace.Commit, pl Plan, phasePlans []Plan) []trace.Commit {
	num, numbered := PhaseOf(pl.Path)
	ours := func(s Scope) bool {
		if !s.PhaseOnly || !numbered || !s.Phase.Equal(num) {
			return s.Names(pl)
		}
		named := s.PlanIn(phasePlans)
		return named != nil && named.Path == pl.Path
	}
	var out []trace.Commit
	reverted := map[string]bool{} // subjects git's Revert "…" commits took back
	var undone [][]trace.Change   // what the plan's own revert commits changed
	for _, c := range log {
		if c.Added(pl.Path) {
			break
		}
		if subj, ok := revertOf(c.Subject); ok {
			reverted[subj] = true
			continue
		}
		if c.Merge || reverted[c.Subject] {
			continue
		}
		s, ok := ParseScope(c.Subject)
		if !ok || !ours(s) {
			continue
		}
		if s.Type == "revert" {
			undone = append(undone, c.Files)
			continue
		}
		if slices.ContainsFunc(undone, func(files []trace.Change) bool { return within(c.Files, files) }) {
			continue // a revert of the plan's took it back
		}
		out = append(out, c)
	}
	slices.Reverse(out)
	return out
}

// within says whether every file of a is among b's.
func within(a, b []trace.Change) bool {
	for _, f := range a {
		if !slices.ContainsFunc(b, func(g trace.Change) bool { return g.Path == f.Path }) {
			return false
		}
	}
	return len(a) > 0
}

// revertOf reads git revert's subject, `Revert "<subject>"`.
func revertOf(subject string) (string, bool) {
	s, ok := strings.CutPrefix(subject, `Revert "`)
	if !ok || !strings.HasSuffix(s, `"`) {
		return "", false
	}
	return strings.TrimSuffix(s, `"`), true
}

// TaskSpec is what matching commits to a task knows of it.
type TaskSpec struct {
	Name  string
	Files []string // the paths its <files> lists
	// TDD marks a test-first task (tdd="true", type="tdd", a TDD plan's <feature>): a commit of
	// its failing test alone is WorkStarted (see red).
	TDD bool
	// Checkpoint marks a checkpoint:* task: a human's gate, which commits pass rather than do.
	Checkpoint bool
}

// TaskSpecs reads the tasks of a plan or session file for matching.
func TaskSpecs(p *planfile.File) []TaskSpec {
	specs := make([]TaskSpec, len(p.Tasks))
	for i := range p.Tasks {
		t := &p.Tasks[i]
		specs[i].Name = t.Name()
		if c, ok := t.Child("files"); ok {
			specs[i].Files = filesOf(c.Text)
		}
		tdd, _ := t.AttrValue("tdd")
		specs[i].TDD = strings.EqualFold(tdd, "true") || strings.EqualFold(t.Type(), "tdd") || t.Feature
		specs[i].Checkpoint = t.IsCheckpoint()
	}
	return specs
}

// maxTaskFiles bounds the paths kept of one task's <files>.
const maxTaskFiles = 64

// filesOf reads the paths a task's <files> lists: separated by commas, spaces or lines, in
// backticks or list items, with notes in parentheses ("src/a.ts (new)"). A word without a '/'
// or a '.' is not a path.
func filesOf(text string) []string {
	var out []string
	depth := 0
	for _, f := range strings.FieldsFunc(text, func(r rune) bool {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		}
		return depth > 0 || r == ')' || r == ',' || r == ';' || unicode.IsSpace(r)
	}) {
		f = strings.Trim(f, "`*\"'[]-:")
		f = strings.TrimPrefix(f, "./")
		if !looksLikePath(f) || len(out) == maxTaskFiles {
			continue
		}
		out = append(out, strings.TrimSuffix(f, "/"))
	}
	return out
}

// looksLikePath says whether a word of <files> is a path: it has a '.' (an extension), or a '/'
// between names of more than one character ("src/app", not "N/A").
func looksLikePath(f string) bool {
	if strings.Contains(f, ".") {
		return true
	}
	return strings.Contains(f, "/") && slices.ContainsFunc(strings.Split(f, "/"), func(s string) bool { return len(s) > 1 })
}

// TaskWork is how far the commits show a task done.
type TaskWork string

// What the commits show of a task.
const (
	WorkNone    TaskWork = ""        // no commit of its own, none after it
	WorkStarted TaskWork = "started" // a test-first task's failing test is committed, its implementation not (red)
	WorkDone    TaskWork = "done"    // a commit finished it
	// WorkPassed is a task with no commit of its own that a later task's commit shows passed:
	// a checkpoint approved, a task folded into the next.
	WorkPassed TaskWork = "passed"
)

// TaskTrace is what the commits show of one task.
type TaskTrace struct {
	Task    int // 1-based
	Work    TaskWork
	Commits []trace.Commit // the commits matched to it, oldest first
	// ByOrder says the commits were matched to the task by their order alone: neither their
	// descriptions nor their files resemble the task's.
	ByOrder bool
}

// Tracing is what a plan's commits show of its tasks.
type Tracing struct {
	Tasks []TaskTrace // one per task, in order
	// Unmatched are commits of the plan that resemble no task: shown, never counted.
	Unmatched []trace.Commit
}

// MatchTasks maps a plan's commits (oldest first, PlanCommits') to its tasks. GSD executes a
// plan's tasks in order and commits each when it is done, so the commits walk the tasks
// forward: each commit is the next task's, unless what it says and changes is clearly more of
// the task just done (a fix, a refactor, a test-first task's implementation after its test) or
// clearly a task further on (the ones between were passed: checkpoints, tasks folded into
// others). A commit that resembles no task at all is not counted: it is Unmatched.
func MatchTasks(tasks []TaskSpec, commits []trace.Commit) Tracing {
	out := Tracing{Tasks: make([]TaskTrace, len(tasks))}
	for i := range out.Tasks {
		out.Tasks[i].Task = i + 1
	}
	n := len(tasks)
	if n == 0 {
		out.Unmatched = commits
		return out
	}
	words := make([]map[string]bool, n)
	for i, t := range tasks {
		words[i] = wordSet(t.Name)
	}
	var files []string // every task's files
	for _, t := range tasks {
		files = append(files, t.Files...)
	}
	next := 0 // the task the next commit most likely finishes
	prevType := ""
	matched := make([]bool, n) // a commit of the task resembles it
	for _, c := range commits {
		if c.PlanningOnly() && !changesAny(c, files) {
			continue // the plan's own bookkeeping: its SUMMARY, STATE.md, ROADMAP.md
		}
		s, _ := ParseScope(c.Subject)
		sims := make([]float64, n)
		best := 0.0
		cw := wordSet(s.Desc)
		for i := range tasks {
			sims[i] = similarity(cw, words[i], c, tasks[i].Files)
			best = max(best, sims[i])
		}
		at := -1
		switch {
		case best == 0:
			out.Unmatched = append(out.Unmatched, c)
			continue
		case next > 0 && prevType == "test" && s.Type != "test" && tasks[next-1].TDD:
			at = next - 1 // a test-first task's implementation after its failing test
		default:
			same, ahead := -1.0, -1.0
			if next > 0 {
				same = sims[next-1]
			}
			if next < n {
				ahead = sims[next]
			}
			later, laterAt := -1.0, -1
			for k := next + 1; k < min(n, next+3); k++ {
				// A checkpoint is a gate, not work: a commit like one (its <files> names the
				// whole tree to verify) is not evidence that the tasks before it were passed.
				if tasks[k].Checkpoint {
					continue
				}
				if sims[k] > later {
					later, laterAt = sims[k], k
				}
			}
			switch {
			case next > 0 && same >= 0.5 && same > ahead+0.3 && later < same:
				at = next - 1 // more of the task just done
			case laterAt >= 0 && later >= 0.6 && later > ahead+0.4:
				at = laterAt // a task further on: the ones between were passed
			default:
				// The next task's, in order; a checkpoint is a human's gate, which a commit
				// passes on its way to the next task of work, when there is one.
				at = min(next, n-1)
				for k := at; k < n && tasks[k].Checkpoint; k++ {
					if k+1 < n && !tasks[k+1].Checkpoint {
						at = k + 1
						break
					}
				}
			}
		}
		tt := &out.Tasks[at]
		tt.Commits = append(tt.Commits, c)
		matched[at] = matched[at] || sims[at] >= minMatch
		next = max(next, at+1)
		prevType = s.Type
	}
	lastCommitted := -1
	for i := range out.Tasks {
		if len(out.Tasks[i].Commits) > 0 {
			lastCommitted = i
		}
	}
	for i := range out.Tasks {
		tt := &out.Tasks[i]
		tt.ByOrder = len(tt.Commits) > 0 && !matched[i]
		switch {
		case len(tt.Commits) > 0 && tasks[i].TDD && red(tt.Commits) && i == lastCommitted:
			// Its failing test alone, and the executor has not moved on to a later task.
			tt.Work = WorkStarted
		case len(tt.Commits) > 0:
			tt.Work = WorkDone
		case i < next-1:
			tt.Work = WorkPassed
		}
	}
	return out
}

// changesAny says whether c changed a file one of files names.
func changesAny(c trace.Commit, files []string) bool {
	for _, f := range c.Files {
		if slices.ContainsFunc(files, func(g string) bool { return fileMatches(f.Path, g) }) {
			return true
		}
	}
	return false
}

// minMatch is the similarity below which a commit is matched to a task by its order alone.
const minMatch = 0.3

// red says whether a test-first task's commits are its failing test alone: GSD's TDD cycle
// commits the test that fails first ("test(03-02): add failing test for ..."), then the
// implementation. A task of tests only commits tests that pass, and is done with them.
func red(cs []trace.Commit) bool {
	for _, c := range cs {
		s, _ := ParseScope(c.Subject)
		if s.Type != "test" {
			return false
		}
	}
	for _, c := range cs {
		if w := wordSet(c.Subject); w["failing"] || w["fails"] || w["red"] {
			return true
		}
	}
	return false
}

// similarity is how much commit c, described by words cw, resembles a task named by words tw
// and listing files: the share of the smaller word set the two have in common, plus the share
// of the commit's changed files (outside .planning/) the task lists. 0 to 2.
func similarity(cw, tw map[string]bool, c trace.Commit, files []string) float64 {
	sim := 0.0
	if len(cw) > 0 && len(tw) > 0 {
		common := 0
		for w := range cw {
			if tw[w] {
				common++
			}
		}
		sim = float64(common) / float64(min(len(cw), len(tw)))
	}
	if len(files) == 0 {
		return sim
	}
	changed, listed := 0, 0
	for _, f := range c.Files {
		in := slices.ContainsFunc(files, func(g string) bool { return fileMatches(f.Path, g) })
		if !in && strings.HasPrefix(f.Path, ".planning/") {
			continue // bookkeeping that came with the work (STATE.md), unless the task lists it
		}
		changed++
		if in {
			listed++
		}
	}
	if changed > 0 {
		sim += float64(listed) / float64(changed)
	}
	return sim
}

// fileMatches says whether the changed file p is what a task's <files> entry g names: the same
// path, a file under the directory g, a match of the pattern g, or the same file written from
// a subdirectory ("db.ts" for "src/db.ts").
func fileMatches(p, g string) bool {
	if p == g || strings.HasPrefix(p, g+"/") || strings.HasSuffix(p, "/"+g) {
		return true
	}
	if strings.ContainsAny(g, "*?[") {
		if ok, _ := path.Match(g, p); ok {
			return true
		}
	}
	return false
}

// stopWords are words too common in task names and commit descriptions to tell one task from
// another.
var stopWords = map[string]bool{
	"a": true, "an": true, "the": true, "and": true, "or": true, "of": true, "to": true, "in": true,
	"for": true, "with": true, "on": true, "at": true, "by": true, "from": true, "into": true,
	"task": true, "add": true, "create": true, "update": true, "implement": true, "fix": true,
	"use": true, "make": true, "new": true, "set": true, "wire": true,
}

// maxWords bounds the words kept of a name or description.
const maxWords = 64

// wordSet is the set of distinctive words of s, lower case: words of letters and digits (two
// characters or more), and each CJK character on its own (those scripts do not separate words).
func wordSet(s string) map[string]bool {
	out := map[string]bool{}
	start := -1
	flush := func(end int) {
		if start >= 0 && end-start >= 2 {
			w := strings.ToLower(s[start:end])
			if !stopWords[w] && len(out) < maxWords {
				out[w] = true
			}
		}
		start = -1
	}
	for i, r := range s {
		switch {
		case unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r):
			flush(i)
			if len(out) < maxWords {
				out[string(r)] = true
			}
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_':
			if start < 0 {
				start = i
			}
		default:
			flush(i)
		}
	}
	flush(len(s))
	return out
}
