package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fullWriter fails every write as a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) {
	return 0, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.ENOSPC}
}

// TestWriteStdoutFails: output that cannot be written is a failure, as `git status > /dev/full`
// is: exit 1 and one line on stderr, for every command that prints, whatever path prints it
// (our renderers, cobra's help, the completion scripts). A testscript story cannot send stdout
// to a failing file, hence a unit test.
func TestWriteStdoutFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GSD_USER", "dee")
	t.Setenv("GSD_WORKSTREAM", "")
	var out, errOut bytes.Buffer
	if code := Main([]string{"-C", dir, "start"}, strings.NewReader(""), &out, &errOut); code != ExitOK {
		t.Fatalf("gsd start: exit %d: %s", code, errOut.String())
	}
	for _, args := range [][]string{
		{"hydrate"}, {"hydrate", "--json"}, {"hydrate", "--porcelain"}, {"hydrate", "--format", "brief"},
		{"tasks"}, {"tasks", "--json"}, {"check"}, {"whoami"}, {"progress"}, {"progress", "--json"},
		{"state"}, {"brief"}, {"mark-in-progress"}, {"--help"}, {"help", "tasks"}, {"--version"},
		{"completion", "bash"}, {"hook", "install", "--dry-run"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var errOut bytes.Buffer
			code := Main(append([]string{"-C", dir}, args...), strings.NewReader(""), fullWriter{}, &errOut)
			if code != ExitFailure {
				t.Errorf("exit %d, want %d", code, ExitFailure)
			}
			if got, want := errOut.String(), "gsd: write stdout: no space left on device\n"; got != want {
				t.Errorf("stderr %q, want %q", got, want)
			}
		})
	}
}

// TestHookExitsZeroWhenStdoutFails: the hook's contract (exit 0 whatever happens, so that an
// agent's session never breaks) holds when its output is lost; it notes it on stderr.
func TestHookExitsZeroWhenStdoutFails(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GSD_USER", "dee")
	t.Setenv("GSD_WORKSTREAM", "")
	var errOut bytes.Buffer
	in := strings.NewReader(`{"cwd": ` + strconv.Quote(dir) + `, "source": "startup"}`)
	if code := Main([]string{"hook", "session-start"}, in, fullWriter{}, &errOut); code != ExitOK {
		t.Errorf("exit %d, want 0", code)
	}
	if got := errOut.String(); !strings.Contains(got, "gsd: hook session-start: ") || !strings.Contains(got, "no space left on device") {
		t.Errorf("stderr %q: want the hook's note of the lost output", got)
	}
}

func TestWithoutDomain(t *testing.T) {
	for in, want := range map[string]string{
		`DESKTOP-7QX2\ann`: "ann",
		`CORP\Ann Example`: "Ann Example",
		"ann":              "ann",
		`\ann`:             "ann",
		`MACHINE\`:         "",
		`a\b\c`:            "c",
	} {
		if got := withoutDomain(in); got != want {
			t.Errorf("withoutDomain(%q) = %q, want %q", in, got, want)
		}
	}
}
