package cmd

import (
	"bytes"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestSubcommandsTable: each entry of the table builds the command it is named after, and no
// name is listed twice.
func TestSubcommandsTable(t *testing.T) {
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, lookupEnv: os.LookupEnv}
	seen := map[string]bool{}
	for _, sc := range subcommands {
		if got := sc.build(a).Name(); got != sc.name {
			t.Errorf("entry %q builds %q", sc.name, got)
		}
		if seen[sc.name] {
			t.Errorf("%q is listed twice", sc.name)
		}
		seen[sc.name] = true
	}
}

// allNames is the name of every entry of the table, in its order, then of every help topic:
// what the whole tree is built with.
func allNames() []string {
	var names []string
	for _, sc := range subcommands {
		names = append(names, sc.name)
	}
	for _, t := range (&app{}).helpTopics() { // the whole tree has the help topics too
		names = append(names, t.Name())
	}
	return names
}

// TestInvoked: which commands the root is built with, for every form of the root's persistent
// flags before the command and for what needs the whole tree; and, where one command is
// built, that it is the one the whole tree runs.
func TestInvoked(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string // "": the whole tree
	}{
		{nil, ""},
		{[]string{"hydrate"}, "hydrate"},
		{[]string{"hydrate", "--porcelain"}, "hydrate"},
		{[]string{"hydrate", "-C", "d", "tasks"}, "hydrate"},
		{[]string{"-C", "d", "hydrate"}, "hydrate"},
		{[]string{"-Cd", "hydrate"}, "hydrate"},
		{[]string{"-C=d", "hydrate"}, "hydrate"},
		{[]string{"-C", "hydrate", "tasks"}, "tasks"}, // hydrate is -C's value
		{[]string{"-C", "--json", "tasks"}, "tasks"},  // so is --json
		{[]string{"--directory", "d", "tasks"}, "tasks"},
		{[]string{"--directory=d", "tasks"}, "tasks"},
		{[]string{"--directory=", "tasks"}, "tasks"},
		{[]string{"--user", "ann", "mark-complete", "1"}, "mark-complete"},
		{[]string{"--user=ann", "mark-pending", "2"}, "mark-pending"},
		{[]string{"--user=", "whoami"}, "whoami"},
		{[]string{"--user", "", "whoami"}, "whoami"},
		{[]string{"--json", "progress"}, "progress"},
		{[]string{"--json=true", "progress"}, "progress"},
		{[]string{"--json=false", "progress"}, "progress"},
		{[]string{"--json=maybe", "progress"}, "progress"}, // progress's usage error, as today
		{[]string{"--no-color", "state"}, "state"},
		{[]string{"--no-color=1", "state"}, "state"},
		{[]string{"--json", "--no-color", "-C", "d", "--user", "u", "hook", "session-end"}, "hook"},
		{[]string{"hook", "install", "--dry-run"}, "hook"},
		{[]string{"mcp"}, "mcp"},

		{[]string{"-C"}, ""},
		{[]string{"-C", "d"}, ""},
		{[]string{"--user"}, ""},
		{[]string{"--json"}, ""},
		{[]string{"--json", "true", "hydrate"}, ""}, // true is an argument
		{[]string{"--help", "hydrate"}, ""},
		{[]string{"-h", "hydrate"}, ""},
		{[]string{"--version"}, ""},
		{[]string{"-v", "hydrate"}, ""},
		{[]string{"--version=true", "hydrate"}, ""},
		{[]string{"--", "hydrate"}, ""},
		{[]string{"--bogus", "hydrate"}, ""},
		{[]string{"-x", "hydrate"}, ""},
		{[]string{"-hCd", "hydrate"}, ""},
		{[]string{"--directoryd", "hydrate"}, ""},
		{[]string{"-", "hydrate"}, ""},
		{[]string{"", "hydrate"}, ""},
		{[]string{"help", "hydrate"}, ""},
		{[]string{"completion", "bash"}, ""},
		{[]string{"-C", "d", "completion", "zsh"}, ""},
		{[]string{"__complete", "hydrate", ""}, ""},
		{[]string{"__completeNoDesc", "hy"}, ""},
		{[]string{"hydrat"}, ""},
		{[]string{"Hydrate"}, ""},
		{[]string{"bogus", "hydrate"}, ""},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, lookupEnv: os.LookupEnv}
			var got []string
			for _, c := range a.newRootCmd(invoked(tc.args)).Commands() {
				if c.Name() != "help" {
					got = append(got, c.Name())
				}
			}
			want := []string{tc.want}
			if tc.want == "" {
				want = allNames()
				slices.Sort(want) // as cobra lists them
			}
			if !slices.Equal(got, want) {
				t.Errorf("built %q, want %q", got, want)
			}
			if tc.want == "" {
				return
			}
			c, _, err := CommandTree().Find(tc.args)
			if err != nil {
				t.Fatalf("the whole tree finds no command: %v", err)
			}
			for c.HasParent() && c.Parent().HasParent() {
				c = c.Parent()
			}
			if c.Name() != tc.want {
				t.Errorf("the whole tree runs %q, the lazy one %q", c.CommandPath(), tc.want)
			}
		})
	}
}

// commandPaths is the path of every command below c, without the root's name: "hydrate",
// "hook install".
func commandPaths(c *cobra.Command, prefix []string) [][]string {
	var paths [][]string
	for _, sub := range c.Commands() {
		p := append(slices.Clone(prefix), sub.Name())
		paths = append(paths, p)
		paths = append(paths, commandPaths(sub, p)...)
	}
	return paths
}

// TestLazyTreeUnchanged: a run on the root built with the named command only prints, to the
// byte, what the same run on the whole tree prints, and exits alike: every command's help
// (nested ones too), usage errors and suggestions, completion.
func TestLazyTreeUnchanged(t *testing.T) {
	t.Setenv("GSD_USER", "ann")
	t.Setenv("GSD_WORKSTREAM", "")
	dir := t.TempDir() // not a project: nothing below may read one
	runs := [][]string{
		{}, {"--help"}, {"--version"}, {"help"}, {"help", "hook", "install"},
		{"hydrate", "--bogus"}, {"-C", dir, "--user=ann", "hydrate", "--bogus"}, {"hydrate", "-Z"},
		{"hydrate", "--format"}, {"--json=maybe", "hydrate"}, {"tasks", "extra"},
		{"mark-pending"}, {"mark-complete", "1", "2"}, {"hook", "instal"}, {"hook", "install", "--bogus"},
		{"-C" + dir, "tasks", "--bogus"}, {"-C=" + dir, "--directory=" + dir, "tasks", "-h"},
		{"--user=", "whoami", "--bogus"}, {"--user", "", "--no-color=1", "state", "--nope=1"},
		{"--json=false", "--no-color", "progress", "--json=x"},
		{"hydrat"}, {"bogus"}, {"--json", "true", "hydrate"}, {"--", "hydrate"}, {"completion"}, {"completion", "bash"}, {"completion", "fish"},
		{"__complete", ""}, {"__complete", "hydrate", "--f"}, {"__complete", "hook", ""},
	}
	for _, p := range commandPaths(CommandTree(), nil) {
		runs = append(runs,
			append(slices.Clone(p), "--help"),
			append([]string{"-C", dir, "--json"}, append(slices.Clone(p), "-h")...))
	}
	lazy := 0
	for _, args := range runs {
		t.Run(strings.ReplaceAll(strings.Join(args, " "), dir, "DIR"), func(t *testing.T) {
			var wantOut, wantErr, gotOut, gotErr bytes.Buffer
			wantCode := mainWith(args, strings.NewReader(""), &wantOut, &wantErr, nil)
			gotCode := Main(args, strings.NewReader(""), &gotOut, &gotErr)
			if invoked(args) != nil {
				lazy++
			}
			if gotCode != wantCode {
				t.Errorf("exit %d, want %d", gotCode, wantCode)
			}
			if got, want := gotOut.String(), wantOut.String(); got != want {
				t.Errorf("stdout:\n%s\nwant:\n%s", got, want)
			}
			if got, want := gotErr.String(), wantErr.String(); got != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", got, want)
			}
			if wantOut.Len()+wantErr.Len() == 0 {
				t.Errorf("no output: the run tests nothing")
			}
		})
	}
	if lazy < len(subcommands) {
		t.Errorf("only %d runs built one command", lazy)
	}
}

// TestLazyUsageError: a bad flag of a command built alone is the usage error it always was.
func TestLazyUsageError(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"--json", "hook", "install", "--bogus"}, strings.NewReader(""), &out, &errOut)
	want := "gsd: unknown flag: --bogus\nRun 'gsd hook install --help' for usage.\n"
	if code != ExitUsage || out.Len() > 0 || errOut.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr %q", code, out.String(), errOut.String(), ExitUsage, want)
	}
}

// TestSuggestion: a misspelt command (which builds the whole tree) is still matched with the
// commands it resembles.
func TestSuggestion(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Main([]string{"hydrat"}, strings.NewReader(""), &out, &errOut)
	want := "gsd: unknown command \"hydrat\" for \"gsd\"\nDid you mean this?\n\thydrate\nRun 'gsd --help' for usage.\n"
	if code != ExitUsage || out.Len() > 0 || errOut.String() != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, stderr %q", code, out.String(), errOut.String(), ExitUsage, want)
	}
}

// BenchmarkRootCmd is the root command a run of gsd hydrate builds, against the whole tree
// that every run built before.
func BenchmarkRootCmd(b *testing.B) {
	a := &app{stdin: strings.NewReader(""), stdout: io.Discard, stderr: io.Discard, lookupEnv: os.LookupEnv}
	for _, bc := range []struct {
		name string
		sc   *subcommand
	}{{"hydrate", invoked([]string{"hydrate"})}, {"whole", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				a.newRootCmd(bc.sc)
			}
		})
	}
}
