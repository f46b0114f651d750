package identity

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// listConfig renders what parseConfig saw in the format of
// `git config --list -z`: "key\nvalue\x00", or "key\x00" for a bare key.
func listConfig(data []byte) (string, error) {
	var b strings.Builder
	err := parseConfig(data, func(key, value string, hasValue bool, line int) error {
		b.WriteString(key)
		if hasValue {
			b.WriteString("\n" + value)
		}
		b.WriteByte(0)
		return nil
	})
	return b.String(), err
}

func TestParseConfig(t *testing.T) {
	for _, c := range []struct {
		in, want string
		errLine  int // 0: no error
	}{
		{in: "", want: ""},
		{in: "[user]\n\tname = John Doe\n", want: "user.name\nJohn Doe\x00"},
		{in: "[User \"Sub.Case\"]\n\tNAME = x", want: "user.Sub.Case.name\nx\x00"},
		{in: "[user.Sub]\nname=x\n", want: "user.sub.name\nx\x00"},
		{in: `[a "q\"\\\x"]` + "\nk=v\n", want: "a.q\"\\x.k\nv\x00"},
		{in: "[a] k = v ; c\n[b]k2", want: "a.k\nv\x00b.k2\x00"},
		{in: "[a]\nk = \"  in ; quotes # \"  out  \n", want: "a.k\n  in ; quotes #   out\x00"},
		{in: "[a]\nk = one\\\ntwo\n", want: "a.k\nonetwo\x00"},
		{in: "[a]\nk = \\t\\n\\b\\\\\\\"\n", want: "a.k\n\t\n\b\\\"\x00"},
		{in: "[a]\nk = x\ty\rz\n", want: "a.k\nx y z\x00"},
		{in: "[a]\r\nk = crlf\r\n", want: "a.k\ncrlf\x00"},
		{in: "\xef\xbb\xbf[a]\nk=bom\n", want: "a.k\nbom\x00"},
		{in: "[a]\nk = nul\x00byte\n", want: "a.k\nnul\x00"},
		{in: "k = before any section\n", want: "k\nbefore any section\x00"},
		{in: "[a]\nk =\n", want: "a.k\n\x00"},
		{in: "[a]\nk\n", want: "a.k\x00"},
		{in: "[a]\nk-2 = x\n", want: "a.k-2\nx\x00"},
		{in: "[a \"\"]\nk = x\n", want: "a..k\nx\x00"},

		{in: "[a\n", errLine: 1},
		{in: "[a", errLine: 2},
		{in: "[]\n", errLine: 1},
		{in: "[a b]\n", errLine: 1},
		{in: "[a \"b\" ]\n", errLine: 1},
		{in: "[a \"b\n", errLine: 1},
		{in: "[a]\n\n_k = x\n", errLine: 3},
		{in: "[a]\nk ; c\n", errLine: 2},
		{in: "[a]\nk = \"open\n", errLine: 2},
		{in: "[a]\nk = \"open", errLine: 2},
		{in: "[a]\nk = bad\\escape\n", errLine: 2},
		{in: "[a]\nkëy = x\n", errLine: 2},
		{in: "\xef\xbbx", errLine: 1},
	} {
		got, err := listConfig([]byte(c.in))
		var se *syntaxError
		switch {
		case c.errLine != 0:
			if !errors.As(err, &se) || se.line != c.errLine {
				t.Errorf("%q: error %v, want bad config line %d", c.in, err, c.errLine)
			}
		case err != nil:
			t.Errorf("%q: unexpected error %v", c.in, err)
		case got != c.want:
			t.Errorf("%q:\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

var badLine = regexp.MustCompile(`bad config line (\d+)`)

// TestParseConfigMatchesGit feeds random configs built from awkward
// pieces to both parsers and compares `git config -f F --list -z`
// byte for byte, and the line of any error.
func TestParseConfigMatchesGit(t *testing.T) {
	requireGit(t)
	// Each piece list is valid pieces, then invalid ones, picked rarely.
	headers := pieces{ok: []string{"[user]", "[User]", `[user "Sub"]`, `[user "a\"b\\c"]`, "[user.Sub]", "[x-y.z]",
		`[user ""]`, "[user] ", "[user]name=inline"}, bad: []string{"[ user]", "[user", "[]", "[user ]"}}
	keys := pieces{ok: []string{"name", "Name", "na-me", "n1"}, bad: []string{"1n", "_n", "n\xc3\xa4me"}}
	seps := pieces{ok: []string{" = ", "=", " =", "\t=\t", "", "=\\\n"}, bad: []string{" ", " ; c"}}
	values := pieces{ok: []string{"John Doe", "John\tDoe", `"quoted ; # "`, `a\\b`, `a\"b`, `a\nb`, `a\tb`,
		"a \\\n b", "trail  ", "  lead", "a ; c", "a # c", "Jos\xe9", `"" a`, "a\rb", `"in"out"in"`, "",
		"\\", "a\x00b", "\"multi\\\nline\""}, bad: []string{`a\xb`, `"unterminated`}}
	eols := pieces{ok: []string{"\n", "\r\n", "\n\n", " # comment\n", "\r\n\r\n"}, bad: []string{"\r"}}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(p pieces) string {
		if len(p.bad) > 0 && rng.IntN(12) == 0 {
			return p.bad[rng.IntN(len(p.bad))]
		}
		return p.ok[rng.IntN(len(p.ok))]
	}

	f := newFixture(t)
	file := f.path("cfg")
	n := 400
	if testing.Short() {
		n = 50
	}
	parsed, failed := 0, 0
	for i := range n {
		var b strings.Builder
		if rng.IntN(10) == 0 {
			b.WriteString("\xef\xbb\xbf")
		}
		for range 1 + rng.IntN(5) {
			switch rng.IntN(6) {
			case 0:
				b.WriteString(pick(headers) + pick(eols))
			case 1:
				b.WriteString(pick(pieces{ok: []string{"# c", "; c", "   ", "\t"}}) + pick(eols))
			default:
				b.WriteString("\t" + pick(keys) + pick(seps) + pick(values) + pick(eols))
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString("[user]\n\tname = last\n")
		}
		input := b.String()
		if err := os.WriteFile(file, []byte(input), 0o644); err != nil {
			t.Fatal(err)
		}
		out, exit, stderr := f.git(".", "config", "-f", file, "--list", "-z")
		ours, err := listConfig([]byte(input))
		var se *syntaxError
		if exit != 0 {
			m := badLine.FindStringSubmatch(stderr)
			switch {
			case m == nil:
				t.Errorf("case %d %q: unexpected git failure: %s", i, input, stderr)
			case !errors.As(err, &se):
				t.Errorf("case %d %q: git failed (%s), we parsed %q", i, input, strings.TrimSpace(stderr), ours)
			case strconv.Itoa(se.line) != m[1]:
				t.Errorf("case %d %q: error on line %d, git: %s", i, input, se.line, strings.TrimSpace(stderr))
			}
			failed++
			continue
		}
		if err != nil {
			t.Errorf("case %d %q: we failed (%v), git parsed %q", i, input, err, out)
			continue
		}
		parsed++
		if ours != out {
			t.Errorf("case %d %q:\n ours %q\n  git %q", i, input, ours, out)
		}
	}
	// Guard against a generator that drifts into testing only one side.
	if parsed < n/3 || failed < n/10 {
		t.Errorf("unbalanced sample: %d parsed, %d rejected", parsed, failed)
	}
	t.Logf("%d configs git and we both parsed identically, %d both rejected on the same line", parsed, failed)
}

// pieces are fragments for random configs: ok ones git accepts in
// context, bad ones it rejects.
type pieces struct{ ok, bad []string }

// FuzzGitConfig checks that no input makes the parser panic, that keys
// come out canonical, and that error lines stay within the input.
func FuzzGitConfig(f *testing.F) {
	for _, seed := range []string{
		"[user]\n\tname = John Doe\n",
		"[user \"sub\"]\n\tname = \"John \\\"JD\\\" Doe\" ; c\n",
		"\xef\xbb\xbf[include]\r\n\tpath = ~/x\r\n[includeIf \"gitdir/i:~/w/\"]\n\tpath = y\n",
		"[a]\nk = one\\\ntwo\n[b.c]k\n",
		"[a \"b\\",
		"[a]\nk = \"x",
		"name = x\n[user]",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		err := parseConfig(data, func(key, value string, hasValue bool, line int) error {
			name := key[strings.LastIndexByte(key, '.')+1:]
			if name == "" || !isAlpha(name[0]) || strings.ToLower(name) != name {
				t.Fatalf("key %q: bad variable name", key)
			}
			// A backslash before the end of input continues the line
			// into the end, which git counts as one line further.
			if line < 1 || line > lines+1 {
				t.Fatalf("key %q on line %d of %d", key, line, lines)
			}
			if strings.IndexByte(value, 0) >= 0 || !hasValue && value != "" {
				t.Fatalf("value %q (hasValue %v)", value, hasValue)
			}
			return nil
		})
		var se *syntaxError
		if err != nil && (!errors.As(err, &se) || se.line < 1 || se.line > lines+1) {
			t.Fatalf("error %v on input of %d lines", err, lines)
		}
	})
}

// TestGitConfigFileErrors checks that unreadable or broken files are named.
func TestGitConfigFileErrors(t *testing.T) {
	f := newFixture(t)
	f.write("home/.gitconfig", "[user]\n\tname = ok\n[include]\n\tpath = broken\n")
	f.write("home/broken", "[user\n")
	_, _, _, err := GitUserName(f.identityEnv("."))
	if err == nil || !strings.Contains(err.Error(), "bad config line 1 in file "+filepath.Join(f.env["HOME"], "broken")) {
		t.Fatalf("error = %v", err)
	}
	if strings.Count(err.Error(), "\n") != 0 {
		t.Errorf("error spans lines: %q", err)
	}
}
