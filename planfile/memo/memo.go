// Package memo keeps a command's output together with everything it rested on, and gives it
// back while none of that has changed, as go test's cache replays a test's result: the
// project's files and directories it read (each with the device, inode, size, ctime and mtime
// it had, or its absence: rootfs.AppendInputs), the environment variables it looked up, and how
// long the clock leaves it as it is.
//
// A memo is one file, named by what was asked (Name), written atomically and synced, so that a
// reader finds a whole memo or none:
//
//	gsd memo 1\n
//	<until, Unix ns, 0 for none> <env bytes> <inputs bytes> <output bytes>\n
//	<env: name=value\0 for a variable set, name\0 for one unset, each once><inputs><output>
package memo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/planfile/rootfs"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// magic starts every memo; another version's are ignored and replaced.
const magic = "gsd memo 1\n"

// maxFile bounds a memo read back: far more than any report.
const maxFile = 64 << 20

// MaxAge is how long a memo lives without being written: Store removes older ones, the memos
// of projects gone or of requests not made for a month.
const MaxAge = 30 * 24 * time.Hour

// Var is an environment variable as a command looked it up.
type Var struct {
	Name, Value string
	Set         bool
}

// A Memo is a command's output and what it rested on.
type Memo struct {
	Env    []Var     // the variables looked up, in any order, each once or more
	Inputs []byte    // what the command read from the project: rootfs.AppendInputs
	Until  time.Time // the output holds at every instant before it; zero: the clock does not change it
	Output []byte
}

// Name is the file name of the memo of a request: a digest of its parts (the program's identity,
// the project's root, the command and what its flags select).
func Name(request ...string) string {
	h := sha256.New()
	for _, p := range request {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// Load returns the output the memo in file keeps, when it is still what the command would
// write: now is before its Until, every variable looks up as it did, and every input is
// unchanged beneath root (rootfs.Unchanged). A memo missing, torn, of another version, or that
// no longer holds gives ok false.
func Load(file, root string, now time.Time, lookupEnv func(string) (string, bool)) (output []byte, ok bool) {
	b, err := atomicfile.ReadFile(file, maxFile)
	if err != nil {
		return nil, false
	}
	m, ok := parse(b)
	if !ok || !m.Until.IsZero() && !now.Before(m.Until) {
		return nil, false
	}
	for _, v := range m.Env {
		if val, set := lookupEnv(v.Name); set != v.Set || val != v.Value {
			return nil, false
		}
	}
	if !rootfs.Unchanged(root, m.Inputs) {
		return nil, false
	}
	return m.Output, true
}

// Store writes m into file, replacing any memo there, then removes the memos of file's directory
// not written for MaxAge. The directory is made when missing. A variable the file cannot hold
// (a name with '=' or a NUL, a value with a NUL) is an error: a memo without it would not check
// it.
func Store(file string, m *Memo) error {
	b, err := appendMemo(nil, m)
	if err != nil {
		return err
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(file, b, 0o600); err != nil {
		return err
	}
	prune(dir, time.Now())
	return nil
}

// appendMemo appends m's file to b (see the package comment). Each variable is kept once: the
// first lookup, as every lookup of one run gives the same.
func appendMemo(b []byte, m *Memo) ([]byte, error) {
	var env []byte
	seen := map[string]bool{}
	for _, v := range m.Env {
		if !validName(v.Name) || strings.IndexByte(v.Value, 0) >= 0 {
			return b, fmt.Errorf("environment variable %s cannot be kept in a memo", textfmt.Quote(v.Name))
		}
		if seen[v.Name] {
			continue
		}
		seen[v.Name] = true
		env = append(env, v.Name...)
		if v.Set {
			env = append(append(env, '='), v.Value...)
		}
		env = append(env, 0)
	}
	var until int64
	if !m.Until.IsZero() {
		until = max(m.Until.UnixNano(), 1)
	}
	b = append(b, magic...)
	for i, n := range []int64{until, int64(len(env)), int64(len(m.Inputs)), int64(len(m.Output))} {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, n, 10)
	}
	b = append(b, '\n')
	b = append(b, env...)
	b = append(b, m.Inputs...)
	return append(b, m.Output...), nil
}

// validName reports whether an environment variable's name can be kept: not empty, and without
// '=' or NUL.
func validName(name string) bool { return name != "" && !strings.ContainsAny(name, "=\x00") }

// parse reads a memo's file; ok is false for one that is torn or not this version's.
func parse(b []byte) (m Memo, ok bool) {
	body, ok := bytes.CutPrefix(b, []byte(magic))
	if !ok {
		return m, false
	}
	line, body, ok := bytes.Cut(body, []byte{'\n'})
	if !ok {
		return m, false
	}
	fields := strings.Split(string(line), " ")
	if len(fields) != 4 {
		return m, false
	}
	var n [4]int64
	total := int64(0)
	for i, f := range fields {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v < 0 || strconv.FormatInt(v, 10) != f {
			return m, false
		}
		n[i] = v
		if i > 0 {
			total += v
		}
	}
	if total != int64(len(body)) {
		return m, false
	}
	if n[0] != 0 {
		m.Until = time.Unix(0, n[0])
	}
	env := body[:n[1]]
	m.Inputs = body[n[1] : n[1]+n[2]]
	m.Output = body[n[1]+n[2]:]
	for len(env) > 0 {
		entry, rest, ok := bytes.Cut(env, []byte{0})
		if !ok {
			return m, false
		}
		name, value, set := strings.Cut(string(entry), "=")
		if !validName(name) || slices.ContainsFunc(m.Env, func(v Var) bool { return v.Name == name }) {
			return m, false // each variable once, as appendMemo keeps it
		}
		m.Env = append(m.Env, Var{Name: name, Value: value, Set: set})
		env = rest
	}
	return m, true
}

// prune removes the memos and temporary files in dir not written for MaxAge. Only names a
// memo or its temporary file has are removed.
func prune(dir string, now time.Time) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if !e.Type().IsRegular() || !isMemoName(e.Name()) && !atomicfile.IsTemp(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > MaxAge {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return // another gsd may have removed it; anything else stops the pruning
			}
		}
	}
}

// isMemoName reports whether name is one Name gives: 32 lowercase hexadecimal digits.
func isMemoName(name string) bool {
	if len(name) != 32 {
		return false
	}
	_, err := hex.DecodeString(name)
	return err == nil && strings.ToLower(name) == name
}

// Program identifies the running program's file by its device, inode, size and times, so that
// a rebuilt or reinstalled gsd never takes an older one's memo; "" where that cannot be known
// (memos are then neither stored nor loaded).
func Program() string {
	key, _ := rootfs.PathKey("/proc/self/exe")
	return key
}
