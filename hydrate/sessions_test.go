package hydrate

import (
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"
)

// Sessions without a threshold of its caller's (gsd mcp's list_sessions) takes the idleAfter
// setting, not a default of its own.
func TestSessionsIdleAfterSetting(t *testing.T) {
	files := baseFiles()
	files[".planning/config.json"] = `{"gsd": {"idleAfter": "5h"}}`
	e := project(t, files)
	res, err := e.Team().Sessions(0)
	if err != nil {
		t.Fatal(err)
	}
	if res.IdleAfter != 5*time.Hour {
		t.Errorf("idle after %v, want the setting's 5h", res.IdleAfter)
	}
	if res, err = e.Team().Sessions(time.Minute); err != nil || res.IdleAfter != time.Minute {
		t.Errorf("idle after %v %v, want the caller's 1m", res.IdleAfter, err)
	}
}

// countingFS counts the opens of each file.
type countingFS struct {
	fs.FS
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.opens[name]++
	return c.FS.Open(name)
}
func (c *countingFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(c.FS, name) }
func (c *countingFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }

// gsd sessions reads each session file once.
func TestSessionsReadEachSessionOnce(t *testing.T) {
	files := baseFiles()
	for _, u := range []string{"ann", "bob"} {
		files[".planning/sessions/"+u+"/current-plan.md"] = session(".planning/phases/03-three/03-02-PLAN.md", "complete", "pending", "pending")
	}
	e := project(t, files)
	if _, err := e.Mark(2, "complete"); err != nil { // a journal for ann
		t.Fatal(err)
	}
	c := &countingFS{FS: e.FS, opens: map[string]int{}}
	e.FS = c
	res, err := e.Team().Sessions(0)
	if err != nil || len(res.Sessions) != 2 {
		t.Fatalf("%+v %v", res, err)
	}
	if from := res.Sessions[0].ActivityFrom + " " + res.Sessions[1].ActivityFrom; from != "journal file" {
		t.Errorf("activity from %s, want ann's from the journal, bob's from the file", from)
	}
	for _, u := range []string{"ann", "bob"} {
		if n := c.opens[".planning/sessions/"+u+"/current-plan.md"]; n != 1 {
			t.Errorf("%s's session opened %d times, want once", u, n)
		}
	}
}

// Two users on one plan is decided by one rule in gsd sessions, hydrate and progress --check: a
// teammate whose session on the plan is stale, complete or corrupt is not working on it.
func TestSamePlanOneRule(t *testing.T) {
	const p = ".planning/phases/03-three/03-02-PLAN.md"
	files := baseFiles()
	files[".planning/sessions/ann/current-plan.md"] = session(p, "complete", "pending", "pending")
	files[".planning/sessions/bob/current-plan.md"] = session(p, "complete", "in-progress", "pending")
	files[".planning/sessions/cy/current-plan.md"] = session(p, "complete", "pending") // stale: the plan has 3 tasks
	files[".planning/sessions/dee/current-plan.md"] = session(p, "complete", "complete", "complete")
	files[".planning/sessions/eve/current-plan.md"] = strings.Replace(session(p, "pending", "pending", "pending"), "<!-- Plan: ", "<!-- ", 1) // corrupt: no Plan header
	e := project(t, files)
	want := "ann and bob are working on the same plan " + p + "; their statuses will diverge"

	if others := e.Team().OthersOnPlan(p); !slices.Equal(others, []string{"bob"}) {
		t.Errorf("hydrate: others on the plan %q, want bob", others)
	} else if w := e.Team().SamePlanWarning(others, p); w != want {
		t.Errorf("hydrate: %q", w)
	}
	res, err := e.Team().Sessions(0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Warnings, []string{want}) {
		t.Errorf("sessions: warnings %q", res.Warnings)
	}
	states := map[string]string{}
	for _, s := range res.Sessions {
		states[s.User] = s.State
	}
	if states["cy"] != TeamStale || states["dee"] != TeamComplete || states["eve"] != TeamCorrupt {
		t.Fatalf("states %v: the test proves nothing", states)
	}
	pr, err := e.Project().Progress()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, pb := range pr.Problems {
		if strings.Contains(pb.Message, "same plan") {
			got = append(got, pb.Message)
		}
	}
	if !slices.Equal(got, []string{want}) {
		t.Errorf("progress: %q", got)
	}
}
