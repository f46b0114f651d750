package roadmap

import (
	"errors"
	"io/fs"
	"path"
	"strings"
	"unsafe"

	"github.com/gsd-tools/gsd/roadmap/statemd"
)

// readState reads STATE.md beside the roadmap and what it declares (roadmap/statemd reads its
// text). A missing STATE.md declares nothing and gives nil bytes.
func readState(fsys fs.FS, planningDir string) ([]byte, statemd.Declared, error) {
	b, err := readText(fsys, path.Join(planningDir, "STATE.md"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, statemd.Declared{Percent: -1}, nil
	}
	if err != nil {
		return nil, statemd.Declared{}, err
	}
	// b is this function's own, handed on as Position.State and never written: the declared
	// values can share its bytes rather than copy the file.
	return b, statemd.Parse(unsafe.String(unsafe.SliceData(b), len(b))).Declared(), nil
}

// declaredNum parses the phase STATE.md declares.
func declaredNum(d statemd.Declared) (PhaseNum, bool) {
	f := strings.Fields(d.Phase)
	if len(f) > 1 && strings.EqualFold(f[0], "phase") {
		f = f[1:]
	}
	if len(f) == 0 {
		return PhaseNum{}, false
	}
	return ParsePhaseNum(strings.Trim(f[0], ",:;.*()\"'"))
}
