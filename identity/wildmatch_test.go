package identity

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

var wildmatchCases = []struct {
	pattern, text string
	want, icase   bool
}{
	{pattern: "foo", text: "foo", want: true},
	{pattern: "foo", text: "bar"},
	{pattern: "", text: "", want: true},
	{pattern: "???", text: "foo", want: true},
	{pattern: "??", text: "foo"},
	{pattern: "f?o", text: "f/o"},
	{pattern: "*", text: "foo", want: true},
	{pattern: "*", text: "foo/bar"},
	{pattern: "*", text: "", want: true},
	{pattern: "f*", text: "foo", want: true},
	{pattern: "*f", text: "foo"},
	{pattern: "*foo*", text: "foo", want: true},
	{pattern: "*a*b*c*", text: "xaybzc", want: true},
	{pattern: "*a*b*c*", text: "xaybz"},
	{pattern: "*/*", text: "a/b/c"},
	{pattern: "*/*/*", text: "a/b/c", want: true},
	{pattern: "**", text: "foo/bar", want: true},
	{pattern: "**/bar", text: "bar", want: true},
	{pattern: "**/bar", text: "a/b/bar", want: true},
	{pattern: "**/bar", text: "a/xbar"},
	{pattern: "a/**/b", text: "a/b", want: true},
	{pattern: "a/**/b", text: "a/x/y/b", want: true},
	{pattern: "a/**", text: "a/x/y", want: true},
	{pattern: "a/**", text: "a"},
	{pattern: "a**b", text: "axxb", want: true},
	{pattern: "a**b", text: "a/b"},
	{pattern: "**/*.go", text: "a/b/c.go", want: true},
	{pattern: "[abc]", text: "b", want: true},
	{pattern: "[!abc]", text: "b"},
	{pattern: "[^abc]", text: "d", want: true},
	{pattern: "[a-c]", text: "b", want: true},
	{pattern: "[a-c]", text: "d"},
	{pattern: "[]]", text: "]", want: true},
	{pattern: "[!]]", text: "a", want: true},
	{pattern: "[a-]", text: "-", want: true},
	{pattern: "[[:digit:]]", text: "5", want: true},
	{pattern: "[[:alpha:][:digit:]]x", text: "qx", want: true},
	{pattern: "[[:space:]]", text: "\t", want: true},
	{pattern: "[[:punct:]]", text: "a"},
	{pattern: "[[:foo:]]", text: "a"},
	{pattern: "[[:digit]", text: "[", want: true}, // no ":]": a plain class of "[:digt"
	{pattern: "[[:digit]x]", text: "x]", want: false},
	{pattern: "[/]", text: "/"},
	{pattern: "[!a]", text: "/"},
	{pattern: "[a", text: "a"},
	{pattern: `\*`, text: "*", want: true},
	{pattern: `\*`, text: "a"},
	{pattern: `a\`, text: "a"},
	{pattern: `[\]]`, text: "]", want: true},
	{pattern: "FOO", text: "foo"},
	{pattern: "FOO", text: "foo", icase: true, want: true},
	{pattern: "[A-Z]", text: "q", icase: true, want: true},
	{pattern: "[[:upper:]]", text: "a", icase: true, want: true},
	{pattern: "**/PROJ/**", text: "/x/proj/.git", icase: true, want: true},
	{pattern: strings.Repeat("*a", 30) + "b", text: strings.Repeat("a", 60)},
}

func TestWildmatch(t *testing.T) {
	for _, c := range wildmatchCases {
		if got := wildmatch(c.pattern, c.text, c.icase); got != c.want {
			t.Errorf("wildmatch(%q, %q, icase=%v) = %v, want %v", c.pattern, c.text, c.icase, got, c.want)
		}
	}
}

// TestConditionsMatchGit asks real git which includeIf conditions hold,
// for many patterns at once: each condition includes a file setting its
// own key, and `git config --get-regexp` lists the keys that arrived.
func TestConditionsMatchGit(t *testing.T) {
	requireGit(t)
	branchPatterns := []string{"main", "ma*", "m?in", "*", "**", "feature/", "feature/*", "feature/**",
		"feature/*/c", "**/c", "[a-m]*", "[!f]*", "release/[0-9].*", "*/*", "FEATURE/**", `feat\ure/**`,
		"[[:alpha:]]*", "f*e/b/c", "a**", "**/"}
	branches := []string{"main", "feature/b/c", "release/1.2", "feature", "a.b-c_d", "ABC"}
	for _, b := range branches {
		t.Run("onbranch "+b, func(t *testing.T) {
			f := newFixture(t)
			f.repo("proj", b)
			compareConditions(t, f, "proj", "onbranch:", branchPatterns)
		})
	}

	dirPatterns := []string{"$ROOT/job/", "$ROOT/job", "$ROOT/job/*/.git", "$ROOT/*/proj/", "proj/", "proj/.git",
		"job/", "**/job/**", "~/code/", "~/code/*/", "./code/", "./", "$ROOT/J*/", "$ROOT/job/p?oj/.git",
		"$ROOT/job/[op]roj/", "$ROOT/JOB/", "PROJ/", "*/proj/", "**/proj", "$ROOT/home/code/x/.git"}
	for _, dir := range []string{"job/proj", "home/code/x", "job/proj/.git/worktrees/wt"} {
		for _, cond := range []string{"gitdir:", "gitdir/i:"} {
			t.Run(cond+dir, func(t *testing.T) {
				f := newFixture(t)
				workDir := dir
				if strings.Contains(dir, "worktrees") {
					f.repo("work/proj", "main")
					f.worktree("work/proj", "wt", "wt", "topic")
					workDir = "wt"
				} else {
					f.repo(dir, "main")
				}
				compareConditions(t, f, workDir, cond, dirPatterns)
			})
		}
	}
}

func compareConditions(t *testing.T, f *fixture, dir, cond string, patterns []string) {
	t.Helper()
	var cfg strings.Builder
	for i, p := range patterns {
		esc := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(f.expand(p))
		fmt.Fprintf(&cfg, "[includeIf \"%s%s\"]\n\tpath = m%d\n", cond, esc, i)
		f.write(fmt.Sprintf("home/m%d", i), fmt.Sprintf("[test]\n\tm%d = 1\n", i))
	}
	f.write("home/.gitconfig", cfg.String())
	out, exit, stderr := f.git(dir, "config", "--get-regexp", `^test\.`)
	if exit > 1 {
		t.Fatalf("git: %s", stderr)
	}
	var fromGit []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if k, _, ok := strings.Cut(line, " "); ok {
			fromGit = append(fromGit, strings.TrimPrefix(k, "test.m"))
		}
	}
	sort.Strings(fromGit)

	env := f.identityEnv(dir)
	repo, ok, err := FindRepo(env.Dir, env.LookupEnv)
	if err != nil || !ok {
		t.Fatalf("FindRepo: %v, %v", ok, err)
	}
	r := &configReader{env: env, repo: repo, hasRepo: true}
	var ours []string
	for i, p := range patterns {
		match, err := r.condition(cond+f.expand(p), f.path("home/.gitconfig"), true)
		if err != nil {
			t.Fatalf("%s%s: %v", cond, p, err)
		}
		if match {
			ours = append(ours, fmt.Sprint(i))
		}
	}
	sort.Strings(ours)
	t.Logf("%d of %d patterns hold", len(ours), len(patterns))
	if strings.Join(ours, ",") != strings.Join(fromGit, ",") {
		describe := func(idx []string) []string {
			var s []string
			for _, i := range idx {
				var n int
				fmt.Sscan(i, &n)
				s = append(s, patterns[n])
			}
			return s
		}
		t.Errorf("matching %s patterns:\n ours %q\n  git %q", cond, describe(ours), describe(fromGit))
	}
}

func FuzzWildmatch(f *testing.F) {
	for _, c := range wildmatchCases {
		f.Add(c.pattern, c.text, c.icase)
	}
	f.Fuzz(func(t *testing.T, pattern, text string, icase bool) {
		got := wildmatch(pattern, text, icase)
		// A pattern without special characters matches exactly itself.
		if !strings.ContainsAny(pattern, `*?[\`) {
			want := pattern == text || icase && asciiOnly(pattern) == asciiOnly(text)
			if got != want {
				t.Fatalf("literal %q vs %q (icase %v): %v", pattern, text, icase, got)
			}
		}
		// Escaping every byte makes any string a literal pattern.
		var esc strings.Builder
		for i := 0; i < len(text); i++ {
			esc.WriteByte('\\')
			esc.WriteByte(text[i])
		}
		if !wildmatch(esc.String(), text, false) {
			t.Fatalf("escaped %q does not match itself", text)
		}
	})
}

// asciiOnly lowercases ASCII letters only, as git's case folding does.
func asciiOnly(s string) string {
	b := []byte(s)
	for i, c := range b {
		b[i] = lower(c)
	}
	return string(b)
}
