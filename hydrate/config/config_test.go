package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) (string, bool) {
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
		s, err := Load(data, env())
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
	s, err := Load(data, env())
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
	s, err = Load(data, env("GSD_LOCK_TIMEOUT", "2"))
	if err != nil || s.LockTimeout != 2*time.Second || s.Sources["lockTimeout"] != "GSD_LOCK_TIMEOUT" {
		t.Errorf("env override: %v %v %q", err, s.LockTimeout, s.Sources["lockTimeout"])
	}
}

func TestBadValuesNameFileAndKey(t *testing.T) {
	for data, want := range map[string]string{
		`{"gsd": {"keepSnapshots": 0}}`:      ".planning/config.json: gsd.keepSnapshots: 0 is not a whole number of at least 1",
		`{"gsd": {"keepSnapshots": "ten"}}`:  `.planning/config.json: gsd.keepSnapshots: "ten" is not a whole number of at least 1`,
		`{"gsd": {"lockTimeout": "soon"}}`:   `.planning/config.json: gsd.lockTimeout: "soon" is not a duration (such as 500ms, 30s or 2h)`,
		`{"gsd": {"lockTimeout": "-1s"}}`:    `.planning/config.json: gsd.lockTimeout: "-1s" must be positive`,
		`{"gsd": {"idleAfter": true}}`:       `.planning/config.json: gsd.idleAfter: true is not a duration (such as "10s" or "2h")`,
		`{"gsd": {"journal": "yes"}}`:        `.planning/config.json: gsd.journal: "yes" is not true or false`,
		`{"gsd": []}`:                        ".planning/config.json: gsd: must be an object",
		`{"gsd": {"journal": true}, "mode":`: ".planning/config.json: not a JSON object: unexpected end of JSON input",
	} {
		_, err := Load([]byte(data), env())
		var ce *Error
		if !errors.As(err, &ce) || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", data, err, want)
		}
	}
	if _, err := Load(nil, env("GSD_LOCK_TIMEOUT", "never")); err == nil || !strings.HasPrefix(err.Error(), "GSD_LOCK_TIMEOUT: ") {
		t.Errorf("bad environment value: %v", err)
	}
}
