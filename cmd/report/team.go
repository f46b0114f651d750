package report

import (
	"time"

	"github.com/gsd-tools/gsd/hydrate"
	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// Sessions is gsd sessions --json (and MCP's list_sessions).
type Sessions struct {
	SchemaVersion int                      `json:"schemaVersion"`
	IdleAfter     string                   `json:"idleAfter"`
	Sessions      []hydrate.SessionSummary `json:"sessions"`
	Warnings      []string                 `json:"warnings"`
}

// SessionsOf is the report of every user's session in one of states (--state; none: every one).
func SessionsOf(res *hydrate.SessionsResult, states []string) Sessions {
	return Sessions{SchemaVersion, textfmt.Duration(res.IdleAfter), nonNil(res.InStates(states)), nonNil(res.Warnings)}
}

// Sync is gsd sync --json.
type Sync struct {
	SchemaVersion int            `json:"schemaVersion"`
	Remote        string         `json:"remote"`
	Ref           string         `json:"ref"`
	Commit        *string        `json:"commit"`
	Pushed        bool           `json:"pushed"`
	Merge         *SyncMerge     `json:"merge"`
	Kept          []string       `json:"kept"`
	Adopted       []string       `json:"adopted"`
	Skipped       []string       `json:"skipped"`
	Teammates     int            `json:"teammates"`
	TakenOverBy   []SyncTakeover `json:"takenOverBy"`
	UpToDate      bool           `json:"upToDate"`
	Identity      string         `json:"identity"`
	Foreign       *SyncForeign   `json:"foreign"`
	NotFetched    []string       `json:"notFetched"`
	Gone          []string       `json:"gone"`
	Dropped       []string       `json:"dropped"`
	Replaced      *string        `json:"replaced"`
}

// SyncMerge is how a sync merged this machine's session with the one the remote had.
type SyncMerge struct {
	Took       string  `json:"took"`
	Conflict   *string `json:"conflict"`
	OnlyLocal  int     `json:"eventsFromHere"`
	OnlyRemote int     `json:"eventsFromThere"`
}

// SyncTakeover is a teammate who took the session over.
type SyncTakeover struct {
	By   string    `json:"by"`
	Host *string   `json:"host"`
	Time time.Time `json:"time"`
}

// SyncForeign is a version of the user's ref that someone else committed.
type SyncForeign struct {
	Commit   string  `json:"commit"`
	By       string  `json:"by"`
	Why      string  `json:"why"`
	Snapshot *string `json:"snapshot"`
}

// SyncOf is the report of a sync.
func SyncOf(res *hydrate.SyncResult) Sync {
	var f *SyncForeign
	if res.Foreign != nil {
		f = &SyncForeign{Commit: res.Foreign.Commit, By: res.Foreign.By.String(), Why: res.Foreign.Why, Snapshot: optString(res.Foreign.Snapshot)}
	}
	var m *SyncMerge
	if res.Merge != nil {
		m = &SyncMerge{Took: res.Merge.Took, Conflict: optString(res.Merge.Conflict), OnlyLocal: res.Merge.OnlyLocal, OnlyRemote: res.Merge.OnlyRemote}
	}
	tos := []SyncTakeover{}
	for _, h := range res.TakenOver {
		tos = append(tos, SyncTakeover{By: h.By, Host: optString(h.Host), Time: h.Time})
	}
	return Sync{SchemaVersion, res.Remote, res.Ref, optString(res.Commit), res.Pushed, m, nonNil(res.Kept), nonNil(res.Adopted), nonNil(res.Skipped), res.Teammates, tos,
		res.UpToDate, res.Me.String(), f, nonNil(res.NotRead), nonNil(res.Gone), nonNil(res.Dropped), optString(res.Replaced)}
}
