package identity

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Repo is a git repository as git's own discovery finds it.
type Repo struct {
	GitDir    string // the git directory: <worktree>/.git, or a linked worktree's .git/worktrees/<name>
	CommonDir string // where config, objects and refs live (GitDir except in linked worktrees)
	WorkTree  string // top of the working tree; "" in a bare repository or inside the git directory

	// gitDirAlias is the second spelling of GitDir that git tries for
	// includeIf "gitdir:" (its absolute, not symlink-resolved path), when
	// git would have one different from the resolved path.
	gitDirAlias string
	// setupDir is where git has moved to when it reads its config (the
	// top of the working tree, or the git directory), which is what
	// relative $GIT_CONFIG_GLOBAL and $GIT_CONFIG_SYSTEM are relative to.
	setupDir string
}

// FindRepo finds the repository containing dir as git does: $GIT_DIR if
// set, else the first directory from dir upward holding a .git directory
// or .git file, or being a git directory itself, stopping at
// $GIT_CEILING_DIRECTORIES and at file-system boundaries. lookupEnv reads
// the environment (nil: empty). It reports an error only where git dies:
// a .git file that is malformed or points nowhere, or an unparsable
// $GIT_DISCOVERY_ACROSS_FILESYSTEM.
func FindRepo(dir string, lookupEnv func(string) (string, bool)) (Repo, bool, error) {
	env := Sources{LookupEnv: lookupEnv, Dir: dir}
	if gd, ok := env.lookup("GIT_DIR"); ok {
		return explicitRepo(env, gd)
	}
	if dir == "" {
		return Repo{}, false, nil
	}
	// git walks its physical working directory (getcwd), so a symlink in
	// dir must not make us find a repository git would not.
	start := realPath(dir)
	ceiling := ceilingLength(start, env)
	acrossFS, err := envBool(env, "GIT_DISCOVERY_ACROSS_FILESYSTEM")
	if err != nil {
		return Repo{}, false, err
	}
	dev, devOK := device(start)
	for cur := start; ; {
		dotgit := filepath.Join(cur, ".git")
		// cur has no symlink in it (start, resolved, or one of its parents): unless .git is
		// one, dotgit is its own real path.
		fi, err := os.Lstat(dotgit)
		real := ""
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			fi, err = os.Stat(dotgit)
		} else {
			real = dotgit
		}
		if err == nil {
			if fi.Mode().IsRegular() {
				gitDir, common, err := readGitFile(dotgit, env)
				if err != nil {
					return Repo{}, false, err
				}
				return Repo{GitDir: gitDir, CommonDir: common, WorkTree: cur, setupDir: cur}, true, nil
			}
			if common, ok := isGitDir(dotgit, env); ok {
				// git spells the git directory from the top of the working tree: dotgit,
				// which is not its real path when .git is a symlink; found in dir itself,
				// through $PWD, i.e. through dir.
				alias := dotgit
				if cur == start {
					alias = filepath.Join(filepath.Clean(dir), ".git")
				}
				if real == "" {
					real = realPath(dotgit)
				}
				r := Repo{GitDir: dotgit, CommonDir: common, WorkTree: cur, setupDir: cur}
				if alias != real {
					r.gitDirAlias = alias
				}
				return r, true, nil
			}
		}
		if common, ok := isGitDir(cur, env); ok { // a bare repository, or inside a .git directory
			alias := ""
			if cur == start {
				alias = filepath.Clean(dir) + string(filepath.Separator) + "."
			}
			r := Repo{GitDir: cur, CommonDir: common, setupDir: cur}
			if alias != cur { // cur is its own real path when it is start
				r.gitDirAlias = alias
			}
			return r, true, nil
		}
		parent := filepath.Dir(cur)
		plen := len(parent)
		if strings.HasSuffix(parent, string(filepath.Separator)) {
			plen-- // the root counts as length 0, as in git
		}
		if parent == cur || plen <= ceiling {
			return Repo{}, false, nil
		}
		if !acrossFS && devOK {
			if d, ok := device(parent); ok && d != dev {
				return Repo{}, false, nil
			}
		}
		cur = parent
	}
}

// explicitRepo handles $GIT_DIR: no discovery; a path that is not a git
// directory means no repository, as for `git config`.
func explicitRepo(env Sources, gd string) (Repo, bool, error) {
	if gd == "" {
		return Repo{}, false, nil
	}
	gitDir := env.abs(gd)
	alias := gitDir
	var common string
	if fi, err := os.Stat(gitDir); err == nil && fi.Mode().IsRegular() {
		if gitDir, common, err = readGitFile(gitDir, env); err != nil {
			return Repo{}, false, err
		}
		alias = ""
	} else {
		var ok bool
		if common, ok = isGitDir(gitDir, env); !ok {
			return Repo{}, false, nil
		}
	}
	// Without $GIT_WORK_TREE the working directory is the top of the
	// working tree; with it, git moves to its top only from inside it.
	workTree, setupDir := env.Dir, env.Dir
	if wt, ok := env.lookup("GIT_WORK_TREE"); ok && wt != "" {
		workTree = env.abs(wt)
		if rel, err := filepath.Rel(workTree, env.Dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			setupDir = workTree
		}
	}
	r := Repo{GitDir: gitDir, CommonDir: common, WorkTree: workTree, setupDir: setupDir}
	if alias != "" && alias != realPath(gitDir) {
		r.gitDirAlias = alias
	}
	return r, true, nil
}

// commonDir is $GIT_COMMON_DIR, or what <gitDir>/commondir names (linked
// worktrees), or gitDir itself.
func commonDir(gitDir string, env Sources) string {
	if cd, ok := env.lookup("GIT_COMMON_DIR"); ok {
		return env.abs(cd)
	}
	data, err := readFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := string(bytes.TrimRight(data, "\r\n"))
	if !filepath.IsAbs(p) {
		p = gitDir + string(filepath.Separator) + p
	}
	return realPath(p)
}

// isGitDir is git's is_git_directory: a valid HEAD, and objects/ and refs/
// in the common directory, which it returns.
func isGitDir(dir string, env Sources) (string, bool) {
	if !validHEAD(filepath.Join(dir, "HEAD")) {
		return "", false
	}
	common := commonDir(dir, env)
	objects := filepath.Join(common, "objects")
	if od, ok := env.lookup("GIT_OBJECT_DIRECTORY"); ok {
		objects = env.abs(od)
	}
	for _, p := range []string{objects, filepath.Join(common, "refs")} {
		if _, err := os.Stat(p); err != nil {
			return "", false
		}
	}
	return common, true
}

// validHEAD accepts a symbolic ref to refs/..., a symlink into refs/, or
// a detached object id, as git's validate_headref does.
func validHEAD(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(path)
		return err == nil && strings.HasPrefix(target, "refs/")
	}
	buf, err := readFile(path)
	if err != nil {
		return false
	}
	buf = buf[:min(len(buf), 255)]
	if rest, ok := bytes.CutPrefix(buf, []byte("ref:")); ok {
		rest = bytes.TrimLeft(rest, " \t\n\r")
		if bytes.HasPrefix(rest, []byte("refs/")) {
			return true
		}
	}
	if len(buf) < 40 {
		return false
	}
	for _, c := range buf[:40] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// readGitFile follows a .git file ("gitdir: <path>", relative to the
// file's directory) as in linked worktrees and submodules: the git
// directory's real path and its common directory.
func readGitFile(path string, env Sources) (gitDir, common string, err error) {
	data, err := readFile(path)
	if err != nil {
		return "", "", fmt.Errorf("reading gitfile: %w", err)
	}
	rest, ok := bytes.CutPrefix(data, []byte("gitdir: "))
	if !ok {
		return "", "", fmt.Errorf("invalid gitfile format: %s", path)
	}
	rest = bytes.TrimRight(rest, "\r\n")
	if len(rest) == 0 {
		return "", "", fmt.Errorf("no path in gitfile: %s", path)
	}
	dir := string(rest)
	if !filepath.IsAbs(dir) {
		// Joined without lexical cleaning: ".." must apply after symlinks
		// are followed, as the operating system and git apply it.
		dir = filepath.Dir(path) + string(filepath.Separator) + dir
	}
	common, ok = isGitDir(dir, env)
	if !ok {
		return "", "", fmt.Errorf("not a git repository: %s", dir)
	}
	gitDir = realPath(dir)
	if common == dir { // no commondir file: the git directory itself, by its real path
		common = gitDir
	}
	return gitDir, common, nil
}

// ceilingLength is the length of the longest $GIT_CEILING_DIRECTORIES
// entry that is a proper ancestor of dir (-1 if none): discovery never
// looks at that directory or above. Entries are resolved through symlinks
// until an empty entry, as in git; relative entries are ignored.
func ceilingLength(dir string, env Sources) int {
	list, _ := env.lookup("GIT_CEILING_DIRECTORIES")
	longest := -1
	resolve := true
	for _, c := range filepath.SplitList(list) {
		switch {
		case c == "":
			resolve = false
			continue
		case !filepath.IsAbs(c):
			continue
		case resolve:
			r, err := filepath.EvalSymlinks(c)
			if err != nil {
				continue
			}
			c = r
		}
		c = strings.TrimSuffix(c, string(filepath.Separator))
		if len(dir) > len(c)+1 && strings.HasPrefix(dir, c) && dir[len(c)] == filepath.Separator && len(c) > longest {
			longest = len(c)
		}
	}
	return longest
}

// realPath resolves symlinks, falling back to the cleaned path when that
// is impossible (a missing file), as git's non-strict realpath does.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// isMissing reports errors that mean "no such file", which git skips.
func isMissing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || isNotDir(err)
}
