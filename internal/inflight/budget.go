package inflight

import "sync"

// Default is the default budget of bytes in flight: 64 MiB, enough to
// keep every worker busy with documents of ordinary sizes, small beside
// the memory of a model.
const Default = 64 << 20

// Budget bounds the bytes in flight. A batch larger than the whole
// budget takes all of it, so it passes alone: a document of any size
// (up to --max-doc-bytes) goes through. A Budget is safe for concurrent
// use.
type Budget struct {
	mu     sync.Mutex
	cond   *sync.Cond
	limit  int64
	used   int64
	peak   int64 // the most bytes held at once
	closed bool
}

// New returns a budget of limit bytes (at least 1).
func New(limit int64) *Budget {
	b := &Budget{limit: max(limit, 1)}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// Limit returns the budget's bound.
func (b *Budget) Limit() int64 { return b.limit }

// Acquire waits until n bytes (at most the whole budget) fit and takes
// them; it returns what it took, to give back with Release, or false once
// the budget is closed.
func (b *Budget) Acquire(n int64) (int64, bool) {
	n = min(max(n, 0), b.limit)
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

// Release gives back n bytes Acquire took.
func (b *Budget) Release(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// WaitRoom waits until n more bytes fit in the budget, or until nothing
// is held when n is larger than what the budget can ever give: a reader
// calls it before it reads a large document, so that the document is
// read in the room the batches before it leave, not beside them. It
// takes nothing (the reader acquires the document's batch when it hands
// it on), so it assumes one reader. It returns false once the budget is
// closed.
func (b *Budget) WaitRoom(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.closed && b.used > 0 && b.used+n > b.limit {
		b.cond.Wait()
	}
	return !b.closed
}

// Close wakes and refuses every Acquire and WaitRoom: the consumer has
// stopped.
func (b *Budget) Close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// Used returns the bytes held now.
func (b *Budget) Used() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.used
}

// Peak returns the most bytes held at once so far.
func (b *Budget) Peak() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peak
}
