package atomicfile

import (
	"errors"
	"testing"
	"time"
)

var (
	errBusy  = errors.New("sharing violation") // stands in for what antivirus holds cause
	errFatal = errors.New("path not found")
)

func isBusy(err error) bool { return errors.Is(err, errBusy) }

// fakeRename fails with the given errors in turn, then succeeds, and counts its calls.
type fakeRename struct {
	errs  []error
	calls int
}

func (f *fakeRename) rename() error {
	f.calls++
	if f.calls <= len(f.errs) {
		return f.errs[f.calls-1]
	}
	return nil
}

// sleeps records the pauses retry asks for instead of sleeping.
type sleeps []time.Duration

func (s *sleeps) sleep(d time.Duration) { *s = append(*s, d) }

func (s sleeps) total() (sum time.Duration) {
	for _, d := range s {
		sum += d
	}
	return sum
}

var testBackoff = backoff{first: time.Millisecond, max: 8 * time.Millisecond, budget: 50 * time.Millisecond}

func TestRetrySucceedsAfterTransientErrors(t *testing.T) {
	f := &fakeRename{errs: []error{errBusy, errBusy, errBusy}}
	var s sleeps
	if err := retry(f.rename, isBusy, testBackoff, s.sleep); err != nil {
		t.Fatalf("got %v, want success on the fourth attempt", err)
	}
	if f.calls != 4 {
		t.Errorf("%d calls, want 4", f.calls)
	}
	want := []time.Duration{time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond}
	if len(s) != len(want) || s[0] != want[0] || s[1] != want[1] || s[2] != want[2] {
		t.Errorf("paused %v, want doubling pauses %v", s, want)
	}
}

func TestRetryFirstAttemptSucceeds(t *testing.T) {
	f := &fakeRename{}
	var s sleeps
	if err := retry(f.rename, isBusy, testBackoff, s.sleep); err != nil || f.calls != 1 || len(s) != 0 {
		t.Errorf("err %v, %d calls, pauses %v; want one call and no pause", err, f.calls, s)
	}
}

func TestRetryStopsAtPermanentError(t *testing.T) {
	f := &fakeRename{errs: []error{errBusy, errFatal, errBusy}}
	var s sleeps
	err := retry(f.rename, isBusy, testBackoff, s.sleep)
	if !errors.Is(err, errFatal) {
		t.Fatalf("got %v, want the permanent error", err)
	}
	if f.calls != 2 {
		t.Errorf("%d calls, want 2: no retry after a permanent error", f.calls)
	}
}

func TestRetryGivesUpWithinBudget(t *testing.T) {
	busy := make([]error, 1000)
	for i := range busy {
		busy[i] = errBusy
	}
	f := &fakeRename{errs: busy}
	var s sleeps
	err := retry(f.rename, isBusy, testBackoff, s.sleep)
	if !errors.Is(err, errBusy) {
		t.Fatalf("got %v, want the last transient error", err)
	}
	if s.total() > testBackoff.budget {
		t.Errorf("slept %v in total, over the %v budget", s.total(), testBackoff.budget)
	}
	// 1+2+4+8+8+8+8+8 = 47ms fits in 50ms; one more 8ms pause would not.
	if len(s) != 8 || f.calls != 9 {
		t.Errorf("%d pauses and %d calls, want 8 and 9", len(s), f.calls)
	}
	for _, d := range s {
		if d > testBackoff.max {
			t.Errorf("pause %v over the %v cap", d, testBackoff.max)
		}
	}
}

func TestRetryZeroBudgetTriesOnce(t *testing.T) {
	f := &fakeRename{errs: []error{errBusy}}
	var s sleeps
	if err := retry(f.rename, isBusy, backoff{first: time.Millisecond, max: time.Millisecond}, s.sleep); !errors.Is(err, errBusy) || f.calls != 1 {
		t.Errorf("err %v after %d calls, want errBusy after 1", err, f.calls)
	}
}
