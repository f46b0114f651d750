package agentctx

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Redacted replaces a secret in a kept text.
const Redacted = "[redacted]"

// secretPatterns are the shapes of credentials people paste into a prompt: provider API keys and
// tokens, JWTs, private keys, a password in a URL, and KEY=value where the key's name says secret.
// Compiled on first use: only a capture with a new prompt or todo list pays for them.
var secretPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`),
		regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}`),
		regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{16,}`),
		regexp.MustCompile(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`),
		regexp.MustCompile(`\bgithub_pat_[A-Za-z0-9_]{20,}`),
		regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`),
		regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`),
		regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`),
		regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`),
		regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}`),
		regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`),
		regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{16,}=*`),
	}
})

// secretAssignment is KEY=value or key: value where the key's name says it holds a secret; the
// key stays, the value goes.
var secretAssignment = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b([A-Z0-9_.\-]*(?:api[_\-]?key|secret|token|passw(?:or)?d|pwd|credential|private[_\-]?key|access[_\-]?key)[A-Z0-9_.\-]*["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"']+)`)
})

// urlPassword is the password in scheme://user:password@host.
var urlPassword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]+:)[^@\s/]+@`)
})

// redact replaces whatever in s has the shape of a secret with Redacted.
func redact(s string) string {
	if s == "" {
		return s
	}
	for _, re := range secretPatterns() {
		s = re.ReplaceAllLiteralString(s, Redacted)
	}
	s = secretAssignment().ReplaceAllString(s, "${1}"+Redacted)
	return urlPassword().ReplaceAllString(s, "${1}"+Redacted+"@")
}

// stripPrivate removes what the user marked <private>…</private> (any letter case), and
// everything after an opening tag that is never closed.
func stripPrivate(s string) string {
	const open, close = "<private>", "</private>"
	for {
		i := indexFold(s, open)
		if i < 0 {
			return s
		}
		j := indexFold(s[i+len(open):], close)
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + " " + s[i+len(open)+j+len(close):]
	}
}

// indexFold is strings.Index of an ASCII sub, ignoring its letter case.
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// oneLine makes s one line: every run of white space (newlines included) a single space, other
// control characters dropped, invalid UTF-8 replaced.
func oneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clipRunes cuts s to at most n runes, ending it with "…" when cut.
func clipRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// shapePrompt is a prompt as kept: private parts removed, secrets redacted, one line, and at most
// MaxPromptRunes: its start and its end, where a request usually says what it wants.
func shapePrompt(s string) string {
	s = oneLine(redact(stripPrivate(s)))
	if utf8.RuneCountInString(s) <= MaxPromptRunes {
		return s
	}
	r := []rune(s)
	tail := MaxPromptRunes - promptHead - 1
	return string(r[:promptHead]) + "…" + string(r[len(r)-tail:])
}
