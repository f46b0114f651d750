package textfmt

import "testing"

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"short", 5, "short"},
		{"longer", 5, "long…"},
		{"éééééé", 3, "éé…"},
		{"", 1, ""},
	} {
		if got := Clip(tc.s, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

func TestPlural(t *testing.T) {
	if got := Plural(1, "task"); got != "1 task" {
		t.Errorf("got %q", got)
	}
	if got := Plural(0, "error"); got != "0 errors" {
		t.Errorf("got %q", got)
	}
}
