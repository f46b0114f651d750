// Command paired times two commands as whole processes, in alternation, and prints the median of
// their per-pair time ratios: on a machine whose speed drifts (a shared or virtual one), a ratio
// taken pair by pair holds where one of two separate series of runs does not.
//
//	paired [-n RUNS] [-warmup N] [-stdin FILE] [-prep COMMAND] -a 'NAME=COMMAND' -b 'NAME=COMMAND' -target TEXT
//
// A COMMAND is split at spaces and run without a shell, its output thrown away. The pairs run
// A B, B A, A B, ... so that neither command is always the one after the other. The line printed
// is the bench's summary line: the median ratio, then the ratio of medians and of minimums, and
// each command's median. -prep runs a command, untimed, before each run of A (to put back a file
// A changes, so that every run of A does the same work).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

func main() {
	runs := flag.Int("n", 300, "pairs timed")
	warmup := flag.Int("warmup", 20, "pairs run first and not timed")
	stdin := flag.String("stdin", "", "a file each command reads as its standard input")
	a := flag.String("a", "", "NAME=COMMAND, the command measured")
	b := flag.String("b", "", "NAME=COMMAND, the yardstick")
	target := flag.String("target", "", "what the ratio should be, printed with it")
	prep := flag.String("prep", "", "a COMMAND run, untimed, before each run of A")
	flag.Parse()
	*runs += *runs % 2 // as many pairs with A first as with B first
	ca, err := parse(*a)
	if err == nil && *prep != "" {
		var p cmd
		p, err = parse("prep=" + *prep)
		ca.prep = &p
	}
	if err == nil {
		var cb cmd
		if cb, err = parse(*b); err == nil {
			err = run(ca, cb, *runs, *warmup, *stdin, *target)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "paired:", err)
		os.Exit(1)
	}
}

type cmd struct {
	name string
	argv []string
	prep *cmd // run before each run, untimed
}

func parse(s string) (cmd, error) {
	name, line, ok := strings.Cut(s, "=")
	argv := strings.Fields(line)
	if !ok || name == "" || len(argv) == 0 {
		return cmd{}, fmt.Errorf("%q: want NAME=COMMAND", s)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return cmd{}, err
	}
	argv[0] = path
	return cmd{name: name, argv: argv}, nil
}

func run(a, b cmd, runs, warmup int, stdin, target string) error {
	ta, tb := make([]float64, 0, runs), make([]float64, 0, runs)
	ratios := make([]float64, 0, runs)
	for i := -warmup; i < runs; i++ {
		first, second := a, b
		if i%2 != 0 {
			first, second = b, a
		}
		t1, err := once(first, stdin)
		if err != nil {
			return err
		}
		t2, err := once(second, stdin)
		if err != nil {
			return err
		}
		if i < 0 {
			continue
		}
		if i%2 != 0 {
			t1, t2 = t2, t1
		}
		ta, tb = append(ta, t1), append(tb, t2)
		ratios = append(ratios, t1/t2)
	}
	ma, mb := median(ta), median(tb)
	fmt.Printf("%7.2fx  median of %d pairs; ratio of medians %.2fx, of minimums %.2fx  %s %.3f ms / %s %.3f ms  target %s\n",
		median(ratios), runs, ma/mb, slices.Min(ta)/slices.Min(tb), a.name, ma*1e3, b.name, mb*1e3, target)
	return nil
}

// once runs c to its end and returns the seconds it took, start and exit included.
func once(c cmd, stdin string) (float64, error) {
	in := os.DevNull
	if stdin != "" {
		in = stdin
	}
	f, err := os.Open(in)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return 0, err
	}
	defer null.Close()
	attr := &os.ProcAttr{Files: []*os.File{f, null, null}}
	if c.prep != nil {
		if _, err := once(*c.prep, ""); err != nil {
			return 0, err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return 0, err
		}
	}
	start := time.Now()
	p, err := os.StartProcess(c.argv[0], c.argv, attr)
	if err != nil {
		return 0, err
	}
	st, err := p.Wait()
	d := time.Since(start).Seconds()
	if err != nil {
		return 0, err
	}
	if !st.Success() {
		return 0, fmt.Errorf("%s: %s", strings.Join(c.argv, " "), st)
	}
	return d, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
