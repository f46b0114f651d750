package cmd

import (
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/memo"
)

// The report cache: a command whose output is a function of the project's files, the
// environment and the clock (gsd progress --json) keeps its output, with what it rested on, in
// the user's cache directory, and a later run of the same request prints it again while none of
// that has changed (package memo). recall looks for it before the project is opened; on a miss,
// the project is opened recording what the command reads, the command calls remember with its
// output, and mainWith stores the memo once the command has ended without an error or a
// warning.

// recall returns the output the memo of request keeps for the project found from the working
// directory, when it still holds. On a miss it leaves the memo's file for remember, and the
// project is then opened recording its reads.
func (a *app) recall(request ...string) ([]byte, bool) {
	base, err := a.cacheBase()
	if err != nil || base == "" {
		return nil, false
	}
	prog := memo.Program()
	if prog == "" {
		return nil, false
	}
	dir, err := a.workDir()
	if err != nil {
		return nil, false // opening the project says what is wrong
	}
	root, err := hydrate.ProjectRoot(dir)
	if err != nil {
		return nil, false
	}
	file := filepath.Join(base, "reports", memo.Name(append([]string{prog, root}, request...)...))
	if out, ok := memo.Load(file, root, a.now(), a.lookupEnv); ok {
		return out, true
	}
	a.memoFile = file
	return nil, false
}

// remember keeps out, which holds until until (zero: for ever), as the output of the request
// recall missed.
func (a *app) remember(out []byte, until time.Time) {
	if a.memoFile != "" {
		a.kept = &memo.Memo{Output: out, Until: until}
	}
}

// storeMemo stores what remember kept, with every variable the command looked up, when what
// the command read from the project can be checked for changes (hydrate.Env.Inputs). A memo
// that cannot be stored only costs the next run its speed.
func (a *app) storeMemo() {
	if a.kept == nil || a.env == nil {
		return
	}
	inputs, ok := a.env.Inputs(nil)
	if !ok {
		return
	}
	a.kept.Env, a.kept.Inputs = a.envSeen, inputs
	_ = memo.Store(a.memoFile, a.kept)
}

// lookupRecorded is os.LookupEnv, keeping each answer for a memo: app.lookupEnv in every run.
func (a *app) lookupRecorded(key string) (string, bool) {
	v, ok := os.LookupEnv(key)
	a.envSeen = append(a.envSeen, memo.Var{Name: key, Value: v, Set: ok})
	return v, ok
}

// flagWriter is a writer that notes whether anything was written to it.
type flagWriter struct {
	w     io.Writer
	wrote bool
}

func (f *flagWriter) Write(p []byte) (int, error) {
	f.wrote = true
	return f.w.Write(p)
}
