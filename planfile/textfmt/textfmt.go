// Package textfmt owns the small text shaping gsd's messages share: clipping a string to a width
// in runes and counting a noun.
package textfmt

import (
	"fmt"
	"unicode/utf8"
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
