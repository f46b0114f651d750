// Package config reads gsd's settings from the "gsd" section of GSD's own config file,
// .planning/config.json. It only ever reads that file: every other key belongs to GSD and is
// never touched.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gsd-tools/gsd/planfile/textfmt"
)

// File is GSD's config file, relative to the project root.
const File = ".planning/config.json"

// Section is the key of gsd's section in it.
const Section = "gsd"

// Defaults.
const (
	DefaultKeepSnapshots = 10
	DefaultLockTimeout   = 10 * time.Second
	DefaultIdleAfter     = 2 * time.Hour
)

// Source says where a setting's value came from: "default", the environment variable, or the
// file and key ("".planning/config.json (gsd.lockTimeout)").
type Source string

// Settings are gsd's effective settings.
type Settings struct {
	KeepSnapshots int           // automatic snapshots kept per user
	LockTimeout   time.Duration // how long a write waits for another gsd process
	Journal       bool          // record the session journal
	IdleAfter     time.Duration // when a session counts as idle
	Sync          bool          // the lifecycle hooks run gsd sync (SessionEnd publishes, SessionStart fetches)
	// GitEvidence lets hydrate read what git records of the work (task commits, files changed
	// and not committed) to find where the work stands.
	GitEvidence  bool
	AgentContext bool // the hooks capture the agent's own context from its transcript, and hand it back

	Sources  map[string]Source // by key: keepSnapshots, lockTimeout, journal, idleAfter
	Warnings []string          // keys of the section gsd does not know
	// Invalid are the settings whose value in the file is bad; each keeps its default. A bad
	// value is an error for the commands that use the setting (Check) and a warning for the
	// others: a typo in one setting must not stop every command.
	Invalid []*Error
}

// Check is the first of Invalid among keys (keepSnapshots, lockTimeout, ...): the error of a
// command that uses them; nil when their values are good.
func (s *Settings) Check(keys ...string) error {
	for _, e := range s.Invalid {
		for _, k := range keys {
			if e.Key == Section+"."+k {
				return e
			}
		}
	}
	return nil
}

// InvalidWarning is the one-line warning for a bad value that the command did not use.
func (s *Settings) InvalidWarning(e *Error) string {
	return e.Error() + "; the default " + s.Value(strings.TrimPrefix(e.Key, Section+".")) + " is used meanwhile"
}

// Keys are the settings' keys, in the order gsd config shows them.
var Keys = []string{"keepSnapshots", "lockTimeout", "journal", "idleAfter", "sync", "gitEvidence", "agentContext"}

// Value renders the setting key as gsd config shows it.
func (s *Settings) Value(key string) string {
	switch key {
	case "keepSnapshots":
		return strconv.Itoa(s.KeepSnapshots)
	case "lockTimeout":
		return textfmt.Duration(s.LockTimeout)
	case "journal":
		return strconv.FormatBool(s.Journal)
	case "sync":
		return strconv.FormatBool(s.Sync)
	case "gitEvidence":
		return strconv.FormatBool(s.GitEvidence)
	case "agentContext":
		return strconv.FormatBool(s.AgentContext)
	case "idleAfter":
		return textfmt.Duration(s.IdleAfter)
	}
	return ""
}

// Typed is the setting key as gsd config --json shows it: a number, a boolean, or a duration
// written as Value writes it.
func (s *Settings) Typed(key string) any {
	switch key {
	case "keepSnapshots":
		return s.KeepSnapshots
	case "journal":
		return s.Journal
	case "sync":
		return s.Sync
	case "gitEvidence":
		return s.GitEvidence
	case "agentContext":
		return s.AgentContext
	}
	return s.Value(key)
}

// Error is a bad value in the config file or the environment: it names where.
type Error struct {
	Where string // ".planning/config.json" or the environment variable
	Key   string // "gsd.lockTimeout", "" for the file as a whole
	Err   error
}

func (e *Error) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("%s: %v", e.Where, e.Err)
	}
	return fmt.Sprintf("%s: %s: %v", e.Where, e.Key, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// FromEnvironment reports whether the bad value came from an environment variable (the
// invocation's, so a usage error) rather than the config file.
func (e *Error) FromEnvironment() bool { return strings.HasPrefix(e.Where, "GSD_") }

// Environment is what the environment sets over the config file: zero for a variable unset or
// empty (a duration is never zero otherwise).
type Environment struct {
	LockTimeout time.Duration // GSD_LOCK_TIMEOUT
	IdleAfter   time.Duration // GSD_IDLE_AFTER
	Sync        *bool         // GSD_SYNC (1/true or 0/false), nil when unset
	GitEvidence *bool         // GSD_GIT_EVIDENCE (1/true/on or 0/false/off), nil when unset
	// AgentContext is GSD_AGENT_CONTEXT (1/true/on or 0/false/off), nil when unset.
	AgentContext *bool
}

// ReadEnvironment reads GSD_LOCK_TIMEOUT and GSD_IDLE_AFTER through lookupEnv (nil: none set). A
// bad value is an *Error whose FromEnvironment is true: the invocation's mistake, which a command
// reports before it looks for the project.
func ReadEnvironment(lookupEnv func(string) (string, bool)) (Environment, error) {
	var env Environment
	if lookupEnv == nil {
		return env, nil
	}
	for _, v := range []struct {
		name string
		to   *time.Duration
	}{{"GSD_LOCK_TIMEOUT", &env.LockTimeout}, {"GSD_IDLE_AFTER", &env.IdleAfter}} {
		if s, ok := lookupEnv(v.name); ok && s != "" {
			d, err := ParseDuration(s)
			if err != nil {
				return Environment{}, &Error{Where: v.name, Err: err}
			}
			*v.to = d
		}
	}
	for _, v := range []struct {
		name string
		to   **bool
	}{{"GSD_SYNC", &env.Sync}, {"GSD_GIT_EVIDENCE", &env.GitEvidence}, {"GSD_AGENT_CONTEXT", &env.AgentContext}} {
		if s, ok := lookupEnv(v.name); ok && s != "" {
			b, err := parseSwitch(s)
			if err != nil {
				return Environment{}, &Error{Where: v.name, Err: err}
			}
			*v.to = &b
		}
	}
	return env, nil
}

// parseSwitch reads an environment variable that turns a setting on or off: on, off, or what
// strconv.ParseBool takes (1, 0, true, false, ...).
func parseSwitch(s string) (bool, error) {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "on":
		return true, nil
	case "off":
		return false, nil
	default:
		if b, err := strconv.ParseBool(t); err == nil {
			return b, nil
		}
	}
	return false, fmt.Errorf("%q is not on, off, 1, 0, true or false", s)
}

// Load works out the effective settings from the config file's bytes (nil when there is none),
// the caller's lock timeout and the environment. Each of these, when given, overrides what comes
// before it: the file the defaults; lockWait (0: none) the file's lockTimeout, for a caller that
// must not wait long (a hook); GSD_LOCK_TIMEOUT both, and GSD_IDLE_AFTER the file's idleAfter.
func Load(data []byte, lockWait time.Duration, env Environment) (*Settings, error) {
	s := &Settings{
		KeepSnapshots: DefaultKeepSnapshots,
		LockTimeout:   DefaultLockTimeout,
		Journal:       true,
		IdleAfter:     DefaultIdleAfter,
		GitEvidence:   true,
		AgentContext:  true,
		Sources:       map[string]Source{},
	}
	for _, k := range Keys {
		s.Sources[k] = "default"
	}
	if data != nil {
		if err := s.file(data); err != nil {
			return nil, err
		}
	}
	if lockWait > 0 {
		s.LockTimeout, s.Sources["lockTimeout"] = lockWait, "caller"
	}
	if env.LockTimeout > 0 {
		s.LockTimeout, s.Sources["lockTimeout"] = env.LockTimeout, "GSD_LOCK_TIMEOUT"
	}
	if env.IdleAfter > 0 {
		s.IdleAfter, s.Sources["idleAfter"] = env.IdleAfter, "GSD_IDLE_AFTER"
	}
	if env.Sync != nil {
		s.Sync, s.Sources["sync"] = *env.Sync, "GSD_SYNC"
	}
	if env.GitEvidence != nil {
		s.GitEvidence, s.Sources["gitEvidence"] = *env.GitEvidence, "GSD_GIT_EVIDENCE"
	}
	if env.AgentContext != nil {
		s.AgentContext, s.Sources["agentContext"] = *env.AgentContext, "GSD_AGENT_CONTEXT"
	}
	return s, nil
}

func (s *Settings) file(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return &Error{Where: File, Err: fmt.Errorf("not a JSON object: %s", textfmt.Excerpt(err.Error()))}
	}
	raw, ok := top[Section]
	if !ok || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil
	}
	var sec map[string]json.RawMessage
	if err := json.Unmarshal(raw, &sec); err != nil {
		return &Error{Where: File, Key: Section, Err: fmt.Errorf("must be an object")}
	}
	keys := make([]string, 0, len(sec))
	for k := range sec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := sec[k]
		bad := func(err error) {
			s.Invalid = append(s.Invalid, &Error{Where: File, Key: Section + "." + k, Err: err})
		}
		src := Source(fmt.Sprintf("%s (%s.%s)", File, Section, k))
		switch k {
		case "keepSnapshots":
			n, err := wholeNumber(v, 1, MaxKeepSnapshots)
			if err != nil {
				bad(err)
				continue
			}
			s.KeepSnapshots = n
		case "lockTimeout", "idleAfter":
			d, err := jsonDuration(v)
			if err != nil {
				bad(err)
				continue
			}
			if k == "lockTimeout" {
				s.LockTimeout = d
			} else {
				s.IdleAfter = d
			}
		case "journal", "sync", "gitEvidence", "agentContext":
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				bad(fmt.Errorf("%s is not true or false", show(v)))
				continue
			}
			*map[string]*bool{"journal": &s.Journal, "sync": &s.Sync, "gitEvidence": &s.GitEvidence, "agentContext": &s.AgentContext}[k] = b
		default:
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s.%s: unknown setting, ignored (known: %s)", File, Section, k, strings.Join(Keys, ", ")))
			continue
		}
		s.Sources[k] = src
	}
	return nil
}

// Ranges of the settings. Each is checked the same way whatever the spelling of the value (a
// JSON number, a string holding one, a Go duration, 1e2 or 100): the number is read first, then
// held to its range.
const (
	MinDuration      = time.Millisecond // the shortest lockTimeout or idleAfter
	MaxKeepSnapshots = 1_000_000
)

// maxSeconds is the most whole seconds a time.Duration holds (some 292 years).
const maxSeconds = math.MaxInt64 / int64(time.Second)

// show is how a message quotes a raw JSON value: a string as textfmt.Quote quotes it, anything
// else (a number, a literal, an object) as its bounded excerpt.
func show(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return textfmt.Quote(s)
	}
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		b.Reset()
		b.Write(v)
	}
	return textfmt.Excerpt(b.String())
}

// number reads a JSON number, or a string holding one in JSON's syntax ("30", " 1e2 "): ok is
// false for anything else. A number too large for a float64 is ±Inf, for the range check to
// refuse.
func number(v json.RawMessage) (float64, bool) {
	t := bytes.TrimSpace(v)
	var s string
	if json.Unmarshal(t, &s) == nil {
		t = []byte(strings.TrimSpace(s))
	}
	if len(t) == 0 || t[0] != '-' && (t[0] < '0' || t[0] > '9') || !json.Valid(t) {
		return 0, false
	}
	n, err := strconv.ParseFloat(string(t), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return n, true
}

// wholeNumber reads a whole number from min to max, in any spelling number reads.
func wholeNumber(v json.RawMessage, min, max int) (int, error) {
	n, ok := number(v)
	if !ok || n != math.Trunc(n) || n < float64(min) || n > float64(max) {
		return 0, fmt.Errorf("%s is not a whole number from %d to %d", show(v), min, max)
	}
	return int(n), nil
}

// jsonDuration reads a duration written as a string ("10s", "2h", "30") or a number of seconds.
func jsonDuration(v json.RawMessage) (time.Duration, error) {
	var str string
	if err := json.Unmarshal(v, &str); err == nil {
		return ParseDuration(str)
	}
	if n, ok := number(v); ok {
		return seconds(show(v), n)
	}
	return 0, fmt.Errorf("%s is not a duration (such as \"10s\" or \"2h\")", show(v))
}

// ParseDuration reads a positive Go duration ("500ms", "30s", "2h") or a number of seconds ("30",
// "1.5", "1e2"), white space around it ignored, and holds it to the range of a duration setting:
// from MinDuration to what a duration holds, never rounded to zero nor wrapped around into
// some other wait.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	if d, err := time.ParseDuration(t); err == nil {
		return inRange(textfmt.Quote(s), d)
	}
	n, ok := number(json.RawMessage(strconv.Quote(t)))
	if !ok {
		return 0, fmt.Errorf("%s is not a duration (such as 500ms, 30s or 2h)", textfmt.Quote(s))
	}
	return seconds(textfmt.Quote(s), n)
}

// seconds is n seconds as a duration setting, shown as shown in messages.
func seconds(shown string, n float64) (time.Duration, error) {
	switch {
	case math.IsNaN(n) || n <= 0:
		return 0, fmt.Errorf("%s must be positive", shown)
	case n > float64(maxSeconds):
		return 0, fmt.Errorf("%s is too large", shown)
	case n*float64(time.Second) < float64(MinDuration):
		return 0, fmt.Errorf("%s is shorter than %v, the least a duration setting may be", shown, MinDuration)
	}
	return inRange(shown, time.Duration(math.Round(n*float64(time.Second))))
}

// inRange is the one rule for a duration setting, whatever its spelling.
func inRange(shown string, d time.Duration) (time.Duration, error) {
	switch {
	case d <= 0:
		return 0, fmt.Errorf("%s must be positive", shown)
	case d < MinDuration:
		return 0, fmt.Errorf("%s is shorter than %v, the least a duration setting may be", shown, MinDuration)
	}
	return d, nil
}
