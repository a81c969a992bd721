package vectorize

// TermCounter tokenizes documents one at a time into rows of local term
// ids: Fit's per-token loop (the same tokenizer, term table, stop word and
// n-gram handling, long documents in pieces) without Fit's batches, so a
// caller that only sums statistics (counts.Counter) hashes each token's
// bytes once and gets each document's distinct terms with their counts.
// Local ids are dense, in order of first sight, and never reused; Term
// names them. The terms are those Fit counts for the same settings
// (pruning aside: a TermCounter keeps every term). A TermCounter is not
// safe for concurrent use; make one per goroutine.
type TermCounter struct {
	w *fitWorker
	b batch
}

// NewTermCounter returns a TermCounter tokenizing with s's tokenizer
// settings (Lowercase, StopWords, n-grams, Fields, Remove); pruning and
// weighting settings are not read.
func NewTermCounter(s Settings) *TermCounter {
	c := &TermCounter{w: newFitWorker(s, 0)}
	c.w.cur = &c.b
	c.w.exact = true
	return c
}

// CountTotals makes the TermCounter sum, for each term, the documents
// whose rows held it and its occurrences in them (Total), as Row builds
// each row, in memory it touches anyway: for a caller that pools every
// document's counts. Call it before the first Row.
func (c *TermCounter) CountTotals() { c.w.countTotals() }

// Total returns, after CountTotals, the documents of the rows Row returned
// that held local id, and the id's occurrences in them (the sums of its
// counts). The sums are exact, however many documents.
func (c *TermCounter) Total(id int32) (docs, occ int64) { return c.w.total(id) }

// Row tokenizes text and returns the local ids of its distinct terms, in
// order of first occurrence, and their counts (field terms count their
// weight). The slices are valid until the next call.
func (c *TermCounter) Row(text string) (ids []int32, counts []float32) {
	b := &c.b
	b.ids, b.vals, b.end, b.occ = b.ids[:0], b.vals[:0], b.end[:0], b.occ[:0]
	c.w.add(text)
	return b.ids, b.vals
}

// Occurrences returns the counts of the last row Row returned, exact (its
// counts are float32, exact only to 2^24: a term may occur more often in
// one document), in the same order. The slice is valid until the next
// call.
func (c *TermCounter) Occurrences() []uint32 { return c.b.occ }

// First returns the smallest local id Row can return: the ids below it
// are the stop words the term table holds in order to drop them, and
// every id from First to Len was in a row.
func (c *TermCounter) First() int32 { return int32(c.w.nstop) }

// Len returns the number of local ids given so far: every id Row returned
// is below it.
func (c *TermCounter) Len() int { return c.w.table.len() }

// Term returns the term of local id. The string stays valid as long as
// the TermCounter is referenced.
func (c *TermCounter) Term(id int32) string { return c.w.table.terms[id] }

// Names returns, with feature hashing (Settings.HashBits), by local id
// (a bucket) every term counted in it with its occurrences, most frequent
// first; nil without hashing. Add several counters' names with AddNames,
// then keep the top ones with TopNames. The strings stay valid as
// long as the TermCounter is referenced.
func (c *TermCounter) Names() [][]TermCount { return c.w.localNames() }

// Bytes estimates the memory the TermCounter holds for its terms: slots
// of its term table (at least 7/16 full once grown past bigTable: at
// most 16/7 slots a term), the terms' headers, hashes and seen entries,
// and about 8 bytes of text each.
func (c *TermCounter) Bytes() int64 {
	b := int64(c.w.table.len()) * int64(16*16/7+16+8+4*c.w.stride+8)
	if x := c.w.hash; x != nil {
		// With hashing the table holds buckets, and the terms named in
		// them have a table of their own (hashState): its slots, headers,
		// hashes, termInfo and text, which grow with the distinct terms.
		b += int64(x.terms.len()) * int64(16*16/7+16+8+16+8)
	}
	return b
}
