package hydrate

import (
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
