package teamsync

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The caps on what gsd reads of a session ref, checked before anything is read whole or
// written: a ref that holds more is not read (and not merged, nor listed but as a problem).
const (
	// MaxRefFiles bounds the files of a published session: the session, the journal, the
	// metadata and the snapshots.
	MaxRefFiles = 1000
	// MaxRefBytes bounds all of a published session's files together.
	MaxRefBytes = 128 << 20
	// MaxTreeBytes bounds the tree object that lists them (1,000 names fit in 100 KiB).
	MaxTreeBytes = 512 << 10
	// MaxMetaBytes bounds MetaFile.
	MaxMetaBytes = 1 << 20
	// MaxRefs bounds the users' refs fetched from one remote, and the fetched refs read.
	MaxRefs = 1000
	// MaxNewCommits bounds the commits a sync examines for who wrote them, on a ref that moved.
	MaxNewCommits = 1000
)

// Entry is one file of a published session's tree.
type Entry struct {
	Name, Object string
	Size         int64
}

// CapError is a ref that holds more than gsd reads.
type CapError struct{ What string }

func (e *CapError) Error() string { return e.What }

// batchCheck asks one git cat-file --batch-check for the type and size of each request ("" type
// for a missing object).
func (r Repo) batchCheck(ctx context.Context, reqs []string) ([]object, []int64, []string, error) {
	if len(reqs) == 0 {
		return nil, nil, nil, nil
	}
	var in bytes.Buffer
	for _, q := range reqs {
		if strings.ContainsAny(q, "\n") {
			return nil, nil, nil, fmt.Errorf("object name %q has a newline", q)
		}
		in.WriteString(q)
		in.WriteByte('\n')
	}
	out, err := r.Git.Run(ctx, in.Bytes(), nil, "cat-file", "--batch-check")
	if err != nil {
		return nil, nil, nil, err
	}
	objs := make([]object, len(reqs))
	sizes := make([]int64, len(reqs))
	ids := make([]string, len(reqs))
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(reqs) {
		return nil, nil, nil, errors.New("git cat-file --batch-check: answer cut short")
	}
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) != 3 {
			objs[i].Missing = true
			continue
		}
		n, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil || n < 0 {
			return nil, nil, nil, fmt.Errorf("git cat-file --batch-check: unexpected answer %q", l)
		}
		ids[i], objs[i].Type, sizes[i] = f[0], f[1], n
	}
	return objs, sizes, ids, nil
}

// Tree lists the files at the top of commit's tree: blobs with a file's mode and a name gsd
// could have written (no subtree, link or submodule). It refuses (*CapError), before reading
// the tree, one larger than MaxTreeBytes, and then one of more than MaxRefFiles entries.
func (r Repo) Tree(ctx context.Context, commit string) ([]Entry, error) {
	objs, sizes, ids, err := r.batchCheck(ctx, []string{commit + "^{tree}"})
	if err != nil {
		return nil, err
	}
	if objs[0].Missing || objs[0].Type != "tree" {
		return nil, fmt.Errorf("%s has no tree", commit)
	}
	if sizes[0] > MaxTreeBytes {
		return nil, &CapError{What: fmt.Sprintf("a tree of %d bytes, over the %s gsd reads", sizes[0], sizeText(MaxTreeBytes))}
	}
	out, err := r.Git.Run(ctx, nil, nil, "ls-tree", "-z", "-l", ids[0])
	if err != nil {
		return nil, err
	}
	var ents []Entry
	n := 0
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		if n++; n > MaxRefFiles {
			return nil, &CapError{What: fmt.Sprintf("more than %d files, the most a session ref may hold", MaxRefFiles)}
		}
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 4 || f[1] != "blob" || f[0] != "100644" && f[0] != "100755" || strings.ContainsAny(string(name), "/\n") {
			continue
		}
		size, err := strconv.ParseInt(f[3], 10, 64)
		if err != nil || size < 0 {
			continue
		}
		ents = append(ents, Entry{Name: string(name), Object: f[2], Size: size})
	}
	return ents, nil
}

// ReadBounded reads the files of ents for which limit gives a positive cap (0: not wanted),
// refusing (*CapError) before anything is read a file over its cap or, together, more than
// MaxRefBytes. One git cat-file --batch reads them all.
func (r Repo) ReadBounded(ctx context.Context, ents []Entry, limit func(name string) int64) (map[string][]byte, error) {
	var reqs, names []string
	var total int64
	for _, e := range ents {
		max := limit(e.Name)
		if max <= 0 {
			continue
		}
		if e.Size > max {
			return nil, &CapError{What: fmt.Sprintf("%s is %d bytes, over the %s gsd reads", e.Name, e.Size, sizeText(max))}
		}
		if total += e.Size; total > MaxRefBytes {
			return nil, &CapError{What: fmt.Sprintf("its files are more than the %s gsd reads of a session ref", sizeText(MaxRefBytes))}
		}
		reqs, names = append(reqs, e.Object), append(names, e.Name)
	}
	objs, err := r.catFile(ctx, reqs)
	if err != nil {
		return nil, err
	}
	out := make(map[string][]byte, len(names))
	for i, n := range names {
		if !objs[i].Missing && objs[i].Type == "blob" {
			out[n] = objs[i].Data
		}
	}
	return out, nil
}

// sizeText says a cap in the unit it was set in: "8 MiB", "512 KiB".
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}
