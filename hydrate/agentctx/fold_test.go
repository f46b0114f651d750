package agentctx

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected captures of testdata/*.want.json")

// root is the project root the fixtures' agents worked in.
const root = "/home/ann/src/tasklist"

var fixtureOpt = Options{Roots: []string{root}, Dir: root}

// The fixtures: transcripts written in each agent's documented shapes, one case each.
var fixtures = []string{
	"claude_todowrite.jsonl",    // TodoWrite's whole list (2.x items, with activeForm), tools, files in and out of the project
	"claude_todowrite_v1.jsonl", // TodoWrite's 1.0.x items (id, priority)
	"claude_tasks.jsonl",        // TaskCreate and TaskUpdate: ids from results, a deletion, a hidden task made visible
	"claude_compact.jsonl",      // a compaction boundary, its summary entry, commands and notes that are not prompts
	"claude_sidechain.jsonl",    // a subagent's entries, which are not the session's
	"claude_last_prompt.jsonl",  // the last-prompt record, under either key
	"claude_torn.jsonl",         // a torn last line, not read until it is whole
	"rollout-2026-07-08T16-20-00-7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f.jsonl", // Codex: update_plan, apply_patch, compacted
	"session-2026-08-01T12-00-5e6f7a8b.jsonl",                                // Gemini: write_todos, $set, $rewindTo
}

// TestFixtures: each fixture, read as a hook reads it (no cursor yet) and folded, yields exactly
// the expected capture.
func TestFixtures(t *testing.T) {
	for _, name := range fixtures {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", name)
			var c Capture
			if _, err := Advance(&c, path, Cursor{}, fixtureOpt); err != nil {
				t.Fatal(err)
			}
			got := marshal(t, &c)
			// Folded from memory, the whole at once, the same.
			data := fixture(t, name)
			var m Capture
			whole := data[:bytes.LastIndexByte(data, '\n')+1] // (a torn last line is not read)
			Fold(&m, Detect(path, whole), whole, fixtureOpt)
			if !bytes.Equal(marshal(t, &m), got) {
				t.Errorf("Fold and Advance differ:\n%s\n%s", marshal(t, &m), got)
			}
			want := strings.TrimSuffix(path, ".jsonl") + ".want.json"
			if *update {
				if err := os.WriteFile(want, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			exp, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, exp) {
				t.Errorf("capture:\n%s\nwant:\n%s", got, exp)
			}
		})
	}
}

// fixture is the bytes of the fixture called name.
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// TestDetect: the agent is told by the transcript's name, else by its first line.
func TestDetect(t *testing.T) {
	for path, want := range map[string]string{
		"/h/.claude/projects/-h-src-x/3f2b9c1e.jsonl":                          Claude,
		"/h/.codex/sessions/2026/07/08/rollout-2026-07-08T16-20-00-7c1d.jsonl": Codex,
		"/h/.gemini/tmp/9f86/chats/session-2026-08-01T12-00-5e6f.jsonl":        Gemini,
		"/h/.gemini/tmp/9f86/chats/other.jsonl":                                Gemini,
	} {
		if got := Detect(path, nil); got != want {
			t.Errorf("%s: %s, want %s", path, got, want)
		}
	}
	if got := Detect("t.jsonl", []byte(`{"timestamp":"x","type":"session_meta","payload":{}}`+"\n")); got != Codex {
		t.Errorf("a Codex first line: %s", got)
	}
	if got := Detect("t.jsonl", []byte(`{"sessionId":"s","projectHash":"h","kind":"main"}`)); got != Gemini {
		t.Errorf("a Gemini first line: %s", got)
	}
}
