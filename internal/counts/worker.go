package counts

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// work is a batch of documents for a worker: their texts and class ids
// (the Counter's, in order of first sight).
type work struct {
	texts   []string
	classes []int32
	size    int
	seg     *segment // or a segment of the row cache to replay
}

// cell is a worker's running statistics of one term in one class.
type cell struct{ docs, occ int64 }

// worker is the state of one counting goroutine: it tokenizes the
// documents of the batches it takes and adds their rows straight into
// columns of its own, one per class, indexed by term id. In round one the
// ids are its TermCounter's local ids (each token's bytes are hashed once,
// into its term table); in round two they are the vocabulary's ids and a
// column also sums the weighted values, in fixed point. Sums of integers
// and of Fixed do not depend on which worker took which document, so
// neither do the counts.
type worker struct {
	tc    *vectorize.TermCounter // round one
	vocab *vectorize.Vocabulary  // round two
	vz    *vectorize.Vectorizer
	wval  []float32 // round two: the weighted values of a row
	cols  []column  // by class, by term id
	sums  [][]Fixed // round two: by class, by term id
	err   error     // the first error met; the worker skips work after it
	mem   atomic.Int64
	cache *cacheWriter // round one with Options.Replay: the open segment
	docs  []int64      // replaying: the documents of each class
}

func newWorker(tok vectorize.Settings, vocab *vectorize.Vocabulary) *worker {
	w := &worker{vocab: vocab}
	if vocab == nil {
		w.tc = vectorize.NewTermCounter(tok)
	} else {
		w.vz = vocab.NewVectorizer()
	}
	return w
}

// process counts the documents of b.
func (w *worker) process(b *work) {
	if w.err != nil {
		return
	}
	if b.seg != nil {
		w.err = w.replay(b.seg)
		return
	}
	for i, text := range b.texts {
		if w.vocab == nil {
			w.countRow(b.classes[i], text)
			continue
		}
		ind, val := w.vz.Vectorize(text)
		if err := w.sumRow(b.classes[i], ind, val); err != nil {
			w.err = err
			return
		}
	}
	w.mem.Store(w.bytes())
}

// column is one class's cells by term id, in blocks of blockSize, so that
// it grows with the terms without copying or over-allocating.
type column [][]cell

// blockBits is the log2 of the cells in a block of a column.
const blockBits = 12

// at returns the cell of term id.
func (c column) at(id int32) *cell { return &c[id>>blockBits][id&(1<<blockBits-1)] }

// has reports whether the column holds documents with term id.
func (c column) has(id int32) bool {
	b := int(id >> blockBits)
	return b < len(c) && c[b][id&(1<<blockBits-1)].docs > 0
}

// column returns the column of class k, long enough for n terms.
func (w *worker) column(k int32, n int) column {
	for int(k) >= len(w.cols) {
		w.cols = append(w.cols, nil)
		if w.vocab != nil {
			w.sums = append(w.sums, nil)
		}
	}
	col := w.cols[k]
	for len(col)<<blockBits < n {
		col = append(col, make([]cell, 1<<blockBits))
	}
	w.cols[k] = col
	return col
}

// countRow adds the row of text, of class k, in round one.
func (w *worker) countRow(k int32, text string) {
	ids, vals := w.tc.Row(text)
	col := w.column(k, w.tc.Len())
	for j, id := range ids {
		c := col.at(id)
		c.docs++
		c.occ += int64(vals[j])
	}
	if w.cache != nil {
		w.cache.add(k, ids, vals)
	}
}

// sumRow adds the row ind, val (as Vectorizer.Vectorize returns it) of
// class k in round two: counts, and values weighted as in-memory training
// weights them.
func (w *worker) sumRow(k int32, ind []int32, val []float32) error {
	wv := append(w.wval[:0], val...)
	w.wval = wv
	w.vocab.WeightRow(ind, wv)
	V := len(w.vocab.Terms)
	col := w.column(k, V)
	sum := w.sums[k]
	if sum == nil {
		sum = make([]Fixed, V)
		w.sums[k] = sum
	}
	for j, id := range ind {
		c := col.at(id)
		c.docs++
		c.occ += int64(val[j])
		f, err := FixedOf(wv[j])
		if err != nil {
			return fmt.Errorf("term %q: %w", w.vocab.Terms[id], err)
		}
		var over bool
		if sum[id], over = sum[id].Add(f); over {
			return fmt.Errorf("term %q: the sum of its values overflows", w.vocab.Terms[id])
		}
	}
	return nil
}

// bytes estimates the worker's memory.
func (w *worker) bytes() int64 {
	var b int64
	if w.tc != nil {
		b += w.tc.Bytes()
	}
	for _, c := range w.cols {
		b += int64(len(c)) << blockBits * 16
	}
	for _, s := range w.sums {
		b += int64(cap(s)) * 16
	}
	return b
}

// term returns the term of id.
func (w *worker) term(id int32) string {
	if w.vocab != nil {
		return w.vocab.Terms[id]
	}
	return w.tc.Term(id)
}

// source returns the worker's counts as a sorted source: its terms met,
// ascending, with their cells by the worker's class ids.
func (w *worker) source() *workerSource {
	var order []int32
	if w.vocab == nil { // every id from First on was counted
		order = make([]int32, 0, w.tc.Len()-int(w.tc.First()))
		for id := w.tc.First(); id < int32(w.tc.Len()); id++ {
			order = append(order, id)
		}
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(w.tc.Term(a), w.tc.Term(b)) })
	} else { // vocabulary ids are in term order already
		for id := range int32(len(w.vocab.Terms)) {
			for _, col := range w.cols {
				if col.has(id) {
					order = append(order, id)
					break
				}
			}
		}
	}
	return &workerSource{w: w, order: order}
}

// workerSource reads a worker's columns in ascending term order.
type workerSource struct {
	w     *worker
	order []int32
	i     int
	cells []Cell
}

func (s *workerSource) next() (string, []Cell, bool, error) {
	if s.i == len(s.order) {
		return "", nil, false, nil
	}
	id := s.order[s.i]
	s.i++
	cells := s.cells[:0]
	for k, col := range s.w.cols {
		if !col.has(id) {
			continue
		}
		x := col.at(id)
		c := Cell{Class: int32(k), Docs: x.docs, Occ: x.occ}
		if s.w.sums != nil {
			c.Sum = s.w.sums[k][id]
		}
		cells = append(cells, c)
	}
	s.cells = cells
	return s.w.term(id), cells, true, nil
}
