package cmd_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNamesAreEscaped: a session directory whose name holds a newline, a GitHub workflow command
// and a terminal escape sequence shows up in every output format (text, --check, annotations,
// the step summary, hydrate's and check's reports) escaped: no line of its own, no ESC byte. The
// transcript must equal testdata/escape.golden (go test -run NamesAreEscaped -update rewrites it).
func TestNamesAreEscaped(t *testing.T) {
	root := hostileProject(t, validSession(t))
	evil := "x\n::error file=README.md,line=1::INJECTED\x1b[31mRED\u202e"
	writeFile(t, filepath.Join(root, ".planning/sessions", evil, "current-plan.md"), "junk\n")
	// A plan name with the same payload, for the paths that name plans.
	writeFile(t, filepath.Join(root, ".planning/phases/01-x", "01-03-PLAN\n::error::X\x1b[2J.md"), "no tasks\n")
	summary := filepath.Join(t.TempDir(), "summary.md")
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	var transcript strings.Builder
	for _, args := range [][]string{
		{"progress", "--check"},
		{"progress"},
		{"check"},
		{"start", ".planning/phases/01-x/01-03-PLAN\n::error::X\x1b[2J.md"},
	} {
		code, stdout, stderr := runGSD(t, root, args...)
		transcript.WriteString(fmt.Sprintf("$ gsd %q\n", args) + stdout + stderr + fmt.Sprintf("exit %d\n\n", code))
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	transcript.WriteString("$ cat $GITHUB_STEP_SUMMARY\n" + string(b))
	got := transcript.String()
	for i, line := range strings.Split(got, "\n") {
		if strings.HasPrefix(line, "::error file=README.md") || strings.HasPrefix(line, "::error::X") || strings.HasPrefix(line, "INJECTED") {
			t.Errorf("line %d injected: %q", i+1, line)
		}
	}
	if strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("raw escape or format characters in the output")
	}
	golden := filepath.Join("..", "testdata", "escape.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("transcript differs from %s (go test -run NamesAreEscaped -update, then review the diff):\n%s", golden, got)
	}
}
