package textfmt

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxQuote is how many runes of an input a message quotes: enough to recognise the value,
// never enough to flood a terminal, a hook's context or an MCP result with a file's content.
const MaxQuote = 120

// Quote is the one way gsd's messages quote input (a value read from a file, the environment,
// the command line or a request): Go-quoted, so control characters, invisible format
// characters and invalid UTF-8 are escaped, and at most MaxQuote runes of it; a longer value is
// cut, marked with "…" and followed by its length: "AAAA…" (200000 bytes). Whatever s is, the
// result is at most a few hundred bytes.
func Quote(s string) string {
	head, cut := excerpt(s)
	q := strconv.Quote(head)
	if !cut {
		return q
	}
	return q[:len(q)-1] + `…" (` + strconv.Itoa(len(s)) + " bytes)"
}

// Excerpt is Quote without the quotation marks, for a value that is already a token of its
// own (a raw JSON number, literal or object): escaped and cut as Quote escapes and cuts it,
// except that a quotation mark stays as it is.
func Excerpt(s string) string {
	q := Quote(s)
	end := strings.LastIndexByte(q, '"')
	var b strings.Builder
	for i := 1; i < end; i++ {
		if q[i] == '\\' && i+1 < end {
			if q[i+1] != '"' {
				b.WriteByte('\\')
			}
			i++
		}
		b.WriteByte(q[i])
	}
	b.WriteString(q[end+1:])
	return b.String()
}

// excerpt is s, or its first MaxQuote-1 runes (an invalid byte counts as one) when it has more
// than MaxQuote.
func excerpt(s string) (string, bool) {
	if len(s) <= MaxQuote {
		return s, false
	}
	n, i := 0, 0
	for i < len(s) && n < MaxQuote {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n++
	}
	if i == len(s) {
		return s, false
	}
	// MaxQuote runes fit only when nothing follows them: keep one less for the "…".
	_, size := utf8.DecodeLastRuneInString(s[:i])
	return s[:i-size], true
}
