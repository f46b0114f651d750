package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	hooksettings "github.com/gsd-tools/gsd/hydrate/hook/settings"
)

// TestHookStdinNeverCloses: a hook runner that leaves stdin open must not hang the session.
func TestHookStdinNeverCloses(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	defer func(d time.Duration) { hookStdinWait = d }(hookStdinWait)
	hookStdinWait = 50 * time.Millisecond
	var stdout, stderr bytes.Buffer
	start := time.Now()
	code := Main([]string{"-C", t.TempDir(), "hook", "session-start"}, r, &stdout, &stderr)
	if code != 0 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "no hook input on stdin") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestHookNeverFails: whatever the input, exit 0 and at most one line on stderr.
func TestHookNeverFails(t *testing.T) {
	for _, in := range []string{"", "{", "null", "[]", `{"cwd": 42}`, "\x00\xff"} {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"-C", t.TempDir(), "hook", "session-start"}, strings.NewReader(in), &stdout, &stderr)
		if code != 0 || strings.Count(stderr.String(), "\n") > 1 {
			t.Errorf("input %q: exit %d, stderr %q", in, code, stderr.String())
		}
	}
}

// TestReadWithin: stdin is read to its end across slow writes, no further than the limit,
// and given up on when it stays open past the wait.
func TestReadWithin(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func(w *os.File) {
		for _, part := range []string{`{"session_id":`, `"abc",`, `"source":"startup"}`} {
			_, _ = w.WriteString(part)
			time.Sleep(20 * time.Millisecond)
		}
		w.Close()
	}(w)
	data, ok, err := readWithin(r, 1<<10, 5*time.Second)
	r.Close()
	if string(data) != `{"session_id":"abc","source":"startup"}` || !ok || err != nil {
		t.Errorf("slow writer: %q, %v, %v", data, ok, err)
	}

	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(strings.Repeat("x", 10000))
	_, _ = f.Seek(0, 0)
	data, ok, err = readWithin(f, 4096, time.Second)
	f.Close()
	if len(data) != 4096 || !ok || err != nil {
		t.Errorf("over the limit: %d bytes, %v, %v", len(data), ok, err)
	}

	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	_, _ = w2.WriteString("{")
	start := time.Now()
	data, ok, err = readWithin(r2, 1<<10, 50*time.Millisecond)
	if ok || err != nil || time.Since(start) > 5*time.Second {
		t.Errorf("open stdin: %q, %v, %v after %v", data, ok, err, time.Since(start))
	}

	// A reader that is no file (a test's, or an embedder's) takes the same path's other branch.
	data, ok, err = readWithin(strings.NewReader("{}"), 1<<10, 5*time.Second)
	if string(data) != "{}" || !ok || err != nil {
		t.Errorf("reader: %q, %v, %v", data, ok, err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	if data, ok, err = readWithin(pr, 1<<10, 50*time.Millisecond); ok || err != nil {
		t.Errorf("open reader: %q, %v, %v", data, ok, err)
	}
}

// TestHookInstallAgents: --agent picks the agent's settings file, for the project and the user;
// --local is refused for an agent without a local file, and an unknown agent names the known.
func TestHookInstallAgents(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	proj := t.TempDir()
	if err := os.Mkdir(proj+"/.planning", 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args       []string
		code       int
		out, error string
	}{
		{[]string{"--agent", "cursor"}, 2, "", `gsd: --agent "cursor": want claude, codex or gemini`},
		{[]string{"--agent", "codex", "--local"}, 2, "", "gsd: --local: Codex CLI has no local hooks file (use the project's or --global)"},
		{[]string{"--agent", "gemini", "--local"}, 2, "", "gsd: --local: Gemini CLI has no local settings file (use the project's or --global)"},
		{[]string{"--agent", "claude", "--local"}, 0, `"settingsFile": ".claude/settings.local.json"`, ""},
		{[]string{"--agent", "codex"}, 0, `"settingsFile": ".codex/hooks.json"`, ""},
		{[]string{"--agent", "gemini"}, 0, `"settingsFile": ".gemini/settings.json"`, ""},
		{[]string{"--global"}, 0, `"settingsFile": "~/.claude/settings.json"`, ""},
		{[]string{"--agent", "codex", "--global"}, 0, `"settingsFile": "~/.codex/hooks.json"`, ""},
		{[]string{"--agent", "gemini", "--global"}, 0, `"settingsFile": "~/.gemini/settings.json"`, ""},
	} {
		var stdout, stderr bytes.Buffer
		args := append([]string{"-C", proj, "--json", "hook", "install", "--dry-run"}, tc.args...)
		code := Main(args, strings.NewReader(""), &stdout, &stderr)
		first, _, _ := strings.Cut(stderr.String(), "\n")
		if code != tc.code || !strings.Contains(stdout.String(), tc.out) || first != tc.error {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", tc.args, code, stdout.String(), stderr.String())
		}
	}
}

// TestSharedHooksSilentWithoutGSD: the hooks gsd hook install writes in a project's shared
// settings file, run as the agents run them (sh -c) by a teammate who has no gsd on the PATH,
// exit 0 and print nothing: the teammate's session is unaffected.
func TestSharedHooksSilentWithoutGSD(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	t.Setenv("HOME", t.TempDir())
	proj := t.TempDir()
	if err := os.Mkdir(filepath.Join(proj, ".planning"), 0o755); err != nil {
		t.Fatal(err)
	}
	noGSD := t.TempDir() // the teammate's PATH: no gsd there
	for _, tc := range []struct{ agent, file string }{
		{"claude", ".claude/settings.json"},
		{"codex", ".codex/hooks.json"},
		{"gemini", ".gemini/settings.json"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{"-C", proj, "hook", "install", "--agent", tc.agent}, strings.NewReader(""), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: install: exit %d: %s", tc.agent, code, stderr.String())
		}
		data, err := os.ReadFile(filepath.Join(proj, tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var settings struct {
			Hooks map[string][]struct {
				Hooks []struct{ Command string }
			}
		}
		if err := json.Unmarshal(data, &settings); err != nil {
			t.Fatal(err)
		}
		ran := 0
		for event, groups := range settings.Hooks {
			for _, g := range groups {
				for _, h := range g.Hooks {
					cmd := exec.Command(sh, "-c", h.Command)
					cmd.Dir = proj
					cmd.Env = []string{"PATH=" + noGSD, "HOME=" + os.Getenv("HOME")}
					cmd.Stdin = strings.NewReader(`{"session_id":"s","cwd":".","hook_event_name":"` + event + `"}`)
					out, err := cmd.CombinedOutput()
					if err != nil || len(out) > 0 {
						t.Errorf("%s %s: %q without gsd: %v, output %q", tc.agent, event, h.Command, err, out)
					}
					ran++
				}
			}
		}
		ag, _ := hooksettings.AgentNamed(tc.agent)
		if ran != len(ag.Specs) || ran < 4 {
			t.Errorf("%s: %d hooks installed, want %d", tc.agent, ran, len(ag.Specs))
		}
	}
}

// TestHookEditHelpNamesEveryFile: gsd hook install and uninstall --help name each agent's
// settings file in every scope, as settings.Agents has them; --global's own help names each
// agent's user file.
func TestHookEditHelpNamesEveryFile(t *testing.T) {
	for _, sub := range []string{"install", "uninstall"} {
		code, out, _ := runGsd(t, "hook", sub, "--help")
		if code != 0 {
			t.Fatalf("hook %s --help: exit %d", sub, code)
		}
		for _, ag := range hooksettings.Agents {
			files := []string{ag.Project("."), ag.User("~", "")}
			if ag.Local != nil {
				files = append(files, ag.Local("."))
			}
			if ag.UserEnv != "" {
				files = append(files, ag.User("~", "$"+ag.UserEnv))
			}
			for _, f := range files {
				f = filepath.ToSlash(f)
				if !strings.Contains(out, f) {
					t.Errorf("hook %s --help does not name %s's %s", sub, ag.Name, f)
				}
			}
			if sub == "install" {
				_, flagLine, _ := strings.Cut(out, "\n      --global ")
				flagLine, _, _ = strings.Cut(flagLine, "\n")
				if user := filepath.ToSlash(ag.User("~", "")); !strings.Contains(flagLine, user) {
					t.Errorf("--global's help %q does not name %s", flagLine, user)
				}
			}
		}
	}
}
