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

	Sources  map[string]Source // by key: keepSnapshots, lockTimeout, journal, idleAfter
	Warnings []string          // keys of the section gsd does not know
}

// Keys are the settings' keys, in the order gsd config shows them.
var Keys = []string{"keepSnapshots", "lockTimeout", "journal", "idleAfter", "sync"}

// Value renders the setting key as gsd config shows it.
func (s *Settings) Value(key string) string {
	switch key {
	case "keepSnapshots":
		return strconv.Itoa(s.KeepSnapshots)
	case "lockTimeout":
		return FormatDuration(s.LockTimeout)
	case "journal":
		return strconv.FormatBool(s.Journal)
	case "sync":
		return strconv.FormatBool(s.Sync)
	case "idleAfter":
		return FormatDuration(s.IdleAfter)
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
	}
	return s.Value(key)
}

// FormatDuration writes a duration as people write them in config files: "2h", "90m", "10s".
func FormatDuration(d time.Duration) string {
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
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
	if s, ok := lookupEnv("GSD_SYNC"); ok && s != "" {
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if err != nil {
			return Environment{}, &Error{Where: "GSD_SYNC", Err: fmt.Errorf("%q is not 1, 0, true or false", s)}
		}
		env.Sync = &b
	}
	return env, nil
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
	return s, nil
}

func (s *Settings) file(data []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return &Error{Where: File, Err: fmt.Errorf("not a JSON object: %v", err)}
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
		bad := func(err error) error { return &Error{Where: File, Key: Section + "." + k, Err: err} }
		src := Source(fmt.Sprintf("%s (%s.%s)", File, Section, k))
		switch k {
		case "keepSnapshots":
			var n int
			if err := json.Unmarshal(v, &n); err != nil || n < 1 {
				return bad(fmt.Errorf("%s is not a whole number of at least 1", v))
			}
			s.KeepSnapshots = n
		case "lockTimeout", "idleAfter":
			d, err := jsonDuration(v)
			if err != nil {
				return bad(err)
			}
			if k == "lockTimeout" {
				s.LockTimeout = d
			} else {
				s.IdleAfter = d
			}
		case "journal", "sync":
			var b bool
			if err := json.Unmarshal(v, &b); err != nil {
				return bad(fmt.Errorf("%s is not true or false", v))
			}
			if k == "journal" {
				s.Journal = b
			} else {
				s.Sync = b
			}
		default:
			s.Warnings = append(s.Warnings, fmt.Sprintf("%s: %s.%s: unknown setting, ignored (known: %s)", File, Section, k, strings.Join(Keys, ", ")))
			continue
		}
		s.Sources[k] = src
	}
	return nil
}

// maxSeconds is the most whole seconds a time.Duration holds (some 292 years).
const maxSeconds = math.MaxInt64 / int64(time.Second)

// jsonDuration reads a duration written as a string ("10s", "2h") or a number of seconds.
func jsonDuration(v json.RawMessage) (time.Duration, error) {
	var str string
	if err := json.Unmarshal(v, &str); err == nil {
		return ParseDuration(str)
	}
	var n float64
	if err := json.Unmarshal(v, &n); err == nil && n > 0 {
		if n >= float64(maxSeconds) {
			return 0, fmt.Errorf("%s is too large", v)
		}
		return time.Duration(n * float64(time.Second)), nil
	}
	return 0, fmt.Errorf("%s is not a duration (such as \"10s\" or \"2h\")", v)
}

// ParseDuration reads a positive Go duration ("500ms", "30s", "2h") or whole seconds ("30"),
// white space around it ignored. Seconds beyond what a duration holds are refused, never wrapped
// around into some other wait.
func ParseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	d, err := time.ParseDuration(t)
	if err != nil {
		n, nerr := strconv.ParseInt(t, 10, 64)
		switch {
		case nerr != nil && !errors.Is(nerr, strconv.ErrRange):
			return 0, fmt.Errorf("%q is not a duration (such as 500ms, 30s or 2h)", s)
		case n < 0:
			d = 0 // not positive, below
		case nerr != nil || n > maxSeconds:
			return 0, fmt.Errorf("%q is too large", s)
		default:
			d = time.Duration(n) * time.Second
		}
	}
	if d <= 0 {
		return 0, fmt.Errorf("%q must be positive", s)
	}
	return d, nil
}
