package memo

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

func TestStoreLoad(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("inputs are recorded and checked on Linux only")
	}
	root := t.TempDir()
	file := filepath.Join(t.TempDir(), "reports", Name("1", "prog", root, "progress --json"))
	now := time.Unix(1_800_000_000, 0)
	m := &Memo{
		Env:    []Var{{Name: "GSD_WORKSTREAM", Value: "api", Set: true}, {Name: "GSD_INSTANCE"}, {Name: "GSD_WORKSTREAM", Value: "api", Set: true}, {Name: "EMPTY", Set: true}},
		Until:  now.Add(time.Hour),
		Output: []byte("{\"report\": 1}\n"),
	}
	if err := Store(file, m); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"GSD_WORKSTREAM": "api", "EMPTY": "", "OTHER": "x"}
	if out, ok := Load(file, root, now, env(vars)); !ok || !bytes.Equal(out, m.Output) {
		t.Fatalf("Load = %q, %v; want the output kept", out, ok)
	}
	for _, c := range []struct {
		name string
		now  time.Time
		vars map[string]string
	}{
		{"at Until", now.Add(time.Hour), vars},
		{"a variable changed", now, map[string]string{"GSD_WORKSTREAM": "web", "EMPTY": ""}},
		{"a variable unset", now, map[string]string{"GSD_WORKSTREAM": "api"}},
		{"an unset variable set", now, map[string]string{"GSD_WORKSTREAM": "api", "EMPTY": "", "GSD_INSTANCE": "s1"}},
	} {
		if out, ok := Load(file, root, c.now, env(c.vars)); ok {
			t.Errorf("%s: Load = %q, want a miss", c.name, out)
		}
	}
	if _, ok := Load(file+"x", root, now, env(vars)); ok {
		t.Error("a missing memo loads")
	}
	// Inputs that changed: a missing name recorded is there now.
	m.Inputs = []byte("f.planning/active-workstream\x00\n")
	if err := Store(file, m); err != nil {
		t.Fatal(err)
	}
	if _, ok := Load(file, root, now, env(vars)); !ok {
		t.Fatal("a memo whose missing input is missing does not load")
	}
	os.MkdirAll(filepath.Join(root, ".planning"), 0o755)
	os.WriteFile(filepath.Join(root, ".planning/active-workstream"), nil, 0o644)
	if _, ok := Load(file, root, now, env(vars)); ok {
		t.Error("a memo loads after its missing input was created")
	}
	// Torn: every proper prefix of the file.
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(b) {
		if _, ok := parse(b[:i]); ok {
			t.Fatalf("the prefix of %d bytes of a memo parses", i)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	m := Memo{
		Env:    []Var{{Name: "A", Value: "x=y\nz", Set: true}, {Name: "B"}, {Name: "A", Value: "ignored", Set: true}},
		Inputs: []byte("fa\x00key\n"),
		Until:  time.Unix(5, 6),
		Output: []byte("out\x00put"),
	}
	got, ok := parse(mustAppend(t, &m))
	if !ok {
		t.Fatal("a memo written does not parse")
	}
	want := []Var{{Name: "A", Value: "x=y\nz", Set: true}, {Name: "B"}}
	if !slices.Equal(got.Env, want) || !bytes.Equal(got.Inputs, m.Inputs) || !got.Until.Equal(m.Until) || !bytes.Equal(got.Output, m.Output) {
		t.Errorf("parse(appendMemo(m)) = %+v, want %+v with the variables %+v", got, m, want)
	}
	if got, _ := parse(mustAppend(t, &Memo{})); !got.Until.IsZero() {
		t.Errorf("no Until comes back as %v", got.Until)
	}
	// A variable the file cannot hold is not left out (the memo would not check it): no memo.
	for _, v := range []Var{{Name: "BAD=", Set: true}, {Name: ""}, {Name: "NUL", Value: "a\x00b", Set: true}} {
		file := filepath.Join(t.TempDir(), Name("x"))
		if err := Store(file, &Memo{Env: []Var{{Name: "A"}, v}}); err == nil {
			t.Errorf("the variable %+v is stored", v)
		}
		if _, err := os.Stat(file); err == nil {
			t.Errorf("the variable %+v left a memo", v)
		}
	}
}

func mustAppend(t testing.TB, m *Memo) []byte {
	t.Helper()
	b, err := appendMemo(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPrune(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-MaxAge - time.Hour)
	files := map[string]bool{ // name: whether pruning keeps it
		Name("old"):                        false,
		"." + Name("old-temp") + "123456":  false,
		Name("fresh"):                      true,
		"notes.txt":                        true,
		"ABCDEF0123456789ABCDEF0123456789": true, // not a name Name gives
	}
	for name, keep := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if !keep || name == "notes.txt" || name[0] == 'A' {
			os.Chtimes(p, old, old)
		}
	}
	if err := Store(filepath.Join(dir, Name("new")), &Memo{}); err != nil {
		t.Fatal(err)
	}
	for name, keep := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if kept := err == nil; kept != keep {
			t.Errorf("%q: kept %v, want %v", name, kept, keep)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(mustAppend(f, &Memo{Env: []Var{{Name: "A", Value: "1", Set: true}, {Name: "B"}}, Inputs: []byte("fx\x00k\n"), Until: time.Unix(9, 0), Output: []byte("{}")}))
	f.Add(mustAppend(f, &Memo{}))
	f.Add([]byte(magic + "0 0 0 0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, ok := parse(b)
		if !ok {
			return
		}
		// What parses is what appendMemo writes for it: nothing else is accepted.
		if again := mustAppend(t, &m); !bytes.Equal(again, b) {
			t.Fatalf("parse accepts %q, which is written back as %q", b, again)
		}
	})
}
