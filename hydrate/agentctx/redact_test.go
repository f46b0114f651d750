package agentctx

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Secrets of every shape the patterns know, as people paste them into a prompt. None is a real
// credential: each is made up to have the shape.
var secrets = []string{
	"sk-ant-api03-Zq8xY2vB7nM4kL1pR6tW9sD3fG5hJ0aQ-example0000AA",
	"sk-proj-4fKx9Qm2Lr7Tz1Wb8Nc3Vd6Ye0Ha5Pj",
	"ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R",
	"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
	"glpat-abcdefghij0123456789",
	"AKIAIOSFODNN7EXAMPLE",
	"xoxb-123456789012-abcdefghijkl",
	"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
	"npm_abcdefghijklmnopqrstuvwxyz0123456789",
	"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
	"sk_live_51Habcdefghijklmnop",
}

// TestRedact: every secret shape is gone from a shaped prompt, and the words around it stay.
func TestRedact(t *testing.T) {
	for _, s := range secrets {
		got := shapePrompt("use this key " + s + " to call the API")
		if strings.Contains(got, s) || !strings.Contains(got, Redacted) || !strings.HasPrefix(got, "use this key ") {
			t.Errorf("%s: %q", s, got)
		}
	}
	for in, want := range map[string]string{
		"set OPENAI_API_KEY=abc123def456 and run":     "set OPENAI_API_KEY=" + Redacted + " and run",
		`password: "hunter2 hunter2"`:                 "password: " + Redacted,
		"db_password='x y z'":                         "db_password=" + Redacted,
		"clone https://ann:s3cr3t@git.example.com/r":  "clone https://ann:" + Redacted + "@git.example.com/r",
		"Authorization: Bearer abcdefghijklmnop.qrst": "Authorization: " + Redacted,
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY----- done": Redacted + " done",
		"the token budget is fine": "the token budget is fine",
	} {
		if got := shapePrompt(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestPrivate: what the user marked <private> is left out, also when the tag is not closed.
func TestPrivate(t *testing.T) {
	for in, want := range map[string]string{
		"fix the login <private>my password is x</private> flow": "fix the login flow",
		"a <PRIVATE>b</Private> c <private>d</private> e":        "a c e",
		"keep this <private>but not this, never closed":          "keep this",
	} {
		if got := shapePrompt(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestShapePrompt: one line, its start and its end kept when it is long.
func TestShapePrompt(t *testing.T) {
	long := "Start: " + strings.Repeat("word ", 300) + "End."
	got := shapePrompt(long)
	if utf8.RuneCountInString(got) != MaxPromptRunes || !strings.HasPrefix(got, "Start: word") || !strings.HasSuffix(got, "word End.") || !strings.Contains(got, "…") {
		t.Errorf("%d runes: %q", utf8.RuneCountInString(got), got)
	}
	if got := shapePrompt("a\n\n\tb\r\n c\x1b[2J\u200b"); got != "a b c[2J" {
		t.Errorf("one line: %q", got)
	}
}
