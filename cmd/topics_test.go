package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runGsd runs gsd with args outside any project and returns its exit code and output.
func runGsd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestHelpTopics: every file of help/ is a topic gsd help lists and prints whole, as
// gsd help TOPIC, gsd TOPIC and gsd TOPIC --help; arguments after a topic are a usage error.
func TestHelpTopics(t *testing.T) {
	ents, err := os.ReadDir("help")
	if err != nil {
		t.Fatal(err)
	}
	_, list, _ := runGsd(t, "help")
	_, topics, ok := strings.Cut(list, "Additional help topics:\n")
	if !ok {
		t.Fatalf("gsd help lists no topics:\n%s", list)
	}
	for _, e := range ents {
		name := strings.TrimSuffix(e.Name(), ".md")
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("help", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if !regexp.MustCompile(`(?m)^  gsd ` + regexp.QuoteMeta(name) + ` `).MatchString(topics) {
				t.Errorf("gsd help does not list %s", name)
			}
			for _, args := range [][]string{{"help", name}, {name}, {name, "--help"}} {
				code, out, errOut := runGsd(t, args...)
				if code != ExitOK || errOut != "" {
					t.Errorf("gsd %s: exit %d, stderr %q", strings.Join(args, " "), code, errOut)
				}
				if strings.TrimSpace(out) != strings.TrimSpace(string(b)) {
					t.Errorf("gsd %s does not print help/%s whole:\n%.300s", strings.Join(args, " "), e.Name(), out)
				}
			}
			code, out, errOut := runGsd(t, name, "install")
			if code != ExitUsage || out != "" || !strings.Contains(errOut, "is a help topic, not a command") {
				t.Errorf("gsd %s install: exit %d, stdout %q, stderr %q", name, code, out, errOut)
			}
		})
	}
}

// TestHelpReferences: every "gsd help NAME" the README, the help topics and the commands' "See
// also" lines point to is a command or a topic, and the README stays the front door: small,
// with the set-up commands and the CI check the repository's own CI relies on.
func TestHelpReferences(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(readme) > 12288 {
		t.Errorf("README.md is %d bytes; the reference belongs in gsd help (12288 at most)", len(readme))
	}
	for _, s := range []string{"make demo", "make test", "go test ./...", "gsd progress --check", "gsd hook install", "make docs"} {
		if !bytes.Contains(readme, []byte(s)) {
			t.Errorf("README.md does not mention %q", s)
		}
	}
	texts := map[string][]byte{"README.md": readme}
	ents, _ := os.ReadDir("help")
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join("help", e.Name()))
		texts["help/"+e.Name()] = b
	}
	for _, sc := range subcommands {
		for _, topic := range topicsFor(sc.name) {
			texts["see also of "+sc.name] = append(texts["see also of "+sc.name], "gsd help "+topic+"\n"...)
		}
	}
	ref := regexp.MustCompile("gsd help ([a-z][a-z-]*)")
	for file, b := range texts {
		for _, m := range ref.FindAllSubmatch(b, -1) {
			if code, _, errOut := runGsd(t, "help", string(m[1])); code != ExitOK {
				t.Errorf("%s: %s: exit %d: %s", file, m[0], code, errOut)
			}
		}
	}
}
