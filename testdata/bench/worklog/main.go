// Command worklog is the yardstick of work.sh: with -run DIR it runs, in DIR, the one git log gsd
// runs to read the work's traces (trace.LogArgs), through the same runner (teamsync.ExecGit) and
// with the same environment; with -none it does nothing; with neither it prints those arguments
// quoted for a POSIX shell. Timed against each other, -run and -none give what one such git
// process costs a Go program, which is what gsd pays for it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gsd-tools/gsd/hydrate/teamsync"
	"github.com/gsd-tools/gsd/roadmap/trace"
)

func main() {
	run := flag.String("run", "", "run the git log in `DIR`")
	none := flag.Bool("none", false, "do nothing (the yardstick's floor)")
	flag.Parse()
	switch {
	case *none:
	case *run != "":
		args := append([]string{"-C", *run}, trace.LogArgs()...)
		if _, err := (teamsync.ExecGit{Dir: *run}).Run(context.Background(), nil, []string{"GIT_OPTIONAL_LOCKS=0", "GIT_PAGER=cat"}, args...); err != nil {
			fmt.Fprintln(os.Stderr, "worklog:", err)
			os.Exit(1)
		}
	default:
		args := trace.LogArgs()
		for i, a := range args {
			args[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		fmt.Println(strings.Join(args, " "))
	}
}
