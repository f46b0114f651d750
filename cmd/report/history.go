package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/hydrate/journal"
)

// Snapshot is gsd snapshot --json (and MCP's session_snapshot_create).
type Snapshot struct {
	SchemaVersion int    `json:"schemaVersion"`
	ID            string `json:"id"`
	Path          string `json:"path"`
}

// SnapshotOf is the report of a snapshot taken.
func SnapshotOf(res *hydrate.SnapshotResult) Snapshot {
	return Snapshot{SchemaVersion, res.ID, res.Path}
}

// Snapshots is gsd snapshots --json.
type Snapshots struct {
	SchemaVersion int                    `json:"schemaVersion"`
	Snapshots     []hydrate.SnapshotInfo `json:"snapshots"`
}

// SnapshotsOf is the report of the snapshots listed.
func SnapshotsOf(list []hydrate.SnapshotInfo) Snapshots {
	return Snapshots{SchemaVersion, nonNil(list)}
}

// Restore is gsd restore --json.
type Restore struct {
	SchemaVersion int     `json:"schemaVersion"`
	Restored      string  `json:"restored"` // the snapshot's id
	DryRun        bool    `json:"dryRun"`
	Identical     bool    `json:"identical"`  // the session already was the snapshot: nothing written
	PreRestore    *string `json:"preRestore"` // the snapshot the replaced session was kept as
	Plan          string  `json:"plan"`
	FromPlan      *string `json:"fromPlan"` // the plan of the session replaced
	Changes       any     `json:"changes"`  // the tasks whose status differs (same plan only)
	Counts        any     `json:"counts"`
}

// RestoreOf is the report of a restore (or a dry run of one).
func RestoreOf(res *hydrate.RestoreResult) Restore {
	return Restore{SchemaVersion, res.ID, res.DryRun, res.Identical, optString(res.PreRestore), res.Plan, optString(res.FromPlan), nonNil(res.Changes), res.Session.Counts}
}

// Stats is gsd stats --json.
type Stats struct {
	SchemaVersion int `json:"schemaVersion"`
	*hydrate.Stats
}

// StatsOf is the report of the journal's figures.
func StatsOf(st *hydrate.Stats) Stats { return Stats{SchemaVersion, st} }

// Log is gsd log --json: the user's journal and the events selected, oldest first. WriteLog
// writes it.
type Log struct {
	SchemaVersion int             `json:"schemaVersion"`
	Journal       string          `json:"journal"`
	Events        []journal.Event `json:"events"` // times to the second
}

// WriteLog writes gsd log --json's object (Log) as Write would write it whole, but one event at a
// time: a journal of any length prints in the same memory.
func WriteLog(w io.Writer, js *hydrate.JournalStream) error {
	path, err := json.Marshal(js.Path)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "{\n  \"schemaVersion\": %d,\n  \"journal\": %s,\n  \"events\": [", SchemaVersion, path); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("    ", "  ")
	enc.SetEscapeHTML(false)
	n := 0
	err = js.Each(func(ev journal.Event) error {
		// The JSON contract's times are RFC 3339 to the second; the journal keeps more.
		ev.Time = ev.Time.UTC().Truncate(time.Second)
		buf.Reset()
		if err := enc.Encode(ev); err != nil {
			return err
		}
		sep := ",\n    "
		if n == 0 {
			sep = "\n    "
		}
		n++
		_, err := io.WriteString(w, sep+strings.TrimSuffix(buf.String(), "\n"))
		return err
	})
	if err != nil {
		return err
	}
	if n > 0 {
		_, err = io.WriteString(w, "\n  ]\n}\n")
	} else {
		_, err = io.WriteString(w, "]\n}\n")
	}
	return err
}
