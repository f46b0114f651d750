package identity

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitCase is a configuration layout with the user.name git reports for
// it. Every case is checked twice: against the expectation written here
// (TestGitUserName) and against real git run on the same files
// (TestGitUserNameMatchesGit), which keeps the expectations honest.
type gitCase struct {
	name  string
	files map[string]string // fixture path -> content ($ROOT, $HOME expanded)
	repos map[string]string // repository directory -> branch HEAD is on
	env   map[string]string // added to the fixture environment; "<unset>" removes
	setup func(f *fixture)  // anything else
	dir   string            // working directory, relative to the fixture root

	want     string
	wantOK   bool
	wantFile string // fixture path of the winning file, or "GIT_CONFIG_..."
	wantErr  string // substring of the error; "" means no error
}

const unset = "<unset>"

func (c gitCase) build(t *testing.T) *fixture {
	t.Helper()
	f := newFixture(t)
	for dir, branch := range c.repos {
		f.repo(dir, branch)
	}
	for p, content := range c.files {
		f.write(p, content)
	}
	for k, v := range c.env {
		if v == unset {
			delete(f.env, k)
		} else {
			f.env[k] = f.expand(v)
		}
	}
	if c.setup != nil {
		c.setup(f)
	}
	return f
}

func (c gitCase) workDir() string {
	if c.dir == "" {
		return "."
	}
	return c.dir
}

var gitCases = []gitCase{
	{name: "nothing set"},
	{
		name:  "system file",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = System Sam\n"},
		want:  "System Sam", wantOK: true, wantFile: "etc/gitconfig",
	},
	{
		name: "home gitconfig beats xdg beats system",
		files: map[string]string{
			"etc/gitconfig":           "[user]\n\tname = sys\n",
			"home/.config/git/config": "[user]\n\tname = xdg\n",
			"home/.gitconfig":         "[user]\n\tname = home\n",
		},
		want: "home", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "xdg beats system",
		files: map[string]string{
			"etc/gitconfig":           "[user]\n\tname = sys\n",
			"home/.config/git/config": "[user]\n\tname = xdg\n",
		},
		want: "xdg", wantOK: true, wantFile: "home/.config/git/config",
	},
	{
		name: "XDG_CONFIG_HOME replaces ~/.config",
		files: map[string]string{
			"home/.config/git/config": "[user]\n\tname = default-xdg\n",
			"xdg/git/config":          "[user]\n\tname = custom-xdg\n",
		},
		env:  map[string]string{"XDG_CONFIG_HOME": "$ROOT/xdg"},
		want: "custom-xdg", wantOK: true, wantFile: "xdg/git/config",
	},
	{
		name:  "empty XDG_CONFIG_HOME means ~/.config",
		files: map[string]string{"home/.config/git/config": "[user]\n\tname = default-xdg\n"},
		env:   map[string]string{"XDG_CONFIG_HOME": ""},
		want:  "default-xdg", wantOK: true, wantFile: "home/.config/git/config",
	},
	{
		name: "GIT_CONFIG_GLOBAL replaces both global files",
		files: map[string]string{
			"home/.config/git/config": "[user]\n\tname = xdg\n",
			"home/.gitconfig":         "[user]\n\tname = home\n",
			"other.cfg":               "[user]\n\tname = chosen\n",
			"etc/gitconfig":           "[user]\n\tname = sys\n",
		},
		env:  map[string]string{"GIT_CONFIG_GLOBAL": "$ROOT/other.cfg"},
		want: "chosen", wantOK: true, wantFile: "other.cfg",
	},
	{
		name: "empty GIT_CONFIG_GLOBAL means no global file",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = home\n",
			"etc/gitconfig":   "[user]\n\tname = sys\n",
		},
		env:  map[string]string{"GIT_CONFIG_GLOBAL": ""},
		want: "sys", wantOK: true, wantFile: "etc/gitconfig",
	},
	{
		name:  "GIT_CONFIG_SYSTEM elsewhere",
		files: map[string]string{"sys2.cfg": "[user]\n\tname = sys2\n", "etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_SYSTEM": "$ROOT/sys2.cfg"},
		want:  "sys2", wantOK: true, wantFile: "sys2.cfg",
	},
	{
		name:  "empty GIT_CONFIG_SYSTEM means no system file",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_SYSTEM": ""},
	},
	{
		name:  "GIT_CONFIG_NOSYSTEM=1 skips the system file",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_NOSYSTEM": "1"},
	},
	{
		name:  "GIT_CONFIG_NOSYSTEM=Yes skips the system file",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_NOSYSTEM": "Yes"},
	},
	{
		name:  "GIT_CONFIG_NOSYSTEM=0x10 is a true number",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_NOSYSTEM": "0x10"},
	},
	{
		name:  "GIT_CONFIG_NOSYSTEM=off keeps the system file",
		files: map[string]string{"etc/gitconfig": "[user]\n\tname = sys\n"},
		env:   map[string]string{"GIT_CONFIG_NOSYSTEM": "off"},
		want:  "sys", wantOK: true, wantFile: "etc/gitconfig",
	},
	{
		name:    "GIT_CONFIG_NOSYSTEM=maybe is an error",
		env:     map[string]string{"GIT_CONFIG_NOSYSTEM": "maybe"},
		wantErr: "GIT_CONFIG_NOSYSTEM",
	},
	{
		name: "repository config beats global, found from a subdirectory",
		files: map[string]string{
			"home/.gitconfig":   "[user]\n\tname = global\n",
			"proj/.git/config":  "[core]\n\tbare = false\n[user]\n\tname = Local Lou\n",
			"proj/sub/deeper/x": "",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj/sub/deeper",
		want:  "Local Lou", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name: "empty value is set and empty",
		files: map[string]string{
			"home/.gitconfig":  "[user]\n\tname = global\n",
			"proj/.git/config": "[user]\n\tname =\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "bare key is boolean true, printed empty",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = first\n\tname\n"},
		want:  "", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "quotes, escapes and a trailing comment",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = \"John \\\"JD\\\" Doe\" ; the boss\n"},
		want:  `John "JD" Doe`, wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "unquoted tab becomes a space, quoted tab stays",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = John\tDoe\n", "other": "[user]\n\tname = \"A\tB\"\n"},
		want:  "John Doe", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "escaped tab, inner spaces kept, ends trimmed",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname =   Ann\\tB   Lee   # note\n"},
		want:  "Ann\tB   Lee", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "line continuation",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = Mary \\\n  Ann\n"},
		want:  "Mary   Ann", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "section and key names ignore case, header and key on one line",
		files: map[string]string{"home/.gitconfig": "# comment\n; another\n[USER] NaMe=Upper Case\n"},
		want:  "Upper Case", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "subsections are other variables",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = plain\n[user \"work\"]\n\tname = work\n[user.work]\n\tname = old-style\n"},
		want:  "plain", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "last value wins within a file",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = a\n[core]\n\tx = 1\n[user]\n\tname = b\n"},
		want:  "b", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "byte order mark and CRLF",
		files: map[string]string{"home/.gitconfig": "\xef\xbb\xbf[user]\r\n\tname = Windows Wendy\r\n"},
		want:  "Windows Wendy", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "Latin-1 bytes are kept as bytes",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = Jos\xe9\n"},
		want:  "Jos\xe9", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:  "a key before any section",
		files: map[string]string{"home/.gitconfig": "name = stray\n[user]\nname = real\n"},
		want:  "real", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:    "syntax error names the file",
		files:   map[string]string{"home/.gitconfig": "[user]\n\tname = ok\n\tname = \"unterminated\n"},
		wantErr: "bad config line 3 in file $HOME/.gitconfig",
	},
	{
		name:    "unknown escape is an error",
		files:   map[string]string{"home/.gitconfig": "[user]\n\tname = a\\qb\n"},
		wantErr: "bad config line 2",
	},
	{
		name:    "non-ASCII key is an error",
		files:   map[string]string{"home/.gitconfig": "[user]\n\tnäme = x\n"},
		wantErr: "bad config line 2",
	},
	{
		name: "relative include",
		files: map[string]string{
			"home/.gitconfig":      "[include]\n\tpath = conf.d/identity\n",
			"home/conf.d/identity": "[user]\n\tname = Included Ida\n",
		},
		want: "Included Ida", wantOK: true, wantFile: "home/conf.d/identity",
	},
	{
		name: "include is processed in place: later lines override it",
		files: map[string]string{
			"home/.gitconfig": "[include]\n\tpath = inc\n[user]\n\tname = after\n",
			"home/inc":        "[user]\n\tname = included\n",
		},
		want: "after", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "include is processed in place: it overrides earlier lines",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = before\n[include]\n\tpath = inc\n",
			"home/inc":        "[user]\n\tname = included\n",
		},
		want: "included", wantOK: true, wantFile: "home/inc",
	},
	{
		name: "include with ~/ and nested relative include",
		files: map[string]string{
			"etc/gitconfig": "[include]\n\tpath = ~/cfg/a\n",
			"home/cfg/a":    "[include]\n\tpath = b\n",
			"home/cfg/b":    "[user]\n\tname = Nested Ned\n",
		},
		want: "Nested Ned", wantOK: true, wantFile: "home/cfg/b",
	},
	{
		name:  "missing include is ignored",
		files: map[string]string{"home/.gitconfig": "[user]\n\tname = still\n[include]\n\tpath = nowhere\n\tpath = /nonexistent/x\n"},
		want:  "still", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name:    "include loop is an error",
		files:   map[string]string{"home/.gitconfig": "[include]\n\tpath = .gitconfig\n[user]\n\tname = loop\n"},
		wantErr: "exceeded maximum include depth",
	},
	{
		name: "ten nested includes are fine",
		files: map[string]string{
			"home/.gitconfig": "[include]\n\tpath = i1\n",
			"home/i1":         "[include]\n\tpath = i2\n", "home/i2": "[include]\n\tpath = i3\n",
			"home/i3": "[include]\n\tpath = i4\n", "home/i4": "[include]\n\tpath = i5\n",
			"home/i5": "[include]\n\tpath = i6\n", "home/i6": "[include]\n\tpath = i7\n",
			"home/i7": "[include]\n\tpath = i8\n", "home/i8": "[include]\n\tpath = i9\n",
			"home/i9": "[include]\n\tpath = i10\n", "home/i10": "[user]\n\tname = deep\n",
		},
		want: "deep", wantOK: true, wantFile: "home/i10",
	},
	{
		name: "eleven nested includes are too many",
		files: map[string]string{
			"home/.gitconfig": "[include]\n\tpath = i1\n",
			"home/i1":         "[include]\n\tpath = i2\n", "home/i2": "[include]\n\tpath = i3\n",
			"home/i3": "[include]\n\tpath = i4\n", "home/i4": "[include]\n\tpath = i5\n",
			"home/i5": "[include]\n\tpath = i6\n", "home/i6": "[include]\n\tpath = i7\n",
			"home/i7": "[include]\n\tpath = i8\n", "home/i8": "[include]\n\tpath = i9\n",
			"home/i9": "[include]\n\tpath = i10\n", "home/i10": "[include]\n\tpath = i11\n",
			"home/i11": "[user]\n\tname = too deep\n",
		},
		wantErr: "exceeded maximum include depth (10)",
	},
	{
		name:    "include of a directory is an error",
		files:   map[string]string{"home/.gitconfig": "[include]\n\tpath = sub\n", "home/sub/x": ""},
		wantErr: "bad config line 2 in file $HOME/.gitconfig",
	},
	{
		name:    "include.path without a value is an error",
		files:   map[string]string{"home/.gitconfig": "[include]\n\tpath\n"},
		wantErr: "missing value for 'include.path'",
	},
	{
		name: "includeIf gitdir: with trailing slash matches below",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = personal\n[includeIf \"gitdir:$ROOT/job/\"]\n\tpath = work.inc\n",
			"home/work.inc":   "[user]\n\tname = Work Wanda\n",
		},
		repos: map[string]string{"job/proj": "main"},
		dir:   "job/proj",
		want:  "Work Wanda", wantOK: true, wantFile: "home/work.inc",
	},
	{
		name: "includeIf gitdir: not matching",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = personal\n[includeIf \"gitdir:$ROOT/job/\"]\n\tpath = work.inc\n",
			"home/work.inc":   "[user]\n\tname = Work Wanda\n",
		},
		repos: map[string]string{"play/proj": "main"},
		dir:   "play/proj",
		want:  "personal", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf gitdir: outside any repository",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = personal\n[includeIf \"gitdir:/\"]\n\tpath = work.inc\n",
			"home/work.inc":   "[user]\n\tname = Work Wanda\n",
		},
		want: "personal", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf gitdir: relative pattern matches at any depth",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"gitdir:proj/.git\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = anywhere\n",
		},
		repos: map[string]string{"a/b/proj": "main"},
		dir:   "a/b/proj",
		want:  "anywhere", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf gitdir: without trailing slash must match the .git directory exactly",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = no\n[includeIf \"gitdir:$ROOT/proj\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = yes\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "no", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf gitdir: with ~/ and wildcards",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"gitdir:~/code/c?ient-*/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = Client Carl\n",
		},
		repos: map[string]string{"home/code/client-acme": "main"},
		dir:   "home/code/client-acme",
		want:  "Client Carl", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf gitdir: is case-sensitive",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = no\n[includeIf \"gitdir:**/PROJ/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = yes\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "no", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf gitdir/i: ignores case",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = no\n[includeIf \"gitdir/i:**/PROJ/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = yes\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "yes", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf gitdir:./ is relative to the including file",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"gitdir:./code/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = dot\n",
		},
		repos: map[string]string{"home/code/x": "main"},
		dir:   "home/code/x",
		want:  "dot", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf gitdir: in the repository's own config",
		files: map[string]string{
			"proj/.git/config": "[includeIf \"gitdir:proj/\"]\n\tpath = ../id.cfg\n",
			"proj/id.cfg":      "[user]\n\tname = self\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "self", wantOK: true, wantFile: "proj/id.cfg",
	},
	{
		name: "includeIf onbranch: matching",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = other\n[includeIf \"onbranch:release/*\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = Release Rita\n",
		},
		repos: map[string]string{"proj": "release/1.2"},
		dir:   "proj",
		want:  "Release Rita", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf onbranch: trailing slash matches deeper",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"onbranch:feature/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = feat\n",
		},
		repos: map[string]string{"proj": "feature/a/b"},
		dir:   "proj",
		want:  "feat", wantOK: true, wantFile: "home/i",
	},
	{
		name: "includeIf onbranch: single star stops at a slash",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = other\n[includeIf \"onbranch:feature/*\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = feat\n",
		},
		repos: map[string]string{"proj": "feature/a/b"},
		dir:   "proj",
		want:  "other", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf onbranch: detached HEAD matches nothing",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = other\n[includeIf \"onbranch:**\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = branch\n",
		},
		repos: map[string]string{"proj": "0123456789abcdef0123456789abcdef01234567"},
		dir:   "proj",
		want:  "other", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf with an unknown or no condition is false",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = plain\n[includeIf \"whatever:x\"]\n\tpath = i\n[includeIf]\n\tpath = i\n[includeIf \"Gitdir:/\"]\n\tpath = i\n",
			"home/i":          "[user]\n\tname = included\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "plain", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf hasconfig:remote.*.url: matching a repository remote",
		files: map[string]string{
			"home/.gitconfig":  "[user]\n\tname = me\n[includeIf \"hasconfig:remote.*.url:git@github.com:acme/**\"]\n\tpath = work\n",
			"home/work":        "[user]\n\tname = Acme Alice\n",
			"proj/.git/config": "[remote \"origin\"]\n\turl = git@github.com:acme/tools/cli.git\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "Acme Alice", wantOK: true, wantFile: "home/work",
	},
	{
		name: "includeIf hasconfig:remote.*.url: with no matching remote",
		files: map[string]string{
			"home/.gitconfig":  "[user]\n\tname = me\n[includeIf \"hasconfig:remote.*.url:git@github.com:*\"]\n\tpath = work\n",
			"home/work":        "[user]\n\tname = Acme Alice\n",
			"proj/.git/config": "[remote \"origin\"]\n\turl = git@github.com:acme/cli.git\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "me", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "includeIf hasconfig:remote.*.url: sees URLs from every scope",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"hasconfig:remote.*.url:https://cmd/*\"]\n\tpath = work\n",
			"home/work":       "[user]\n\tname = from cmdline url\n",
		},
		env:  map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "remote.z.url", "GIT_CONFIG_VALUE_0": "https://cmd/r"},
		want: "from cmdline url", wantOK: true, wantFile: "home/work",
	},
	{
		name: "remote URLs in an includeIf file are an error once hasconfig is used",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"gitdir:**\"]\n\tpath = bad\n[includeIf \"hasconfig:remote.*.url:x\"]\n\tpath = bad\n",
			"home/bad":        "[remote \"x\"]\n\turl = https://x/y\n",
		},
		repos:   map[string]string{"proj": "main"},
		dir:     "proj",
		wantErr: "remote URLs cannot be configured",
	},
	{
		name: "linked worktree reads the main repository config",
		files: map[string]string{
			"proj/.git/config": "[user]\n\tname = shared\n",
		},
		repos: map[string]string{"proj": "main"},
		setup: func(f *fixture) { f.worktree("proj", "wt", "wt", "topic") },
		dir:   "wt",
		want:  "shared", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name: "linked worktree: gitdir: matches the worktree's git directory",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"gitdir:$ROOT/proj/.git\"]\n\tpath = main\n[includeIf \"gitdir:$ROOT/proj/.git/worktrees/wt\"]\n\tpath = wt\n[includeIf \"gitdir:$ROOT/wt/\"]\n\tpath = checkout\n",
			"home/main":       "[user]\n\tname = main\n",
			"home/wt":         "[user]\n\tname = worktree admin dir\n",
			"home/checkout":   "[user]\n\tname = worktree checkout\n",
		},
		repos: map[string]string{"proj": "main"},
		setup: func(f *fixture) { f.worktree("proj", "wt", "wt", "topic") },
		dir:   "wt",
		want:  "worktree admin dir", wantOK: true, wantFile: "home/wt",
	},
	{
		name: "linked worktree: onbranch: uses the worktree's HEAD",
		files: map[string]string{
			"home/.gitconfig": "[includeIf \"onbranch:main\"]\n\tpath = main\n[includeIf \"onbranch:topic\"]\n\tpath = topic\n",
			"home/main":       "[user]\n\tname = on main\n",
			"home/topic":      "[user]\n\tname = on topic\n",
		},
		repos: map[string]string{"proj": "main"},
		setup: func(f *fixture) { f.worktree("proj", "wt", "wt", "topic") },
		dir:   "wt",
		want:  "on topic", wantOK: true, wantFile: "home/topic",
	},
	{
		name: "config.worktree with extensions.worktreeConfig, main worktree",
		files: map[string]string{
			"proj/.git/config":          "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = true\n[user]\n\tname = shared\n",
			"proj/.git/config.worktree": "[user]\n\tname = main-only\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "main-only", wantOK: true, wantFile: "proj/.git/config.worktree",
	},
	{
		name: "config.worktree with extensions.worktreeConfig, linked worktree",
		files: map[string]string{
			"proj/.git/config":          "[core]\n\trepositoryformatversion = 0\n[extensions]\n\tworktreeConfig\n[user]\n\tname = shared\n",
			"proj/.git/config.worktree": "[user]\n\tname = main-only\n",
		},
		repos: map[string]string{"proj": "main"},
		setup: func(f *fixture) {
			f.worktree("proj", "wt", "wt", "topic")
			f.write("proj/.git/worktrees/wt/config.worktree", "[user]\n\tname = wt-only\n")
		},
		dir:  "wt",
		want: "wt-only", wantOK: true, wantFile: "proj/.git/worktrees/wt/config.worktree",
	},
	{
		name: "config.worktree ignored without the extension",
		files: map[string]string{
			"proj/.git/config":          "[extensions]\n\tworktreeConfig = false\n[user]\n\tname = shared\n",
			"proj/.git/config.worktree": "[user]\n\tname = main-only\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "shared", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name: "extensions.worktreeConfig ignored without core.repositoryformatversion",
		files: map[string]string{
			"proj/.git/config":          "[extensions]\n\tworktreeConfig = true\n[user]\n\tname = shared\n",
			"proj/.git/config.worktree": "[user]\n\tname = main-only\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "shared", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name: "repository format version 2 is not used at all",
		files: map[string]string{
			"home/.gitconfig":  "[user]\n\tname = global\n[includeIf \"gitdir:proj/\"]\n\tpath = i\n",
			"home/i":           "[user]\n\tname = included\n",
			"proj/.git/config": "[core]\n\trepositoryformatversion = 2\n[user]\n\tname = local\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "global", wantOK: true, wantFile: "home/.gitconfig",
	},
	{
		name: "bad extensions.worktreeConfig is an error",
		files: map[string]string{
			"proj/.git/config": "[core]\n\trepositoryformatversion = 1\n[extensions]\n\tworktreeConfig = maybe\n",
		},
		repos:   map[string]string{"proj": "main"},
		dir:     "proj",
		wantErr: "extensions.worktreeconfig",
	},
	{
		name: "extensions.worktreeConfig only counts in the repository config itself",
		files: map[string]string{
			"proj/.git/config":          "[core]\n\trepositoryformatversion = 1\n[include]\n\tpath = ext\n[user]\n\tname = shared\n",
			"proj/.git/ext":             "[extensions]\n\tworktreeConfig = true\n",
			"proj/.git/config.worktree": "[user]\n\tname = main-only\n",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj",
		want:  "shared", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name: "submodule-style relative .git file",
		files: map[string]string{
			"super/.git/modules/sub/config": "[user]\n\tname = submodule\n",
			"super/sub/.git":                "gitdir: ../.git/modules/sub\n",
		},
		repos: map[string]string{"super": "main"},
		setup: func(f *fixture) { f.gitDir("super/.git/modules/sub", "main") },
		dir:   "super/sub",
		want:  "submodule", wantOK: true, wantFile: "super/.git/modules/sub/config",
	},
	{
		name:    "a .git file pointing nowhere is an error",
		files:   map[string]string{"proj/.git": "gitdir: /nonexistent/dir\n"},
		dir:     "proj",
		wantErr: "not a git repository",
	},
	{
		name:    "a malformed .git file is an error",
		files:   map[string]string{"proj/.git": "garbage\n"},
		dir:     "proj",
		wantErr: "invalid gitfile format",
	},
	{
		name: "an empty .git directory is skipped on the way up",
		files: map[string]string{
			"proj/.git/config":  "[user]\n\tname = outer\n",
			"proj/inner/.git/x": "",
		},
		repos: map[string]string{"proj": "main"},
		dir:   "proj/inner",
		want:  "outer", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "inside the .git directory",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = inside\n"},
		repos: map[string]string{"proj": "main"},
		dir:   "proj/.git/refs",
		want:  "inside", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "bare repository",
		files: map[string]string{"bare.git/config": "[core]\n\tbare = true\n[user]\n\tname = bare\n"},
		setup: func(f *fixture) { f.gitDir("bare.git", "main") },
		dir:   "bare.git",
		want:  "bare", wantOK: true, wantFile: "bare.git/config",
	},
	{
		name:  "GIT_CEILING_DIRECTORIES stops discovery",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = local\n", "proj/sub/x": ""},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_CEILING_DIRECTORIES": "$ROOT/proj"},
		dir:   "proj/sub",
	},
	{
		name:  "GIT_CEILING_DIRECTORIES equal to the working directory is ignored",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = local\n", "proj/sub/x": ""},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_CEILING_DIRECTORIES": "/nonexistent:$ROOT/proj/sub"},
		dir:   "proj/sub",
		want:  "local", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "GIT_DIR replaces discovery",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = explicit\n", "elsewhere/x": ""},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_DIR": "$ROOT/proj/.git"},
		dir:   "elsewhere",
		want:  "explicit", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "relative GIT_DIR",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = explicit\n", "elsewhere/x": ""},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_DIR": "../proj/.git"},
		dir:   "elsewhere",
		want:  "explicit", wantOK: true, wantFile: "proj/.git/config",
	},
	{
		name:  "GIT_DIR that is no repository means none",
		files: map[string]string{"proj/.git/config": "[user]\n\tname = local\n"},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_DIR": "$ROOT/nowhere"},
		dir:   "proj",
	},
	{
		name: "GIT_CONFIG_COUNT beats the repository",
		files: map[string]string{
			"proj/.git/config": "[user]\n\tname = local\n",
		},
		repos: map[string]string{"proj": "main"},
		env: map[string]string{
			"GIT_CONFIG_COUNT": "3",
			"GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "first",
			"GIT_CONFIG_KEY_1": "User.Name", "GIT_CONFIG_VALUE_1": "Command Line Carla",
			"GIT_CONFIG_KEY_2": "user.Work.name", "GIT_CONFIG_VALUE_2": "subsection",
		},
		dir:  "proj",
		want: "Command Line Carla", wantOK: true, wantFile: "GIT_CONFIG_VALUE_1",
	},
	{
		name: "GIT_CONFIG_VALUE may be empty",
		env: map[string]string{
			"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "",
		},
		want: "", wantOK: true, wantFile: "GIT_CONFIG_VALUE_0",
	},
	{
		name:    "GIT_CONFIG_VALUE missing is an error",
		env:     map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name"},
		wantErr: "GIT_CONFIG_VALUE_0",
	},
	{
		name:    "bogus GIT_CONFIG_COUNT is an error",
		env:     map[string]string{"GIT_CONFIG_COUNT": "two"},
		wantErr: "GIT_CONFIG_COUNT",
	},
	{
		name:    "GIT_CONFIG_KEY without a section is an error",
		env:     map[string]string{"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "name", "GIT_CONFIG_VALUE_0": "x"},
		wantErr: "does not contain a section",
	},
	{
		name:  "include.path from GIT_CONFIG_KEY is honoured",
		files: map[string]string{"inc.cfg": "[user]\n\tname = env include\n"},
		env: map[string]string{
			"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "include.path", "GIT_CONFIG_VALUE_0": "$ROOT/inc.cfg",
		},
		want: "env include", wantOK: true, wantFile: "inc.cfg",
	},
	{
		name: "relative include.path from GIT_CONFIG_KEY is an error",
		env: map[string]string{
			"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "include.path", "GIT_CONFIG_VALUE_0": "inc.cfg",
		},
		wantErr: "relative config includes must come from files",
	},
	{
		name: "GIT_CONFIG_PARAMETERS (git -c) beats GIT_CONFIG_COUNT",
		env: map[string]string{
			"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "count",
			"GIT_CONFIG_PARAMETERS": `'core.x'='1' 'user.name'='it'\''s me'`,
		},
		want: "it's me", wantOK: true, wantFile: "GIT_CONFIG_PARAMETERS",
	},
	{
		name: "old-style GIT_CONFIG_PARAMETERS",
		env:  map[string]string{"GIT_CONFIG_PARAMETERS": `'user.name=Old Style'`},
		want: "Old Style", wantOK: true, wantFile: "GIT_CONFIG_PARAMETERS",
	},
	{
		name:    "malformed GIT_CONFIG_PARAMETERS is an error",
		env:     map[string]string{"GIT_CONFIG_PARAMETERS": `user.name=x`},
		wantErr: "GIT_CONFIG_PARAMETERS",
	},
	{
		name: "relative GIT_CONFIG_GLOBAL is taken from the top of the working tree",
		files: map[string]string{
			"proj/rel.cfg":     "[user]\n\tname = top\n",
			"proj/sub/rel.cfg": "[user]\n\tname = sub\n",
		},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_CONFIG_GLOBAL": "rel.cfg"},
		dir:   "proj/sub",
		want:  "top", wantOK: true, wantFile: "proj/rel.cfg",
	},
	{
		name: "relative GIT_CONFIG_SYSTEM, GIT_DIR and GIT_WORK_TREE",
		files: map[string]string{
			"proj/rel.cfg":     "[user]\n\tname = top\n",
			"proj/sub/rel.cfg": "[user]\n\tname = sub\n",
		},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_CONFIG_SYSTEM": "rel.cfg", "GIT_DIR": "$ROOT/proj/.git", "GIT_WORK_TREE": "$ROOT/proj"},
		dir:   "proj/sub",
		want:  "top", wantOK: true, wantFile: "proj/rel.cfg",
	},
	{
		name: "relative GIT_CONFIG_GLOBAL outside any repository",
		files: map[string]string{
			"plain/rel.cfg": "[user]\n\tname = here\n",
		},
		env:  map[string]string{"GIT_CONFIG_GLOBAL": "rel.cfg"},
		dir:  "plain",
		want: "here", wantOK: true, wantFile: "plain/rel.cfg",
	},
	{
		name: "relative GIT_CONFIG is taken from the working directory",
		files: map[string]string{
			"proj/rel.cfg":     "[user]\n\tname = top\n",
			"proj/sub/rel.cfg": "[user]\n\tname = sub\n",
		},
		repos: map[string]string{"proj": "main"},
		env:   map[string]string{"GIT_CONFIG": "rel.cfg"},
		dir:   "proj/sub",
		want:  "sub", wantOK: true, wantFile: "proj/sub/rel.cfg",
	},
	{
		name: "GIT_CONFIG reads that file only, without includes",
		files: map[string]string{
			"home/.gitconfig": "[user]\n\tname = global\n",
			"only.cfg":        "[user]\n\tname = only\n[include]\n\tpath = inc\n",
			"inc":             "[user]\n\tname = included\n",
		},
		env:  map[string]string{"GIT_CONFIG": "$ROOT/only.cfg", "GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "user.name", "GIT_CONFIG_VALUE_0": "cmdline"},
		want: "only", wantOK: true, wantFile: "only.cfg",
	},
}

func TestGitUserName(t *testing.T) {
	for _, c := range gitCases {
		t.Run(c.name, func(t *testing.T) {
			f := c.build(t)
			value, file, ok, err := GitUserName(f.identityEnv(c.workDir()))
			if c.wantErr != "" {
				want := f.expand(c.wantErr)
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("error = %v, want one containing %q", err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if value != c.want || ok != c.wantOK {
				t.Errorf("got (%q, ok=%v), want (%q, ok=%v)", value, ok, c.want, c.wantOK)
			}
			wantFile := c.wantFile
			if wantFile != "" && !strings.HasPrefix(wantFile, "GIT_CONFIG_") {
				wantFile = f.path(wantFile)
			}
			if cleanOrigin(file) != wantFile {
				t.Errorf("file = %q, want %q", file, wantFile)
			}
		})
	}
}

// TestGitUserNameMatchesGit runs real `git config user.name` on every case.
func TestGitUserNameMatchesGit(t *testing.T) {
	requireGit(t)
	for _, c := range gitCases {
		t.Run(c.name, func(t *testing.T) {
			f := c.build(t)
			dir := f.path(c.workDir())
			value, file, ok, err := GitUserName(f.identityEnv(dir))
			g := f.gitUserName(dir)
			if (err != nil) != (g.err != "") {
				t.Fatalf("gsd error = %v; git error = %q", err, g.err)
			}
			if err != nil {
				return
			}
			if value != g.value || ok != g.ok {
				t.Fatalf("gsd (%q, ok=%v), git (%q, ok=%v)", value, ok, g.value, g.ok)
			}
			if ok {
				checkOrigin(t, dir, file, g.origin)
			}
		})
	}
}

// checkOrigin compares our file with git's --show-origin, which prints
// "command line:" for GIT_CONFIG_* and may print a path relative to the
// working directory or to the top of the working tree.
func checkOrigin(t *testing.T, dir, ours, git string) {
	t.Helper()
	if git == "command line:" {
		if !strings.HasPrefix(ours, "GIT_CONFIG_") {
			t.Errorf("origin %q, git says %q", ours, git)
		}
		return
	}
	ours = cleanOrigin(ours)
	switch {
	case ours == filepath.Clean(git):
	case !filepath.IsAbs(git) && ours == filepath.Join(dir, git):
	case !filepath.IsAbs(git) && strings.HasSuffix(ours, string(filepath.Separator)+filepath.Clean(git)):
	default:
		t.Errorf("origin %q, git says %q", ours, git)
	}
}

// TestRealWorktree uses `git worktree add` rather than a hand-made layout.
func TestRealWorktree(t *testing.T) {
	requireGit(t)
	f := newFixture(t)
	f.mkdir("proj")
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"-c", "user.name=x", "-c", "user.email=x@example.com", "commit", "-q", "--allow-empty", "-m", "init"},
		{"worktree", "add", "-q", "-b", "topic", "../wt"},
		{"config", "extensions.worktreeConfig", "true"},
	} {
		if _, exit, stderr := f.git("proj", args...); exit != 0 {
			t.Fatalf("git %v: %s", args, stderr)
		}
	}
	f.write("home/.gitconfig", "[includeIf \"onbranch:topic\"]\n\tpath = topic\n[includeIf \"gitdir:**/worktrees/wt\"]\n\tpath = wtdir\n")
	f.write("home/topic", "[user]\n\tname = on topic\n")
	f.write("home/wtdir", "[user]\n\tname = in wt gitdir\n")

	check := func(want string) {
		t.Helper()
		value, _, _, err := GitUserName(f.identityEnv("wt"))
		g := f.gitUserName(f.path("wt"))
		if err != nil || value != want || g.value != want {
			t.Errorf("gsd (%q, %v), git %+v, want %q", value, err, g, want)
		}
	}
	check("in wt gitdir")

	if _, exit, stderr := f.git("wt", "config", "--worktree", "user.name", "Worktree Only"); exit != 0 {
		t.Fatalf("git config --worktree: %s", stderr)
	}
	check("Worktree Only")

	repo, ok, err := FindRepo(f.path("wt"), f.lookup)
	if err != nil || !ok {
		t.Fatalf("FindRepo: %v %v", ok, err)
	}
	if want := f.path("proj/.git/worktrees/wt"); repo.GitDir != want {
		t.Errorf("GitDir = %q, want %q", repo.GitDir, want)
	}
	if want := f.path("proj/.git"); repo.CommonDir != want {
		t.Errorf("CommonDir = %q, want %q", repo.CommonDir, want)
	}
	if want := f.path("wt"); repo.WorkTree != want {
		t.Errorf("WorkTree = %q, want %q", repo.WorkTree, want)
	}
}

// TestGitDirSymlink checks git's two spellings of the git directory for
// gitdir: patterns when the repository is reached through a symlink: the
// resolved path always, the symlinked one only from the top of the
// working tree (where git spells the git directory through $PWD).
func TestGitDirSymlink(t *testing.T) {
	f := newFixture(t)
	f.repo("real/proj", "main")
	f.mkdir("real/proj/sub")
	if err := os.Symlink(f.path("real"), f.path("link")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	checkGitDirPatterns(t, f, []gitDirCase{
		{"$ROOT/real/", "link/proj", true},
		{"$ROOT/real/", "link/proj/sub", true},
		{"$ROOT/link/", "link/proj", true},
		{"$ROOT/link/", "link/proj/sub", false},
		{"$ROOT/link/", "real/proj", false},
	})
}

// gitDirCase is an includeIf "gitdir:" pattern, where gsd runs, and whether it matches.
type gitDirCase struct {
	pattern, dir string
	want         bool
}

// checkGitDirPatterns includes a file setting the user name under each case's pattern and checks
// that it applies from the case's directory exactly when wanted, and as git applies it.
func checkGitDirPatterns(t *testing.T, f *fixture, cases []gitDirCase) {
	t.Helper()
	f.write("home/i", "[user]\n\tname = matched\n")
	_, gitErr := exec.LookPath("git")
	for _, c := range cases {
		f.write("home/.gitconfig", "[includeIf \"gitdir:"+c.pattern+"\"]\n\tpath = i\n")
		value, _, _, err := GitUserName(f.identityEnv(c.dir))
		if err != nil {
			t.Fatal(err)
		}
		if got := value == "matched"; got != c.want {
			t.Errorf("pattern %s from %s: matched = %v, want %v", c.pattern, c.dir, got, c.want)
		}
		if gitErr == nil {
			if g := f.gitUserName(f.path(c.dir)); g.value != value {
				t.Errorf("pattern %s from %s: gsd %q, git %q", c.pattern, c.dir, value, g.value)
			}
		}
	}
}

// TestDotGitSymlink: a .git that is a symlink to the git directory (kept elsewhere) is matched by
// gitdir: patterns as git matches it: through the resolved path, and through the symlink's own
// spelling, <top of the working tree>/.git, from anywhere in the working tree.
func TestDotGitSymlink(t *testing.T) {
	f := newFixture(t)
	f.gitDir("store/proj.git", "main")
	f.mkdir("proj/sub")
	if err := os.Symlink(f.path("store/proj.git"), f.path("proj/.git")); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	checkGitDirPatterns(t, f, []gitDirCase{
		{"$ROOT/store/", "proj", true},
		{"$ROOT/store/", "proj/sub", true},
		{"$ROOT/proj/", "proj", true},
		{"$ROOT/proj/", "proj/sub", true},
		{"$ROOT/nowhere/", "proj/sub", false},
	})
}
