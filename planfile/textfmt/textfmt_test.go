package textfmt

import (
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

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

func TestQuote(t *testing.T) {
	long := strings.Repeat("A", 200000)
	for _, tc := range []struct{ s, quote, excerpt string }{
		{"soon", `"soon"`, `soon`},
		{"a\nb\x1b\u202e\xff", `"a\nb\x1b\u202e\xff"`, `a\nb\x1b\u202e\xff`},
		{`{"h":"\\"}`, `"{\"h\":\"\\\\\"}"`, `{"h":"\\\\"}`},
		{strings.Repeat("é", MaxQuote), `"` + strings.Repeat("é", MaxQuote) + `"`, strings.Repeat("é", MaxQuote)},
		{strings.Repeat("é", MaxQuote+1), `"` + strings.Repeat("é", MaxQuote-1) + `…" (242 bytes)`, strings.Repeat("é", MaxQuote-1) + `… (242 bytes)`},
		{long, `"` + long[:MaxQuote-1] + `…" (200000 bytes)`, long[:MaxQuote-1] + `… (200000 bytes)`},
	} {
		if got := Quote(tc.s); got != tc.quote {
			t.Errorf("Quote(%.20q) = %s, want %s", tc.s, got, tc.quote)
		}
		if got := Excerpt(tc.s); got != tc.excerpt {
			t.Errorf("Excerpt(%.20q) = %s, want %s", tc.s, got, tc.excerpt)
		}
	}
}

// FuzzQuote: whatever the input, the quote is bounded, one line, printable ASCII-safe escaped,
// and a short input reads back exactly.
func FuzzQuote(f *testing.F) {
	f.Add("soon")
	f.Add(strings.Repeat("\xff\u2028", 100))
	f.Fuzz(func(t *testing.T, s string) {
		q := Quote(s)
		if len(q) > 10*MaxQuote+32 || strings.ContainsAny(q, "\n\r") {
			t.Fatalf("Quote of %d bytes is %d bytes: %s", len(s), len(q), q)
		}
		if utf8.RuneCountInString(s) <= MaxQuote {
			if back, err := strconv.Unquote(q); err != nil || back != s {
				t.Fatalf("Quote(%q) = %s does not read back: %v", s, q, err)
			}
		}
	})
}

func TestWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want int
	}{
		{"", 0},
		{"phase", 5},
		{"é", 1},
		{"e\u0301", 1},       // a combining accent takes no column
		{"清洗词典", 8},          // Chinese: two columns each
		{"ログイン画面", 12},       // Japanese
		{"ｱ", 1},             // halfwidth katakana
		{"Ｇ", 2},             // fullwidth Latin
		{"a\u200bb", 2},      // zero width space
		{"v2.6 清洗 CEFR", 14}, // mixed
	} {
		if got := Width(tc.s); got != tc.want {
			t.Errorf("Width(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}

func TestPadAndClipWidth(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		pad  string
		clip string
	}{
		{"ab", 4, "ab  ", "ab"},
		{"清洗", 6, "清洗  ", "清洗"},
		{"清洗词典", 6, "清洗词典", "清洗…"},
		{"清洗词典", 5, "清洗词典", "清洗…"},
		{"a清洗词典", 6, "a清洗词典", "a清洗…"},
	} {
		if got := Pad(tc.s, tc.n); got != tc.pad {
			t.Errorf("Pad(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.pad)
		}
		if got := ClipWidth(tc.s, tc.n); got != tc.clip {
			t.Errorf("ClipWidth(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.clip)
		}
		if got := Width(ClipWidth(tc.s, tc.n)); got > tc.n {
			t.Errorf("ClipWidth(%q, %d) takes %d columns", tc.s, tc.n, got)
		}
	}
}

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Hour: "2h", 90 * time.Minute: "1h30m", 10 * time.Second: "10s", 1500 * time.Millisecond: "1.5s",
		500 * time.Millisecond: "500ms", 72 * time.Hour: "72h", time.Hour + time.Second: "1h0m1s",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
		if back, err := time.ParseDuration(Duration(d)); err != nil || back != d {
			t.Errorf("Duration(%v) = %q reads back as %v, %v", d, Duration(d), back, err)
		}
	}
	for d, want := range map[time.Duration]string{
		3*time.Hour + 27*time.Minute: "3h", 72*time.Hour + 5*time.Minute: "72h", 45*time.Minute + 30*time.Second: "45m",
		45*time.Second + 300*time.Millisecond: "45s", 0: "0s", -time.Minute: "0s", 24 * time.Hour: "24h",
	} {
		if got := Elapsed(d); got != want {
			t.Errorf("Elapsed(%v) = %q, want %q", d, got, want)
		}
	}
}
