package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile"
)

// SchemaVersion is the version of every JSON object gsd prints.
const SchemaVersion = 1

// printJSON writes v as one indented JSON object.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

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

// paint wraps s in an ANSI style when colouring.
func (a *app) paint(style, s string) string {
	if !a.colour() {
		return s
	}
	codes := map[string]string{"bold": "1", "dim": "2", "green": "32", "yellow": "33", "red": "31", "cyan": "36"}
	return "\x1b[" + codes[style] + "m" + s + "\x1b[0m"
}

// statusWord paints a status padded to width (padding first: escape codes take no columns).
func (a *app) statusWord(st planfile.Status, width int) string {
	s := fmt.Sprintf("%-*s", width, st)
	switch st {
	case planfile.Complete:
		return a.paint("green", s)
	case planfile.InProgress:
		return a.paint("yellow", s)
	}
	return s
}

// jsonTask is a task in JSON output.
type jsonTask struct {
	Number int             `json:"number"`
	Name   string          `json:"name"`
	Type   string          `json:"type"`
	Status planfile.Status `json:"status"`
}

func jsonTasks(ts []hydrate.Task) []jsonTask {
	out := make([]jsonTask, len(ts))
	for i, t := range ts {
		out[i] = jsonTask{t.Number, t.Name, t.Type, t.Status}
	}
	return out
}

// nonNil keeps empty lists as [] rather than null in JSON.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func optInt(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}

// optTime is a timestamp as RFC 3339 in UTC to the second, nil when s is empty or not a time.
func optTime(s string) *string {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return nil
	}
	v := t.UTC().Format(time.RFC3339)
	return &v
}

func optString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// printTasks lists tasks one per line: number, status, name.
func (a *app) printTasks(w io.Writer, ts []hydrate.Task, resume int) {
	for _, t := range ts {
		mark := " "
		if t.Number == resume {
			mark = a.paint("cyan", ">")
		}
		fmt.Fprintf(w, "%s %2d  %s  %s\n", mark, t.Number, a.statusWord(t.Status, 11), printable(t.Name))
	}
}

func countsLine(c planfile.Counts) string {
	return fmt.Sprintf("%d/%d complete, %d in progress, %d pending", c.Complete, c.Total, c.InProgress, c.Pending)
}

// printable is the one escaping helper for text output: every path, name and message gsd prints
// outside JSON goes through it. Control characters (newlines, ESC, C1 codes), invisible format
// characters (bidirectional overrides, U+2028) and invalid UTF-8 are shown as Go escapes (\n,
// \x1b, \u202e), so a file or directory name can neither start a line of its own (a GitHub
// workflow command, a fake "error:" line) nor send escape sequences to the terminal.
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
