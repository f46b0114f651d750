package lazyre

import (
	"sync"
	"testing"
)

// An expression is compiled once, on first use, whatever the goroutines asking.
func TestCompiledOnceOnFirstUse(t *testing.T) {
	re := New(`^a+b$`)
	if re.re != nil {
		t.Fatal("compiled before first use")
	}
	var wg sync.WaitGroup
	got := make([]bool, 8)
	for i := range got {
		wg.Add(1)
		go func() { defer wg.Done(); got[i] = re.Get().MatchString("aab") }()
	}
	wg.Wait()
	for i, ok := range got {
		if !ok {
			t.Errorf("goroutine %d: no match", i)
		}
	}
	if re.Get() != re.Get() {
		t.Error("compiled more than once")
	}
}
