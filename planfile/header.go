package planfile

import (
	"bytes"
	"strings"
)

// Header is what the comment lines at the top of a session file say.
type Header struct {
	User        string // "<!-- Session progress for USER -->"
	Plan        string // "<!-- Plan: PATH -->", the plan path relative to the project root
	PlanLine    int    // 1-based line of the Plan comment, 0 when there is none
	Started     string // "<!-- Started: TIME -->", as written
	StartedLine int
	// Forced is "<!-- Forced: ... -->": the session was started with gsd start --force on a plan
	// that has its SUMMARY or whose phase is past; that decision holds until the next start.
	Forced bool
	// Chosen is "<!-- Chosen: ... -->": the session was started from a plan the user named
	// (gsd start PLAN), a decision that holds whatever the current phase is, until the plan has
	// its SUMMARY or is edited. Forced implies it.
	Chosen bool
}

// The decision headers MarkForced and MarkChosen write.
const (
	forcedComment = "<!-- Forced: started with gsd start --force; kept although the plan has its SUMMARY or its phase is past -->"
	chosenComment = "<!-- Chosen: started with gsd start PLAN; kept whatever the current phase is, until the plan has its SUMMARY or is edited -->"
)

// MarkForced adds the Forced header to a session's header (after its Started line, else at the
// top), in the file's line ending; a session already marked is returned as it is.
func MarkForced(src []byte) []byte {
	if parseHeader(src).Forced {
		return src
	}
	return addHeader(src, forcedComment)
}

// MarkChosen adds the Chosen header as MarkForced adds its own; a session already marked (or
// forced) is returned as it is.
func MarkChosen(src []byte) []byte {
	if h := parseHeader(src); h.Chosen || h.Forced {
		return src
	}
	return addHeader(src, chosenComment)
}

// addHeader inserts the header comment after the session's Started line, else at the top.
func addHeader(src []byte, comment string) []byte {
	h := parseHeader(src)
	nl := eol(src)
	at := 0
	if bytes.HasPrefix(src, bom) {
		at = len(bom)
	}
	for line := 1; line <= h.StartedLine; line++ {
		i := bytes.IndexByte(src[at:], '\n')
		if i < 0 {
			at = len(src)
			break
		}
		at += i + 1
	}
	out := make([]byte, 0, len(src)+len(comment)+len(nl))
	out = append(out, src[:at]...)
	out = append(out, comment+nl...)
	return append(out, src[at:]...)
}

// TimeLayout is the layout of the Started header: UTC, to the second, as `date -u +%FT%TZ`.
const TimeLayout = "2006-01-02T15:04:05Z"

var bom = []byte("\xef\xbb\xbf")

// ReadHeader reads only a session file's header comments, without scanning its tasks: enough to
// know which plan a session follows.
func ReadHeader(src []byte) Header { return parseHeader(src) }

// parseHeader reads the header comments: the first of each kind on a line of its own, leading
// whitespace allowed (a heredoc may have indented them), before the first <tasks> line.
func parseHeader(src []byte) Header {
	var h Header
	src = bytes.TrimPrefix(src, bom)
	line := 0
	for len(src) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(src, '\n'); i >= 0 {
			l, src = src[:i], src[i+1:]
		} else {
			l, src = src, nil
		}
		t := bytes.TrimSpace(l)
		if hasTag(t, "tasks") {
			break
		}
		if len(t) < len("<!---->") || !bytes.HasPrefix(t, []byte("<!--")) || !bytes.HasSuffix(t, []byte("-->")) {
			continue
		}
		body := strings.TrimSpace(string(t[4 : len(t)-3]))
		switch {
		case h.PlanLine == 0 && strings.HasPrefix(body, "Plan:"):
			h.Plan = strings.TrimSpace(body[len("Plan:"):])
			h.PlanLine = line
		case h.StartedLine == 0 && strings.HasPrefix(body, "Started:"):
			h.Started = strings.TrimSpace(body[len("Started:"):])
			h.StartedLine = line
		case strings.HasPrefix(body, "Forced:"):
			h.Forced, h.Chosen = true, true
		case strings.HasPrefix(body, "Chosen:"):
			h.Chosen = true
		case h.User == "" && strings.HasPrefix(body, "Session progress for "):
			h.User = strings.TrimSpace(body[len("Session progress for "):])
		}
	}
	return h
}

// eol is the line ending src uses: "\r\n" if its first line ends so, else "\n".
func eol(src []byte) string {
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}
