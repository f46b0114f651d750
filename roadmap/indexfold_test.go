package roadmap

import (
	"strings"
	"testing"
)

// FuzzIndexFold holds indexFold to the plain definition: strings.EqualFold at every offset.
func FuzzIndexFold(f *testing.F) {
	f.Add("a <Summary>b", "<summary")
	f.Add("IN PROGRESS", "in progress")
	f.Fuzz(func(t *testing.T, s, sub string) {
		for i := 0; i < len(sub); i++ {
			if sub[i] >= 0x80 {
				return // indexFold is for ASCII subs ("<summary", "in progress")
			}
		}
		want := -1
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				want = i
				break
			}
		}
		if got := indexFold(s, sub); got != want {
			t.Fatalf("indexFold(%q, %q) = %d, want %d", s, sub, got, want)
		}
	})
}
