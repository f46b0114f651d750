package roadmap

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// dirIndex finds phase directories by number (and milestone, where two list it: see scope):
// under phases/, and under milestones/*-phases/ where GSD archives (and some projects keep) a
// milestone's phases. It lists each directory at most once.
type dirIndex struct {
	fsys        fs.FS
	planningDir string
	names       []string // phases/, as listed; parsed only as lookups need them
	lookups     int      // numberedIn's, so far
	sorted      []Phase  // phases/, every entry parsed, in numeric order; built when first needed
	archived    []Phase  // milestones/*-phases/, listed when first needed
	listedArch  bool
	byNum       map[string]*phaseEntry // by scopeKey
	byDir       map[string]*dirScan

	// The roadmap and its current milestone, as decide found them: they say whose phase N the
	// directories of a number two milestones list are (see scope).
	rm      *Roadmap
	current int
	// The phases STATE.md's Phase lines call complete (see closedByState).
	stateComplete []string
}

// phaseEntry is what the directories of one phase number hold.
type phaseEntry struct {
	Phase
	dirs      []string // the directories of that number (entries that are files left out)
	withPlans []string // those holding plans
	summary   string   // a phase-level SUMMARY no phase-level plan claims
	// others is the directories of the number that name another phase than the roadmap's
	// (see ownDirs), as a phase of their own; nil when there are none.
	others *phaseEntry
}

// dirScan is one directory's plans, and its SUMMARYs (see scanPlans).
type dirScan struct {
	plans     []Plan
	summary   string
	summaries map[pairKey]string
	isDir     bool
}

func newDirIndex(fsys fs.FS, planningDir string) (*dirIndex, error) {
	names, err := listDir(fsys, path.Join(planningDir, "phases"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir) {
		return nil, err
	}
	return &dirIndex{fsys: fsys, planningDir: planningDir, names: names,
		byNum: map[string]*phaseEntry{}, byDir: map[string]*dirScan{}}, nil
}

// phases returns every phase directory of phases/, in numeric order.
func (d *dirIndex) phases() []Phase {
	if d.sorted == nil {
		d.sorted = phaseDirsOf(path.Join(d.planningDir, "phases"), d.names)
	}
	return d.sorted
}

// scanLookups is how many lookups numberedIn answers by going through the names; after them, a
// decision walking many phases (a roadmap whose phases have no status) parses the listing once
// and searches it, rather than going through every name for every phase.
const scanLookups = 8

// numberedIn returns the directories of phase n in the listing, parsing only the names that
// start with n's number: a lookup on a project with a thousand phases parses one or two.
func (d *dirIndex) numberedIn(n PhaseNum) []Phase {
	if d.lookups++; d.sorted != nil || d.lookups > scanLookups {
		return numbered(d.phases(), n)
	}
	var out []Phase
	for _, name := range d.names {
		if !startsWithNumber(name, n) {
			continue
		}
		if p, ok := phaseDir(path.Join(d.planningDir, "phases"), name); ok && p.Num.Equal(n) {
			out = append(out, p)
		}
	}
	sortPhases(out)
	return out
}

// scan lists one phase directory, once. A plan without its SUMMARY beside it is completed by
// the SUMMARY in a sibling directory that differs only in the number's zero padding
// ("096-compiler-additions/" holds the plans, "96-compiler-additions/" the SUMMARYs): one phase.
func (d *dirIndex) scan(dir string) (*dirScan, error) {
	if sc, ok := d.byDir[dir]; ok {
		return sc, nil
	}
	plans, summary, summaries, err := scanPlans(d.fsys, dir)
	sc := &dirScan{plans: plans, summary: summary, summaries: summaries, isDir: true}
	if errors.Is(err, errNotDir) {
		sc.isDir, err = false, nil
	}
	if err != nil {
		return nil, err
	}
	d.byDir[dir] = sc // before the siblings are scanned: theirs may look for this one's
	if slices.ContainsFunc(plans, func(p Plan) bool { return !p.Done() }) {
		siblings, err := d.paddingSiblings(dir)
		if err != nil {
			return nil, err
		}
		for _, sib := range siblings {
			other, err := d.scan(sib)
			if err != nil {
				return nil, err
			}
			for i := range sc.plans {
				if pl := &sc.plans[i]; pl.Summary == "" {
					pl.Summary = other.summaries[pl.key]
				}
			}
		}
	}
	return sc, nil
}

// paddingSiblings returns the directories beside phase directory dir whose names differ from its
// only in the zero padding of the number ("96-x" beside "096-x").
func (d *dirIndex) paddingSiblings(dir string) ([]string, error) {
	parent, base := path.Dir(dir), path.Base(dir)
	n, slug, ok := phaseDirName(base)
	if !ok {
		return nil, nil
	}
	var same []Phase
	if parent == path.Join(d.planningDir, "phases") {
		same = d.numberedIn(n)
	} else {
		if err := d.listArchived(); err != nil {
			return nil, err
		}
		same = numbered(d.archived, n)
	}
	var out []string
	for _, p := range same {
		if p.Dir != dir && p.Name == slug && path.Dir(p.Dir) == parent {
			out = append(out, p.Dir)
		}
	}
	return out, nil
}

// phase returns phase e with its plans: every directory of its number is scanned (a
// .gitkeep-only or CONTEXT-only directory beside the real one adds nothing), Dir is the first
// holding plans. Dir is "" when the phase has no directory.
func (d *dirIndex) phase(e Entry) (Phase, error) {
	pe, err := d.entry(e.Num, d.scope(e), e)
	if err != nil {
		return Phase{Num: e.Num}, err
	}
	return pe.Phase, nil
}

// dirScope says which directories of a number are a phase's. The zero value, for a number
// only one milestone lists (every number of a roadmap that does not reset them): those under
// phases/, else the archived ones.
type dirScope struct {
	milestone int  // 1 + the index of the milestone whose phase it is; 0 for the zero scope
	live      bool // its directories are phases/'s, else the archived ones of its milestone
}

// scope is where phase e's directories are. Where two milestones list the number, they never
// share a directory: phases/ holds the current milestone's phase (see liveMilestone), and a
// shipped milestone's lives in its own archive, milestones/<version>-phases/.
func (d *dirIndex) scope(e Entry) dirScope {
	if !e.shared || d.rm == nil || e.Milestone < 0 {
		return dirScope{}
	}
	return dirScope{milestone: e.Milestone + 1, live: e.Milestone == d.liveMilestone(e.Num)}
}

// liveMilestone is, of the milestones that list phase n, the one whose phase n the directories
// under phases/ are: the current milestone, else the last one not shipped, else the last one
// (shipped, and perhaps not archived yet).
func (d *dirIndex) liveMilestone(n PhaseNum) int {
	ps := d.rm.Phases
	i, _ := slices.BinarySearchFunc(ps, n, func(e Entry, n PhaseNum) int { return e.Num.Compare(n) })
	last, unshipped := -1, -1
	for ; i < len(ps) && ps[i].Num.Equal(n); i++ {
		m := ps[i].Milestone
		if m < 0 {
			continue // none: a number two milestones list is each one's
		}
		if m == d.current {
			return m
		}
		if !d.rm.Milestones[m].Shipped() {
			unshipped = m
		}
		last = m
	}
	if unshipped >= 0 {
		return unshipped
	}
	return last
}

// scopeKey is the key of phase n in scope s in dirIndex.byNum.
func scopeKey(n PhaseNum, s dirScope) string {
	if s.milestone == 0 {
		return n.String()
	}
	return n.String() + "/" + strconv.Itoa(s.milestone)
}

// entry is what the directories of phase n in scope s hold, for owner, the roadmap's entry of it
// (Milestone -1 and no Name when the roadmap does not list it).
func (d *dirIndex) entry(n PhaseNum, s dirScope, owner Entry) (*phaseEntry, error) {
	key := scopeKey(n, s)
	if e, ok := d.byNum[key]; ok {
		return e, nil
	}
	var dirs []Phase
	if s.milestone == 0 || s.live {
		dirs = d.numberedIn(n)
	}
	if len(dirs) == 0 {
		if err := d.listArchived(); err != nil {
			return nil, err
		}
		dirs = numbered(d.archived, n)
		if s.milestone > 0 {
			m := &d.rm.Milestones[s.milestone-1]
			dirs = slices.DeleteFunc(slices.Clone(dirs), func(p Phase) bool { return !m.archives(p.Dir) })
		} else if owner.Milestone >= 0 && d.rm != nil {
			// Another milestone's archive holds another milestone's phase of the number (v2.0's
			// 11, where v4.1 lists an 11 not yet begun).
			dirs = slices.DeleteFunc(slices.Clone(dirs), func(p Phase) bool { return d.archivedByOther(p.Dir, n, owner.Milestone) })
		}
	}
	own, others := ownDirs(dirs, owner.Name)
	var rest *phaseEntry
	if len(others) > 0 {
		var err error
		if rest, err = d.collect(n, others); err != nil {
			return nil, err
		}
		if slices.ContainsFunc(rest.Plans, func(pl Plan) bool { return !pl.Settled() }) {
			// Work still open is no earlier milestone's leftover: one phase, split.
			own, rest = dirs, nil
		}
	}
	e, err := d.collect(n, own)
	if err != nil {
		return nil, err
	}
	e.others = rest
	// The name decides the split, and every caller names a number's phase in one scope alike
	// (the roadmap's entry of it), so the number and scope are the key.
	d.byNum[key] = e
	return e, nil
}

// archivedByOther reports whether dir is in the archive of a milestone of the roadmap other than
// milestone m that has a phase n of its own (in its range or its list): that milestone's phase
// n. (An archive can hold an earlier milestone's phases too, archived with it.)
func (d *dirIndex) archivedByOther(dir string, n PhaseNum, m int) bool {
	for i := range d.rm.Milestones {
		o := &d.rm.Milestones[i]
		if i != m && o.archives(dir) && (o.Contains(n) || slices.ContainsFunc(o.Phases, n.Equal)) {
			return true
		}
	}
	return false
}

// ownDirs splits the directories of one number between the roadmap's phase of that name and
// the rest. When some directories' slugs name the phase and others name something else
// ("02-gdpr-compliance" and "02-profile-session-management" for "GDPR Compliance"), the others
// are another phase of the number: an earlier milestone's, left under phases/ (entry keeps
// them the phase's when a plan of theirs is still open). When none or all
// of them name it (a phase renamed after its directory was made, or no name to go by), every
// directory is the phase's.
func ownDirs(dirs []Phase, name string) (own, others []Phase) {
	if len(dirs) < 2 || name == "" {
		return dirs, nil
	}
	for _, p := range dirs {
		if len(nameWords(p.Name)) == 0 || slugNames(p.Name, name) {
			own = append(own, p) // a bare number ("30/") names no other phase
		} else {
			others = append(others, p)
		}
	}
	if len(own) == 0 || len(others) == 0 {
		return dirs, nil
	}
	return own, others
}

// slugNames reports whether a directory's slug names the phase called name: the words of the
// shorter are words of the longer, in order, letters and digits compared without case and small
// words left out ("error-handling" names "Error Handling Standardization", "menu-and-screens"
// names "Menu & Screens", "coverage-" names "Coverage & Quality").
func slugNames(slug, name string) bool {
	a, b := nameWords(slug), nameWords(name)
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(a) == 0 {
		return false
	}
	k := 0
	for _, w := range b {
		if k < len(a) && w == a[k] {
			k++
		}
	}
	return k == len(a)
}

// nameWords is a name's words, lower-case, without the small words slugs keep or drop at will.
func nameWords(s string) []string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return slices.DeleteFunc(words, func(w string) bool {
		switch w {
		case "a", "an", "and", "the", "of", "for", "to", "in", "on", "with":
			return true
		}
		return false
	})
}

// collect is the phase of number n in directories dirs: their plans, in that order.
func (d *dirIndex) collect(n PhaseNum, dirs []Phase) (*phaseEntry, error) {
	e := &phaseEntry{Phase: Phase{Num: n}}
	for _, dir := range dirs {
		sc, err := d.scan(dir.Dir)
		if err != nil {
			return nil, err
		}
		if !sc.isDir {
			continue
		}
		e.dirs = append(e.dirs, dir.Dir)
		if e.Dir == "" || len(e.Plans) == 0 && len(sc.plans) > 0 {
			e.Dir, e.Name = dir.Dir, dir.Name
		}
		if len(sc.plans) > 0 {
			e.withPlans = append(e.withPlans, dir.Dir)
		}
		if e.summary == "" {
			e.summary = sc.summary
		}
		e.Plans = append(e.Plans, sc.plans...)
	}
	for _, dir := range e.dirs {
		for key, summary := range d.byDir[dir].summaries {
			// A FIX round's SUMMARY is a report on a plan, which progress does not count.
			if key.num >= 0 && key.fix == "" && !slices.ContainsFunc(e.Plans, func(pl Plan) bool { return pl.key == key }) {
				e.Unplanned = append(e.Unplanned, summary)
			}
		}
	}
	slices.Sort(e.Unplanned)
	return e, nil
}

// listArchived lists milestones/*-phases/ once.
func (d *dirIndex) listArchived() error {
	if d.listedArch {
		return nil
	}
	d.listedArch = true
	dirs, err := ArchivedPhaseDirs(d.fsys, d.planningDir)
	d.archived = dirs
	return err
}

func numbered(dirs []Phase, n PhaseNum) []Phase {
	i, _ := slices.BinarySearchFunc(dirs, n, func(d Phase, n PhaseNum) int { return d.Num.Compare(n) })
	j := i
	for j < len(dirs) && dirs[j].Num.Equal(n) {
		j++
	}
	return slices.Clip(dirs[i:j])
}

// CountPlanFiles counts every plan file of the project and how many have their SUMMARY: the
// phases of the root and of every workstream, archived milestones' phases included. The
// directories Load already listed are not listed again.
func (p *Project) CountPlanFiles(fsys fs.FS) (files, done int, err error) {
	dirs := []string{".planning"}
	ws, err := Workstreams(fsys)
	if err != nil {
		return 0, 0, err
	}
	for _, name := range ws {
		dirs = append(dirs, WorkstreamDir(name))
	}
	for _, d := range dirs {
		idx := p.idx
		if d != p.PlanningDir {
			if idx, err = newDirIndex(fsys, d); err != nil {
				return 0, 0, err
			}
		}
		plans, err := idx.allPlans()
		if err != nil {
			return 0, 0, err
		}
		for _, pl := range plans {
			files++
			if pl.Done() {
				done++
			}
		}
	}
	return files, done, nil
}

// allPlans lists the plans of every phase directory, those under phases/ first, then those under
// milestones/*-phases/, each in phase and plan order and paired with its SUMMARY (see scan).
func (d *dirIndex) allPlans() ([]Plan, error) {
	if err := d.listArchived(); err != nil {
		return nil, err
	}
	var out []Plan
	for _, ph := range append(slices.Clip(d.phases()), d.archived...) {
		sc, err := d.scan(ph.Dir)
		if err != nil {
			return nil, err
		}
		out = append(out, sc.plans...)
	}
	return out, nil
}
