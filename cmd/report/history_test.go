package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/journal"
	"github.com/gsd-tools/gsd/identity"
	"github.com/gsd-tools/gsd/planfile"
)

// WriteLog writes what Write writes of the same Log whole, one event at a time: with events, and
// without any.
func TestWriteLogIsWrite(t *testing.T) {
	root := t.TempDir()
	plan := "<tasks>\n<task type=\"auto\"><name>Task 1: a</name></task>\n<task type=\"auto\"><name>Task 2: b</name></task>\n</tasks>\n"
	dir := filepath.Join(root, ".planning", "phases", "01-one")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "01-01-PLAN.md"), []byte(plan), 0o644); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 2, 3, 10, 0, 0, 123456789, time.UTC)
	for _, user := range []string{"ann", "bob"} {
		env, err := hydrate.Open(hydrate.Config{Dir: root, Identity: identity.Sources{Flag: user, FlagGiven: true}, Now: func() time.Time { return now }})
		if err != nil {
			t.Fatal(err)
		}
		defer env.Close()
		if user == "ann" {
			if _, err := env.Hydrate(hydrate.Options{Bootstrap: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := env.Mark(1, planfile.Complete); err != nil {
				t.Fatal(err)
			}
		}
		js, err := env.History().LogStream(hydrate.LogQuery{})
		if err != nil {
			t.Fatal(err)
		}
		var streamed bytes.Buffer
		if err := WriteLog(&streamed, js); err != nil {
			t.Fatal(err)
		}
		res, err := env.History().Log(hydrate.LogQuery{})
		if err != nil {
			t.Fatal(err)
		}
		whole := Log{SchemaVersion, res.Path, []journal.Event{}}
		for _, ev := range res.Events {
			ev.Time = ev.Time.UTC().Truncate(time.Second)
			whole.Events = append(whole.Events, ev)
		}
		var want bytes.Buffer
		if err := Write(&want, whole); err != nil {
			t.Fatal(err)
		}
		if streamed.String() != want.String() {
			t.Errorf("%s: WriteLog wrote\n%s\nWrite writes\n%s", user, &streamed, &want)
		}
		if n := strings.Count(streamed.String(), `"seq"`); (user == "ann") != (n > 0) {
			t.Errorf("%s: %d events", user, n)
		}
	}
}
