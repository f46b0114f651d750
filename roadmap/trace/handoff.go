package trace

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Handoff is what GSD's /gsd:pause-work left for the next session: .planning/HANDOFF.json, or a
// .continue-here.md (YAML front matter, then sections). Real files drift from the documented
// shape (missing keys, numbers written as strings, lists of strings where objects belong), so
// every field is read leniently and a field that does not read is left empty.
type Handoff struct {
	File  string    `json:"file"`       // where it was read, root-relative (set by the caller)
	Time  time.Time `json:"time"`       // when it was written (timestamp, last_updated); zero when it does not say
	Phase string    `json:"phase"`      // as written: "58", "02-sentinel-data-access"; "" when none
	Plan  string    `json:"plan"`       // as written: "1", "58-01"; "" when none
	Task  int       `json:"task"`       // the task it paused at; 0 when none
	Total int       `json:"totalTasks"` // the plan's task count it gives; 0 when none
	// Status is its status word: "paused", "in_progress", "blocked", "archived-superseded", ...
	Status       string   `json:"status"`
	NextAction   string   `json:"nextAction"`
	Blockers     []string `json:"blockers"`
	HumanActions []string `json:"humanActions"`     // human actions pending
	Uncommitted  []string `json:"uncommittedFiles"` // files it says were changed and not committed
}

// Bounds of a handoff as read.
const (
	MaxHandoffSize  = 256 << 10 // bytes of the file read; past it the file is not read at all
	maxHandoffText  = 300       // bytes kept of one text
	maxHandoffItems = 10        // items kept of one list
)

// ParseHandoffJSON reads HANDOFF.json. ok is false when it is not a JSON object (or larger than
// MaxHandoffSize): such a file says nothing.
func ParseHandoffJSON(data []byte) (h Handoff, ok bool) {
	if len(data) > MaxHandoffSize {
		return Handoff{}, false
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return Handoff{}, false
	}
	h.Time = parseTime(text(top["timestamp"]))
	h.Phase = text(top["phase"])
	h.Plan = text(top["plan"])
	h.Task = number(top["task"])
	h.Total = number(top["total_tasks"])
	h.Status = text(top["status"])
	h.NextAction = text(top["next_action"])
	h.Blockers = items(top["blockers"], "description", "workaround")
	h.HumanActions = items(top["human_actions_pending"], "action", "context")
	h.Uncommitted = items(top["uncommitted_files"], "path", "file")
	return h, true
}

// ParseContinueHere reads a .continue-here.md: its front matter (phase, task, total_tasks,
// status, last_updated) and its next action (a <next_action> section or a "Next Action"
// heading), blockers likewise. ok is false when it has no front matter.
func ParseContinueHere(data []byte) (h Handoff, ok bool) {
	if len(data) > MaxHandoffSize {
		return Handoff{}, false
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	text := strings.ReplaceAll(string(data), "\r\n", "\n")
	rest, found := strings.CutPrefix(text, "---\n")
	if !found {
		return Handoff{}, false
	}
	end := strings.Index(rest, "\n---")
	if end < 0 {
		return Handoff{}, false
	}
	for _, line := range strings.Split(rest[:end], "\n") {
		k, v, found := strings.Cut(line, ":")
		if !found || strings.HasPrefix(line, " ") {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch strings.TrimSpace(k) {
		case "phase":
			h.Phase = Clip(v, maxHandoffText)
		case "plan":
			h.Plan = Clip(v, maxHandoffText)
		case "task":
			h.Task = leadingInt(v)
		case "total_tasks":
			h.Total = leadingInt(v)
		case "status":
			h.Status = Clip(v, maxHandoffText)
		case "last_updated":
			h.Time = parseTime(v)
		}
	}
	body := rest[end+4:]
	h.NextAction = section(body, "next_action", "next action")
	if b := section(body, "blockers", "blockers"); b != "" && !strings.EqualFold(b, "none") {
		h.Blockers = []string{b}
	}
	return h, true
}

// section is the text of the <tag> section of body, or of the Markdown section headed name
// (any level, any case), trimmed and clipped; "" when there is none.
func section(body, tag, name string) string {
	if i := strings.Index(body, "<"+tag+">"); i >= 0 {
		s := body[i+len(tag)+2:]
		if j := strings.Index(s, "</"+tag+">"); j >= 0 {
			s = s[:j]
		}
		return Clip(oneLine(s), maxHandoffText)
	}
	lines := strings.Split(body, "\n")
	for i, l := range lines {
		t := strings.TrimLeft(l, "#")
		if len(t) == len(l) || !strings.EqualFold(strings.TrimSpace(t), name) {
			continue
		}
		var b strings.Builder
		for _, m := range lines[i+1:] {
			if strings.HasPrefix(m, "#") {
				break
			}
			b.WriteString(m)
			b.WriteByte('\n')
		}
		return Clip(oneLine(b.String()), maxHandoffText)
	}
	return ""
}

// oneLine joins s's lines with spaces and trims it.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// text reads a JSON string, or a number written for one; "" for anything else (null, an object).
func text(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return Clip(oneLine(s), maxHandoffText)
	}
	var n json.Number
	if json.Unmarshal(v, &n) == nil {
		return n.String()
	}
	return ""
}

// number reads a whole number written as a JSON number or a string ("3", "3 of 7"); 0 otherwise.
func number(v json.RawMessage) int {
	var f float64
	if json.Unmarshal(v, &f) == nil && f >= 0 && f < 1e6 {
		return int(f)
	}
	return leadingInt(text(v))
}

// leadingInt is the whole number s begins with ("3", "3 of 7"); 0 when none.
func leadingInt(s string) int {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && i < 6 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, _ := strconv.Atoi(s[:i])
	return n
}

// items reads a list of strings, or of objects whose first key among keys holding a string is
// taken (a blocker's description and workaround), at most maxHandoffItems.
func items(v json.RawMessage, keys ...string) []string {
	var list []json.RawMessage
	if json.Unmarshal(v, &list) != nil {
		return nil
	}
	var out []string
	for _, raw := range list {
		if len(out) == maxHandoffItems {
			break
		}
		if s := text(raw); s != "" {
			out = append(out, s)
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			continue
		}
		var parts []string
		for _, k := range keys {
			if s := text(obj[k]); s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) > 0 {
			out = append(out, Clip(strings.Join(parts, " — "), maxHandoffText))
		}
	}
	return out
}

// parseTime reads an RFC 3339 time or a date; zero when it is neither.
func parseTime(s string) time.Time {
	for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
