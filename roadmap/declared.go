package roadmap

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/gsd-tools/gsd/planfile/statemd"
)

// ReadDeclared reads what STATE.md beside the roadmap declares (planfile/statemd reads its
// text). A missing STATE.md declares nothing.
func ReadDeclared(fsys fs.FS, planningDir string) (statemd.Declared, error) {
	name := path.Join(planningDir, "STATE.md")
	b, err := readText(fsys, name)
	if errors.Is(err, fs.ErrNotExist) {
		return statemd.Declared{Percent: -1}, nil
	}
	if err != nil {
		return statemd.Declared{}, err
	}
	return statemd.Parse(b).Declared(), nil
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
