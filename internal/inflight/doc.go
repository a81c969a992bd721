// Package inflight owns the bound on the bytes of documents in flight
// between a reader and the goroutines that work on them: the text read
// and not yet done with, in predict's batches (queued, scored, not yet
// written) and in a counter's batches (queued, not yet counted). A
// reader takes a batch's size from a Budget before it hands the batch
// on, and the batch's size is given back once it is done with; a reader
// about to read a document larger than what is left waits for room
// first (WaitRoom), so that a huge document is read while nothing else
// is held rather than beside everything else. Memory is then bounded by
// the budget plus the largest document, not by documents × queues.
package inflight
