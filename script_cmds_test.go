package main

import (
	"os"
	"strings"

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
