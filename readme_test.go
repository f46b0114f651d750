//go:build !windows

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeTour runs the README's five-minute tour as a reader types it, in one shell, from a
// checkout that has no gsd installed: every command of its console blocks, in order, must print
// what the README shows ("..." ends a block that shows only the start). The tour's first
// command is the README's build step; here make stands in for the Makefile's build, putting at
// its BIN (bin/gsd) the gsd the other process tests run, built from the same sources, so that
// the test needs no second build of gsd.
func TestReadmeTour(t *testing.T) {
	processTest(t)
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	steps := tourSteps(t, string(readme))
	if len(steps) < 5 {
		t.Fatalf("the tour has %d commands", len(steps))
	}
	makefile, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^BIN\s*\?=\s*(\S+)$`).FindSubmatch(makefile)
	if m == nil {
		t.Fatal("Makefile: no BIN ?= line")
	}

	// A checkout (only what the tour reads of it) and a PATH without gsd.
	checkout, shims, home := t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.CopyFS(filepath.Join(checkout, "testdata", "demo"), os.DirFS(filepath.Join("testdata", "demo"))); err != nil {
		t.Fatal(err)
	}
	makeShim := fmt.Sprintf("#!/bin/sh\n[ \"$*\" = build ] || { echo \"make $*: only make build is stood in for\" >&2; exit 2; }\n"+
		"mkdir -p %q && cp %q %q\n", filepath.Dir(string(m[1])), gsdBin(t), string(m[1]))
	if err := os.WriteFile(filepath.Join(shims, "make"), []byte(makeShim), 0o755); err != nil {
		t.Fatal(err)
	}
	var path []string
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, "gsd")); err != nil && dir != "" {
			path = append(path, dir)
		}
	}

	var script strings.Builder
	for i, s := range steps {
		fmt.Fprintf(&script, "%s\necho \"@@step %d $?\"\n", s.command, i)
	}
	sh := exec.Command("bash", "--noprofile", "--norc", "-c", script.String())
	sh.Dir = checkout
	sh.Env = []string{"PATH=" + shims + string(os.PathListSeparator) + strings.Join(path, string(os.PathListSeparator)),
		"HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=" + filepath.Dir(home), "TERM=dumb",
		"SOURCE_DATE_EPOCH=1770112800"} // the README shows the time of its run
	out, err := sh.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	outputs := strings.Split(string(out), "\n")
	from := 0
	for i, s := range steps {
		marker := regexp.MustCompile(fmt.Sprintf(`^@@step %d (\d+)$`, i))
		end := from
		for end < len(outputs) && !marker.MatchString(outputs[end]) {
			end++
		}
		if end == len(outputs) {
			t.Fatalf("$ %s: no end of step %d in\n%s", s.command, i, out)
		}
		got := strings.Join(outputs[from:end], "\n")
		if code := marker.FindStringSubmatch(outputs[end])[1]; code != "0" {
			t.Errorf("$ %s: exit %s\n%s", s.command, code, got)
		} else if s.prefix && !strings.HasPrefix(got, s.output) || !s.prefix && got != s.output {
			t.Errorf("$ %s:\n%s\nthe README shows:\n%s", s.command, got, s.output)
		}
		from = end + 1
	}
}

// tourStep is a command of the README's tour and the output the README shows for it; with
// prefix, only its start ("..." ends the block).
type tourStep struct {
	command, output string
	prefix          bool
}

// tourSteps are the commands of the console blocks of the README's "A five-minute tour", in order.
func tourSteps(t *testing.T, readme string) []tourStep {
	t.Helper()
	_, tour, ok := strings.Cut(readme, "\n## A five-minute tour\n")
	if !ok {
		t.Fatal("README.md has no tour")
	}
	tour, _, _ = strings.Cut(tour, "\n## ")
	var steps []tourStep
	var out []string
	inBlock, open := false, false // in a console block; after a command whose output is being read
	flush := func() {
		if open {
			steps[len(steps)-1].output = strings.Join(out, "\n")
		}
		out, open = nil, false
	}
	sc := bufio.NewScanner(strings.NewReader(tour))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "```console":
			inBlock = true
		case !inBlock:
		case line == "```":
			flush()
			inBlock = false
		case strings.HasPrefix(line, "$ "):
			flush()
			steps = append(steps, tourStep{command: strings.TrimPrefix(line, "$ ")})
			open = true
		case line == "...":
			steps[len(steps)-1].prefix = true
		default:
			out = append(out, line)
		}
	}
	return steps
}
