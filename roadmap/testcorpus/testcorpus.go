// Package testcorpus finds, for tests, the corpus of real GSD projects: the directory GSD_CORPUS
// names, a relative path being taken from the repository root (GSD_CORPUS=../shared/corpus).
// Without GSD_CORPUS the tests over real trees are skipped, so that `go test ./...` passes on a
// plain clone; CI sets it, and a GSD_CORPUS that names no directory fails those tests rather
// than skipping them.
package testcorpus

import (
	"os"
	"path/filepath"
	"testing"
)

// Var is the environment variable that names the corpus.
const Var = "GSD_CORPUS"

// Dir returns the corpus directory, skipping the test when GSD_CORPUS is not set and failing it
// when GSD_CORPUS names no directory.
func Dir(t testing.TB) string {
	t.Helper()
	dir, ok := Lookup(t)
	if !ok {
		t.Skip(Var + " is not set: skipping a test over the real projects (GSD_CORPUS=../shared/corpus runs it)")
	}
	return dir
}

// Lookup is Dir for a test that also runs without the corpus: ok is false when GSD_CORPUS is
// not set.
func Lookup(t testing.TB) (dir string, ok bool) {
	t.Helper()
	v := os.Getenv(Var)
	if v == "" {
		return "", false
	}
	if !filepath.IsAbs(v) {
		root, err := repoRoot()
		if err != nil {
			t.Fatalf("%s=%s: %v", Var, v, err)
		}
		v = filepath.Join(root, v)
	}
	if fi, err := os.Stat(v); err != nil {
		t.Fatalf("%s: %v", Var, err)
	} else if !fi.IsDir() {
		t.Fatalf("%s: %s is not a directory", Var, v)
	}
	return v, true
}

// repoRoot is the nearest directory from the working directory (a test's package) upward that
// holds go.mod.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
