package counts

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/nbtext/nbtext/internal/prefault"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// work is a batch of documents for a worker: their texts and class ids
// (the Counter's, in order of first sight).
type work struct {
	texts   []string
	classes []int32
	size    int
}

// cell is a worker's running statistics of one term in one class.
type cell struct{ docs, occ int64 }

// cell32 is a cell of round one in half the bytes, so that twice as many
// terms' cells share the caches (with a 200,000-word vocabulary a column
// of cells is 3.2 MB, of cell32s 1.6 MB, and a core's L2 cache 4 MiB).
// Before a count would pass maxCell32, the cell's counts move to the
// worker's wide cells (worker.widen), which are allocated only then: the
// cell's counts are the sum of the two.
type cell32 struct{ docs, occ uint32 }

// maxCell32 bounds the counts of a cell32. It is a variable so that tests
// can make cells widen.
var maxCell32 uint32 = math.MaxUint32

// wcell is a cell of round two in 16 bytes, a quarter of a cache line,
// so that a class's column of a 200,000-term vocabulary (3.2 MB) fits a
// core's L2 cache, which 32-byte cells of int64 counts and a Fixed sum
// did not: lo is the fraction of the sum of the weighted values
// (Fixed.Lo), and meta packs three fields: the documents (bits 0-19), the
// occurrences (20-45) and the integer part of the sum (46-63). Each field
// is kept below its guard bit (wcellGuard), at most half its range, and
// an update adds less than wmaxAdd, at most the other half, so no field
// overflows into the next: an update that sets a guard bit, or would add
// more, moves the fields to the worker's wide cell of the term
// (worker.widenSum), allocated only then. A cell's statistics are the
// sum of the two. The widths put the guards far beyond what one worker
// counts of a term in a class on corpora of 10^7 documents (2^19
// documents, 2^25 occurrences, a sum of 2^17), so that there wide cells
// are rare and memory stays flat.
type wcell struct {
	lo, meta uint64
}

// The fields of wcell.meta: their shifts, and their masks once shifted
// down.
const (
	wdocsMask = 1<<20 - 1
	woccShift = 20
	woccMask  = 1<<26 - 1
	whiShift  = 46
	whiMask   = 1<<18 - 1
	// wmaxAdd bounds what an update adds to a field in place: below
	// half the range of the narrowest field.
	wmaxAdd = 1 << 16
)

// wcellGuard holds the guard bit of each field of wcell.meta: a field
// reaching it moves to the wide cell. It is a variable so that tests can
// lower it (wcellGuardAt) and make cells widen.
var wcellGuard = uint64(1<<19 | 1<<(woccShift+25) | 1<<(whiShift+17))

// wcellGuardAt returns a guard mask with bit b (≤ 17) of each field set.
func wcellGuardAt(b uint) uint64 {
	return 1<<b | 1<<(woccShift+b) | 1<<(whiShift+b)
}

// wideBits is the log2 of the cells in a block of a column of wide cells:
// smaller than a column's blocks, as most of a block of wide cells is
// never used.
const wideBits = 8

// wideCell is what a term's wcell in a class could not hold.
type wideCell struct {
	docs, occ int64
	hi        uint64 // the integer part of the sum
}

// worker is the state of one counting goroutine: it tokenizes the
// documents of the batches it takes and adds their rows straight into
// columns of its own, one per class, indexed by term id. In round one the
// ids are its TermCounter's local ids (each token's bytes are hashed once,
// into its term table); in round two they are the vocabulary's ids and a
// cell also sums the weighted values, in fixed point. Sums of integers
// and of Fixed do not depend on which worker took which document, so
// neither do the counts.
type worker struct {
	tc    *vectorize.TermCounter // round one
	vocab *vectorize.Vocabulary  // round two
	vz    *vectorize.Vectorizer
	wval  []float32        // round two: the weighted values of a row
	cols  []column[cell32] // round one: by class, by term id
	wide  []column[cell]   // round one: what cols could not hold (widen)
	wcols []column[wcell]  // round two: by class, by term id
	wwide [][][]wideCell   // round two: what wcols could not hold, by class, in blocks of 1<<wideBits allocated as needed
	err   error            // the first error met; the worker skips work after it
	mem   atomic.Int64
	terms atomic.Int64 // round one: the terms of tc (Options.Ceiling)
	cache *cacheWriter // round one with Options.Replay: the open segment
	docs  []int64      // replaying: the documents of each class
	rb    replayBuf    // replaying: scratch kept between items
	named bool         // hashed terms, which carry bucket names (names.go)
	// bits is Settings.HashBits. With it, round one's row cache holds
	// buckets (bucketRow), not local ids: bucket[id] is local id's.
	bits   int
	bucket []int32
	brow   []int32 // the row of buckets being cached
	// pooled: round one counts every class as class 0 (Options.VocabOnly),
	// and the TermCounter sums the terms' documents and occurrences
	// (vectorize.TermCounter.CountTotals) in the entries its per-token
	// loop reads anyway, so there are no columns; the row cache still
	// records the class.
	pooled bool
	// touched sums what the loops that load a row's cells ahead of
	// updating them read (see touchCells), so that the loads are kept.
	touched int64
}

func newWorker(tok vectorize.Settings, vocab *vectorize.Vocabulary, pooled bool) *worker {
	w := &worker{vocab: vocab, named: tok.HashBits > 0, bits: tok.HashBits, pooled: pooled}
	if vocab == nil {
		w.tc = vectorize.NewTermCounter(tok)
		if pooled {
			w.tc.CountTotals()
		}
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
	for i, text := range b.texts {
		if w.vocab == nil {
			w.countRow(b.classes[i], text)
			continue
		}
		ind, val := w.vz.Vectorize(text)
		if err := w.sumRow(b.classes[i], ind, val, w.vz.Occurrences()); err != nil {
			w.err = err
			return
		}
	}
	w.mem.Store(w.bytes())
	if w.tc != nil {
		w.terms.Store(int64(w.tc.Len()))
	}
}

// column is one class's cells by term id, in blocks of 1<<blockBits, so
// that it grows with the terms without copying or over-allocating.
type column[T any] [][]T

// blockBits is the log2 of the cells in a block of a column.
const blockBits = 12

// at returns the cell of term id.
func (c column[T]) at(id int32) *T { return &c[id>>blockBits][id&(1<<blockBits-1)] }

// columnOf returns the column of class k in cols, long enough for n
// terms, and cols, both grown as needed.
func columnOf[T any](cols []column[T], k int32, n int) (column[T], []column[T]) {
	for int(k) >= len(cols) {
		cols = append(cols, nil)
	}
	col := cols[k]
	for len(col)<<blockBits < n {
		col = append(col, prefault.Make[T](1<<blockBits))
	}
	cols[k] = col
	return col, cols
}

// countRow adds the row of text, of class k, in round one.
func (w *worker) countRow(k int32, text string) {
	ids, _ := w.tc.Row(text) // pooled, Row has summed the totals
	occ := w.tc.Occurrences()
	if !w.pooled {
		w.addCells(k, ids, occ)
	}
	if w.cache != nil {
		if w.named {
			ids = w.bucketRow(ids)
		}
		w.cache.add(k, ids, occ)
	}
}

// bucketRow returns the buckets of the local ids of a row of w.tc, whose
// terms are bucket names under hashing, in place of the ids: the row
// cache records buckets, a pure function of the terms, so that replaying
// it needs no TermCounter (replay.go). The slice is valid until the next
// call.
func (w *worker) bucketRow(ids []int32) []int32 {
	for n := w.tc.Len(); len(w.bucket) < n; {
		// Local ids are dense: each new one is a bucket's name (a
		// hashed TermCounter holds no other term), parsed once.
		b, ok := vectorize.ParseBucketName(w.tc.Term(int32(len(w.bucket))), w.bits)
		if !ok {
			b = 1<<32 - 1 // never in a row; replay would reject it
		}
		w.bucket = append(w.bucket, int32(uint32(b)))
	}
	out := slices.Grow(w.brow[:0], len(ids))
	for _, id := range ids {
		out = append(out, w.bucket[id])
	}
	w.brow = out
	return out
}

// addCells adds the row ids, vals of class k to its column.
func (w *worker) addCells(k int32, ids []int32, occ []uint32) {
	var col column[cell32]
	col, w.cols = columnOf(w.cols, k, w.tc.Len())
	w.touched += touchCells(col, ids)
	lim := maxCell32
	for j, id := range ids {
		c := col.at(id)
		v := occ[j]
		if v >= 1<<31 || c.docs >= lim || v > lim-c.occ {
			w.widen(k, id, c, int64(v))
			continue
		}
		c.docs++
		c.occ += v
	}
}

// widen adds a document holding term id occ times, and the counts of c,
// its cell32 in class k, to the term's wide cell, and empties c.
func (w *worker) widen(k, id int32, c *cell32, occ int64) {
	var col column[cell]
	col, w.wide = columnOf(w.wide, k, w.tc.Len())
	x := col.at(id)
	x.docs += int64(c.docs) + 1
	x.occ += int64(c.occ) + occ
	*c = cell32{}
}

// sumRow adds the row ind, val (as Vectorizer.Vectorize returns it, or
// the same terms in any order) of class k in round two: counts, and
// values weighted as in-memory training weights them.
func (w *worker) sumRow(k int32, ind []int32, val []float32, occs []int64) error {
	var col column[wcell]
	col, w.wcols = columnOf(w.wcols, k, len(w.vocab.Terms))
	w.touched += touchCells(col, ind)
	if w.vocab.Settings.Weighting == "tfidf" {
		w.touched += int64(touch(w.vocab.IDF(), ind))
	}
	wv := append(w.wval[:0], val...)
	w.wval = wv
	w.vocab.WeightRow(ind, wv)
	guard := wcellGuard
	for j, id := range ind {
		c := col.at(id)
		f, err := FixedOf(wv[j])
		if err != nil {
			return fmt.Errorf("term %q: %w", w.vocab.Terms[id], err)
		}
		occ := occs[j] // exact: val is float32, exact only to 2^24
		lo, carry := bits.Add64(c.lo, f.Lo, 0)
		c.lo = lo
		if uint64(occ) < wmaxAdd && f.Hi < wmaxAdd-1 {
			c.meta += 1 | uint64(occ)<<woccShift | (f.Hi+carry)<<whiShift
			if c.meta&guard != 0 {
				err = w.widenSum(k, id, c, 0, 0)
			}
		} else {
			c.meta += 1 | carry<<whiShift
			err = w.widenSum(k, id, c, occ, f.Hi)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// widenSum moves the fields of c, term id's wcell in class k, to the
// term's wide cell, adding occ occurrences and hi to the sum's integer
// part, and empties c's fields (not its fraction). It fails when the sum
// passes 2⁶⁴.
func (w *worker) widenSum(k, id int32, c *wcell, occ int64, hi uint64) error {
	for int(k) >= len(w.wwide) {
		w.wwide = append(w.wwide, nil)
	}
	col := w.wwide[k]
	for len(col) <= int(id>>wideBits) {
		col = append(col, nil)
	}
	if col[id>>wideBits] == nil { // by block: most blocks never widen
		col[id>>wideBits] = make([]wideCell, 1<<wideBits)
	}
	w.wwide[k] = col
	x := &col[id>>wideBits][id&(1<<wideBits-1)]
	x.docs += int64(c.meta & wdocsMask)
	x.occ += int64(c.meta>>woccShift&woccMask) + occ
	h, o1 := bits.Add64(x.hi, c.meta>>whiShift&whiMask, 0)
	h, o2 := bits.Add64(h, hi, 0)
	if o1|o2 != 0 {
		return fmt.Errorf("term %q: the sum of its values overflows", w.vocab.Terms[id])
	}
	x.hi, c.meta = h, 0
	return nil
}

// sumCell returns the statistics of term id in class k of round two: its
// wcell's and its wide cell's together.
func (w *worker) sumCell(k int, id int32) (docs, occ int64, sum Fixed, err error) {
	var wide [][]wideCell
	if k < len(w.wwide) {
		wide = w.wwide[k]
	}
	docs, occ, sum = w.wcols[k].at(id).stats()
	var over bool
	docs, occ, sum, over = withWide(docs, occ, sum, wideOf(wide, int(id)))
	if over {
		return 0, 0, Fixed{}, fmt.Errorf("term %q: the sum of its values overflows", w.vocab.Terms[id])
	}
	return docs, occ, sum, nil
}

// stats returns the statistics c holds: its fields, unpacked.
func (c *wcell) stats() (docs, occ int64, sum Fixed) {
	return int64(c.meta & wdocsMask), int64(c.meta >> woccShift & woccMask), Fixed{Hi: c.meta >> whiShift & whiMask, Lo: c.lo}
}

// withWide returns the statistics docs, occ, sum of a wcell (stats) with
// those of x, the wide cell of its term in its class (nil when there is
// none), added, and whether the sum of the values overflows.
func withWide(docs, occ int64, sum Fixed, x *wideCell) (int64, int64, Fixed, bool) {
	if x == nil {
		return docs, occ, sum, false
	}
	sum, over := sum.Add(Fixed{Hi: x.hi})
	return docs + x.docs, occ + x.occ, sum, over
}

// wideOf returns the wide cell of term id in wide, a class's blocks of
// wide cells (worker.wwide), or nil when the term has none.
func wideOf(wide [][]wideCell, id int) *wideCell {
	if id>>wideBits < len(wide) && wide[id>>wideBits] != nil {
		return &wide[id>>wideBits][id&(1<<wideBits-1)]
	}
	return nil
}

// touchCells loads the cells of ids in col, and returns a sum of what it
// read: the caller keeps it (worker.touched), so that the loads are not
// optimised away.
//
// A row's terms are spread over a column far larger than the caches, so
// the cells of its rare terms are cache misses. A loop that updates cells
// holds few misses in flight at once, as each update is many
// instructions; this loop is a load and an add per term, free of
// dependencies between terms, so the processor has many misses in flight
// at once and the update that follows finds the cells in cache. On
// synthetic corpora of a 200,000-word vocabulary this cut the CPU time of
// train --stream by about a tenth.
func touchCells[T cell32 | wcell](col column[T], ids []int32) int64 {
	var t int64
	for _, id := range ids {
		t += int64(*(*int8)(unsafe.Pointer(col.at(id))))
	}
	return t
}

// touch loads x[id] for each of ids, as touchCells, and returns their sum.
func touch[T int32 | uint64 | float32](x []T, ids []int32) T {
	var t T
	for _, id := range ids {
		t += x[id]
	}
	return t
}

// bytes estimates the worker's memory.
func (w *worker) bytes() int64 {
	var b int64
	if w.tc != nil {
		b += w.tc.Bytes() + 4*int64(len(w.bucket))
	}
	for _, c := range w.cols {
		b += int64(len(c)) << blockBits * 8
	}
	for _, c := range w.wide {
		b += int64(len(c)) << blockBits * 16
	}
	for _, c := range w.wcols {
		b += int64(len(c)) << blockBits * int64(unsafe.Sizeof(wcell{}))
	}
	for _, c := range w.wwide {
		for _, blk := range c {
			b += int64(len(blk)) * int64(unsafe.Sizeof(wideCell{}))
		}
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
		order = sortedTerms(w.tc)
	} else { // vocabulary ids are in term order already
		for id := range int32(len(w.vocab.Terms)) {
			for k, col := range w.wcols {
				if len(col) > 0 && w.sumDocs(k, id) > 0 {
					order = append(order, id)
					break
				}
			}
		}
	}
	return &workerSource{w: w, order: order, names: w.names()}
}

// workerSource reads a worker's columns in ascending term order.
type workerSource struct {
	w     *worker
	order []int32
	i     int
	cells []Cell
	names [][]vectorize.TermCount // by term id, with hashing (names.go)
}

func (s *workerSource) next() (string, []Cell, bool, error) {
	if s.i == len(s.order) {
		return "", nil, false, nil
	}
	id := s.order[s.i]
	s.i++
	cells := s.cells[:0]
	if w := s.w; w.pooled {
		if docs, occ := w.tc.Total(id); docs > 0 {
			cells = append(cells, Cell{Class: 0, Docs: docs, Occ: occ})
		}
	} else if w.vocab == nil {
		for k, col := range w.cols {
			if int(id)>>blockBits >= len(col) {
				continue
			}
			x := col.at(id)
			docs, occ := int64(x.docs), int64(x.occ)
			if k < len(w.wide) && int(id)>>blockBits < len(w.wide[k]) {
				y := w.wide[k].at(id)
				docs, occ = docs+y.docs, occ+y.occ
			}
			if docs > 0 {
				cells = append(cells, Cell{Class: int32(k), Docs: docs, Occ: occ})
			}
		}
	} else {
		for k, col := range w.wcols {
			if len(col) == 0 { // a class this worker did not meet
				continue
			}
			// Round-two columns hold every term.
			if docs, occ, sum, err := w.sumCell(k, id); err != nil {
				return "", nil, false, err
			} else if docs > 0 {
				cells = append(cells, Cell{Class: int32(k), Docs: docs, Occ: occ, Sum: sum})
			}
		}
	}
	s.cells = cells
	return s.w.term(id), cells, true, nil
}

// sumDocs returns the documents of term id in class k of round two.
func (w *worker) sumDocs(k int, id int32) int64 {
	docs, _, _, _ := w.sumCell(k, id)
	return docs
}
