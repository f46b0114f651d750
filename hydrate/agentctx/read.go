package agentctx

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"

	"github.com/gsd-tools/gsd/planfile/atomicfile"
)

// Bounds of a read. A transcript grows to hundreds of megabytes and one of its lines to
// megabytes (a tool's output, an image in base64); a hook reads only what was appended since
// the last read, and never more than MaxRead of it.
const (
	MaxRead  = 2 << 20   // bytes read when the cursor holds: the newest of what was appended
	TailRead = 1 << 20   // bytes read from the end without a cursor (a new transcript, or one replaced)
	MaxLine  = 256 << 10 // a longer line is skipped without being decoded
	maxPath  = 4096      // a transcript path longer than this is not read
	tailSum  = 64        // bytes before the cursor whose hash must still match
)

// ErrPath is a transcript path Read does not take (empty, or longer than a path can be).
var ErrPath = errors.New("no usable transcript path")

// Cursor is where the last read of a transcript stopped: the file (its path and identity: a
// file replaced under the same name is another file), the offset of the first byte not yet
// read, and a hash of the bytes before it (a file truncated and rewritten to the same size or
// more is read afresh).
type Cursor struct {
	Path   string `json:"path"`
	ID     string `json:"id"`
	Offset int64  `json:"offset"`
	// MidLine: Offset is inside a line too long to decode, whose end the next read skips to.
	MidLine bool   `json:"midLine,omitempty"`
	Sum     string `json:"sum,omitempty"`
}

// Window is what a read did: where the next read starts, and how it went.
type Window struct {
	Next Cursor
	// Fresh: the cursor did not hold (another file, one replaced or truncated, or none), so the
	// lines are the end of the transcript, not what follows the last read.
	Fresh bool
	// Gap: lines were left unread between the cursor (or the start) and those read.
	Gap bool
	// Read is how many bytes were read from the transcript.
	Read int64
}

// readBuf is the buffer a read goes through: a transcript's lines are mostly shorter, and one
// buffer reused costs a fresh process less than a megabyte of fresh memory would.
const readBuf = 64 << 10

// Lines gives Read's lines to their reader: each whole line (without its newline, at most
// MaxLine bytes) to Each, in order; the first bytes of a line over MaxLine, skipped, to Long.
// Wants, when set, is asked about a line longer than Read's buffer from its first bytes: a line
// it does not want is skipped without being gathered.
type Lines struct {
	Each  func(line []byte)
	Long  func(prefix []byte)
	Wants func(prefix []byte) bool
}

// Read reads what was appended to the transcript at path since c (or, when c does not hold, its
// last TailRead bytes), at most MaxRead bytes, and gives its whole lines to lines. A line over
// MaxLine is skipped undecoded. A line still being written (no newline yet) is left for the next
// read, unless it is over MaxLine: then it is skipped. Only a regular file is read; a FIFO or
// device is refused without blocking.
func Read(path string, c Cursor, lines Lines) (Window, error) {
	if path == "" || len(path) > maxPath {
		return Window{}, ErrPath
	}
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return Window{}, err
	}
	defer func() { _ = f.Close() }()
	size := fi.Size()
	w := Window{Next: Cursor{Path: path, ID: fileID(fi)}}
	start, aligned := int64(0), true
	if c.Path == path && c.ID == w.Next.ID && c.Offset >= 0 && c.Offset <= size && sumBefore(f, c.Offset) == c.Sum {
		start, aligned = c.Offset, !c.MidLine
	} else {
		w.Fresh = true
		if size > TailRead {
			start, aligned, w.Gap = size-TailRead, false, true
		}
	}
	if size-start > MaxRead {
		start, aligned, w.Gap = size-MaxRead, false, true
	}
	br := bufio.NewReaderSize(io.NewSectionReader(f, start, size-start), readBuf)
	pos := start // where the line being read starts
	var (
		gathered []byte // a line longer than the buffer, gathered up to MaxLine bytes
		prefix   []byte // the first bytes of a line longer than the buffer
		length   int64  // bytes of the line read so far
		skip     = !aligned
		unwanted bool // a line longer than the buffer its reader does not want
	)
	for {
		chunk, err := br.ReadSlice('\n')
		w.Read += int64(len(chunk))
		length += int64(len(chunk))
		switch {
		case err == nil && skip:
			// The first line of a window that starts inside one: not whole, not read.
			skip = false
		case err == nil && length > MaxLine:
			lines.Long(prefix)
		case err == nil && unwanted:
		case err == nil && gathered != nil:
			gathered = append(gathered, chunk...)
			lines.Each(gathered[:len(gathered)-1])
		case err == nil:
			lines.Each(chunk[:len(chunk)-1])
		case errors.Is(err, bufio.ErrBufferFull):
			if !skip {
				if prefix == nil {
					prefix = append([]byte(nil), chunk[:min(len(chunk), longPrefix)]...)
					unwanted = lines.Wants != nil && !lines.Wants(chunk)
				}
				if length <= MaxLine && !unwanted {
					gathered = append(gathered, chunk...)
				}
			}
			continue
		case errors.Is(err, io.EOF):
			// What is left has no newline yet: a line being written, read again next time;
			// one already over MaxLine (or one the window started inside) is skipped to its end.
			w.Next.Offset = pos
			if length > MaxLine || skip {
				w.Next.Offset, w.Next.MidLine = size, true
			}
			w.Next.Sum = sumBefore(f, w.Next.Offset)
			return w, nil
		default:
			return Window{}, err
		}
		pos += length
		gathered, prefix, length, unwanted = nil, nil, 0, false
	}
}

// Unchanged reports, from the transcript's stat alone (fi, of the file at path), whether it is
// as c left it: the same file, and nothing appended since (the next Read would read nothing).
func Unchanged(path string, fi fs.FileInfo, c Cursor) bool {
	return path != "" && path == c.Path && fi.Mode().IsRegular() && fileID(fi) == c.ID && fi.Size() == c.Offset
}

// sumBefore hashes the (at most tailSum) bytes before off: "" at the start of the file.
func sumBefore(f *os.File, off int64) string {
	n := min(off, tailSum)
	if n <= 0 {
		return ""
	}
	b := make([]byte, n)
	if _, err := f.ReadAt(b, off-n); err != nil {
		return "?" // unreadable: matches no cursor
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:8])
}
