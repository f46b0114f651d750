package hydrate

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPreviewSaysWhatTheRunDoes: for every kind of session hydrate may replace, the preview
// (Bootstrap false) names the plan the real run then starts from, or the same reason to keep
// the session; and it writes nothing.
func TestPreviewSaysWhatTheRunDoes(t *testing.T) {
	const active = ".planning/phases/03-three/03-02-PLAN.md"
	stale := session(".planning/phases/01-one/01-01-PLAN.md", "complete", "pending")
	corrupt := "<!-- Session progress for ann -->\n<tasks>\n</tasks>\n"
	for _, tt := range []struct {
		name    string
		edit    map[string]string
		plan    string
		fails   bool // the real run fails (and changes nothing)
		wantRun string
	}{
		{name: "no session", wantRun: active},
		{name: "stale", edit: map[string]string{"session": stale}, wantRun: active},
		{name: "corrupt", edit: map[string]string{"session": corrupt}, wantRun: active},
		{name: "stale, --plan", edit: map[string]string{"session": stale}, plan: ".planning/phases/01-one/01-01-PLAN.md", wantRun: ".planning/phases/01-one/01-01-PLAN.md"},
		{name: "stale, no active plan", edit: map[string]string{"session": stale, ".planning/phases/03-three/03-02-SUMMARY.md": "done"}},
		{name: "corrupt, no active plan", edit: map[string]string{"session": corrupt, ".planning/phases/03-three/03-02-SUMMARY.md": "done"}},
		{name: "stale, active plan of prose", edit: map[string]string{"session": stale, active: "## Notes\n\nNothing to track.\n"}},
		{name: "stale, active plan of Markdown task sections", edit: map[string]string{"session": stale, active: "### Task 1: Do it\n"}, wantRun: active},
		{name: "stale, active plan with an invalid status", edit: map[string]string{"session": stale, active: "<tasks>\n<task status=\"done\">\n  <name>X</name>\n</task>\n</tasks>\n"}, fails: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			files := baseFiles()
			for k, v := range tt.edit {
				if k == "session" {
					k = ".planning/sessions/ann/current-plan.md"
				}
				files[k] = v
			}
			e := project(t, files)
			sessionFile := filepath.Join(e.Root, ".planning", "sessions", "ann", "current-plan.md")
			before, _ := os.ReadFile(sessionFile)
			preview, err := e.Hydrate(Options{Plan: tt.plan})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := os.ReadFile(sessionFile); string(after) != string(before) {
				t.Fatal("the preview wrote the session")
			}
			run, err := e.Hydrate(Options{Bootstrap: true, Plan: tt.plan})
			if tt.fails {
				if err == nil || preview.WouldStart != "" || preview.Note == "" {
					t.Errorf("run error %v; preview would start %q, note %q", err, preview.WouldStart, preview.Note)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			started := ""
			for _, a := range run.Actions {
				if a.Kind == "bootstrapped" {
					started = a.From
				}
			}
			if started != tt.wantRun || preview.WouldStart != started || preview.Note != run.Note {
				t.Errorf("run started %q (want %q), note %q; preview would start %q, note %q",
					started, tt.wantRun, run.Note, preview.WouldStart, preview.Note)
			}
		})
	}
}
