package cmd

import (
	"fmt"
	"io"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gsd-tools/gsd/cmd/report"
	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// printJSON writes v as gsd writes every JSON object (report.Write).
func (a *app) printJSON(v any) error { return report.Write(a.stdout, v) }

// colour decides whether to colour: only on a terminal, never with --no-color or NO_COLOR.
func (a *app) colour() bool {
	if a.noColor || a.getenv("NO_COLOR") != "" || a.getenv("TERM") == "dumb" {
		return false
	}
	w := a.stdout
	if ew, ok := w.(*errWriter); ok {
		w = ew.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// styled is text ready for the terminal as it is: escaped text (printable), in an ANSI style
// when colouring. paint makes it; printf and field print it unchanged, where they escape every
// other string, so that data is escaped once, before it is painted, and colour codes never are.
type styled string

// paint wraps printable(s) in an ANSI style when colouring.
func (a *app) paint(style, s string) styled {
	s = printable(s)
	if !a.colour() {
		return styled(s)
	}
	codes := map[string]string{"bold": "1", "dim": "2", "green": "32", "yellow": "33", "red": "31", "cyan": "36"}
	return styled("\x1b[" + codes[style] + "m" + s + "\x1b[0m")
}

// statusWord paints a status padded to width (padding first: escape codes take no columns).
func (a *app) statusWord(st planfile.Status, width int) styled {
	s := string(pad(string(st), width))
	switch st {
	case planfile.Complete:
		return a.paint("green", s)
	case planfile.InProgress:
		return a.paint("yellow", s)
	}
	return styled(printable(s))
}

// printTasks lists tasks one per line: number (right-aligned, as wide as the largest), status,
// name.
func (a *app) printTasks(w io.Writer, ts []hydrate.Task, resume int) {
	numW := 2
	for _, t := range ts {
		numW = max(numW, len(strconv.Itoa(t.Number)))
	}
	for _, t := range ts {
		mark := styled(" ")
		if t.Number == resume {
			mark = a.paint("cyan", ">")
		}
		printf(w, "%s %*d  %s  %s\n", mark, numW, t.Number, a.statusWord(t.Status, 11), t.Name)
	}
}

func countsLine(c planfile.Counts) string {
	return fmt.Sprintf("%d/%d complete, %d in progress, %d pending", c.Complete, c.Total, c.InProgress, c.Pending)
}

// printf is fmt.Fprintf for text output: every argument that is text (a string of any type, an
// error, a fmt.Stringer) is printed through printable, except styled text, which is printed as
// it is. Padding counts the escaped text, so columns stay aligned; %q is fmt's own quoting, which
// escapes as well. Human-readable output with data in it goes through printf or field, not
// fmt.Fprintf: a name read from a file or a directory cannot reach the terminal unescaped. args
// is rewritten in place (so that go vet still checks the calls as it checks fmt.Printf's).
func printf(w io.Writer, format string, args ...any) {
	for i, v := range args {
		switch v.(type) {
		case styled:
		case string, error, fmt.Stringer:
			args[i] = escaped{v}
		default:
			if reflect.ValueOf(v).Kind() == reflect.String {
				args[i] = escaped{v}
			}
		}
	}
	fmt.Fprintf(w, format, args...)
}

// escaped formats a text value for printf: %s and %v print printable of its text; other verbs
// (%q, %d of a numeric Stringer, %#v) are fmt's, on the value itself.
type escaped struct{ v any }

func (e escaped) Format(f fmt.State, verb rune) {
	format := fmt.FormatString(f, verb)
	if verb == 's' || verb == 'v' && !f.Flag('#') {
		fmt.Fprintf(f, format, printable(fmt.Sprint(e.v)))
		return
	}
	fmt.Fprintf(f, format, e.v)
}

// printable is the one escaping helper for text output: every path, name and message gsd prints
// outside JSON goes through it (printf, field and paint apply it). Control characters (newlines,
// ESC, C1 codes), invisible format characters (bidirectional overrides, U+2028) and invalid UTF-8
// are shown as Go escapes (\n, \x1b, \u202e), so a file or directory name can neither start a
// line of its own (a GitHub workflow command, a fake "error:" line) nor send escape sequences to
// the terminal. It is idempotent: escaping escaped text changes nothing.
func printable(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && len(s[i:]) > 0 && !strings.HasPrefix(s[i:], "\uFFFD"):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
	}
	return b.String()
}

// printTable prints rows of text (escaped) in columns two spaces apart, each column as wide as
// its widest cell (the last one unpadded).
func printTable(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textfmt.Width(printable(cell)))
		}
	}
	var b strings.Builder
	for _, row := range rows {
		b.Reset()
		for i, cell := range row {
			if i == len(row)-1 {
				b.WriteString(printable(cell))
				break
			}
			b.WriteString(string(pad(cell, widths[i])))
			b.WriteString("  ")
		}
		fmt.Fprintln(w, b.String())
	}
}

// clip is s, escaped (printable), cut to n terminal columns.
func clip(s string, n int) string {
	return textfmt.ClipWidth(printable(s), n)
}
