package hydrate

import (
	"io/fs"
	"testing"
	"time"
)

// Sessions without a threshold of its caller's (gsd mcp's list_sessions) takes the idleAfter
// setting, not a default of its own.
func TestSessionsIdleAfterSetting(t *testing.T) {
	files := baseFiles()
	files[".planning/config.json"] = `{"gsd": {"idleAfter": "5h"}}`
	e := project(t, files)
	res, err := e.Sessions(0)
	if err != nil {
		t.Fatal(err)
	}
	if res.IdleAfter != 5*time.Hour {
		t.Errorf("idle after %v, want the setting's 5h", res.IdleAfter)
	}
	if res, err = e.Sessions(time.Minute); err != nil || res.IdleAfter != time.Minute {
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
	res, err := e.Sessions(0)
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
