package roadmap

import (
	"encoding/json"
	"slices"
	"testing"
)

func mustPhase(t testing.TB, s string) PhaseNum {
	t.Helper()
	n, ok := ParsePhaseNum(s)
	if !ok {
		t.Fatalf("ParsePhaseNum(%q) failed", s)
	}
	return n
}

func TestParsePhaseNum(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want string // canonical String()
	}{
		{"3", true, "3"},
		{"03", true, "3"},
		{"003", true, "3"},
		{"099", true, "99"},
		{"0", true, "0"},
		{"00", true, "0"},
		{"3.1", true, "3.1"},
		{"04.1", true, "4.1"},
		{"4.01", true, "4.1"},
		{"12.3.1", true, "12.3.1"},
		{"3.10", true, "3.10"},
		{"16C", true, "16C"},
		{"16c", true, "16C"},
		{"12.1B", true, "12.1B"},
		{"CK-01", true, "1"},
		{"ck-3.1", true, "3.1"},
		{"999999999", true, "999999999"},
		{"0000000000123", true, "123"}, // leading zeros are not significant digits

		{"", false, ""},
		{"1234567890", false, ""}, // past the bound, not silently wrapped
		{" 3", false, ""},
		{"3 ", false, ""},
		{"3.", false, ""},
		{".3", false, ""},
		{"3..1", false, ""},
		{"-3", false, ""},
		{"+3", false, ""},
		{"3-1", false, ""},
		{"16CD", false, ""},
		{"01foundation", false, ""},
		{"1e5", false, ""},
		{"CK-", false, ""},
		{"CK01", true, "CK1"}, // a series prefix, as E73
		{"phase", false, ""},
		{"٣", false, ""}, // Arabic-Indic digit: not an ASCII phase number
		{"3.1C.2", false, ""},
	}
	for _, tt := range tests {
		n, ok := ParsePhaseNum(tt.in)
		if ok != tt.ok {
			t.Errorf("ParsePhaseNum(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if ok && n.String() != tt.want {
			t.Errorf("ParsePhaseNum(%q).String() = %q, want %q", tt.in, n.String(), tt.want)
		}
		if ok && n.Raw() != tt.in {
			t.Errorf("ParsePhaseNum(%q).Raw() = %q", tt.in, n.Raw())
		}
	}
}

func TestPhaseNumCompare(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"03", "3", 0},
		{"099", "99", 0},
		{"04.1", "4.1", 0},
		{"16c", "16C", 0},
		{"CK-01", "1", 0},
		{"3.1", "3", 1},
		{"3.1", "4", -1},
		{"3.1", "3.2", -1},
		{"3.2", "3.10", -1}, // numbers, not strings
		{"9", "10", -1},
		{"12.3", "12.3.1", -1},
		{"12.3.1", "12.4", -1},
		{"16", "16C", -1},
		{"16A", "16C", -1},
		{"16C", "16.1", -1},
		{"16C", "17", -1},
		{"0", "1", -1},
	}
	for _, tt := range tests {
		a, b := mustPhase(t, tt.a), mustPhase(t, tt.b)
		if got := a.Compare(b); got != tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := b.Compare(a); got != -tt.want {
			t.Errorf("Compare(%s, %s) = %d, want %d", tt.b, tt.a, got, -tt.want)
		}
		if a.Equal(b) != (tt.want == 0) {
			t.Errorf("Equal(%s, %s) = %v", tt.a, tt.b, a.Equal(b))
		}
	}
	var zero PhaseNum
	if !zero.IsZero() || zero.Compare(mustPhase(t, "0")) >= 0 || zero.String() != "" {
		t.Errorf("zero PhaseNum must be empty and sort before phase 0")
	}
}

func TestPhaseNumSort(t *testing.T) {
	in := []string{"10", "3.1", "16C", "02", "12.3.1", "3", "099", "16", "4", "12.3", "1", "16.1", "3.10", "3.2", "17"}
	want := []string{"1", "2", "3", "3.1", "3.2", "3.10", "4", "10", "12.3", "12.3.1", "16", "16C", "16.1", "17", "99"}
	var nums []PhaseNum
	for _, s := range in {
		nums = append(nums, mustPhase(t, s))
	}
	slices.SortFunc(nums, PhaseNum.Compare)
	var got []string
	for _, n := range nums {
		got = append(got, n.String())
	}
	if !slices.Equal(got, want) {
		t.Errorf("sorted = %v\nwant     %v", got, want)
	}
}

func TestPhaseNumJSON(t *testing.T) {
	var v struct{ Phase PhaseNum }
	if err := json.Unmarshal([]byte(`{"Phase":"04.1"}`), &v); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"Phase":"4.1"}` {
		t.Errorf("round trip = %s", b)
	}
	if err := json.Unmarshal([]byte(`{"Phase":"x"}`), &v); err == nil {
		t.Errorf("want error for an invalid phase number")
	}
}

func TestPhaseDirName(t *testing.T) {
	tests := []struct {
		in, num, slug string
		ok            bool
	}{
		{"03-core-encryption", "3", "core-encryption", true},
		{"3.1-automatic-downloader-from-remote-sources", "3.1", "automatic-downloader-from-remote-sources", true},
		{"12.3-siwe-unified-identity", "12.3", "siwe-unified-identity", true},
		{"12.3.1-pre-wipe", "12.3.1", "pre-wipe", true},
		{"04.1-api-service-testing", "4.1", "api-service-testing", true},
		{"16C-polish", "16C", "polish", true},
		{"CK-01-slug", "1", "slug", true},
		{"099-late", "99", "late", true},
		{"07", "7", "", true},
		{"archive", "", "", false},
		{".DS_Store", "", "", false},
		{"01foundation", "", "", false},
		{"1.x-foo", "", "", false},
	}
	for _, tt := range tests {
		n, slug, ok := phaseDirName(tt.in)
		if ok != tt.ok || n.String() != tt.num || slug != tt.slug {
			t.Errorf("phaseDirName(%q) = %q, %q, %v; want %q, %q, %v", tt.in, n, slug, ok, tt.num, tt.slug, tt.ok)
		}
	}
}

func TestBacklog(t *testing.T) {
	for s, want := range map[string]bool{"999.1": true, "999.12": true, "999": false, "99.1": false, "1999.1": false, "E999.1": false, "999.1.2": true} {
		n, ok := ParsePhaseNum(s)
		if !ok || n.Backlog() != want {
			t.Errorf("%s: backlog %v (parsed %v), want %v", s, n.Backlog(), ok, want)
		}
	}
}
