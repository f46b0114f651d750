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
	"sort"
	"time"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
	"github.com/gsd-tools/gsd/planfile/textfmt"
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
	SchemaVersion int   `json:"schemaVersion"`
	Seq           int64 `json:"seq"`
	// Prev is the ID of the event the writer found last in the journal: with it, a history
	// merged from two branches (git's union merge) is still a tree each event replays along.
	// Events written before gsd recorded it get one when read (see link).
	Prev     string    `json:"prev,omitempty"`
	Time     time.Time `json:"time"`
	Type     string    `json:"type"`
	Source   string    `json:"source,omitempty"`   // cli, hook, mcp
	Instance string    `json:"instance,omitempty"` // the agent session, when known
	Task     int       `json:"task,omitempty"`
	Name     string    `json:"name,omitempty"`
	Old      string    `json:"old,omitempty"`
	New      string    `json:"new,omitempty"`
	Plan     string    `json:"plan,omitempty"`
	Snapshot string    `json:"snapshot,omitempty"` // a snapshot id (file name) the event made or used
	Carried  []Carried `json:"carried,omitempty"`
	Note     string    `json:"note,omitempty"`
	// Commit is the commit a status set from git's record of the work rests on (a mark whose
	// cause is the task's commit, not a person or an agent running gsd mark-*).
	Commit string `json:"commit,omitempty"`
	Size   int    `json:"size,omitempty"` // rehydrated: the bytes of context given to the agent
	// SHA256 is the hash of the session bytes after the event; "" when no session is left.
	SHA256 string `json:"sha256"`
	// Session is the whole session after the event, for the events that are not a status
	// change (bootstrap, carry, restore, reconcile): replay starts from it.
	Session string `json:"session,omitempty"`
	// ID is the event's identity, computed by readers from the line's bytes (see IDOf), never
	// written: the same line on two branches is the same event.
	ID string `json:"-"`
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

// Bounds of a journal, in bytes and numbers.
const (
	// MaxLine bounds one line: the longest event is a bootstrap's, which holds the session (at
	// most 8 MiB, as every file gsd reads). A writer refuses a longer event; readers skip a
	// longer line as garbage.
	MaxLine = 8 << 20
	// MaxTail bounds what a writer reads from the end of the journal to find its last event: a
	// whole line of MaxLine bytes behind a torn one as long. A journal whose last MaxTail bytes
	// hold no event is moved aside (see Record): a write never reads more.
	MaxTail = 2*MaxLine + 2
	// MaxSeq is the largest sequence number (eight digits, what gsd tasks --at reads as one);
	// numbers, task numbers and sizes in a line outside 0 to MaxSeq make it garbage. A writer
	// never numbers an event beyond it (NextSeq).
	MaxSeq = 99_999_999
	// maxTailProblems bounds the unreadable lines a writer passes over at the journal's end
	// before it takes the end for garbage (see MaxTail).
	maxTailProblems = 1000
)

// NextSeq is the sequence number after seq: seq+1, held at MaxSeq (where events keep their
// order by their parents, see Order) rather than wrapped around to numbers readers refuse.
func NextSeq(seq int64) int64 {
	if seq < 0 {
		seq = 0
	}
	return min(seq+1, MaxSeq)
}

// IDOf is the identity of the journal line l (without its line ending): the first 16 hex digits
// of its SHA-256. It survives any copy or merge that keeps the line's bytes, and a checkout that
// turns line endings into CRLF.
func IDOf(l []byte) string {
	l = bytes.TrimRight(l, "\r\n")
	sum := sha256.Sum256(l)
	return hex.EncodeToString(sum[:8])
}

// Problem is a line of the journal that was skipped, or (Repaired) a repair a writer made.
type Problem struct {
	Line     int
	Message  string
	Repaired bool
}

func (p Problem) String() string { return fmt.Sprintf("line %d: %s", p.Line, p.Message) }

// Parse reads every event of a journal, in the order of its lines, each with its ID and, where
// the line names none, its parent (link). Lines that are not events (torn by a crash, garbage,
// longer than MaxLine, a newer schema, numbers out of range) are skipped and reported, never
// fatal; so is an event whose sequence number does not follow its parent's (plausible): a line
// that claims 99,999,999 after seq 5 would otherwise number every later event. Order puts the
// events in the order to show and replay them.
func Parse(data []byte) ([]Event, []Problem) {
	evs := make([]Event, 0, bytes.Count(data, []byte{'\n'})+1)
	lines := make([]int, 0, cap(evs))
	var probs []Problem
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
		ev, err := parseLine(l)
		if err != nil {
			msg := err.Error()
			if torn {
				msg = "torn last line (no newline): " + msg
			}
			probs = append(probs, Problem{Line: line, Message: msg})
			continue
		}
		ev.ID = IDOf(l)
		evs = append(evs, ev)
		lines = append(lines, line)
	}
	link(evs)
	byID := make(map[string]int, len(evs))
	for i, ev := range evs {
		if _, dup := byID[ev.ID]; !dup {
			byID[ev.ID] = i
		}
	}
	kept := evs[:0]
	for i, ev := range evs {
		var parent *Event
		if p, ok := byID[ev.Prev]; ok {
			parent = &evs[p]
		}
		if msg := implausible(ev, i == 0, parent); msg != "" {
			probs = append(probs, Problem{Line: lines[i], Message: msg})
			continue
		}
		kept = append(kept, ev)
	}
	if len(kept) < len(evs) {
		sort.SliceStable(probs, func(i, j int) bool { return probs[i].Line < probs[j].Line })
	}
	return kept, probs
}

// implausible says why ev cannot be where it is, "" when it can: every writer numbers an event
// NextSeq of the event it follows (its parent, Prev) and the first event of a journal 1, so an
// event whose parent is known and numbered otherwise, or one without a parent that is neither
// numbered 1 nor the journal's first (link found no event numbered one less before it), was not
// written by gsd. first says ev is the journal's first event; parent is the event ev follows,
// nil when it names none or names one the journal does not hold (replay says so).
func implausible(ev Event, first bool, parent *Event) string {
	switch {
	case parent != nil && ev.Seq != NextSeq(parent.Seq):
		return fmt.Sprintf("sequence number %d does not follow the event before it (seq %d): not written by gsd", ev.Seq, parent.Seq)
	case ev.Prev == "" && ev.Seq != 1 && !first:
		return fmt.Sprintf("sequence number %d follows no event numbered %d: not written by gsd", ev.Seq, ev.Seq-1)
	}
	return ""
}

// parseLine reads one line as an event, encoding/json's way: Event's struct tags are the one
// definition of the format.
func parseLine(l []byte) (Event, error) {
	if len(l) > MaxLine {
		return Event{}, fmt.Errorf("a line of %d bytes, over the %d a journal line may hold", len(l), MaxLine)
	}
	if t := bytes.TrimLeft(l, " \t"); len(t) == 0 || t[0] != '{' {
		return Event{}, errors.New("not a journal event")
	}
	var ev Event
	if err := json.Unmarshal(l, &ev); err != nil {
		return Event{}, errors.New("not a journal event")
	}
	switch {
	case ev.SchemaVersion != SchemaVersion:
		return ev, fmt.Errorf("schema version %d, not %d", ev.SchemaVersion, SchemaVersion)
	case ev.Seq < 1:
		return ev, errors.New("no sequence number")
	case ev.Seq > MaxSeq:
		return ev, fmt.Errorf("sequence number %d out of range (1 to %d)", ev.Seq, MaxSeq)
	case ev.Type == "":
		return ev, errors.New("no event type")
	case !numbersInRange(ev):
		return ev, fmt.Errorf("a number out of range (0 to %d)", MaxSeq)
	}
	return ev, nil
}

// numbersInRange says whether every count in ev is from 0 to MaxSeq.
func numbersInRange(ev Event) bool {
	ok := func(n int) bool { return n >= 0 && n <= MaxSeq }
	if !ok(ev.Task) || !ok(ev.Size) {
		return false
	}
	for _, c := range ev.Carried {
		if !ok(c.Task) || !ok(c.From) {
			return false
		}
	}
	return true
}

// link gives each event of evs (in the order of the journal's lines) an ID when it has none (that
// of its encoding: events built in memory) and a parent when it names none: the nearest earlier
// event with the sequence number before its own. That is how a journal written before events
// named their parent is chained, a union merge of two of them included (the second branch's
// first event follows the events the branches share). An event numbered 1 is the first a
// journal had, and has no parent: each machine's journal begins with one, and a history merged
// from two machines has both roots. One that finds no event numbered one less keeps none
// (implausible judges it).
func link(evs []Event) {
	lastBySeq := map[int64]string{}
	for i := range evs {
		ev := &evs[i]
		if ev.ID == "" {
			if line, err := Encode(*ev); err == nil {
				ev.ID = IDOf(line)
			}
		}
		if ev.Prev == "" && ev.Seq > 1 {
			ev.Prev = lastBySeq[ev.Seq-1]
		}
		lastBySeq[ev.Seq] = ev.ID
	}
}

// Encode renders ev as one journal line, newline included: encoding/json's encoding of ev with
// the schema version set and the time in UTC, without HTML escaping (a task named "<b>" is
// written as it is).
func Encode(ev Event) ([]byte, error) {
	ev.SchemaVersion = SchemaVersion
	ev.Time = ev.Time.UTC()
	var b bytes.Buffer
	b.Grow(192 + len(ev.Session) + len(ev.Note) + 32*len(ev.Carried))
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ev); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// FileTypeError says the journal path is not a regular file: it is never opened then (opening a
// FIFO would block).
type FileTypeError struct {
	Path string
	Mode fs.FileMode
}

func (e *FileTypeError) Error() string {
	return fmt.Sprintf("%s is %s, not a journal; session history is not recorded until it is moved away", e.Path, atomicfile.TypeName(e.Mode))
}

// check refuses a journal path that exists and is not a regular file, without opening it: the
// refusal of every writer (atomicfile.CheckRegular), said as the journal's.
func check(path string) (bool, error) {
	ok, err := atomicfile.CheckRegular(path)
	var nr *atomicfile.NotRegularError
	if errors.As(err, &nr) {
		return false, &FileTypeError{Path: path, Mode: nr.Mode}
	}
	return ok, err
}

// Last is the last event of the journal at path that parses, reading it from the end; problems
// are the unreadable lines after it (a torn last line). ok is false for an empty or missing
// journal, or one whose last MaxTail bytes hold no event.
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
// chunks but never more than MaxTail bytes, and the unreadable lines after it.
func LastOf(f io.ReaderAt, size int64) (Event, bool, []Problem, error) {
	t, err := readTail(f, size)
	return t.last, t.ok, t.probs, err
}

// tail is what a writer needs to know of the end of a journal.
type tail struct {
	last  Event // the last event, with its ID
	ok    bool
	probs []Problem // the unreadable lines after it, in order
	// torn is the offset of a last line without a newline that is not an event (a write cut
	// short), -1 when there is none; tornLine is its start, for a message.
	torn     int64
	tornLine []byte
	// newline says the last line is an event without its newline.
	newline bool
	// overlong says the last MaxTail bytes of a longer journal, or its last maxTailProblems
	// lines, hold no event: where its last event is cannot be known within bounds.
	overlong bool
}

// readTail reads the end of the size bytes of f: at most MaxTail bytes, in chunks growing from
// 2 KiB (most lines are a few hundred bytes; a bootstrap's holds the session).
func readTail(f io.ReaderAt, size int64) (tail, error) {
	chunk := int64(2 << 10)
	for {
		chunk = min(chunk, size, MaxTail)
		buf := make([]byte, chunk)
		if _, err := f.ReadAt(buf, size-chunk); err != nil && err != io.EOF {
			return tail{torn: -1}, err
		}
		t, done := tailOf(buf, size, chunk == MaxTail)
		if done {
			return t, nil
		}
		if chunk == MaxTail {
			t.overlong = true
			return t, nil
		}
		chunk *= 4
	}
}

// tailOf reads buf, the last len(buf) bytes of a journal of size bytes, from its end; done is
// false when buf may not reach back far enough (its first line may begin before it, or the
// event the last one follows may lie before it). last says no more will be read: an event
// whose parent is not in buf is then taken as it is.
func tailOf(buf []byte, size int64, last bool) (t tail, done bool) {
	t.torn = -1
	whole := int64(len(buf)) == size // buf starts at a line start
	start := size - int64(len(buf))
	endsTorn := len(buf) > 0 && buf[len(buf)-1] != '\n'
	end := len(buf)
	for end > 0 {
		nl := bytes.LastIndexByte(buf[:end], '\n')
		if nl < 0 && !whole {
			break // the line may begin before buf: read more
		}
		l := bytes.TrimRight(buf[nl+1:end], "\r\n")
		lineTorn := end == len(buf) && endsTorn
		if len(bytes.TrimSpace(l)) > 0 {
			ev, err := parseLine(l)
			msg := ""
			if err == nil {
				ev.ID = IDOf(l)
				var known bool
				if msg, known = plausibleAfter(ev, buf[:max(nl, 0)], whole); !known && !last {
					return t, false // its parent may lie before buf: read more
				}
				if msg == "" {
					t.last, t.ok, t.newline = ev, true, endsTorn && t.torn < 0
					reverse(t.probs)
					return t, true
				}
			} else {
				msg = err.Error()
				if lineTorn {
					msg = "torn last line (no newline): " + msg
					t.torn, t.tornLine = start+int64(nl+1), l[:min(len(l), 256)]
				}
			}
			t.probs = append(t.probs, Problem{Message: msg})
			if len(t.probs) >= maxTailProblems {
				t.overlong = true
				return t, true
			}
		}
		if nl < 0 {
			break
		}
		end = nl
	}
	t.newline = endsTorn && t.torn < 0
	reverse(t.probs)
	return t, whole
}

// plausibleAfter judges ev, the last event of a journal, as Parse does (implausible), from the
// lines before it (before, which holds the whole journal before ev when whole): "" when it is
// plausible, else why not. known is false when the lines that would decide are not in before.
func plausibleAfter(ev Event, before []byte, whole bool) (msg string, known bool) {
	if ev.Prev == "" && ev.Seq <= 1 {
		return "", true // the first event of a journal
	}
	first := true // no event before ev
	for end := len(before); end > 0; {
		nl := bytes.LastIndexByte(before[:end], '\n')
		if nl < 0 && !whole {
			break
		}
		l := bytes.TrimRight(before[nl+1:end], "\r")
		end = max(nl, 0)
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		p, err := parseLine(l)
		if err != nil {
			continue
		}
		first = false
		switch {
		case ev.Prev != "" && IDOf(l) == ev.Prev:
			return implausible(ev, false, &p), true
		case ev.Prev == "" && p.Seq == ev.Seq-1:
			return "", true // link's parent: the nearest earlier event numbered one less
		}
		if nl < 0 {
			break
		}
	}
	if !whole {
		return "", false
	}
	if ev.Prev != "" {
		return "", true // a parent the journal does not hold: replay says so
	}
	return implausible(ev, first, nil), true
}

func reverse(p []Problem) {
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
}

// Append writes evs as lines at the end of the journal at path, creating it, and syncs it,
// repairing its end first as Record does. The caller holds the session lock.
func Append(path string, evs ...Event) error {
	_, err := Record(path, func(Event, bool) []Event { return evs })
	return err
}

// Record appends to the journal at path, creating it, the events build returns when given the
// journal's last event (ok false for an empty or missing journal); each is written with Prev, the
// ID of the event before it. problems are the unreadable lines after the last event and the
// repairs made. It syncs the journal as Append does. The caller holds the session lock across
// the call.
//
// Record repairs the end of the journal before it appends, so that no write leaves a torn line
// behind: a last line that is an event without its newline gets it; a last line without a
// newline that is not an event (a write cut short by a crash or a full disk) is removed; a
// write that fails midway is undone. A journal whose last MaxTail bytes hold no event is moved
// aside whole (journal.damaged.jsonl) and a new one started: a write reads at most MaxTail bytes
// and holds at most that in memory, whatever the journal's size and shape.
func Record(path string, build func(last Event, ok bool) []Event) (problems []Problem, err error) {
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
	probs, err := appendTo(f, build)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, errOverlong) {
		aside, merr := moveAside(path)
		if merr != nil {
			return probs, fmt.Errorf("%w, and could not be moved aside: %v", err, merr)
		}
		more, err := Record(path, build)
		note := Problem{Repaired: true, Message: fmt.Sprintf("%v: moved to %s; the journal starts afresh", errOverlong, filepath.Base(aside))}
		return append([]Problem{note}, more...), err
	}
	if err == nil && !exists {
		err = syncDir(filepath.Dir(path))
	}
	return probs, err
}

// errOverlong says the end of a journal cannot be read within MaxTail.
var errOverlong = fmt.Errorf("its last %d MiB or %d lines hold no event (a line longer than %d MiB, or garbage)", MaxTail>>20, maxTailProblems, MaxLine>>20)

// moveAside renames the journal at path to journal.damaged.jsonl beside it (journal.damaged.2.jsonl
// and so on when taken): nothing is deleted.
func moveAside(path string) (string, error) {
	dir := filepath.Dir(path)
	for i := 1; i <= 1000; i++ {
		name := "journal.damaged.jsonl"
		if i > 1 {
			name = fmt.Sprintf("journal.damaged.%d.jsonl", i)
		}
		aside := filepath.Join(dir, name)
		if _, err := os.Lstat(aside); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(path, aside); err != nil {
			return "", err
		}
		return aside, syncDir(dir)
	}
	return "", errors.New("a thousand damaged journals are in the way")
}

// appendTo repairs the end of the journal open at f, asks build for the events and writes them,
// undoing a write that fails midway.
func appendTo(f *os.File, build func(Event, bool) []Event) (probs []Problem, err error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &FileTypeError{Path: f.Name(), Mode: fi.Mode()}
	}
	size := fi.Size()
	t, err := readTail(f, size)
	if err != nil {
		return nil, err
	}
	if t.overlong {
		return t.probs, errOverlong
	}
	probs = t.probs
	evs := build(t.last, t.ok)
	if len(evs) == 0 {
		return probs, nil
	}
	if t.torn >= 0 {
		if err := f.Truncate(t.torn); err != nil {
			return probs, fmt.Errorf("removing a torn last line: %w", err)
		}
		probs[len(probs)-1] = Problem{Repaired: true, Message: fmt.Sprintf("removed a torn last line of %d bytes (a write cut short): %s",
			size-t.torn, textfmt.Quote(string(t.tornLine)))}
		size = t.torn
	}
	var out []byte
	if t.newline {
		out = append(out, '\n') // the last event gets its newline
	}
	prev := ""
	if t.ok {
		prev = t.last.ID
	}
	for _, ev := range evs {
		if ev.Seq < 1 || ev.Seq > MaxSeq {
			return probs, fmt.Errorf("sequence number %d out of range (1 to %d)", ev.Seq, MaxSeq)
		}
		ev.Prev, ev.ID = prev, ""
		line, err := Encode(ev)
		if err != nil {
			return probs, err
		}
		if len(line)-1 > MaxLine {
			return probs, fmt.Errorf("a %s event of %d bytes, over the %d a journal line may hold", ev.Type, len(line)-1, MaxLine)
		}
		prev = IDOf(line)
		out = append(out, line...)
	}
	if _, err := f.Write(out); err != nil {
		// A full disk or a file size limit cut the write short: take the partial line back,
		// so that the journal ends where it did. Should that fail too, the next writer
		// removes the torn line.
		if terr := f.Truncate(size); terr != nil {
			return probs, fmt.Errorf("%w (the partial line is removed by the next write)", err)
		}
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
