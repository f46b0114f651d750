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

// A secretPattern is the shape of a credential people paste into a prompt, and the literal
// strings, one of which the text must hold (in lower case) for the pattern to be tried: most
// texts hold none, and then no pattern is compiled or run.
type secretPattern struct {
	hints []string
	re    func() *regexp.Regexp
	repl  string // the replacement ($1 keeps what names the secret)
}

func pattern(expr, repl string, hints ...string) secretPattern {
	return secretPattern{hints, sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) }), repl}
}

// secretPatterns: provider API keys and tokens, JWTs, private keys, a bearer token, a password
// in a URL, and KEY=value (or key: value) where the key's name says it holds a secret.
var secretPatterns = []secretPattern{
	pattern(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`, Redacted, "private key-----"),
	pattern(`\b(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{10,}`, Redacted, "_live_", "_test_"),
	pattern(`\bsk-[A-Za-z0-9_\-]{16,}`, Redacted, "sk-"),
	pattern(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}`, Redacted, "gh"),
	pattern(`\bgithub_pat_[A-Za-z0-9_]{20,}`, Redacted, "github_pat_"),
	pattern(`\bglpat-[A-Za-z0-9_\-]{20,}`, Redacted, "glpat-"),
	pattern(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`, Redacted, "akia", "asia"),
	pattern(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`, Redacted, "xox"),
	pattern(`\bAIza[0-9A-Za-z_\-]{35}`, Redacted, "aiza"),
	pattern(`\bnpm_[A-Za-z0-9]{36}`, Redacted, "npm_"),
	pattern(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`, Redacted, "eyj"),
	pattern(`(?i)\bbearer\s+[A-Za-z0-9._~+/\-]{16,}=*`, Redacted, "bearer"),
	pattern(`(?i)\b([A-Z0-9_.\-]*(?:api[_\-]?key|secret|token|passw(?:or)?d|pwd|credential|private[_\-]?key|access[_\-]?key)[A-Z0-9_.\-]*["']?\s*[:=]\s*)("[^"\n]*"|'[^'\n]*'|[^\s"']+)`,
		"${1}"+Redacted, "key", "secret", "token", "passw", "pwd", "credential"),
	pattern(`([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]+:)[^@\s/]+@`, "${1}"+Redacted+"@", "://"),
}

// redact replaces whatever in s has the shape of a secret with Redacted.
func redact(s string) string {
	if s == "" {
		return s
	}
	lower := strings.ToLower(s)
	for _, p := range secretPatterns {
		for _, h := range p.hints {
			if strings.Contains(lower, h) {
				s = p.re().ReplaceAllString(s, p.repl)
				lower = strings.ToLower(s)
				break
			}
		}
	}
	return s
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
