package roadmap

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
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
	// Opening a FIFO would block until someone writes to it, and a device can be endless: only
	// regular files are opened.
	if fi, err := fs.Stat(fsys, name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a regular file (%v)", name, fi.Mode().Type())
	}
	f, err := fsys.Open(name)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) && strings.Contains(err.Error(), "escapes") {
			// os.Root refused a symlink that leads out of the project.
			return nil, fmt.Errorf("%s: leads outside the project (through a symlink); refusing to read it", name)
		}
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if fi, err := f.Stat(); err == nil {
		if fi.IsDir() {
			return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
		}
		if fi.Size() > MaxFileSize {
			return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
		}
		size = fi.Size()
	}
	// Read into a buffer of the file's size (and a byte more, to see the end), as os.ReadFile
	// does, rather than io.ReadAll's doubling: a large roadmap is read on every agent turn.
	b := make([]byte, 0, size+1)
	for len(b) <= MaxFileSize {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)] // the file grew since it was stat'ed
		}
		n, err := f.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if len(b) > MaxFileSize {
		return nil, fmt.Errorf("%s: %w", name, ErrTooLarge)
	}
	if bytes.IndexByte(b[:min(len(b), sniffLen)], 0) >= 0 {
		return nil, fmt.Errorf("%s: %w", name, ErrBinary)
	}
	return b, nil
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
	return ParseRoadmap(name, b), nil
}

// PlanningDir returns the planning directory to use: ".planning", or
// ".planning/workstreams/<ws>" when a workstream is active. workstream is
// GSD_WORKSTREAM as the caller read it; when empty, the first line of
// .planning/active-workstream names the workstream, if that file exists. A
// named workstream whose directory does not exist is an error rather than a
// silent fall back to .planning, which would show another workstream's phases.
func PlanningDir(fsys fs.FS, workstream string) (string, error) {
	const root = ".planning"
	source := "" // the file that named the workstream, for errors
	ws := strings.TrimSpace(workstream)
	if ws == "" {
		name := path.Join(root, "active-workstream")
		b, err := readText(fsys, name)
		if errors.Is(err, fs.ErrNotExist) {
			return root, nil
		}
		if err != nil {
			return "", err
		}
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		first, _, _ := strings.Cut(string(b), "\n")
		ws = strings.TrimSpace(first)
		if ws == "" {
			return root, nil
		}
		source = name
	}
	dir := path.Join(root, "workstreams", ws)
	var err error
	if ws == "." || ws == ".." || strings.ContainsAny(ws, "/\\\x00") {
		err = fmt.Errorf("invalid workstream name %q", ws)
	} else if fi, serr := fs.Stat(fsys, dir); errors.Is(serr, fs.ErrNotExist) || serr == nil && !fi.IsDir() {
		err = fmt.Errorf("workstream %q: no directory %s", ws, dir)
	} else if serr != nil {
		err = serr
	} else {
		return dir, nil
	}
	if source != "" {
		err = fmt.Errorf("%s: %w", source, err)
	}
	return "", err
}

// Phase is one phase of the project: its number, its name, its directory and,
// once scanned, its plans.
type Phase struct {
	Num   PhaseNum
	Name  string // from ROADMAP.md when known, else the directory's slug
	Dir   string // relative to the project root; "" if the phase has no directory
	Plans []Plan // filled only when the directory was scanned, in plan order
}

// PhaseDirs lists <planningDir>/phases with a single ReadDir and returns the
// directories named like phases ("03-core-encryption", "3.1-downloader",
// "CK-01-setup"), in numeric order. Plans are not scanned. A missing phases
// directory gives no phases and no error.
func PhaseDirs(fsys fs.FS, planningDir string) ([]Phase, error) {
	return phaseDirsIn(fsys, path.Join(planningDir, "phases"))
}

// phaseDirsIn lists the phase directories in dir, in numeric order. A listing gives names only
// (see listDir): an entry named like a phase that turns out to be a file is dropped when it is
// scanned.
func phaseDirsIn(fsys fs.FS, dir string) ([]Phase, error) {
	ents, err := listDir(fsys, dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotDir) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return phaseDirsOf(dir, ents), nil
}

// phaseDirsOf parses the phase directories of a listing of dir, in numeric order.
func phaseDirsOf(dir string, ents []dirEntry) []Phase {
	out := []Phase{}
	for _, e := range ents {
		if p, ok := phaseDir(dir, e); ok {
			out = append(out, p)
		}
	}
	sortPhases(out)
	return out
}

// phaseDir parses one entry of a phases directory.
func phaseDir(dir string, e dirEntry) (Phase, bool) {
	if e.known && !e.dir {
		return Phase{}, false
	}
	n, slug, ok := phaseDirName(e.name)
	if !ok {
		return Phase{}, false
	}
	return Phase{Num: n, Name: slug, Dir: dir + "/" + e.name}, true
}

// startsWithNumber is a quick test that name ("03-x", "E73-x", "CK-03-x") may be phase n's:
// its first run of digits, without leading zeros, is n's first segment.
func startsWithNumber(name string, n PhaseNum) bool {
	if n.nseg == 0 {
		return false
	}
	i := 0
	for i < len(name) && !isDigit(name[i]) {
		i++
	}
	for i < len(name)-1 && name[i] == '0' && isDigit(name[i+1]) {
		i++
	}
	j := i
	for j < len(name) && isDigit(name[j]) {
		j++
	}
	v := 0
	for k := i; k < j && k-i <= maxSegmentDigits; k++ {
		v = v*10 + int(name[k]-'0')
	}
	return j > i && j-i <= maxSegmentDigits && v == int(n.seg[0])
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

// dirEntry is a name in a directory and, when the listing says, whether it is a directory.
type dirEntry struct {
	name       string
	dir, known bool
}

// listDir lists dir's names, in no particular order (callers sort what they keep). Through an os.Root, fs.ReadDir lstats every entry (a
// Root cannot load file information lazily), which on a large project is most of gsd's system
// calls; the names alone say what gsd needs, since plans and phases are told apart by name. Other
// file systems give their entries' types as well.
func listDir(fsys fs.FS, dir string) ([]dirEntry, error) {
	f, err := fsys.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if rd, ok := f.(interface{ Readdirnames(int) ([]string, error) }); ok {
		names, err := rd.Readdirnames(-1)
		if err != nil {
			if fi, serr := f.Stat(); serr == nil && !fi.IsDir() {
				return nil, fmt.Errorf("%s: %w", dir, errNotDir)
			}
			return nil, err
		}
		out := make([]dirEntry, len(names))
		for i, n := range names {
			out[i] = dirEntry{name: n}
		}
		return out, nil
	}
	rd, ok := f.(fs.ReadDirFile)
	if !ok {
		return nil, fmt.Errorf("%s: %w", dir, errNotDir)
	}
	ents, err := rd.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(ents))
	for i, e := range ents {
		out[i] = dirEntry{name: e.Name(), dir: e.IsDir(), known: true}
	}
	return out, nil
}

// phaseDirName parses a phase directory name "NN-slug" (or just "NN").
func phaseDirName(name string) (PhaseNum, string, bool) {
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
