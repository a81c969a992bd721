package predict

import "sync"

// byteBudget bounds the bytes of text in flight in a pipeline: a batch
// takes its size from the budget before it is queued and gives it back
// once its answers are written. A batch larger than the whole budget
// takes all of it, so it passes alone.
type byteBudget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	limit  int64
	used   int64
	peak   int64 // the most bytes held at once (for tests)
	closed bool
}

func newByteBudget(limit int64) *byteBudget {
	b := &byteBudget{limit: limit}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// acquire waits until n bytes (at most the whole budget) fit and takes
// them; it returns what it took, to give back with release, or false once
// the budget is closed.
func (b *byteBudget) acquire(n int64) (int64, bool) {
	n = min(n, b.limit)
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.closed && b.used > 0 && b.used+n > b.limit {
		b.cond.Wait()
	}
	if b.closed {
		return 0, false
	}
	b.used += n
	b.peak = max(b.peak, b.used)
	return n, true
}

func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// close wakes and refuses every acquire: the writer has stopped.
func (b *byteBudget) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
}
