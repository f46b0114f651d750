// Package textfmt owns the small text shaping gsd's messages share: clipping a string to a width
// in runes, measuring and padding it in terminal columns, and counting a noun.
package textfmt

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/width"
)

// Clip shortens s to at most n runes (n >= 1), ending it with "…" when cut.
func Clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Plural is n followed by word, with an "s" unless n is 1: "1 task", "3 tasks".
func Plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// Width is how many terminal columns s takes: two for each East Asian wide or fullwidth
// character (Chinese, Japanese, Korean, most emoji), none for a combining mark or an invisible
// format character, one for every other. It is the one measure every table gsd prints pads by.
func Width(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			// Not ASCII: rune by rune from here.
			for _, r := range s[i:] {
				n += RuneWidth(r)
			}
			return n
		}
		n++
	}
	return n
}

// RuneWidth is how many terminal columns r takes (see Width). East Asian ambiguous characters
// (Greek, Cyrillic, box drawing) take one, as they do outside East Asian locales.
func RuneWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1 // ASCII and Latin: the common case, without a table lookup
	case r == 0x200b || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	switch width.LookupRune(r).Kind() {
	case width.EastAsianWide, width.EastAsianFullwidth:
		return 2
	}
	return 1
}

// Pad right-pads s with spaces to n columns (Width): fmt's %-Ns counts runes, so a column
// after a Chinese or Japanese name would drift.
func Pad(s string, n int) string {
	if w := Width(s); w < n {
		return s + strings.Repeat(" ", n-w)
	}
	return s
}

// ClipWidth shortens s to at most n columns (n >= 1), ending it with "…" when cut.
func ClipWidth(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	w := 0
	for i, r := range s {
		rw := RuneWidth(r)
		if w+rw > n-1 {
			return s[:i] + "…"
		}
		w += rw
	}
	return s
}
