package journal

import (
	"strings"
	"testing"
)

// Which appends wait for the disk: every status change and snapshot, not an agent's comings and
// goings, nor what its writer marks Volatile (which is never written to the line).
func TestNeedSync(t *testing.T) {
	for _, tt := range []struct {
		evs  []Event
		want bool
	}{
		{[]Event{{Type: Rehydrated}}, false},
		{[]Event{{Type: Detach}, {Type: HookFailure}}, false},
		{[]Event{{Type: Snapshot, Volatile: true}}, false},
		{[]Event{{Type: Snapshot}}, true},
		{[]Event{{Type: Rehydrated}, {Type: Snapshot}}, true},
	} {
		if got := needSync(tt.evs); got != tt.want {
			t.Errorf("needSync(%+v) = %v, want %v", tt.evs, got, tt.want)
		}
	}
	line, err := Encode(Event{Type: Snapshot, Volatile: true})
	if err != nil || strings.Contains(strings.ToLower(string(line)), "volatile") {
		t.Errorf("Encode wrote the Volatile mark: %s, %v", line, err)
	}
}
