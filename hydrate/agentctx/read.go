package agentctx

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
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

// Window is what a read gives: whole lines (each ending in a newline), and where the next read
// starts.
type Window struct {
	Data []byte
	Next Cursor
	// Fresh: the cursor did not hold (another file, one replaced or truncated, or none), so the
	// lines are the end of the transcript, not what follows the last read.
	Fresh bool
	// Gap: lines were left unread between the cursor (or the start) and Data.
	Gap bool
	// Read is how many bytes were read from the transcript.
	Read int64
}

// Read reads what was appended to the transcript at path since c (or, when c does not hold, its
// last TailRead bytes), at most MaxRead bytes, as whole lines. A line still being written (no
// newline yet) is left for the next read, unless it is over MaxLine: then it is skipped. Only a
// regular file is read; a FIFO or device is refused without blocking.
func Read(path string, c Cursor) (Window, error) {
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
	buf := make([]byte, size-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && !errors.Is(err, io.EOF) {
		return Window{}, err
	}
	buf, end := buf[:n], start+int64(n)
	w.Read = int64(n)
	data, pos := buf, start
	if !aligned {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			// The whole window is inside one line: skip to its end next time.
			w.Next.Offset, w.Next.MidLine = end, true
			w.Next.Sum = sumBefore(f, end)
			return w, nil
		}
		data, pos = data[i+1:], pos+int64(i+1)
	}
	last := bytes.LastIndexByte(data, '\n')
	w.Data = data[:last+1]
	w.Next.Offset = pos + int64(last+1)
	if rest := int64(len(data) - (last + 1)); rest > MaxLine {
		// A line over MaxLine still being written: never decoded, so never waited for.
		w.Next.Offset, w.Next.MidLine = end, true
	}
	w.Next.Sum = sumBefore(f, w.Next.Offset)
	return w, nil
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
