package settings

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var installCases = []struct {
	name, in, want string
}{
	{
		name: "empty file",
		in:   "",
		want: `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook session-start"
          }
        ]
      }
    ]
  }
}
`,
	},
	{
		name: "no hooks, keys kept in their order",
		in: `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "env": {"B": "1", "A": "2"}
}
`,
		want: `{
  "permissions": {"allow": ["Bash(go test:*)"]},
  "env": {"B": "1", "A": "2"},
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook session-start"
          }
        ]
      }
    ]
  }
}
`,
	},
	{
		name: "other events, four-space indent",
		in: `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}
        ]
    }
}`,
		want: `{
    "hooks": {
        "PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]}
        ],
        "SessionStart": [
            {
                "matcher": "startup|resume|clear|compact",
                "hooks": [
                    {
                        "type": "command",
                        "command": "gsd hook session-start"
                    }
                ]
            }
        ]
    }
}`,
	},
	{
		name: "another SessionStart hook",
		in: `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [
          {
            "type": "command",
            "command": "echo hello"
          }
        ]
      }
    ]
  }
}
`,
		want: `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup",
        "hooks": [
          {
            "type": "command",
            "command": "echo hello"
          }
        ]
      },
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook session-start"
          }
        ]
      }
    ]
  }
}
`,
	},
	{
		name: "one line",
		in:   `{"model": "opus", "hooks": {}}`,
		want: `{"model": "opus", "hooks": {
  "SessionStart": [
    {
      "matcher": "startup|resume|clear|compact",
      "hooks": [
        {
          "type": "command",
          "command": "gsd hook session-start"
        }
      ]
    }
  ]
}}`,
	},
	{
		name: "compact object",
		in:   `{"model": "opus"}`,
		want: `{"model": "opus", "hooks": {"SessionStart": [{"matcher": "startup|resume|clear|compact", "hooks": [{"type": "command", "command": "gsd hook session-start"}]}]}}`,
	},
	{
		name: "CRLF",
		in:   "{\r\n  \"model\": \"opus\"\r\n}\r\n",
		want: "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"SessionStart\": [\r\n      {\r\n        \"matcher\": \"startup|resume|clear|compact\",\r\n        \"hooks\": [\r\n          {\r\n            \"type\": \"command\",\r\n            \"command\": \"gsd hook session-start\"\r\n          }\r\n        ]\r\n      }\r\n    ]\r\n  }\r\n}\r\n",
	},
}

func TestInstall(t *testing.T) {
	for _, tc := range installCases {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := Install([]byte(tc.in), Command)
			if err != nil {
				t.Fatal(err)
			}
			if !changed || string(got) != tc.want {
				t.Fatalf("Install changed=%v:\n%s\nwant:\n%s", changed, got, tc.want)
			}
			if !json.Valid(got) {
				t.Fatalf("not valid JSON:\n%s", got)
			}
			// Idempotent: a second install changes nothing.
			again, changed, err := Install(got, Command)
			if err != nil || changed || string(again) != string(got) {
				t.Fatalf("second Install changed=%v err=%v:\n%s", changed, err, again)
			}
			// Uninstall gives back the original, except for the empty file and an empty "hooks"
			// object that was there before (it goes with the hook).
			uninstallRestores(t, got, tc.name, tc.in)
		})
	}
}

func TestUninstallKeepsOthers(t *testing.T) {
	in := `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {"type": "command", "command": "echo mine"},
          {"type": "command", "command": "/usr/local/bin/gsd hook session-start"}
        ]
      }
    ]
  }
}
`
	want := `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {"type": "command", "command": "echo mine"}
        ]
      }
    ]
  }
}
`
	got, changed, err := Uninstall([]byte(in))
	if err != nil || !changed || string(got) != want {
		t.Fatalf("changed=%v err=%v:\n%s", changed, err, got)
	}
	// Nothing of gsd's left: no change.
	if _, changed, _ := Uninstall(got); changed {
		t.Fatal("second Uninstall changed something")
	}
	// Installing into it sees no gsd hook and adds one.
	if _, changed, _ := Install(got, Command); !changed {
		t.Fatal("Install found a gsd hook that is not there")
	}
}

func TestRefusals(t *testing.T) {
	for _, in := range []string{
		`{"hooks": [] }`,
		`{"hooks": {"SessionStart": {}}}`,
		`[1, 2]`,
		"{\n  \"a\": 1,\n}\n",
		`{"a": 1} // comment`,
	} {
		if out, _, err := Install([]byte(in), Command); err == nil {
			t.Errorf("Install(%q) = %q, want an error", in, out)
		}
	}
	_, _, err := Install([]byte("{\n  \"a\": 1,\n}\n"), Command)
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("error %v does not name line 3", err)
	}
}

func TestIsGSDCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"gsd hook session-start":                true,
		"/opt/bin/gsd hook session-start --x":   true,
		`"C:\tools\gsd.exe" hook session-start`: true,
		// Windows' usual place for programs has a space: quoted, it is one word.
		`"C:\Program Files\gsd\gsd.exe" hook session-start`: true,
		`'/opt/my tools/gsd' hook session-start`:            true,
		`"gsd"hook session-start`:                           false,
		`"C:\Program Files\gsd\gsd.exe" hook pre-compact`:   false,
		`"C:\Program Files\notgsd.exe" hook session-start`:  false,
		`"C:\Program Files\gsd\gsd.exe hook session-start`:  false,
		`C:\Program Files\gsd\gsd.exe hook session-start`:   false,
		"gsd hook install":                                  false,
		"notgsd hook session-start":                         false,
		"echo gsd hook session-start":                       false,
		"gsd":                                               false,
	} {
		if got := IsGSDCommand(cmd); got != want {
			t.Errorf("IsGSDCommand(%q) = %v", cmd, got)
		}
	}
}

// TestUninstallNothingCreatesNothing: uninstalling where nothing is installed, for every agent,
// leaves the disk as it was: no settings directory, no file, no lock.
func TestUninstallNothingCreatesNothing(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	for _, ag := range Agents {
		paths := []string{ag.Project(root), ag.User(home, "")}
		if ag.Local != nil {
			paths = append(paths, ag.Local(root))
		}
		for _, p := range paths {
			c, err := UninstallFileFor(p, ag.Specs, false)
			if err != nil || c.Changed {
				t.Fatalf("%s: uninstall %s: %+v %v", ag.Name, p, c, err)
			}
		}
	}
	for _, dir := range []string{root, home} {
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("uninstalling nothing created %v in %s", ents, dir)
		}
	}
	// Installing still creates what it needs.
	if _, err := InstallFileFor(Agents[1].Project(root), Command, Agents[1].Specs, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(Agents[1].Project(root)); err != nil {
		t.Fatal(err)
	}
}

func TestInstallFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.json")
	c, err := InstallFile(path, Command, true)
	if err != nil || !c.Changed || c.Before != nil {
		t.Fatalf("dry run: %+v %v", c, err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("dry run wrote the file")
	}
	if _, err := InstallFile(path, Command, false); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != installAllFresh {
		t.Fatalf("wrote:\n%s", got)
	}
	c, err = UninstallFile(path, false)
	if err != nil || !c.Changed {
		t.Fatalf("uninstall: %+v %v", c, err)
	}
	got, _ = os.ReadFile(path)
	if string(got) != "{}\n" {
		t.Fatalf("after uninstall: %q", got)
	}
	// A byte order mark stays where it was.
	os.WriteFile(path, []byte("\xef\xbb\xbf{}\n"), 0o644)
	if _, err := InstallFile(path, Command, false); err != nil {
		t.Fatal(err)
	}
	if _, err := UninstallFile(path, false); err != nil {
		t.Fatal(err)
	}
	if got, _ = os.ReadFile(path); string(got) != "\xef\xbb\xbf{}\n" {
		t.Fatalf("BOM file after install and uninstall: %q", got)
	}
	// A settings file that is not JSON is never overwritten.
	os.WriteFile(path, []byte("{oops"), 0o644)
	if _, err := InstallFile(path, Command, false); err == nil {
		t.Fatal("installed into a broken file")
	}
	got, _ = os.ReadFile(path)
	if string(got) != "{oops" {
		t.Fatalf("broken file changed: %q", got)
	}
}

// FuzzInstall: on any settings file, Install either refuses it or gives valid JSON that holds
// gsd's hook, is stable under a second Install, and loses it again under Uninstall, which also
// gives valid JSON.
func FuzzInstall(f *testing.F) {
	for _, tc := range installCases {
		f.Add(tc.in)
		f.Add(tc.want)
	}
	f.Add(`{"hooks": {"SessionStart": [{"hooks": [{"command": "gsd hook session-start"}, 1]}, []]}}`)
	f.Add(`{"a": [], "b": {}, "hooks": {"SessionStart": []}, "hooks": {}}`)
	f.Add(`  { "\u0068ooks" : { } }  `)
	f.Fuzz(func(t *testing.T, in string) {
		out, changed, err := Install([]byte(in), Command)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Install gave invalid JSON:\n%s", out)
		}
		again, changed2, err := Install(out, Command)
		if err != nil || changed2 || string(again) != string(out) {
			t.Fatalf("second Install: changed=%v err=%v", changed2, err)
		}
		back, removed, err := Uninstall(out)
		if err != nil || !json.Valid(back) {
			t.Fatalf("Uninstall: err=%v, valid=%v:\n%s", err, json.Valid(back), back)
		}
		if changed && !removed {
			t.Fatalf("Uninstall did not remove what Install added:\n%s", out)
		}
		if _, _, found := findOursIn(t, back); found {
			t.Fatalf("a gsd hook is left after Uninstall:\n%s", back)
		}
	})
}

func findOursIn(t *testing.T, src []byte) (int, int, bool) {
	root, err := parse(src)
	if err != nil {
		t.Fatalf("parse after edit: %v", err)
	}
	event, ok := root.path("hooks", Event)
	if !ok || event.kind != '[' {
		return 0, 0, false
	}
	return findOurs(event, "session-start")
}

// installAllFresh is what InstallAll writes into an empty settings file.
const installAllFresh = `{
  "hooks": {
    "SessionStart": [
      {
        "matcher": "startup|resume|clear|compact",
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook session-start"
          }
        ]
      }
    ],
    "PreCompact": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook pre-compact"
          }
        ]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook session-end"
          }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "gsd hook turn-end"
          }
        ]
      }
    ]
  }
}
`

// InstallAll adds the lifecycle hooks to every settings layout, once; Uninstall takes
// them all away again, leaving the file as it was.
func TestInstallAll(t *testing.T) {
	for _, tc := range installCases {
		t.Run(tc.name, func(t *testing.T) {
			got, changed, err := InstallAll([]byte(tc.in), "/opt/bin/gsd hook session-start")
			if err != nil || !changed || !json.Valid(got) {
				t.Fatalf("InstallAll changed=%v err=%v:\n%s", changed, err, got)
			}
			var v struct {
				Hooks map[string][]matcherGroup `json:"hooks"`
			}
			if err := json.Unmarshal(got, &v); err != nil {
				t.Fatal(err)
			}
			for _, sp := range Specs {
				g := v.Hooks[sp.Event]
				if len(g) == 0 || g[len(g)-1].Matcher != sp.Matcher || g[len(g)-1].Hooks[0].Command != "/opt/bin/gsd hook "+sp.Sub {
					t.Errorf("%s: %+v", sp.Event, g)
				}
			}
			if again, changed, err := InstallAll(got, "gsd hook session-start"); err != nil || changed || string(again) != string(got) {
				t.Fatalf("second InstallAll changed=%v err=%v", changed, err)
			}
			uninstallRestores(t, got, tc.name, tc.in)
		})
	}
	got, _, err := InstallAll(nil, Command)
	if err != nil || string(got) != installAllFresh {
		t.Fatalf("fresh: %v\n%s", err, got)
	}
	// A command that is not gsd hook session-start installs SessionStart alone.
	got, _, err = InstallAll(nil, "my-wrapper")
	if err != nil || strings.Contains(string(got), "PreCompact") {
		t.Fatalf("custom command: %v\n%s", err, got)
	}
}

// An install by an older gsd (SessionStart with the undocumented "fork", no PreCompact or
// SessionEnd) is brought up to date; a matcher the user shares with their own hooks is left alone.
func TestInstallUpgrades(t *testing.T) {
	old := "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"matcher\": \"startup|resume|clear|compact|fork\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"gsd hook session-start\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"
	got, changed, err := InstallAll([]byte(old), Command)
	if err != nil || !changed || string(got) != installAllFresh {
		t.Fatalf("changed=%v err=%v:\n%s", changed, err, got)
	}
	shared := `{"hooks": {"SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hi"}, {"type": "command", "command": "gsd hook session-start"}]}]}}`
	got, _, err = Install([]byte(shared), Command)
	if err != nil || string(got) != shared {
		t.Fatalf("a shared group was changed: %v\n%s", err, got)
	}
}

// uninstallRestores checks that Uninstall gives back the settings as they were before the
// install (in), except for the empty file and the one-line file, which it reformats.
func uninstallRestores(t *testing.T, got []byte, name, in string) {
	t.Helper()
	back, changed, err := Uninstall(got)
	if err != nil || !changed {
		t.Fatalf("Uninstall changed=%v err=%v", changed, err)
	}
	want := in
	switch name {
	case "empty file":
		want = "{}\n"
	case "one line":
		want = `{"model": "opus"}`
	}
	if string(back) != want {
		t.Fatalf("Uninstall:\n%s\nwant:\n%s", back, want)
	}
}

// A guarded install (Guard) puts every hook behind the guard, counts as gsd's for a second
// install and for uninstall, and guards the bare commands an older gsd installed; a full path
// given by the user stays as it is.
func TestInstallGuarded(t *testing.T) {
	guarded := Guard(Command)
	if guarded != "command -v gsd >/dev/null 2>&1 && gsd hook session-start || true" {
		t.Fatalf("Guard = %q", guarded)
	}
	got, changed, err := InstallAll(nil, guarded)
	if err != nil || !changed {
		t.Fatal(changed, err)
	}
	for _, sub := range []string{"session-start", "pre-compact", "session-end"} {
		want := `"command": "command -v gsd >/dev/null 2>&1 && gsd hook ` + sub + ` || true"`
		if !strings.Contains(string(got), want) {
			t.Errorf("no %s in\n%s", want, got)
		}
	}
	if again, changed, _ := InstallAll(got, guarded); changed || string(again) != string(got) {
		t.Errorf("second install changed the file:\n%s", again)
	}
	back, changed, err := Uninstall(got)
	if err != nil || !changed || string(back) != "{}\n" {
		t.Errorf("uninstall: %v %v\n%s", changed, err, back)
	}
	// The bare install of an older gsd is guarded.
	bare, _, _ := InstallAll(nil, Command)
	up, changed, err := InstallAll(bare, guarded)
	if err != nil || !changed || string(up) != string(got) {
		t.Errorf("upgrade: %v %v\n%s", changed, err, up)
	}
	// The user's full path is theirs.
	full, _, _ := InstallAll(nil, "/opt/gsd/bin/gsd hook session-start")
	if same, changed, _ := InstallAll(full, guarded); changed || string(same) != string(full) {
		t.Errorf("a full path was changed:\n%s", same)
	}
	for _, cmd := range []string{
		"command -v /opt/gsd >/dev/null 2>&1 && /opt/gsd hook session-start || true",
		"command -v gsd >/dev/null 2>&1 && gsd hook session-start || true",
	} {
		if !IsGSDCommand(cmd) {
			t.Errorf("IsGSDCommand(%q) = false", cmd)
		}
	}
	for _, cmd := range []string{
		"command -v gsd >/dev/null 2>&1 && other hook session-start || true",
		"command -v gsd >/dev/null 2>&1 && gsd hook session-start",
		"command -v gsd && gsd hook session-start || true",
	} {
		if IsGSDCommand(cmd) {
			t.Errorf("IsGSDCommand(%q) = true", cmd)
		}
	}
}
