package vectorize

import (
	"math"
	"sync"
	"unsafe"
)

// This file holds the last steps of Fit: merging the workers' terms in
// sorted order and assembling the count matrix in document order.

// globalTerms is the sorted union of the workers' terms with their summed
// statistics, and for each worker the global id of each local id.
type globalTerms struct {
	terms []string
	df    []int32
	cf    []int64
	cdf   []int32
	local [][]int32
}

// mergeTerms merges the workers' sorted terms (sortTerms) into their
// sorted union, summing the statistics. It is a k-way merge over a heap of
// the workers' next terms; everything it reads and writes but the local
// id map is sequential.
func mergeTerms(ws []*fitWorker, nc int) *globalTerms {
	g := &globalTerms{local: make([][]int32, len(ws))}
	total := 0
	for i, w := range ws {
		g.local[i] = make([]int32, w.nterms)
		total += len(w.sorted)
	}
	if len(ws) == 1 {
		w := ws[0]
		for pos, lid := range w.order {
			g.local[0][lid] = int32(pos)
		}
		g.terms, g.df, g.cf, g.cdf = w.sorted, w.sortedDF, w.sortedCF, w.sortedCDF
		return g
	}
	g.terms = make([]string, 0, total)
	g.df = make([]int32, 0, total)
	g.cf = make([]int64, 0, total)
	pos := make([]int, len(ws))
	less := func(i, j int) bool {
		a, b := ws[i].sorted[pos[i]], ws[j].sorted[pos[j]]
		return a < b || a == b && i < j
	}
	var h []int // min-heap of the workers with terms left, by next term
	down := func(k int) {
		for {
			c := 2*k + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && less(h[c+1], h[c]) {
				c++
			}
			if !less(h[c], h[k]) {
				return
			}
			h[k], h[c] = h[c], h[k]
			k = c
		}
	}
	for i, w := range ws {
		if len(w.sorted) > 0 {
			h = append(h, i)
		}
	}
	for k := len(h)/2 - 1; k >= 0; k-- {
		down(k)
	}
	for len(h) > 0 {
		i := h[0]
		term := ws[i].sorted[pos[i]]
		gid := int32(len(g.terms))
		g.terms = append(g.terms, term)
		g.df = append(g.df, 0)
		g.cf = append(g.cf, 0)
		if nc > 0 {
			g.cdf = append(g.cdf, make([]int32, nc)...)
		}
		for len(h) > 0 {
			i := h[0]
			w, p := ws[i], pos[i]
			if w.sorted[p] != term {
				break
			}
			g.local[i][w.order[p]] = gid
			g.df[gid] += w.sortedDF[p]
			g.cf[gid] += w.sortedCF[p]
			if nc > 0 {
				dst := g.cdf[int(gid)*nc : int(gid+1)*nc]
				for c, x := range w.sortedCDF[p*nc : (p+1)*nc] {
					dst[c] += x
				}
			}
			if pos[i]++; pos[i] == len(w.sorted) {
				h[0] = h[len(h)-1]
				h = h[:len(h)-1]
			}
			down(0)
		}
	}
	return g
}

// packStrings copies the bytes of ss, in order, into one new block and
// points the strings of ss there: they then hold none of the memory they
// pointed into, and neighbours are neighbours in memory.
func packStrings(ss []string) {
	size := 0
	for _, s := range ss {
		size += len(s)
	}
	buf := make([]byte, 0, size)
	for i, s := range ss {
		n0 := len(buf)
		buf = append(buf, s...)
		ss[i] = unsafe.String(unsafe.SliceData(buf[n0:]), len(s))
	}
}

// sortStrings returns the indices of ss in ascending order of ss[i]
// (byte order, which for UTF-8 is code point order, as Python sorts). ss
// must hold distinct strings without NUL bytes (terms never hold one).
func sortStrings(ss []string) []int32 {
	ids := make([]int32, len(ss))
	for i := range ids {
		ids[i] = int32(i)
	}
	a := make([]radixEntry, len(ss))
	b := make([]radixEntry, len(ss))
	sortFrom(ss, ids, 0, a, b)
	return ids
}

// radixEntry is an 8-byte chunk of a string, big-endian, and its index.
type radixEntry struct {
	key uint64
	id  int32
}

// sortFrom sorts ids by ss[id][depth:]; all of them share their first
// depth bytes. It radix-sorts the 8-byte chunks at depth (LSD, one byte per
// pass, skipping bytes that are the same in every key), then sorts each run
// of equal chunks from depth+8: a string that ends inside the chunk is
// padded with zeros, which sort first, and two distinct strings without NUL
// bytes tie only if both go on. a and b are scratch of len(ids).
func sortFrom(ss []string, ids []int32, depth int, a, b []radixEntry) {
	if len(ids) <= 16 {
		for i := 1; i < len(ids); i++ {
			x := ids[i]
			j := i
			for ; j > 0 && ss[ids[j-1]][depth:] > ss[x][depth:]; j-- {
				ids[j] = ids[j-1]
			}
			ids[j] = x
		}
		return
	}
	for i, id := range ids {
		s := ss[id]
		var k uint64
		for j := depth; j < depth+8; j++ {
			k <<= 8
			if j < len(s) {
				k |= uint64(s[j])
			}
		}
		a[i] = radixEntry{k, id}
	}
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, e := range a {
			count[byte(e.key>>shift)]++
		}
		if count[byte(a[0].key>>shift)] == len(a) {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range a {
			d := byte(e.key >> shift)
			b[count[d]] = e
			count[d]++
		}
		a, b = b, a
	}
	for i, e := range a {
		ids[i] = e.id
	}
	for i := 0; i < len(a); {
		j := i + 1
		for j < len(a) && a[j].key == a[i].key {
			j++
		}
		if j-i > 1 {
			sortFrom(ss, ids[i:j], depth+8, a[i:j], b[i:j])
		}
		i = j
	}
}

// assemble builds the final count matrix: row d is the batch row that
// holds document number order[d] (d when order is nil; pos is the inverse,
// -1 for dropped numbers), its local ids mapped to final ids (dropping
// pruned terms) and sorted. Instead of sorting each row it transposes
// twice, each a counting sort in O(nnz): rows → columns, then columns →
// rows, which visits the columns of each row in ascending order.
//
// It consumes the batches: once the column form holds their entries it
// clears batches, so that the memory of the rows can go to the matrix
// (the batches, the column form and the matrix take 8 bytes an entry
// each; two of them, not three, are ever needed at once).
func assemble(batches []*batch, local [][]int32, final []int32, df []int32, n int, order []int, pos []int32, workers int) *Matrix {
	cols := len(df)
	// Map local ids to final ids in place (−1: pruned) and count survivors.
	indptr := make([]int, n+1)
	parallel(n, workers, func(lo, hi int) {
		for d := lo; d < hi; d++ {
			q := d
			if order != nil {
				q = order[d]
			}
			b := batches[q/batchSize]
			loc := local[b.worker]
			a, e := b.row(q % batchSize)
			kept := 0
			for j := a; j < e; j++ {
				id := final[loc[b.ids[j]]]
				b.ids[j] = id
				if id >= 0 {
					kept++
				}
			}
			indptr[d+1] = kept
		}
	})
	for d := 0; d < n; d++ {
		indptr[d+1] += indptr[d]
	}
	nnz := indptr[n]
	// Columns: colptr from df, which counts exactly the entries of each.
	// An entry of the column form packs its row and value in one word, so
	// the scattering pass makes one random store per entry, not two.
	colptr := make([]int, cols+1)
	for c, x := range df {
		colptr[c+1] = colptr[c] + int(x)
	}
	csc := make([]uint64, nnz)
	parallel(cols, workers, func(c0, c1 int) {
		next := make([]int32, c1-c0) // int32 cursors: half the cache footprint
		for c := c0; c < c1; c++ {
			next[c-c0] = int32(colptr[c])
		}
		for _, b := range batches {
			for r := range b.end {
				d := b.first + r
				if pos != nil {
					if d = int(pos[d]); d < 0 {
						continue // dropped: its ids were never mapped
					}
				}
				a, e := b.row(r)
				row := uint64(d) << 32
				for j := a; j < e; j++ {
					if c := int(b.ids[j]); c >= c0 && c < c1 {
						p := next[c-c0]
						next[c-c0]++
						csc[p] = row | uint64(math.Float32bits(b.vals[j]))
					}
				}
			}
		}
	})
	clear(batches) // read for the last time (the workers let go of theirs in sortTerms)
	m := &Matrix{
		Indptr:  indptr,
		Indices: make([]int32, nnz),
		Values:  make([]float32, nnz),
		Cols:    cols,
	}
	parallel(n, workers, func(d0, d1 int) {
		next := make([]int32, d1-d0)
		for d := d0; d < d1; d++ {
			next[d-d0] = int32(indptr[d])
		}
		for c := 0; c < cols; c++ {
			for _, x := range csc[colptr[c]:colptr[c+1]] {
				if d := int(x >> 32); d >= d0 && d < d1 {
					q := next[d-d0]
					next[d-d0]++
					m.Indices[q] = int32(c)
					m.Values[q] = math.Float32frombits(uint32(x))
				}
			}
		}
	})
	return m
}

// parallel runs fn over [0, n) split into contiguous chunks on up to
// workers goroutines, and waits.
func parallel(n, workers int, fn func(lo, hi int)) {
	if workers <= 1 || n < 2*batchSize {
		fn(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}
