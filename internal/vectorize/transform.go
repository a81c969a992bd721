package vectorize

import (
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Vectorizer turns single documents into sparse count rows of a
// vocabulary, reusing its buffers: after warm-up, Vectorize does not
// allocate. It is the per-document path of predict. A Vectorizer is not
// safe for concurrent use; make one per goroutine (they may share the
// Vocabulary).
type Vectorizer struct {
	v     *Vocabulary
	table *termTable
	tok   *Tokenizer
	count []uint32 // by term id: occurrences in the current piece, 0 elsewhere
	bits  []uint64 // by term id: scratch for sorting long rows
	ind   []int32
	val   []float32
	occ   []int64 // the row's occurrences, exact (val is float32)
	ind2  []int32 // the current piece of a long document
	val2  []float32
	occ2  []int64
	words bool    // tokens need no stop word removal (see vocabIndex.noStop)
	hash  *hasher // with Settings.HashBits: terms → bucket names
}

// NewVectorizer returns a Vectorizer for v, tokenizing with v.Settings.
// It holds 4.1 bytes per vocabulary term of scratch.
func (v *Vocabulary) NewVectorizer() *Vectorizer {
	x := v.index()
	tok := NewTokenizer(v.Settings)
	return &Vectorizer{
		v:     v,
		table: x.table,
		tok:   tok,
		count: make([]uint32, len(v.Terms)),
		bits:  make([]uint64, (len(v.Terms)+63)/64),
		words: tok.wordsOnly() && x.noStop && v.Settings.HashBits == 0,
		hash:  newHasher(v.Settings),
	}
}

// Vectorize returns the row of text: the ids of its terms that are in the
// vocabulary, ascending and distinct, and their counts. Unknown terms are
// dropped. The slices alias z's buffers and are valid until the next call;
// pass them to Vocabulary.WeightRow to weight them in place.
//
// A document longer than 1 MiB (with unigrams only) is tokenized in pieces
// cut at white space, so that memory stays bounded by the piece size and
// the vocabulary, not by the document.
func (z *Vectorizer) Vectorize(text string) (ind []int32, val []float32) {
	if z.tok.nmax > 1 || z.tok.an.whole() || len(text) <= longDocument {
		ind, val, z.occ = z.piece(text, true, z.ind[:0], z.val[:0], z.occ[:0])
		z.ind, z.val = ind, val
		z.tok.forget()
		return ind, val
	}
	ind, val = z.ind[:0], z.val[:0]
	occ := z.occ[:0]
	for i := 0; i < len(text); {
		j := nextPiece(text, i)
		pi, pv, po := z.piece(text[i:j], i == 0, z.ind2[:0], z.val2[:0], z.occ2[:0])
		z.ind2, z.val2, z.occ2 = pi, pv, po
		z.tok.forget() // each piece: a shorter next one would not overwrite them all
		ind, val, occ = mergeRows(ind, occ, pi, po)
		i = j
	}
	z.ind, z.val, z.occ = ind, val, occ
	return ind, val
}

// Occurrences returns the occurrences of the terms of the last row
// Vectorize returned, exact (its values are float32, exact only to 2^24),
// in the same order. The slice is valid until the next call.
func (z *Vectorizer) Occurrences() []int64 { return z.occ }

// longDocument is the length above which Vectorize and Fit tokenize a
// unigram document in pieces.
const longDocument = 1 << 20

// nextPiece returns the end of the piece of text that starts at i: about
// 256 KiB, cut just after an ASCII space, tab, CR or LF. No token and no
// final-sigma context crosses such a cut, so the pieces give the same
// unigrams as the whole. Text without white space stays whole.
func nextPiece(text string, i int) int {
	const size = 1 << 18
	if len(text)-i <= size+size/2 {
		return len(text)
	}
	for j := i + size; j < len(text); j++ {
		switch text[j] {
		case ' ', '\n', '\t', '\r':
			return j + 1
		}
	}
	return len(text)
}

// piece appends to ind the distinct ids of the known terms of text in
// ascending order, and their counts to val. It counts in z.count, indexed
// by id, noting each id on its first occurrence, then sorts the distinct
// ids: by insertion for a few, through the bit set z.bits when they are
// dense enough for a scan of it to beat a comparison sort, else with
// slices.Sort. It leaves z.count all zero. head says whether text opens
// the document (and so holds its header fields).
func (z *Vectorizer) piece(text string, head bool, ind []int32, val []float32, occ []int64) ([]int32, []float32, []int64) {
	t, count := z.table, z.count
	lo, hi := int32(len(count)), int32(-1)
	var terms []string
	if z.words {
		terms = z.tok.words(text, head) // stop words are not in the table
	} else {
		terms = z.tok.terms(text, head)
	}
	if z.hash != nil {
		terms = z.hash.apply(terms)
	}
	for _, term := range terms {
		key, h := keyHash(term, t.seed)
		i, ok := t.find(term, key, h)
		if !ok {
			continue
		}
		id := int32(i)
		if count[id] == 0 {
			ind = append(ind, id)
			lo, hi = min(lo, id), max(hi, id)
		}
		if count[id] < math.MaxUint32 {
			count[id]++
		}
	}
	switch n := len(ind); {
	case n <= 32:
		insertionSort(ind)
	case int(hi-lo)/64 <= 32*n:
		set := z.bits
		for _, id := range ind {
			set[id>>6] |= 1 << (id & 63)
		}
		k := 0
		for w := lo >> 6; w <= hi>>6; w++ {
			for m := set[w]; m != 0; m &= m - 1 {
				ind[k] = w<<6 | int32(bits.TrailingZeros64(m))
				k++
			}
			set[w] = 0
		}
	default:
		slices.Sort(ind)
	}
	for _, id := range ind {
		val = append(val, float32(count[id]))
		occ = append(occ, int64(count[id]))
		count[id] = 0
	}
	return ind, val, occ
}

// mergeRows returns the sum of the sorted rows a and b (ids and exact
// occurrences), in new slices, with the float32 values of the sums.
func mergeRows(ai []int32, av []int64, bi []int32, bv []int64) ([]int32, []float32, []int64) {
	oi := make([]int32, 0, len(ai)+len(bi))
	ov := make([]int64, 0, len(ai)+len(bi))
	i, j := 0, 0
	for i < len(ai) && j < len(bi) {
		switch {
		case ai[i] < bi[j]:
			oi, ov = append(oi, ai[i]), append(ov, av[i])
			i++
		case ai[i] > bi[j]:
			oi, ov = append(oi, bi[j]), append(ov, bv[j])
			j++
		default:
			oi, ov = append(oi, ai[i]), append(ov, av[i]+bv[j])
			i++
			j++
		}
	}
	oi, ov = append(oi, ai[i:]...), append(ov, av[i:]...)
	oi, ov = append(oi, bi[j:]...), append(ov, bv[j:]...)
	of := make([]float32, len(ov))
	for k, c := range ov {
		of[k] = float32(c)
	}
	return oi, of, ov
}

// insertionSort sorts a short slice in place.
func insertionSort(a []int32) {
	for i := 1; i < len(a); i++ {
		x := a[i]
		j := i
		for ; j > 0 && a[j-1] > x; j-- {
			a[j] = a[j-1]
		}
		a[j] = x
	}
}

// Transform returns the count matrix of texts under v: row i is
// Vectorize(texts[i]). It runs on workers goroutines (0 means
// runtime.GOMAXPROCS) and the result does not depend on their number.
func (v *Vocabulary) Transform(texts []string, workers int) *Matrix {
	n := len(texts)
	nb := (n + batchSize - 1) / batchSize
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, nb))
	type part struct {
		ind []int32
		val []float32
		end []int // row ends within the part
	}
	parts := make([]part, nb)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			z := v.NewVectorizer()
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				var p part
				p.end = make([]int, 0, batchSize)
				for d := b * batchSize; d < min((b+1)*batchSize, n); d++ {
					ind, val := z.Vectorize(texts[d])
					p.ind = append(p.ind, ind...)
					p.val = append(p.val, val...)
					p.end = append(p.end, len(p.ind))
				}
				parts[b] = p
			}
		}()
	}
	wg.Wait()
	m := &Matrix{Indptr: make([]int, 1, n+1), Cols: len(v.Terms)}
	nnz := 0
	for _, p := range parts {
		nnz += len(p.ind)
	}
	m.Indices = make([]int32, 0, nnz)
	m.Values = make([]float32, 0, nnz)
	for _, p := range parts {
		base := len(m.Indices)
		m.Indices = append(m.Indices, p.ind...)
		m.Values = append(m.Values, p.val...)
		for _, e := range p.end {
			m.Indptr = append(m.Indptr, base+e)
		}
	}
	return m
}
