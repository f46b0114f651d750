// Command gsd hydrates a coding agent's working state from the files of a GSD project.
package main

import (
	"os"

	"github.com/gsd-tools/gsd/cmd"
)

func main() { os.Exit(cmd.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
