package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func lookup(kv ...string) func(string) (string, bool) {
	return func(k string) (string, bool) {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1], true
			}
		}
		return "", false
	}
}

func TestDefaults(t *testing.T) {
	for _, data := range [][]byte{nil, []byte(`{"mode": "yolo"}`), []byte(`{"gsd": null}`), []byte(`{"gsd": {}}`)} {
		s, err := Load(data, 0, Environment{})
		if err != nil {
			t.Fatal(err)
		}
		if s.KeepSnapshots != 10 || s.LockTimeout != 10*time.Second || !s.Journal || s.IdleAfter != 2*time.Hour {
			t.Errorf("%s: %+v", data, s)
		}
		for _, k := range Keys {
			if s.Sources[k] != "default" {
				t.Errorf("%s: %s from %s", data, k, s.Sources[k])
			}
		}
	}
}

func TestFileAndEnvironment(t *testing.T) {
	data := []byte(`{"mode": "interactive", "gsd": {"keepSnapshots": 3, "lockTimeout": "30s", "journal": false, "idleAfter": 5400, "colour": "blue"}}`)
	s, err := Load(data, 0, Environment{})
	if err != nil {
		t.Fatal(err)
	}
	if s.KeepSnapshots != 3 || s.LockTimeout != 30*time.Second || s.Journal || s.IdleAfter != 90*time.Minute {
		t.Errorf("%+v", s)
	}
	if s.Sources["lockTimeout"] != ".planning/config.json (gsd.lockTimeout)" {
		t.Errorf("source %q", s.Sources["lockTimeout"])
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "gsd.colour: unknown setting") {
		t.Errorf("warnings %v", s.Warnings)
	}
	s, err = Load(data, 0, Environment{LockTimeout: 2 * time.Second})
	if err != nil || s.LockTimeout != 2*time.Second || s.Sources["lockTimeout"] != "GSD_LOCK_TIMEOUT" {
		t.Errorf("env override: %v %v %q", err, s.LockTimeout, s.Sources["lockTimeout"])
	}
}

// The environment's values are read as the file's are (ParseDuration), and override the file's.
func TestReadEnvironment(t *testing.T) {
	e, err := ReadEnvironment(lookup("GSD_LOCK_TIMEOUT", "2", "GSD_IDLE_AFTER", " 90m", "GSD_OTHER", "x"))
	if want := (Environment{LockTimeout: 2 * time.Second, IdleAfter: 90 * time.Minute}); err != nil || e != want {
		t.Fatalf("ReadEnvironment = %+v, %v; want %+v", e, err, want)
	}
	s, err := Load([]byte(`{"gsd": {"lockTimeout": "30s", "idleAfter": "4h"}}`), 0, e)
	if err != nil || s.LockTimeout != 2*time.Second || s.IdleAfter != 90*time.Minute ||
		s.Sources["lockTimeout"] != "GSD_LOCK_TIMEOUT" || s.Sources["idleAfter"] != "GSD_IDLE_AFTER" {
		t.Errorf("environment over file: %+v, %v", s, err)
	}
}

func TestBadValuesNameFileAndKey(t *testing.T) {
	for data, want := range map[string]string{
		`{"gsd": {"keepSnapshots": 0}}`:      ".planning/config.json: gsd.keepSnapshots: 0 is not a whole number from 1 to 1000000",
		`{"gsd": {"keepSnapshots": "ten"}}`:  `.planning/config.json: gsd.keepSnapshots: "ten" is not a whole number from 1 to 1000000`,
		`{"gsd": {"lockTimeout": "soon"}}`:   `.planning/config.json: gsd.lockTimeout: "soon" is not a duration (such as 500ms, 30s or 2h)`,
		`{"gsd": {"lockTimeout": "-1s"}}`:    `.planning/config.json: gsd.lockTimeout: "-1s" must be positive`,
		`{"gsd": {"idleAfter": true}}`:       `.planning/config.json: gsd.idleAfter: true is not a duration (such as "10s" or "2h")`,
		`{"gsd": {"journal": "yes"}}`:        `.planning/config.json: gsd.journal: "yes" is not true or false`,
		`{"gsd": []}`:                        ".planning/config.json: gsd: must be an object",
		`{"gsd": {"journal": true}, "mode":`: ".planning/config.json: not a JSON object: unexpected end of JSON input",
	} {
		err := loadErr(data)
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", data, err, want)
		}
	}
	for _, name := range []string{"GSD_LOCK_TIMEOUT", "GSD_IDLE_AFTER"} {
		_, err := ReadEnvironment(lookup(name, "never"))
		var ce *Error
		if !errors.As(err, &ce) || !ce.FromEnvironment() || err.Error() != name+`: "never" is not a duration (such as 500ms, 30s or 2h)` {
			t.Errorf("bad %s: %v", name, err)
		}
	}
	if e, err := ReadEnvironment(lookup("GSD_LOCK_TIMEOUT", "", "GSD_IDLE_AFTER", "")); err != nil || e != (Environment{}) {
		t.Errorf("empty variables: %+v, %v", e, err)
	}
	if e, err := ReadEnvironment(nil); err != nil || e != (Environment{}) {
		t.Errorf("no environment: %+v, %v", e, err)
	}
}

// The caller's lock timeout (a hook's short wait) is over the file's, GSD_LOCK_TIMEOUT over both.
func TestCallerLockTimeout(t *testing.T) {
	data := []byte(`{"gsd": {"lockTimeout": "30s"}}`)
	s, err := Load(data, time.Second, Environment{})
	if err != nil || s.LockTimeout != time.Second || s.Sources["lockTimeout"] != "caller" {
		t.Errorf("caller over file: %v %v %q", err, s.LockTimeout, s.Sources["lockTimeout"])
	}
	s, err = Load(data, time.Second, Environment{LockTimeout: 5 * time.Second})
	if err != nil || s.LockTimeout != 5*time.Second || s.Sources["lockTimeout"] != "GSD_LOCK_TIMEOUT" {
		t.Errorf("environment over caller: %v %v %q", err, s.LockTimeout, s.Sources["lockTimeout"])
	}
}

// ParseDuration is the one reader of durations, for the file and the environment alike: white
// space around a value is ignored, and a number of seconds too large for a duration is refused,
// never wrapped around into some other wait.
func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"500ms": 500 * time.Millisecond, " 5s": 5 * time.Second, "30\n": 30 * time.Second, "2h": 2 * time.Hour,
		"9223372036": 9223372036 * time.Second,
	} {
		if d, err := ParseDuration(in); err != nil || d != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", in, d, err, want)
		}
	}
	for in, want := range map[string]string{
		"soon":                  `"soon" is not a duration (such as 500ms, 30s or 2h)`,
		"0":                     `"0" must be positive`,
		"-5":                    `"-5" must be positive`,
		"-99999999999999999999": `"-99999999999999999999" must be positive`,
		"9223372037":            `"9223372037" is too large`,
		"20000000000":           `"20000000000" is too large`,
		"18446744074":           `"18446744074" is too large`,
		"99999999999999999999":  `"99999999999999999999" is too large`,
	} {
		if d, err := ParseDuration(in); err == nil || err.Error() != want {
			t.Errorf("ParseDuration(%q) = %v, %v; want the error %s", in, d, err, want)
		}
	}
}

// A lockTimeout in the file too large for a duration is an error naming the key, in either form.
func TestTooLargeInFile(t *testing.T) {
	for data, want := range map[string]string{
		`{"gsd": {"lockTimeout": "20000000000"}}`: `.planning/config.json: gsd.lockTimeout: "20000000000" is too large`,
		`{"gsd": {"lockTimeout": 20000000000}}`:   `.planning/config.json: gsd.lockTimeout: 20000000000 is too large`,
		`{"gsd": {"idleAfter": 1e300}}`:           `.planning/config.json: gsd.idleAfter: 1e300 is too large`,
	} {
		if err := loadErr(data); err == nil || err.Error() != want {
			t.Errorf("%s: %v; want %s", data, err, want)
		}
	}
	_, err := ReadEnvironment(lookup("GSD_LOCK_TIMEOUT", "20000000000"))
	var ce *Error
	if !errors.As(err, &ce) || !ce.FromEnvironment() || err.Error() != `GSD_LOCK_TIMEOUT: "20000000000" is too large` {
		t.Errorf("environment: %v", err)
	}
}

// Every key has a value, typed for JSON as gsd config --json shows it.
func TestTyped(t *testing.T) {
	s, err := Load(nil, 0, Environment{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"keepSnapshots": 10, "lockTimeout": "10s", "journal": true, "idleAfter": "2h", "sync": false, "gitEvidence": true, "agentContext": true}
	for _, k := range Keys {
		if got := s.Typed(k); got != want[k] {
			t.Errorf("%s: %#v, want %#v", k, got, want[k])
		}
	}
	if len(Keys) != len(want) {
		t.Errorf("keys %q", Keys)
	}
}

// loadErr is Load's error for the file data, or else the error of a command using every setting.
func loadErr(data string) error {
	s, err := Load([]byte(data), 0, Environment{})
	if err != nil {
		return err
	}
	return s.Check(Keys...)
}

// A bad value is not Load's error: the setting keeps its default, the bad value is Invalid, and
// only the commands that use that setting fail (Check); the others go on.
func TestBadValueKeepsDefault(t *testing.T) {
	s, err := Load([]byte(`{"gsd": {"keepSnapshots": "ten", "idleAfter": "3h"}}`), 0, Environment{})
	if err != nil || s.KeepSnapshots != DefaultKeepSnapshots || s.IdleAfter != 3*time.Hour || len(s.Invalid) != 1 {
		t.Fatalf("Load = %+v, %v", s, err)
	}
	if err := s.Check("idleAfter", "journal"); err != nil {
		t.Errorf("Check of good settings: %v", err)
	}
	if err := s.Check("keepSnapshots"); err == nil || err.Error() != `.planning/config.json: gsd.keepSnapshots: "ten" is not a whole number from 1 to 1000000` {
		t.Errorf("Check(keepSnapshots) = %v", err)
	}
	if w := s.InvalidWarning(s.Invalid[0]); w != `.planning/config.json: gsd.keepSnapshots: "ten" is not a whole number from 1 to 1000000; the default 10 is used meanwhile` {
		t.Errorf("warning: %s", w)
	}
}

// Every number is held to its range by one rule whatever its spelling: a number of seconds in
// JSON, the same number in a string, a Go duration, an exponent or not. A duration that would
// round to nothing (1e-12 s) is refused as the string is, never taken as 0 s; a 200 KB value is
// quoted as a bounded excerpt.
func TestOneRangeWhateverTheSpelling(t *testing.T) {
	const tooShort = "is shorter than 1ms, the least a duration setting may be"
	for data, want := range map[string]string{
		`{"gsd": {"lockTimeout": 1e-12}}`:                             `.planning/config.json: gsd.lockTimeout: 1e-12 ` + tooShort,
		`{"gsd": {"lockTimeout": "1e-12"}}`:                           `.planning/config.json: gsd.lockTimeout: "1e-12" ` + tooShort,
		`{"gsd": {"idleAfter": 1e-10}}`:                               `.planning/config.json: gsd.idleAfter: 1e-10 ` + tooShort,
		`{"gsd": {"idleAfter": "1ns"}}`:                               `.planning/config.json: gsd.idleAfter: "1ns" ` + tooShort,
		`{"gsd": {"idleAfter": 0.0000001}}`:                           `.planning/config.json: gsd.idleAfter: 0.0000001 ` + tooShort,
		`{"gsd": {"idleAfter": -0}}`:                                  `.planning/config.json: gsd.idleAfter: -0 must be positive`,
		`{"gsd": {"idleAfter": "-0"}}`:                                `.planning/config.json: gsd.idleAfter: "-0" must be positive`,
		`{"gsd": {"idleAfter": 1e400}}`:                               `.planning/config.json: gsd.idleAfter: 1e400 is too large`,
		`{"gsd": {"idleAfter": "1e400"}}`:                             `.planning/config.json: gsd.idleAfter: "1e400" is too large`,
		`{"gsd": {"idleAfter": "NaN"}}`:                               `.planning/config.json: gsd.idleAfter: "NaN" is not a duration (such as 500ms, 30s or 2h)`,
		`{"gsd": {"keepSnapshots": 1e300}}`:                           `.planning/config.json: gsd.keepSnapshots: 1e300 is not a whole number from 1 to 1000000`,
		`{"gsd": {"keepSnapshots": 2.5}}`:                             `.planning/config.json: gsd.keepSnapshots: 2.5 is not a whole number from 1 to 1000000`,
		`{"gsd": {"keepSnapshots": 1000001}}`:                         `.planning/config.json: gsd.keepSnapshots: 1000001 is not a whole number from 1 to 1000000`,
		`{"gsd": {"keepSnapshots": [1, 2]}}`:                          `.planning/config.json: gsd.keepSnapshots: [1,2] is not a whole number from 1 to 1000000`,
		`{"gsd": {"idleAfter": {"h": 2}}}`:                            `.planning/config.json: gsd.idleAfter: {"h":2} is not a duration (such as "10s" or "2h")`,
		`{"gsd": {"journal": "` + strings.Repeat("y", 200000) + `"}}`: `.planning/config.json: gsd.journal: "` + strings.Repeat("y", 119) + `…" (200000 bytes) is not true or false`,
	} {
		if err := loadErr(data); err == nil || err.Error() != want {
			t.Errorf("%.80s: %v; want %s", data, err, want)
		}
	}
	for data, want := range map[string]time.Duration{
		`{"gsd": {"idleAfter": 1e2}}`:        100 * time.Second,
		`{"gsd": {"idleAfter": "1e2"}}`:      100 * time.Second,
		`{"gsd": {"idleAfter": 0.001}}`:      time.Millisecond,
		`{"gsd": {"idleAfter": "1ms"}}`:      time.Millisecond,
		`{"gsd": {"idleAfter": 100.0}}`:      100 * time.Second,
		`{"gsd": {"idleAfter": " 100 "}}`:    100 * time.Second,
		`{"gsd": {"idleAfter": 9223372036}}`: 9223372036 * time.Second,
	} {
		if s, err := Load([]byte(data), 0, Environment{}); err != nil || s.IdleAfter != want {
			t.Errorf("%s: %v, %v; want %v", data, s, err, want)
		}
	}
	for data, want := range map[string]int{`{"gsd": {"keepSnapshots": 1e2}}`: 100, `{"gsd": {"keepSnapshots": "7"}}`: 7, `{"gsd": {"keepSnapshots": 3.0}}`: 3} {
		if s, err := Load([]byte(data), 0, Environment{}); err != nil || s.KeepSnapshots != want {
			t.Errorf("%s: %v, %v; want %d", data, s, err, want)
		}
	}
	if _, err := ReadEnvironment(lookup("GSD_IDLE_AFTER", "1e-10")); err == nil || err.Error() != `GSD_IDLE_AFTER: "1e-10" `+tooShort {
		t.Errorf("environment: %v", err)
	}
}

// agentContext is on by default; the file turns it off, and GSD_AGENT_CONTEXT (on/off, 1/0,
// true/false) overrides the file; anything else in the variable is the invocation's mistake.
func TestAgentContextSetting(t *testing.T) {
	s, err := Load([]byte(`{"gsd": {"agentContext": false}}`), 0, Environment{})
	if err != nil || s.AgentContext || s.Sources["agentContext"] != ".planning/config.json (gsd.agentContext)" {
		t.Fatalf("file: %+v, %v", s, err)
	}
	for v, want := range map[string]bool{"on": true, "ON": true, "1": true, "true": true, "off": false, " Off ": false, "0": false, "false": false} {
		env, err := ReadEnvironment(lookup("GSD_AGENT_CONTEXT", v))
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		s, err := Load([]byte(`{"gsd": {"agentContext": false}}`), 0, env)
		if err != nil || s.AgentContext != want || s.Sources["agentContext"] != "GSD_AGENT_CONTEXT" {
			t.Errorf("GSD_AGENT_CONTEXT=%q: %v (%s), %v", v, s.AgentContext, s.Sources["agentContext"], err)
		}
	}
	_, err = ReadEnvironment(lookup("GSD_AGENT_CONTEXT", "nope"))
	var ce *Error
	if !errors.As(err, &ce) || !ce.FromEnvironment() || err.Error() != `GSD_AGENT_CONTEXT: "nope" is not on, off, 1, 0, true or false` {
		t.Errorf("bad variable: %v", err)
	}
	if err := loadErr(`{"gsd": {"agentContext": "no"}}`); err == nil || err.Error() != `.planning/config.json: gsd.agentContext: "no" is not true or false` {
		t.Errorf("bad value: %v", err)
	}
}
