package identity

import (
	"errors"
	"path/filepath"
	"strings"
)

// condition evaluates an includeIf condition; unknown conditions are
// false.
func (r *configReader) condition(cond, origin string, fromFile bool) (bool, error) {
	if p, ok := strings.CutPrefix(cond, "hasconfig:remote.*.url:"); ok {
		return r.hasRemoteURL(p)
	}
	if p, ok := strings.CutPrefix(cond, "gitdir:"); ok {
		return r.gitDirMatches(p, origin, fromFile, false)
	}
	if p, ok := strings.CutPrefix(cond, "gitdir/i:"); ok {
		return r.gitDirMatches(p, origin, fromFile, true)
	}
	if p, ok := strings.CutPrefix(cond, "onbranch:"); ok {
		return r.onBranch(p), nil
	}
	return false, nil
}

// gitDirMatches applies git's rules for gitdir: patterns: "~/" is the
// home directory, "./" the including file's directory, a relative pattern
// matches at any depth, a trailing "/" matches everything below, and the
// git directory is tried symlink-resolved, then as git spelled it.
func (r *configReader) gitDirMatches(pat, origin string, fromFile, icase bool) (bool, error) {
	if !r.hasRepo {
		return false, nil
	}
	if (pat == "~" || strings.HasPrefix(pat, "~/")) && r.env.Home != "" {
		pat = realPath(r.env.Home) + pat[1:]
	}
	prefix := 0
	if strings.HasPrefix(pat, "./") {
		if !fromFile {
			return false, errors.New("relative config include conditionals must come from files")
		}
		cfg := realPath(origin)
		dir := cfg[:strings.LastIndexByte(cfg, filepath.Separator)]
		pat = dir + pat[1:]
		prefix = len(dir) + 1 // matched literally, so that its characters are not wildcards
	} else if !filepath.IsAbs(pat) {
		pat = "**/" + pat
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	if r.realGitDir == "" {
		r.realGitDir = realPath(r.repo.GitDir)
	}
	for _, text := range []string{r.realGitDir, r.repo.gitDirAlias} {
		if text == "" {
			continue
		}
		if prefix > 0 {
			if len(text) < prefix {
				return false, nil
			}
			a, b := pat[:prefix], text[:prefix]
			if a != b && !(icase && strings.EqualFold(a, b)) {
				return false, nil
			}
		}
		if wildmatch(pat[prefix:], text[prefix:], icase) {
			return true, nil
		}
	}
	return false, nil
}

// onBranch matches the branch HEAD points to (checked out or unborn);
// a detached HEAD matches nothing.
func (r *configReader) onBranch(pat string) bool {
	if !r.hasRepo {
		return false
	}
	if r.branch == nil {
		b := HeadBranch(r.repo)
		r.branch = &b
	}
	if *r.branch == "" {
		return false
	}
	if strings.HasSuffix(pat, "/") {
		pat += "**"
	}
	return wildmatch(pat, *r.branch, false)
}

// HeadBranch follows the worktree's HEAD through symbolic refs to a
// branch name, or "" (detached, or unreadable).
func HeadBranch(repo Repo) string {
	ref, path := "HEAD", filepath.Join(repo.GitDir, "HEAD")
	for range 5 {
		data, err := readFile(path)
		if err != nil {
			break
		}
		target, ok := strings.CutPrefix(strings.TrimRight(string(data), " \t\n\r"), "ref:")
		if !ok {
			break
		}
		ref = strings.TrimLeft(target, " \t\n\r")
		path = filepath.Join(repo.CommonDir, filepath.FromSlash(ref))
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok {
		return ""
	}
	return branch
}

// hasRemoteURL reports whether any remote.*.url in the whole
// configuration matches pattern. As in git, the URLs come from a separate
// pass over every scope in which such conditions count as true, and in
// which no file included through includeIf may set a remote URL (so that
// the answer cannot depend on itself).
func (r *configReader) hasRemoteURL(pattern string) (bool, error) {
	if r.collecting {
		return true, nil
	}
	if r.remoteURLs == nil {
		c := &configReader{env: r.env, collecting: true}
		if err := c.read(); err != nil {
			return false, err
		}
		r.remoteURLs = &c.urls
	}
	for _, u := range *r.remoteURLs {
		if wildmatch(pattern, u, false) {
			return true, nil
		}
	}
	return false, nil
}
