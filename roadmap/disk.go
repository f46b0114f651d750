package roadmap

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"unicode"
	"unsafe"

	"github.com/gsd-tools/gsd/planfile/rootfs"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// MaxFileSize is the largest file this package reads. A ROADMAP.md is a few
// dozen KiB; anything this big is not one, and reading it on every agent turn
// would be a cost nobody asked for.
const MaxFileSize = 8 << 20

// sniffLen is how much of a file is checked for NUL bytes, as git does.
const sniffLen = 8000

// Errors for files that are not text this package can read. They are wrapped
// with the file's path.
var (
	ErrTooLarge = errors.New("larger than the 8 MiB gsd reads") // MaxFileSize
	ErrBinary   = errors.New("file is binary (contains NUL bytes)")
)

// readText reads a small text file through fsys, refusing files over
// MaxFileSize and files with NUL bytes near the start.
func readText(fsys fs.FS, name string) ([]byte, error) {
	b, err := rootfs.ReadFile(fsys, name, MaxFileSize)
	if err != nil {
		return nil, readError(name, err)
	}
	if Binary(b) {
		return nil, fmt.Errorf("%s: %w", name, ErrBinary)
	}
	return b, nil
}

// Binary reports whether b is not text gsd reads: a NUL byte near its start, as git judges.
func Binary(b []byte) bool { return bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 }

// readError words an error of rootfs.ReadFile for name.
func readError(name string, err error) error {
	var notRegular *rootfs.NotRegularError
	var pe *fs.PathError
	switch {
	case errors.As(err, &notRegular):
		return fmt.Errorf("%s: %w", name, notRegular)
	case errors.Is(err, rootfs.ErrEscapes):
		return fmt.Errorf("%s: leads outside the project (through a symlink); refusing to read it", name)
	case errors.Is(err, rootfs.ErrIsDir):
		return &fs.PathError{Op: "read", Path: name, Err: rootfs.ErrIsDir}
	case errors.Is(err, rootfs.ErrTooLarge):
		return fmt.Errorf("%s: %w", name, ErrTooLarge)
	case errors.As(err, &pe) && pe.Op == "read":
		return fmt.Errorf("%s: %w", name, err) // an I/O error
	}
	return err // failed to open: fs.ErrNotExist and the like
}

// ReadRoadmap reads and parses <planningDir>/ROADMAP.md. A missing file gives
// a nil roadmap and no error: projects without one still have phases on disk.
func ReadRoadmap(fsys fs.FS, planningDir string) (*Roadmap, error) {
	name := path.Join(planningDir, "ROADMAP.md")
	b, err := readText(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	// b is this function's own and never written again: the text can share its bytes rather
	// than copy a large roadmap once more.
	text := unsafe.String(unsafe.SliceData(b), len(b))
	rm := parseRoadmap(name, text)
	if len(rm.Phases) > 0 {
		return rm, nil
	}
	// A ROADMAP.md that is an index of milestones links the active one's own roadmap
	// ("## Active Milestone", "- [v3.4](milestones/v3.4-ROADMAP.md)"): that one is read.
	target, line := activeRoadmapLink(text)
	if target == "" {
		return rm, nil
	}
	linked := path.Join(planningDir, target)
	if !strings.HasPrefix(linked, planningDir+"/") {
		return rm, nil // a link out of the planning directory is no milestone's roadmap
	}
	lb, err := readText(fsys, linked)
	if err != nil {
		// The index still stands; what the link leads to is reported, not fatal: every agent
		// turn reads the roadmap.
		rm.Problems = append(rm.Problems, Problem{Severity: SeverityWarning, File: name, Line: line,
			Message: fmt.Sprintf("the active milestone's roadmap %s cannot be read: %v", linked, err)})
		return rm, nil
	}
	if lr := parseRoadmap(linked, unsafe.String(unsafe.SliceData(lb), len(lb))); len(lr.Phases) > 0 {
		return lr, nil
	}
	return rm, nil
}

// activeRoadmapLink is the target of the first link to a roadmap file ("...ROADMAP.md") under a
// heading that begins with "Active" or "Current" and names a milestone, and its line; "" when
// there is none. A target may be in angle brackets, and have a title or an #anchor after it.
func activeRoadmapLink(text string) (string, int) {
	active := false
	lines := newLineScanner(text)
	for l, ok := lines.Next(); ok; l, ok = lines.Next() {
		if h, ok := matchHeading(l.text); ok {
			lower := strings.ToLower(strings.TrimLeftFunc(h, func(r rune) bool { return !unicode.IsLetter(r) }))
			active = strings.Contains(lower, "milestone") && (strings.HasPrefix(lower, "active") || strings.HasPrefix(lower, "current"))
			continue
		}
		if !active {
			continue
		}
		for rest := l.text; ; {
			_, _, target, after, ok := mdLink(rest)
			if !ok {
				break
			}
			rest = after
			if target = linkPath(target); strings.HasSuffix(strings.ToUpper(target), "ROADMAP.MD") && !strings.Contains(target, "://") {
				return target, l.num
			}
		}
	}
	return "", 0
}

// roadmapPath is the file the roadmap rm was read from, or ROADMAP.md of planningDir when
// there is none.
func roadmapPath(rm *Roadmap, planningDir string) string {
	if rm != nil {
		return rm.Path
	}
	return path.Join(planningDir, "ROADMAP.md")
}

// staleWorkstream reports whether the workstream ws that activeWorkstreamFile names is a
// pointer left behind, which the root's own roadmap has overtaken, and why: ws is no workstream
// (not a name, or no directory under .planning/workstreams: the pointer is broken, and broken
// says so); or it has neither ROADMAP.md nor STATE.md while the root has one; or its STATE.md
// calls its phase complete (its Phase line, or its frontmatter's status) and the root's
// STATE.md is dated later. Either way the root is in force: no planning file makes a command
// fail. (GSD_WORKSTREAM is a choice made now, never stale.)
func staleWorkstream(fsys fs.FS, ws string) (why string, stale, broken bool) {
	if ws == "" {
		return "", false, false
	}
	if !workstreamName(ws) {
		return fmt.Sprintf("it names %s, which is not a workstream name: the root's .planning is in force", textfmt.Quote(ws)), true, true
	}
	dir := path.Join(".planning/workstreams", ws)
	if fi, err := fs.Stat(fsys, dir); err != nil || !fi.IsDir() {
		return fmt.Sprintf("it names workstream %s, which has no directory %s: the root's .planning is in force", ws, dir), true, true
	}
	exists := func(name string) bool { _, err := fs.Stat(fsys, name); return err == nil }
	if !exists(".planning/ROADMAP.md") && !exists(".planning/STATE.md") {
		return "", false, false
	}
	if !exists(path.Join(dir, "ROADMAP.md")) && !exists(path.Join(dir, "STATE.md")) {
		return fmt.Sprintf("it names workstream %s, which has no ROADMAP.md or STATE.md of its own: the root's are in force", ws), true, false
	}
	_, wsDecl, err := readState(fsys, dir)
	if err != nil || !wsDecl.PhaseComplete && !wsDecl.StatusDone || wsDecl.Updated == "" {
		return "", false, false
	}
	_, rootDecl, err := readState(fsys, ".planning")
	if err != nil || rootDecl.Updated <= wsDecl.Updated {
		return "", false, false
	}
	says := "calls its phase complete"
	if !wsDecl.PhaseComplete {
		says = "says its status is complete"
	}
	return fmt.Sprintf("it names workstream %s, whose STATE.md (%s) %s; the root's STATE.md is newer (%s): the root is in force", ws, wsDecl.Updated, says, rootDecl.Updated), true, false
}

// workstreamName reports whether ws can name a directory under .planning/workstreams.
func workstreamName(ws string) bool {
	return ws != "" && ws != "." && ws != ".." && !strings.ContainsAny(ws, "/\\\x00")
}

// activeWorkstreamFile names the workstream in force when GSD_WORKSTREAM does not.
const activeWorkstreamFile = ".planning/active-workstream"

// activeWorkstream is the workstream activeWorkstreamFile names: its first line, trimmed (and
// without a BOM); "" when the file is missing or its first line blank.
func activeWorkstream(fsys fs.FS) (string, error) {
	b, err := readText(fsys, activeWorkstreamFile)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	first, _, _ := strings.Cut(strings.TrimPrefix(string(b), "\ufeff"), "\n")
	return strings.TrimSpace(first), nil
}

// Phase is one phase of the project: its number, its name, its directory and,
// once scanned, its plans.
type Phase struct {
	Num   PhaseNum
	Name  string // from ROADMAP.md when known, else the directory's slug
	Dir   string // relative to the project root; "" if the phase has no directory
	Plans []Plan // filled only when the directory was scanned, in plan order
	// Unplanned are the SUMMARYs of plans whose plan file is not on disk ("28-03-SUMMARY.md"
	// beside no 28-03 plan): work recorded as done that no plan accounts for (FIX rounds' left
	// out, as progress leaves FIX plans out). Filled with Plans.
	Unplanned []string
}

// PhaseDirs lists <planningDir>/phases once and returns the entries named like
// phase directories ("03-core-encryption", "3.1-downloader", "CK-01-setup"), in
// numeric order. Plans are not scanned. The listing gives names alone: an entry
// that is a file ("02-notes.md") is among them, and ScanPlans gives it no plans.
// A missing phases directory gives no phases and no error.
func PhaseDirs(fsys fs.FS, planningDir string) ([]Phase, error) {
	return phaseDirsIn(fsys, path.Join(planningDir, "phases"))
}

// ArchivedPhaseDirs lists the phase directories under <planningDir>/milestones/*-phases/
// ("milestones/v1.7-phases/54-polish"), in numeric order.
func ArchivedPhaseDirs(fsys fs.FS, planningDir string) ([]Phase, error) {
	root := path.Join(planningDir, "milestones")
	ents, err := fs.ReadDir(fsys, root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Phase
	for _, e := range ents {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), "-phases") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		sub, err := phaseDirsIn(fsys, path.Join(root, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, sub...)
	}
	sortPhases(out)
	return out, nil
}

// phaseDirsIn lists the phase directories in dir, in numeric order. A listing gives names only
// (see listDir): an entry named like a phase that turns out to be a file is dropped when it is
// scanned.
func phaseDirsIn(fsys fs.FS, dir string) ([]Phase, error) {
	names, err := listDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return phaseDirsOf(dir, names), nil
}

// phaseDirsOf parses the phase directories of a listing of dir, in numeric order.
func phaseDirsOf(dir string, names []string) []Phase {
	out := []Phase{}
	for _, name := range names {
		if p, ok := phaseDir(dir, name); ok {
			out = append(out, p)
		}
	}
	sortPhases(out)
	return out
}

// phaseDir parses one name in a phases directory.
func phaseDir(dir, name string) (Phase, bool) {
	n, slug, ok := phaseDirName(name)
	if !ok {
		return Phase{}, false
	}
	return Phase{Num: n, Name: slug, Dir: dir + "/" + name}, true
}

// startsWithNumber is a quick test that name ("03-x", "E73-x", "CK-03-x") may be phase n's:
// its first run of digits, without leading zeros, is n's first segment.
func startsWithNumber(name string, n PhaseNum) bool {
	if n.IsZero() {
		return false
	}
	i := 0
	for i < len(name) && !isDigit(name[i]) {
		i++
	}
	v, _, ok := segment(name[i:])
	return ok && v == n.First()
}

// sortPhases orders phase directories by number, then by name ("03-a" before "3-b"). The
// listing is usually in that order already, which is checked first: sorting a thousand
// directories on every agent turn would cost more than listing them.
func sortPhases(ps []Phase) {
	cmp := func(a, b Phase) int {
		if c := a.Num.Compare(b.Num); c != 0 {
			return c
		}
		return strings.Compare(a.Dir, b.Dir)
	}
	if !slices.IsSortedFunc(ps, cmp) {
		slices.SortFunc(ps, cmp)
	}
}

// errNotDir is listDir's error for a path that is not a directory.
var errNotDir = errors.New("not a directory")

// listDir lists dir's names, in no particular order (callers sort what they keep). The names
// alone say what gsd needs, since plans and phases are told apart by name: through an os.Root,
// fs.ReadDir would lstat every entry, most of gsd's system calls on a large project.
func listDir(fsys fs.FS, dir string) ([]string, error) {
	names, err := rootfs.ReadDirNames(fsys, dir)
	if errors.Is(err, rootfs.ErrNotDir) {
		return nil, fmt.Errorf("%s: %w", dir, errNotDir)
	}
	return names, err
}

// phaseDirName parses a phase directory name "NN-slug" (or just "NN"). A Finder or iCloud
// conflict copy ("03-settings-pages 2") is no phase directory.
func phaseDirName(name string) (PhaseNum, string, bool) {
	if conflictCopy(name) {
		return PhaseNum{}, "", false
	}
	n, rest, ok := parsePhasePrefix(name)
	if !ok {
		return PhaseNum{}, "", false
	}
	if rest == "" {
		return n, "", true
	}
	if rest[0] != '-' {
		return PhaseNum{}, "", false
	}
	return n, rest[1:], true
}

// conflictCopy reports whether name (a file's without its extension) is what Finder or iCloud
// names the copy of a file or directory it found in conflict: the name, a space and a number
// ("03-settings-pages 2", "03-01-PLAN 2"). Such copies are never plans or phases.
func conflictCopy(name string) bool {
	i := len(name)
	for i > 0 && isDigit(name[i-1]) {
		i--
	}
	return i < len(name) && i > 1 && name[i-1] == ' '
}
