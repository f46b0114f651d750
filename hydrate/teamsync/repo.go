package teamsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Repo is the repository sessions are synced through, and the git that works on it.
type Repo struct {
	Git Git
}

// object is one answer of git cat-file --batch.
type object struct {
	Type    string // "blob", "tree", "commit"; "" when missing
	Data    []byte
	Missing bool
}

// catFile asks one git cat-file --batch for every request ("<object>" or "<commit>:<path>").
func (r Repo) catFile(ctx context.Context, reqs []string) ([]object, error) {
	if len(reqs) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, q := range reqs {
		if strings.ContainsAny(q, "\n") {
			return nil, fmt.Errorf("object name %q has a newline", q)
		}
		in.WriteString(q)
		in.WriteByte('\n')
	}
	out, err := r.Git.Run(ctx, in.Bytes(), nil, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	objs := make([]object, 0, len(reqs))
	for range reqs {
		nl := bytes.IndexByte(out, '\n')
		if nl < 0 {
			return nil, errors.New("git cat-file --batch: answer cut short")
		}
		head := strings.Fields(string(out[:nl]))
		out = out[nl+1:]
		if len(head) >= 2 && head[len(head)-1] == "missing" || len(head) >= 2 && head[len(head)-1] == "ambiguous" {
			objs = append(objs, object{Missing: true})
			continue
		}
		if len(head) != 3 {
			return nil, fmt.Errorf("git cat-file --batch: unexpected answer %q", head)
		}
		size, err := strconv.Atoi(head[2])
		if err != nil || size < 0 || size+1 > len(out) {
			return nil, fmt.Errorf("git cat-file --batch: unexpected answer %q", head)
		}
		objs = append(objs, object{Type: head[1], Data: out[:size]})
		out = out[size+1:]
	}
	return objs, nil
}

// treeEntry is a name in a tree, and its object.
type treeEntry struct {
	Mode, Type, Object, Name string
}

// parseTree reads a tree object as cat-file prints it (binary): "<mode> <name>\0<hash>", the
// hash 20 bytes (SHA-1) or 32 (SHA-256): hashLen.
func parseTree(data []byte, hashLen int) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		nul := bytes.IndexByte(data, 0)
		if sp < 0 || nul < sp || nul+1+hashLen > len(data) {
			return nil, errors.New("a tree that does not parse")
		}
		e := treeEntry{Mode: string(data[:sp]), Name: string(data[sp+1 : nul]), Object: fmt.Sprintf("%x", data[nul+1:nul+1+hashLen])}
		switch {
		case strings.HasPrefix(e.Mode, "4"):
			e.Type = "tree"
		case e.Mode == "160000":
			e.Type = "commit"
		default:
			e.Type = "blob"
		}
		out = append(out, e)
		data = data[nul+1+hashLen:]
	}
	return out, nil
}

// RefCommit is the commit ref points to; ok is false when there is no such ref (or it holds no
// commit).
func (r Repo) RefCommit(ctx context.Context, ref string) (commit string, ok bool, err error) {
	return r.query(ctx, "rev-parse", "-q", "--verify", ref+"^{commit}")
}

// query runs a git command that answers "no" by exiting 1 (no such ref, no such key, not an
// ancestor): its output trimmed and true, or false for that answer.
func (r Repo) query(ctx context.Context, args ...string) (string, bool, error) {
	out, err := r.Git.Run(ctx, nil, nil, args...)
	var ge *Error
	if errors.As(err, &ge) && ge.Code == 1 {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return strings.TrimSpace(string(out)), true, nil
}

// IsAncestor says whether commit a is b or one of its ancestors.
func (r Repo) IsAncestor(ctx context.Context, a, b string) (bool, error) {
	_, ok, err := r.query(ctx, "merge-base", "--is-ancestor", a, b)
	return ok, err
}

// PublishFile is one file of a published session: its name in the tree, and either the
// absolute path git reads it from or its bytes.
type PublishFile struct {
	Name string
	Path string
	Data []byte
}

// WriteBlobs writes files as blobs (git hash-object -w, the bytes as they are) and returns
// their objects, by name. No tree or ref is made.
func (r Repo) WriteBlobs(ctx context.Context, files []PublishFile) (map[string]string, error) {
	var paths bytes.Buffer
	var fromPath []int
	ids := make([]string, len(files))
	for i, f := range files {
		if strings.ContainsAny(f.Name, "\t\n/\x00") || f.Name == "" {
			return nil, fmt.Errorf("%q cannot be a file name in a tree", f.Name)
		}
		if f.Path != "" {
			if strings.ContainsAny(f.Path, "\n") {
				return nil, fmt.Errorf("%q has a newline", f.Path)
			}
			paths.WriteString(f.Path)
			paths.WriteByte('\n')
			fromPath = append(fromPath, i)
			continue
		}
		out, err := r.Git.Run(ctx, f.Data, nil, "hash-object", "-w", "--stdin")
		if err != nil {
			return nil, err
		}
		ids[i] = strings.TrimSpace(string(out))
	}
	if len(fromPath) > 0 {
		out, err := r.Git.Run(ctx, paths.Bytes(), nil, "hash-object", "-w", "--no-filters", "--stdin-paths")
		if err != nil {
			return nil, err
		}
		got := strings.Fields(string(out))
		if len(got) != len(fromPath) {
			return nil, fmt.Errorf("git hash-object wrote %d objects for %d files", len(got), len(fromPath))
		}
		for k, i := range fromPath {
			ids[i] = got[k]
		}
	}
	blobs := make(map[string]string, len(files))
	for i, f := range files {
		blobs[f.Name] = ids[i]
	}
	return blobs, nil
}

// Commit makes a tree of blobs (by name, as WriteBlobs returned them: git mktree, the index is
// never used) and a commit of it with parents (git commit-tree), dated when, written and
// committed by who. No ref is changed.
func (r Repo) Commit(ctx context.Context, blobs map[string]string, parents []string, who Identity, msg string, when time.Time) (string, error) {
	var mk bytes.Buffer
	for _, name := range slices.Sorted(maps.Keys(blobs)) {
		fmt.Fprintf(&mk, "100644 blob %s\t%s\n", blobs[name], name)
	}
	out, err := r.Git.Run(ctx, mk.Bytes(), nil, "mktree")
	if err != nil {
		return "", err
	}
	args := []string{"commit-tree", strings.TrimSpace(string(out))}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	args = append(args, "-m", msg)
	date := fmt.Sprintf("%d +0000", when.Unix())
	out, err = r.Git.Run(ctx, nil, []string{
		"GIT_AUTHOR_NAME=" + who.Name, "GIT_AUTHOR_EMAIL=" + who.Email, "GIT_AUTHOR_DATE=" + date,
		"GIT_COMMITTER_NAME=" + who.Name, "GIT_COMMITTER_EMAIL=" + who.Email, "GIT_COMMITTER_DATE=" + date,
	}, args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// SameFiles says whether the files of ents (a tree, as Tree lists it) are blobs, by name,
// leaving MetaFile out: what says who published them and when is not a change of the session.
func SameFiles(blobs map[string]string, ents []Entry) bool {
	n := 0
	for _, e := range ents {
		if e.Name == MetaFile {
			continue
		}
		if blobs[e.Name] != e.Object {
			return false
		}
		n++
	}
	_, meta := blobs[MetaFile]
	if meta {
		n++
	}
	return n == len(blobs)
}

// UpdateRef points ref at commit, only if it still points at old ("" for: does not exist yet).
// An old of "-" updates ref whatever it points at.
func (r Repo) UpdateRef(ctx context.Context, ref, commit, old string, msg string) error {
	args := []string{"update-ref", "-m", msg, ref, commit}
	switch old {
	case "-":
	case "":
		args = append(args, strings.Repeat("0", len(commit)))
	default:
		args = append(args, old)
	}
	_, err := r.Git.Run(ctx, nil, nil, args...)
	return err
}

// RemoteURL is remote's URL as git config has it; ok is false for no such remote.
func (r Repo) RemoteURL(ctx context.Context, remote string) (string, bool, error) {
	return r.query(ctx, "config", "--get", "remote."+remote+".url")
}

// DefaultRemote is the current branch's upstream remote, else "origin".
func (r Repo) DefaultRemote(ctx context.Context) string {
	out, err := r.Git.Run(ctx, nil, nil, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		return "origin"
	}
	branch := strings.TrimSpace(string(out))
	out, err = r.Git.Run(ctx, nil, nil, "config", "--get", "branch."+branch+".remote")
	if rem := strings.TrimSpace(string(out)); err == nil && rem != "" && rem != "." && CheckRemote(rem) == nil {
		return rem
	}
	return "origin"
}
