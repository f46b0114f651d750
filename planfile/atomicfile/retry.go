package atomicfile

import "time"

// backoff says how long to keep retrying an operation that fails for a transient reason: the
// first pause, the longest single pause (pauses double up to it), and the total pause budget.
type backoff struct {
	first, max, budget time.Duration
}

// retry calls op until it succeeds, fails with an error isTransient rejects, or the next pause
// would take the total time slept past b.budget; it returns op's last error. sleep is a
// parameter so the decision logic can be tested without waiting (and on any OS, although only
// the Windows code needs it today).
func retry(op func() error, isTransient func(error) bool, b backoff, sleep func(time.Duration)) error {
	delay := b.first
	var slept time.Duration
	for {
		err := op()
		if err == nil || !isTransient(err) || slept+delay > b.budget {
			return err
		}
		sleep(delay)
		slept += delay
		delay = min(2*delay, b.max)
	}
}
