package roadmap

import (
	"strings"
)

// mdLine is one line of a Markdown file as the roadmap parser sees it: HTML
// comments blanked out, fenced code left out entirely.
type mdLine struct {
	num       int    // 1-based line number in the file
	text      string // without the line ending and without comments
	collapsed bool   // inside a <details> block
}

// visibleLines splits src into lines and drops what a reader of the rendered
// roadmap would not see as roadmap content: fenced code blocks (``` and ~~~,
// an unclosed fence runs to the end of the file as in CommonMark) and HTML
// comments, which may span lines. CRLF endings and a leading UTF-8 BOM are
// accepted. Indented code blocks are deliberately not recognised: real
// roadmaps indent continuation lines of lists by four spaces.
func visibleLines(src string) []mdLine {
	src = strings.TrimPrefix(src, "\xef\xbb\xbf")
	var (
		out       []mdLine
		fenceChar byte
		fenceLen  int
		inComment bool
		depth     int // <details> nesting
	)
	num := 0
	rest := src
	out = make([]mdLine, 0, strings.Count(rest, "\n")+1)
	for len(rest) > 0 {
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, ""
		}
		num++
		line = strings.TrimSuffix(line, "\r")

		if fenceLen > 0 {
			if closesFence(line, fenceChar, fenceLen) {
				fenceLen = 0
			}
			continue
		}

		// Comments and <details> tags need a '<': most lines have none, and skip both.
		text, lt := line, strings.IndexByte(line, '<') >= 0
		if lt || inComment {
			text, inComment = stripComments(line, inComment)
			if text != line && strings.TrimSpace(text) == "" {
				// A line that was all comment is no content, not a blank line:
				// a table or list goes on after it.
				continue
			}
		}

		if c, n, ok := opensFence(text); ok {
			fenceChar, fenceLen = c, n
			continue
		}

		opens, closes := 0, 0
		if lt {
			opens, closes = countDetails(text)
		}
		depth += opens
		out = append(out, mdLine{num: num, text: text, collapsed: depth > 0})
		depth -= closes
		if depth < 0 {
			depth = 0
		}
	}
	return out
}

// stripComments removes the parts of line inside <!-- --> comments, given
// whether a comment is already open at its start, and reports whether one is
// still open at its end.
func stripComments(line string, inComment bool) (string, bool) {
	if !inComment && !strings.Contains(line, "<!--") {
		return line, false
	}
	var b strings.Builder
	for line != "" {
		if inComment {
			i := strings.Index(line, "-->")
			if i < 0 {
				return b.String(), true
			}
			line = line[i+3:]
			inComment = false
			continue
		}
		i := strings.Index(line, "<!--")
		if i < 0 {
			b.WriteString(line)
			break
		}
		b.WriteString(line[:i])
		line = line[i+4:]
		inComment = true
	}
	return b.String(), inComment
}

// opensFence reports whether line opens a fenced code block, and with which
// character and run length. Fences may be indented (inside list items).
func opensFence(line string) (byte, int, bool) {
	t := trimQuoteIndent(line)
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return 0, 0, false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	// A backtick fence's info string cannot contain backticks: "```x```" is
	// inline code, not a fence.
	if c == '`' && strings.IndexByte(t[n:], '`') >= 0 {
		return 0, 0, false
	}
	return c, n, true
}

// trimQuoteIndent trims a line's indentation and block-quote markers (strings.TrimLeft(line,
// " \t>"), without building the cut set for every line of the file).
func trimQuoteIndent(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '>') {
		i++
	}
	return line[i:]
}

// closesFence reports whether line closes a fence opened with n characters c.
func closesFence(line string, c byte, n int) bool {
	t := trimQuoteIndent(line)
	k := 0
	for k < len(t) && t[k] == c {
		k++
	}
	return k >= n && strings.TrimSpace(t[k:]) == ""
}

// countDetails counts <details> openings and closings on a line, ignoring case.
func countDetails(text string) (opens, closes int) {
	if !strings.Contains(text, "<") {
		return 0, 0
	}
	l := strings.ToLower(text)
	closes = strings.Count(l, "</details")
	for i := 0; ; {
		j := strings.Index(l[i:], "<details")
		if j < 0 {
			break
		}
		i += j + len("<details")
		if i == len(l) || l[i] == '>' || l[i] == ' ' || l[i] == '\t' {
			opens++
		}
	}
	return opens, closes
}
