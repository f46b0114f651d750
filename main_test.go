package main

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The gsd the scripts and the process tests run is built once, the first time one asks for it,
// as users get it: CGO_ENABLED=0 and without the race detector, whatever this test binary was
// built with. A race-instrumented process takes far longer to start, and the scripts start
// some 500; the in-process tests (package cmd and below) are what the race detector covers.
var gsdBuild struct {
	once sync.Once
	dir  string // holds gsd (gsd.exe on Windows), removed when the tests end
	err  error
}

// TestMain also makes this test binary the program gsd-fsize (gsd under a file size limit:
// fsize_unix_test.go), which a story runs to fill a disk; the gsd of every other story is the
// one gsdBin builds.
func TestMain(m *testing.M) {
	testscript.Main(cleanup{m}, map[string]func(){
		"gsd-fsize": func() { os.Exit(gsdFsize()) },
	})
}

// cleanup runs the tests, then removes the gsd they built.
type cleanup struct{ m *testing.M }

func (c cleanup) Run() int {
	code := c.m.Run()
	if gsdBuild.dir != "" {
		os.RemoveAll(gsdBuild.dir)
	}
	return code
}

// gsdBin is the gsd binary the tests run: GSD_TEST_BIN when set (an older build, to see the
// tests fail), else gsd built from this checkout. A failed build fails the test: never a skip,
// and never some other gsd (one on PATH would test other code).
func gsdBin(t testing.TB) string {
	t.Helper()
	dir, err := gsdDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, exeName("gsd"))
}

// gsdDir is the directory that holds the gsd gsdBin gives, under the name gsd, for PATH.
func gsdDir() (string, error) {
	gsdBuild.once.Do(func() {
		gsdBuild.dir, gsdBuild.err = os.MkdirTemp("", "gsd-test-bin-")
		if gsdBuild.err != nil {
			return
		}
		bin := filepath.Join(gsdBuild.dir, exeName("gsd"))
		if p := os.Getenv("GSD_TEST_BIN"); p != "" {
			if p, gsdBuild.err = filepath.Abs(p); gsdBuild.err == nil {
				gsdBuild.err = os.Symlink(p, bin)
			}
			return
		}
		cmd := exec.Command("go", "build", "-buildvcs=false", "-o", bin, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			gsdBuild.err = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	return gsdBuild.dir, gsdBuild.err
}

func exeName(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

var update = flag.Bool("update", false, "rewrite the expected files of testdata/script/*.txtar")

// TestScripts runs the end-to-end stories in testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("testdata", "script"),
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			bin, err := gsdDir()
			if err != nil {
				return err
			}
			e.Setenv("PATH", bin+string(os.PathListSeparator)+e.Getenv("PATH"))
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			e.Setenv("HOME", home)
			e.Setenv("XDG_CONFIG_HOME", "")
			e.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			e.Setenv("GSD_USER", "")
			e.Setenv("GSD_WORKSTREAM", "")
			e.Setenv("NO_COLOR", "")
			e.Setenv("SOURCE_DATE_EPOCH", "1770112800") // 2026-02-03T10:00:00Z
			demo, err := filepath.Abs(filepath.Join("testdata", "demo"))
			e.Setenv("DEMO", demo)
			return err
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":      exits,
			"cptree":     cptree,
			"crlf":       crlf,
			"mtime":      mtime,
			"appendfile": appendfile,
			"appendline": appendline,
		},
	})
}

// exits N PROG ARGS... runs PROG and fails unless it exits with status N exactly.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// cptree SRC DST copies a directory tree (testscript's cp copies files only).
func cptree(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cptree src dst")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	ts.Check(err)
}

// crlf FILE... rewrites files with CRLF line endings (txtar cannot hold them as written).
func crlf(ts *testscript.TestScript, neg bool, args []string) {
	for _, a := range args {
		p := ts.MkAbs(a)
		b, err := os.ReadFile(p)
		ts.Check(err)
		b = bytes.ReplaceAll(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		ts.Check(os.WriteFile(p, b, 0o644))
	}
}

// mtime TIME FILE... sets the modification time of files to TIME (RFC 3339).
func mtime(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: mtime TIME file...")
	}
	t, err := time.Parse(time.RFC3339, args[0])
	ts.Check(err)
	for _, a := range args[1:] {
		ts.Check(os.Chtimes(ts.MkAbs(a), t, t))
	}
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
