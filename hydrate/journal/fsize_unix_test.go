//go:build unix

package journal

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The helper process of TestShortWriteIsUndone: under a file size limit of GSD_TEST_FSIZE bytes
// (SIGXFSZ ignored, so the write fails with EFBIG as on a full disk), append one event to the
// journal GSD_TEST_JOURNAL and print the error.
func TestMain(m *testing.M) {
	if p := os.Getenv("GSD_TEST_JOURNAL"); p != "" {
		limit, _ := strconv.ParseUint(os.Getenv("GSD_TEST_FSIZE"), 10, 64)
		signal.Ignore(syscall.SIGXFSZ)
		if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
			fmt.Println("setrlimit:", err)
			os.Exit(2)
		}
		_, err := Record(p, func(last Event, ok bool) []Event {
			return []Event{{Seq: NextSeq(last.Seq), Time: t0, Type: Snapshot, Note: strings.Repeat("n", 4096), SHA256: last.SHA256}}
		})
		fmt.Println(err)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestShortWriteIsUndone: a write that a full disk or a file size limit cuts short (EFBIG after
// part of the line reached the file) is taken back: the journal is byte for byte what it was,
// with no partial line for every later read to warn about and no lost event's number reused by
// a line that half exists. The next write succeeds and the history has no problem.
func TestShortWriteIsUndone(t *testing.T) {
	l1, _ := Encode(Event{Seq: 1, Time: t0, Type: Bootstrap, Session: "s", SHA256: Hash([]byte("s"), true)})
	for _, torn := range []bool{false, true} {
		data := string(l1)
		if torn { // a crash before left a torn line: the limited write removes it first
			data += `{"schemaVersion":1,"seq":2,"ti`
		}
		p := write(t, data)
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "GSD_TEST_JOURNAL="+p, fmt.Sprintf("GSD_TEST_FSIZE=%d", len(l1)+100))
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("file too large")) {
			t.Fatalf("helper: %v: %s", err, out)
		}
		got, _ := os.ReadFile(p)
		if string(got) != string(l1) {
			t.Fatalf("after a write cut short the journal is\n%q\nwant\n%q", got, l1)
		}
		if _, err := Record(p, func(last Event, ok bool) []Event {
			return []Event{{Seq: NextSeq(last.Seq), Time: t0, Type: Snapshot, SHA256: last.SHA256}}
		}); err != nil {
			t.Fatal(err)
		}
		got, _ = os.ReadFile(p)
		evs, probs := Parse(got)
		if len(evs) != 2 || evs[1].Seq != 2 || len(probs) != 0 {
			t.Errorf("next write: %+v %v", evs, probs)
		}
	}
}
