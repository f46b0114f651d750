package identity

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		// The three examples from get_session_user's documentation.
		{"John Doe", "john-doe"},
		{"José García", "jos-garca"},
		{"user_123", "user123"},

		{"", ""},
		{"-", ""},
		{"-----", ""},
		{"   ", ""},
		{"John   Doe", "john-doe"},
		{"John\tDoe", "johndoe"}, // only spaces become '-'; a tab is deleted
		{"John\nDoe", "johndoe"},
		{"ALLCAPS", "allcaps"},
		{"R2-D2 v3", "r2-d2-v3"},
		{"0123456789", "0123456789"},
		{"🚀 Rocket 🚀", "rocket"},
		{"--a--b--", "a-b"},
		{" -a- ", "a"},
		{"a - b", "a-b"},
		{"a_-_b", "a-b"},
		{"Ünïcödé", "ncd"},
		{"李雷", ""},
		{"dots.and@signs", "dotsandsigns"},
		{"Jos\xe9", "jos"}, // a Latin-1 byte is just another byte to delete
	} {
		if got := Sanitize(c.in); got != c.want {
			t.Errorf("Sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSanitizeMatchesShell runs the shell pipeline itself, where a POSIX
// shell and tr are available.
func TestSanitizeMatchesShell(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	if _, err := exec.LookPath("tr"); err != nil {
		t.Skip("no tr")
	}
	const pipeline = `printf '%s' "$1" | tr '[:upper:]' '[:lower:]' | tr ' ' '-' | tr -cd 'a-z0-9-' | tr -s '-' | sed 's/^-//; s/-$//'`
	for _, in := range []string{"John Doe", "José García", "user_123", "--a--b--", "A\tB", "  x  ", "🚀 Rocket", "ÀÉÎ abc", "a-_-b"} {
		cmd := exec.Command(sh, "-c", pipeline, "sh", in)
		cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("pipeline failed: %v", err)
		}
		if got, want := Sanitize(in), string(out); got != want {
			t.Errorf("Sanitize(%q) = %q, shell says %q", in, got, want)
		}
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"John Doe", "José García", "user_123", "--a--b--", "\t", "李雷", "a - b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Sanitize(in)
		for i := 0; i < len(out); i++ {
			if c := out[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				t.Fatalf("Sanitize(%q) = %q: byte %q", in, out, c)
			}
		}
		if strings.HasPrefix(out, "-") || strings.HasSuffix(out, "-") || strings.Contains(out, "--") {
			t.Fatalf("Sanitize(%q) = %q: stray '-'", in, out)
		}
		if again := Sanitize(out); again != out {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
		if len(out) > len(in) {
			t.Fatalf("Sanitize(%q) = %q grew", in, out)
		}
	})
}

// resolveEnv is an Env with a git configuration of our choosing and fake
// OS sources.
func resolveEnv(t *testing.T, gitName string, env map[string]string, login, host string) Sources {
	t.Helper()
	f := newFixture(t)
	f.env["GIT_CONFIG_NOSYSTEM"] = "1"
	if gitName != "" {
		f.write("home/.gitconfig", "[user]\n\tname = "+gitName+"\n")
	}
	for k, v := range env {
		f.env[k] = v
	}
	e := f.identityEnv(".")
	source := func(v string) func() (string, error) {
		if v == "" {
			return func() (string, error) { return "", errors.New("unavailable") }
		}
		return func() (string, error) { return v, nil }
	}
	e.LoginName, e.Hostname = source(login), source(host)
	return e
}

func TestResolvePrecedence(t *testing.T) {
	for _, c := range []struct {
		name     string
		flag     string
		env      map[string]string
		git      string
		login    string
		host     string
		want     Identity
		wantFile bool // Source.File is the fixture's ~/.gitconfig
	}{
		{
			name: "flag beats everything",
			flag: "Flag User", env: map[string]string{"GSD_USER": "env"}, git: "git", login: "login", host: "host",
			want: Identity{User: "flag-user", Raw: "Flag User", Source: Source{Kind: KindFlag}},
		},
		{
			name: "GSD_USER beats git",
			env:  map[string]string{"GSD_USER": "Env User"}, git: "git", login: "login", host: "host",
			want: Identity{User: "env-user", Raw: "Env User", Source: Source{Kind: KindEnv, File: "GSD_USER"}},
		},
		{
			name: "git beats the login name",
			git:  "José García", login: "login", host: "host",
			want:     Identity{User: "jos-garca", Raw: "José García", Source: Source{Kind: KindGit}},
			wantFile: true,
		},
		{
			name:  "login name beats the host name",
			login: "jdoe", host: "host",
			want: Identity{User: "jdoe", Raw: "jdoe", Source: Source{Kind: KindOSUser}},
		},
		{
			name: "short host name",
			host: "Build-Box.example.com",
			want: Identity{User: "build-box", Raw: "Build-Box", Source: Source{Kind: KindHostname}},
		},
		{
			name: "unknown",
			want: Identity{User: "unknown", Raw: "unknown", Source: Source{Kind: KindDefault}},
		},
		{
			name: "discovered names that sanitise to nothing fall through",
			git:  "李雷", login: "ß", host: ".example.com",
			want: Identity{User: "unknown", Raw: "unknown", Source: Source{Kind: KindDefault}},
		},
		{
			name: "git name that sanitises to nothing falls through to the login name",
			git:  "李雷", login: "li",
			want: Identity{User: "li", Raw: "li", Source: Source{Kind: KindOSUser}},
		},
		{
			name: "empty GSD_USER is ignored",
			env:  map[string]string{"GSD_USER": ""}, login: "login",
			want: Identity{User: "login", Raw: "login", Source: Source{Kind: KindOSUser}},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			env := resolveEnv(t, c.git, c.env, c.login, c.host)
			env.Flag = c.flag
			if c.wantFile {
				c.want.Source.File = env.Home + "/.gitconfig"
			}
			got, err := FindUser(env)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

// TestResolveReadsNoGitConfigWhenTold checks the fast path: with --user or
// GSD_USER, a broken git configuration is never even opened.
func TestResolveReadsNoGitConfigWhenTold(t *testing.T) {
	env := resolveEnv(t, "\"unterminated", nil, "", "")
	if _, err := FindUser(env); err == nil {
		t.Fatal("broken ~/.gitconfig: want an error when git is consulted")
	}
	env.Flag = "me"
	if id, err := FindUser(env); err != nil || id.User != "me" {
		t.Errorf("with --user: %+v, %v", id, err)
	}
	env.Flag = ""
	lookup := env.LookupEnv
	env.LookupEnv = func(k string) (string, bool) {
		if k == "GSD_USER" {
			return "you", true
		}
		return lookup(k)
	}
	if id, err := FindUser(env); err != nil || id.User != "you" {
		t.Errorf("with GSD_USER: %+v, %v", id, err)
	}
}

// TestResolveRefusesUnusableExplicitNames: an explicit user that sanitises to nothing is an
// error, never a fall-through to the next source (which would edit someone else's session).
func TestResolveRefusesUnusableExplicitNames(t *testing.T) {
	for _, name := range []string{"..", ".", "", "李雷", "ＡＮＮ", "---", "!!!"} {
		env := resolveEnv(t, "git user", nil, "login", "host")
		env.Flag, env.FlagGiven = name, true
		if id, err := FindUser(env); !errors.Is(err, ErrUnusableUser) {
			t.Errorf("--user %q: %+v, %v", name, id, err)
		}
		if name == "" {
			continue // an empty GSD_USER is unset
		}
		env = resolveEnv(t, "git user", map[string]string{"GSD_USER": name}, "login", "host")
		if id, err := FindUser(env); !errors.Is(err, ErrUnusableUser) || !strings.Contains(err.Error(), "GSD_USER=") {
			t.Errorf("GSD_USER=%q: %+v, %v", name, id, err)
		}
	}
}

func TestResolveEmptyEnv(t *testing.T) {
	// The zero Env reads nothing but the default system config path,
	// which we point away.
	id, err := FindUser(Sources{SystemConfig: "/nonexistent/gitconfig"})
	if err != nil || id.User != "unknown" || id.Source.Kind != KindDefault {
		t.Errorf("got %+v, %v", id, err)
	}
}

// BenchmarkFindUser measures the path taken on every agent turn when
// neither --user nor GSD_USER is set: discovery from a subdirectory,
// system, global (with an include and an includeIf) and repository files.
func BenchmarkFindUser(b *testing.B) {
	f := newFixture(b)
	f.write("etc/gitconfig", "[core]\n\tautocrlf = input\n")
	f.write("home/.gitconfig", "[user]\n\tname = Bench Ben\n[include]\n\tpath = more\n[includeIf \"gitdir:~/job/\"]\n\tpath = work\n")
	f.write("home/more", "[alias]\n\tst = status\n")
	f.write("home/work", "[user]\n\tname = Work Ben\n")
	f.repo("proj", "main")
	f.write("proj/.git/config", "[core]\n\trepositoryformatversion = 0\n")
	f.mkdir("proj/a/b/c")
	env := f.identityEnv("proj/a/b/c")
	b.ResetTimer()
	for range b.N {
		if id, err := FindUser(env); err != nil || id.User != "bench-ben" {
			b.Fatalf("%+v %v", id, err)
		}
	}
}
