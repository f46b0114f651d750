package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// appendfile FILE TEXT appends TEXT, as given (no newline added), to FILE: a torn journal line,
// a hand edit at the end of a session. TEXT @SRC appends the contents of file SRC (whole lines).
func appendfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: appendfile FILE TEXT|@SRC")
	}
	text := args[1]
	if src, ok := strings.CutPrefix(text, "@"); ok {
		text = ts.ReadFile(src)
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	_, err = f.WriteString(text)
	ts.Check(err)
	ts.Check(f.Close())
}

// appendline FILE TEXT appends TEXT and a newline to FILE: a line another program wrote.
func appendline(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: appendline FILE TEXT")
	}
	appendfile(ts, false, []string{args[0], args[1] + "\n"})
}

// memoedit DIR OLD NEW replaces OLD, in the output of every memo in DIR (gsd's reports cache),
// with NEW, of the same length: a run that prints NEW replayed the memo. It fails when DIR has
// no memo holding OLD.
func memoedit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 || len(args[1]) != len(args[2]) {
		ts.Fatalf("usage: memoedit DIR OLD NEW (OLD and NEW of one length)")
	}
	ents, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	edited := 0
	for _, e := range ents {
		p := filepath.Join(ts.MkAbs(args[0]), e.Name())
		b, err := os.ReadFile(p)
		ts.Check(err)
		if !bytes.Contains(b, []byte(args[1])) {
			continue
		}
		ts.Check(os.WriteFile(p, bytes.ReplaceAll(b, []byte(args[1]), []byte(args[2])), 0o600))
		edited++
	}
	if edited == 0 {
		ts.Fatalf("memoedit: no memo in %s holds %q", args[0], args[1])
	}
}

// sleep DURATION waits (time.ParseDuration): for the 3 s after which gsd trusts a file's times.
func sleep(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: sleep DURATION")
	}
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}
