package main

import (
	"os"

	"github.com/rogpeppe/go-internal/testscript"
)

// appendfile FILE TEXT appends TEXT, as given (no newline added), to FILE: a torn journal line,
// a hand edit at the end of a session.
func appendfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: appendfile FILE TEXT")
	}
	f, err := os.OpenFile(ts.MkAbs(args[0]), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	_, err = f.WriteString(args[1])
	ts.Check(err)
	ts.Check(f.Close())
}
