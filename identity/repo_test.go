package identity

import (
	"path/filepath"
	"strings"
	"testing"
)

var repoCases = []struct {
	name  string
	setup func(f *fixture)
	env   map[string]string
	dir   string

	wantOK                      bool
	gitDir, commonDir, workTree string // fixture paths ("" workTree: none)
	wantErr                     string
}{
	{
		name:  "top of the working tree",
		setup: func(f *fixture) { f.repo("proj", "main") },
		dir:   "proj", wantOK: true, gitDir: "proj/.git", commonDir: "proj/.git", workTree: "proj",
	},
	{
		name:  "subdirectory",
		setup: func(f *fixture) { f.repo("proj", "main"); f.mkdir("proj/a/b") },
		dir:   "proj/a/b", wantOK: true, gitDir: "proj/.git", commonDir: "proj/.git", workTree: "proj",
	},
	{
		name:  "no repository",
		setup: func(f *fixture) { f.mkdir("plain/dir") },
		dir:   "plain/dir",
	},
	{
		name: "linked worktree",
		setup: func(f *fixture) {
			f.repo("proj", "main")
			f.worktree("proj", "wt", "wt", "topic")
			f.mkdir("wt/sub")
		},
		dir: "wt/sub", wantOK: true, gitDir: "proj/.git/worktrees/wt", commonDir: "proj/.git", workTree: "wt",
	},
	{
		name: "nested repository wins",
		setup: func(f *fixture) {
			f.repo("outer", "main")
			f.repo("outer/inner", "main")
		},
		dir: "outer/inner", wantOK: true, gitDir: "outer/inner/.git", commonDir: "outer/inner/.git", workTree: "outer/inner",
	},
	{
		name: "a .git directory that is not a repository is passed over",
		setup: func(f *fixture) {
			f.repo("outer", "main")
			f.mkdir("outer/inner/.git")
		},
		dir: "outer/inner", wantOK: true, gitDir: "outer/.git", commonDir: "outer/.git", workTree: "outer",
	},
	{
		name:  "inside the git directory",
		setup: func(f *fixture) { f.repo("proj", "main") },
		dir:   "proj/.git/objects", wantOK: true, gitDir: "proj/.git", commonDir: "proj/.git",
	},
	{
		name:  "bare repository",
		setup: func(f *fixture) { f.gitDir("bare.git", "main") },
		dir:   "bare.git/refs/heads", wantOK: true, gitDir: "bare.git", commonDir: "bare.git",
	},
	{
		name:  "GIT_DIR",
		setup: func(f *fixture) { f.repo("proj", "main"); f.mkdir("else") },
		env:   map[string]string{"GIT_DIR": "$ROOT/proj/.git"},
		dir:   "else", wantOK: true, gitDir: "proj/.git", commonDir: "proj/.git", workTree: "else",
	},
	{
		name:  "GIT_DIR and GIT_WORK_TREE",
		setup: func(f *fixture) { f.repo("proj", "main"); f.mkdir("else") },
		env:   map[string]string{"GIT_DIR": "../proj/.git", "GIT_WORK_TREE": "$ROOT/proj"},
		dir:   "else", wantOK: true, gitDir: "proj/.git", commonDir: "proj/.git", workTree: "proj",
	},
	{
		name:  "GIT_CEILING_DIRECTORIES",
		setup: func(f *fixture) { f.repo("proj", "main"); f.mkdir("proj/a/b") },
		env:   map[string]string{"GIT_CEILING_DIRECTORIES": "$ROOT/proj/a:/elsewhere"},
		dir:   "proj/a/b",
	},
	{
		name:  "HEAD must look like a ref",
		setup: func(f *fixture) { f.repo("proj", "main"); f.write("proj/.git/HEAD", "nonsense\n") },
		dir:   "proj",
	},
	{
		name:    "broken .git file",
		setup:   func(f *fixture) { f.write("proj/.git", "gitdir: ../nowhere\n") },
		dir:     "proj",
		wantErr: "not a git repository",
	},
}

func TestFindRepo(t *testing.T) {
	for _, c := range repoCases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			c.setup(f)
			for k, v := range c.env {
				f.env[k] = f.expand(v)
			}
			repo, ok, err := FindRepo(f.path(c.dir), f.lookup)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("error = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || ok != c.wantOK {
				t.Fatalf("FindRepo = %+v, %v, %v; want ok=%v", repo, ok, err, c.wantOK)
			}
			if !ok {
				return
			}
			want := Repo{GitDir: f.path(c.gitDir), CommonDir: f.path(c.commonDir)}
			if c.workTree != "" {
				want.WorkTree = f.path(c.workTree)
			}
			repo.gitDirAlias, repo.setupDir = "", "" // compared through GitUserName
			if repo != want {
				t.Errorf("got  %+v\nwant %+v", repo, want)
			}
		})
	}
}

// TestFindRepoMatchesGit compares with `git rev-parse`.
func TestFindRepoMatchesGit(t *testing.T) {
	requireGit(t)
	for _, c := range repoCases {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			c.setup(f)
			for k, v := range c.env {
				f.env[k] = f.expand(v)
			}
			repo, ok, err := FindRepo(f.path(c.dir), f.lookup)
			out, exit, stderr := f.git(c.dir, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
			if exit != 0 {
				// git fails both with no repository ("not a git
				// repository (or any of the parent directories)") and
				// with a broken .git file ("not a git repository: <path>",
				// "invalid gitfile format"); only the latter is our error.
				broken := strings.Contains(stderr, "not a git repository: ") || strings.Contains(stderr, "gitfile")
				if ok || (err != nil) != broken {
					t.Fatalf("git: %s; ours: %+v %v %v", stderr, repo, ok, err)
				}
				return
			}
			if err != nil || !ok {
				t.Fatalf("git found %q; ours: %v, %v", out, ok, err)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			if len(lines) != 2 || filepath.Clean(lines[0]) != repo.GitDir || filepath.Clean(lines[1]) != repo.CommonDir {
				t.Errorf("git says %q; ours %+v", lines, repo)
			}
			if repo.WorkTree != "" {
				top, exit, stderr := f.git(c.dir, "rev-parse", "--show-toplevel")
				if exit != 0 || filepath.Clean(strings.TrimSpace(top)) != repo.WorkTree {
					t.Errorf("git top %q (%s); ours %q", top, stderr, repo.WorkTree)
				}
			}
		})
	}
}
