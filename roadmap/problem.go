package roadmap

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity says how much a problem matters. An error is something a CI
// check should fail on: the files contradict each other in a way a person
// must resolve. A warning is drift or a file gsd had to guess about. Info is
// worth knowing and usually harmless.
type Severity string

// The severities, from most to least serious.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Problem is one thing wrong with the project's files, located by file and
// line (0 when it concerns a whole file or directory).
type Problem struct {
	Severity Severity `json:"severity"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Message  string   `json:"message"`
	// Dir: File is a directory (a phase directory, phases/, the sessions directory), which a
	// CI annotation cannot point at: annotations need a file.
	Dir bool `json:"dir,omitempty"`
}

// String formats the problem as "file:line: severity: message".
func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Severity, p.Message)
	}
	return fmt.Sprintf("%s: %s: %s", p.File, p.Severity, p.Message)
}

// SortProblems orders problems by file, then line, keeping the order of those at one place.
func SortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return cmp.Compare(a.Line, b.Line)
	})
}
