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
	cols  [][]cell  // by class, by term id
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

// column returns the column of class k, at least n long.
func (w *worker) column(k int32, n int) []cell {
	for int(k) >= len(w.cols) {
		w.cols = append(w.cols, nil)
		if w.vocab != nil {
			w.sums = append(w.sums, nil)
		}
	}
	col := w.cols[k]
	if len(col) < n {
		size := n
		if w.vocab == nil {
			size = max(n, 2*len(col), 1<<10) // room for the terms to come
		}
		col = append(col, make([]cell, size-len(col))...)
		w.cols[k] = col
	}
	return col
}

// countRow adds the row of text, of class k, in round one.
func (w *worker) countRow(k int32, text string) {
	ids, vals := w.tc.Row(text)
	col := w.column(k, w.tc.Len())
	for j, id := range ids {
		c := &col[id]
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
		c := &col[id]
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
		b += int64(cap(c)) * 16
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

// terms returns the number of term ids the worker may have counted.
func (w *worker) terms() int {
	if w.vocab != nil {
		return len(w.vocab.Terms)
	}
	return w.tc.Len()
}

// source returns the worker's counts as a sorted source: its terms met,
// ascending, with their cells by the worker's class ids.
func (w *worker) source() *workerSource {
	n := w.terms()
	order := make([]int32, 0, n)
	for id := range int32(n) {
		for _, col := range w.cols {
			if int(id) < len(col) && col[id].docs > 0 {
				order = append(order, id)
				break
			}
		}
	}
	if w.vocab == nil { // vocabulary ids are in term order already
		slices.SortFunc(order, func(a, b int32) int { return strings.Compare(w.tc.Term(a), w.tc.Term(b)) })
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
		if int(id) >= len(col) || col[id].docs == 0 {
			continue
		}
		c := Cell{Class: int32(k), Docs: col[id].docs, Occ: col[id].occ}
		if s.w.sums != nil {
			c.Sum = s.w.sums[k][id]
		}
		cells = append(cells, c)
	}
	s.cells = cells
	return s.w.term(id), cells, true, nil
}
