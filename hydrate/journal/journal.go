// Package journal is a user's session history: an append-only file of JSON lines, one per write
// to the session (bootstrap, mark, archive, carry-over, snapshot, restore, reconcile), each with
// a sequence number and the SHA-256 of the session bytes after the write.
//
// The package does no clock reads and knows nothing of the command line: times are inputs. The
// caller holds the session lock around Append and Record.
package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/planfile/jsonlite"
)

// FileName is the journal inside a user's session directory.
const FileName = "journal.jsonl"

// SchemaVersion is the version of the event lines this package writes.
const SchemaVersion = 1

// Event types.
const (
	Bootstrap = "bootstrap" // a fresh session from a plan (Session holds its bytes)
	Mark      = "mark"      // one task's status changed
	Archive   = "archive"   // the session moved aside, no current session left
	Snapshot  = "snapshot"  // a copy of the session kept as Snapshot (the session is unchanged)
	Carry     = "carry"     // a fresh session carrying the statuses of the stale one (Session holds its bytes)
	Restore   = "restore"   // the session replaced by snapshot Snapshot (Session holds its bytes)
	Reconcile = "reconcile" // the session was found changed outside gsd (Session holds its bytes)

	// Agents and teams. Only Resume changes the session; the others leave it as it is (SHA256
	// is its hash), and replay passes over them.
	Rehydrated  = "rehydrated"   // an agent instance took the session up (Instance, Note: the source)
	Detach      = "detach"       // an agent instance ended (Instance, Note: the reason)
	Resume      = "resume"       // the session replaced by a teammate's (Note names them; Session holds its bytes)
	HandedOver  = "handed-over"  // a teammate took a copy of this session (Note names them)
	HookFailure = "hook-failure" // a lifecycle hook could not do its work (Note says why)
)

// Event is one line of the journal.
type Event struct {
	SchemaVersion int       `json:"schemaVersion"`
	Seq           int64     `json:"seq"`
	Time          time.Time `json:"time"`
	Type          string    `json:"type"`
	Source        string    `json:"source,omitempty"`   // cli, hook, mcp
	Instance      string    `json:"instance,omitempty"` // the agent session, when known
	Task          int       `json:"task,omitempty"`
	Name          string    `json:"name,omitempty"`
	Old           string    `json:"old,omitempty"`
	New           string    `json:"new,omitempty"`
	Plan          string    `json:"plan,omitempty"`
	Snapshot      string    `json:"snapshot,omitempty"` // a snapshot id (file name) the event made or used
	Carried       []Carried `json:"carried,omitempty"`
	Note          string    `json:"note,omitempty"`
	Size          int       `json:"size,omitempty"` // rehydrated: the bytes of context given to the agent
	// SHA256 is the hash of the session bytes after the event; "" when no session is left.
	SHA256 string `json:"sha256"`
	// Session is the whole session after the event, for the events that are not a status
	// change (bootstrap, carry, restore, reconcile): replay starts from it.
	Session string `json:"session,omitempty"`
	// Volatile marks an event its writer does not need on disk before Append returns (a copy
	// whose loss costs no status, such as a pre-compaction snapshot); it is not written.
	Volatile bool `json:"-"`
}

// Carried is how one task of a carry-over fared.
type Carried struct {
	Task   int    `json:"task"`             // in the fresh session
	Name   string `json:"name"`             // its name
	From   int    `json:"from,omitempty"`   // the old task it was matched to, 0 when none
	Status string `json:"status,omitempty"` // the status carried, "" when none
}

// Hash is the journal's hash of session bytes: hex SHA-256, "" for no session.
func Hash(data []byte, exists bool) string {
	if !exists {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// Problem is a line of the journal that was skipped.
type Problem struct {
	Line    int
	Message string
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Message) }

// Parse reads every event of a journal. Lines that are not events (torn by a crash, garbage,
// a newer schema) are skipped and reported, never fatal.
func Parse(data []byte) ([]Event, []Problem) {
	evs := make([]Event, 0, bytes.Count(data, []byte{'\n'})+1)
	var probs []Problem
	in := interner{}
	line := 0
	for len(data) > 0 {
		line++
		i := bytes.IndexByte(data, '\n')
		var l []byte
		torn := false
		if i < 0 {
			l, data, torn = data, nil, true
		} else {
			l, data = data[:i], data[i+1:]
		}
		l = bytes.TrimRight(l, "\r")
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		ev, err := parseLineIn(l, in)
		if err != nil {
			msg := err.Error()
			if torn {
				msg = "torn last line (no newline): " + msg
			}
			probs = append(probs, Problem{Line: line, Message: msg})
			continue
		}
		evs = append(evs, ev)
	}
	return evs, probs
}

func parseLine(l []byte) (Event, error) { return parseLineIn(l, nil) }

func parseLineIn(l []byte, in interner) (Event, error) {
	ev, ok := fastParseIn(l, in)
	if !ok {
		ev = Event{}
		if err := json.Unmarshal(l, &ev); err != nil {
			return ev, errors.New("not a journal event")
		}
	}
	switch {
	case ev.SchemaVersion != SchemaVersion:
		return ev, fmt.Errorf("schema version %d, not %d", ev.SchemaVersion, SchemaVersion)
	case ev.Seq < 1:
		return ev, errors.New("no sequence number")
	case ev.Type == "":
		return ev, errors.New("no event type")
	}
	return ev, nil
}

// Encode renders ev as one journal line, newline included: what encoding/json writes for it
// (without HTML escaping), written directly, since every mark and every hook writes one and
// encoding/json's first use of a type in a process builds its codec by reflection (FuzzEncode
// holds the two to the same bytes).
func Encode(ev Event) ([]byte, error) {
	t, err := ev.Time.UTC().MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("json: error calling MarshalJSON for type time.Time: %w", err)
	}
	b := make([]byte, 0, 192+len(ev.Session)+len(ev.Note)+32*len(ev.Carried))
	b = append(b, `{"schemaVersion":`...)
	b = strconv.AppendInt(b, SchemaVersion, 10)
	b = intField(b, "seq", ev.Seq, false)
	b = append(b, `,"time":`...)
	b = append(b, t...)
	b = field(b, "type", ev.Type, false)
	b = field(b, "source", ev.Source, true)
	b = field(b, "instance", ev.Instance, true)
	b = intField(b, "task", int64(ev.Task), true)
	b = field(b, "name", ev.Name, true)
	b = field(b, "old", ev.Old, true)
	b = field(b, "new", ev.New, true)
	b = field(b, "plan", ev.Plan, true)
	b = field(b, "snapshot", ev.Snapshot, true)
	if len(ev.Carried) > 0 {
		b = append(b, `,"carried":[`...)
		for i, c := range ev.Carried {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"task":`...)
			b = strconv.AppendInt(b, int64(c.Task), 10)
			b = field(b, "name", c.Name, false)
			b = intField(b, "from", int64(c.From), true)
			b = field(b, "status", c.Status, true)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = field(b, "note", ev.Note, true)
	b = intField(b, "size", int64(ev.Size), true)
	b = field(b, "sha256", ev.SHA256, false)
	b = field(b, "session", ev.Session, true)
	return append(b, "}\n"...), nil
}

// field appends `,"key":"value"` to b, nothing for an empty value when omitEmpty.
func field(b []byte, key, value string, omitEmpty bool) []byte {
	if omitEmpty && value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return jsonlite.AppendString(b, value, false)
}

// intField appends `,"key":n` to b, nothing for 0 when omitEmpty.
func intField(b []byte, key string, n int64, omitEmpty bool) []byte {
	if omitEmpty && n == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, n, 10)
}

// FileTypeError says the journal path is not a regular file: it is never opened then (opening a
// FIFO would block).
type FileTypeError struct {
	Path string
	Mode fs.FileMode
}

func (e *FileTypeError) Error() string {
	what := "not a regular file"
	switch {
	case e.Mode.IsDir():
		what = "a directory"
	case e.Mode&fs.ModeNamedPipe != 0:
		what = "a FIFO"
	case e.Mode&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case e.Mode&fs.ModeDevice != 0:
		what = "a device"
	case e.Mode&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Sprintf("%s is %s, not a journal; session history is not recorded until it is moved away", e.Path, what)
}

// check refuses a journal path that exists and is not a regular file, without opening it.
func check(path string) (bool, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return false, &FileTypeError{Path: path, Mode: fi.Mode()}
	}
	return true, nil
}

// Last is the last event of the journal at path that parses, reading it from the end; problems
// are the unreadable lines after it (a torn last line). ok is false for an empty or missing
// journal.
func Last(path string) (last Event, ok bool, probs []Problem, err error) {
	exists, err := check(path)
	if err != nil || !exists {
		return Event{}, false, nil, err
	}
	f, err := atomicfile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return Event{}, false, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Event{}, false, nil, err
	}
	return LastOf(f, fi.Size())
}

// LastOf finds the last parseable line of the size bytes of f, reading backwards in growing
// chunks, and the unreadable lines after it.
func LastOf(f io.ReaderAt, size int64) (Event, bool, []Problem, error) {
	ev, ok, probs, _, err := lastOf(f, size)
	return ev, ok, probs, err
}

// lastOf is LastOf, also saying whether the size bytes end in a torn line (no newline): the
// first chunk it reads holds the last byte.
func lastOf(f io.ReaderAt, size int64) (_ Event, _ bool, _ []Problem, torn bool, _ error) {
	chunk := int64(2 << 10) // most lines are a few hundred bytes; a bootstrap's holds the session
	var probs []Problem
	first := true
	for {
		if chunk > size {
			chunk = size
		}
		buf := make([]byte, chunk)
		if _, err := f.ReadAt(buf, size-chunk); err != nil && err != io.EOF {
			return Event{}, false, nil, false, err
		}
		if first {
			torn, first = len(buf) > 0 && buf[len(buf)-1] != '\n', false
		}
		complete := chunk == size // buf starts at a line start
		probs = probs[:0]
		end := len(buf)
		for end > 0 {
			start := bytes.LastIndexByte(buf[:end], '\n')
			if start < 0 && !complete {
				break // the line may begin before buf: read more
			}
			l := bytes.TrimRight(buf[start+1:end], "\r\n")
			lineTorn := end == len(buf) && torn
			if len(bytes.TrimSpace(l)) > 0 {
				ev, err := parseLine(l)
				if err == nil {
					reverse(probs)
					return ev, true, probs, torn, nil
				}
				msg := err.Error()
				if lineTorn {
					msg = "torn last line (no newline): " + msg
				}
				probs = append(probs, Problem{Message: msg})
			}
			if start < 0 {
				break
			}
			end = start
		}
		if complete {
			reverse(probs)
			return Event{}, false, probs, torn, nil
		}
		chunk *= 4
	}
}

func reverse(p []Problem) {
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}

// Append writes evs as lines at the end of the journal at path, creating it, and syncs it. A
// journal whose last line is torn gets a newline first, so the new events start on their own
// line. The caller holds the session lock.
func Append(path string, evs ...Event) error {
	_, err := record(path, false, func(Event, bool) []Event { return evs })
	return err
}

// Record appends to the journal at path, creating it, the events build returns when given the
// journal's last event (ok false for an empty or missing journal): Last then Append, through one
// descriptor. problems are the unreadable lines after the last event (a torn last line, which
// gets a newline first, as with Append). It syncs the journal as Append does. The caller holds
// the session lock across the call.
func Record(path string, build func(last Event, ok bool) []Event) (problems []Problem, err error) {
	return record(path, true, build)
}

// record is Record; without readLast, build is given no event and only the last byte is read.
func record(path string, readLast bool, build func(Event, bool) []Event) ([]Problem, error) {
	exists, err := check(path)
	if err != nil {
		return nil, err
	}
	// O_RDWR: pread ignores O_APPEND, so the end is read through the descriptor that appends.
	// check refused a symlink; O_NOFOLLOW refuses one put there since.
	f, err := atomicfile.Open(path, os.O_RDWR|os.O_APPEND|os.O_CREATE|noFollow, 0o644)
	if err != nil {
		return nil, err
	}
	probs, err := appendTo(f, readLast, build)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && !exists {
		err = syncDir(filepath.Dir(path))
	}
	return probs, err
}

// appendTo reads the end of the journal open at f, asks build for the events and writes them.
func appendTo(f *os.File, readLast bool, build func(Event, bool) []Event) (probs []Problem, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileTypeError{Path: f.Name(), Mode: fi.Mode()}
	}
	var last Event
	var ok, torn bool
	if readLast {
		if last, ok, probs, torn, err = lastOf(f, fi.Size()); err != nil {
			return nil, err
		}
	} else if fi.Size() > 0 {
		b := make([]byte, 1)
		if _, err := f.ReadAt(b, fi.Size()-1); err == nil {
			torn = b[0] != '\n'
		}
	}
	evs := build(last, ok)
	var out []byte
	if torn && len(evs) > 0 {
		out = append(out, '\n') // the new events start on their own line
	}
	for _, ev := range evs {
		line, err := Encode(ev)
		if err != nil {
			return probs, err
		}
		out = append(out, line...)
	}
	if _, err := f.Write(out); err != nil {
		return probs, err
	}
	if needSync(evs) {
		if err := f.Sync(); err != nil {
			return probs, err
		}
	}
	return probs, nil
}

// needSync says whether evs must reach the disk before Append returns: all but the events that
// only record an agent's comings and goings (rehydrated, detach, hook-failure), which the
// lifecycle hooks write on every agent start and end, and those the writer marks Volatile. Losing one of those in a crash loses a metric or a spare copy, never a status; not
// waiting for the disk keeps the hooks as fast as gsd --version.
func needSync(evs []Event) bool {
	for _, ev := range evs {
		switch {
		case ev.Volatile, ev.Type == Rehydrated, ev.Type == Detach, ev.Type == HookFailure:
		default:
			return true
		}
	}
	return false
}

// syncDir makes a new directory entry durable (Windows cannot open a directory to sync it).
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
