package main

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/gsd-tools/gsd/cmd"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"gsd": func() { os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
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
