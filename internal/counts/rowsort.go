package counts

import (
	"math/bits"
	"slices"
)

// rowSorter sorts the entries of a replayed row by term id (see
// worker.replay): each entry is id<<32 | count, and the ids of a row are
// distinct and below the vocabulary's length. A row's ids are few (tens
// to hundreds) and spread over the whole vocabulary, so one counting pass
// on their top bits, into about as many buckets as entries, leaves
// buckets of an entry or two to finish, which is several times faster
// than a comparison sort of the row. The result is the same: ascending.
type rowSorter struct {
	idBits int      // bits an id takes: those of the vocabulary's length
	start  []int32  // bucket offsets, one more than buckets
	tmp    []uint64 // the entries, by bucket
}

// newRowSorter returns a sorter for ids below n.
func newRowSorter(n int) *rowSorter { return &rowSorter{idBits: max(bits.Len(uint(n)), 1)} }

// smallRow is the length up to which a row is sorted as it is (pdqsort
// sorts such short slices by insertion).
const smallRow = 12

// sort sorts row ascending, in place.
func (s *rowSorter) sort(row []uint64) {
	n := len(row)
	if n <= smallRow {
		slices.Sort(row)
		return
	}
	// About one bucket per entry, a power of two, at most 2^12 (and no
	// more than the ids need).
	b := min(bits.Len(uint(n)), 12, s.idBits)
	shift := uint(32 + s.idBits - b)
	nb := 1 << b
	if cap(s.start) < nb+1 {
		s.start = make([]int32, nb+1)
	}
	start := s.start[:nb+1]
	clear(start)
	for _, e := range row {
		start[e>>shift+1]++
	}
	for i := 1; i <= nb; i++ {
		start[i] += start[i-1]
	}
	s.tmp = slices.Grow(s.tmp[:0], n)[:n]
	tmp := s.tmp
	next := start[:nb] // start[i] moves to the end of bucket i; start[i+1] is untouched until then
	for _, e := range row {
		k := e >> shift
		tmp[next[k]] = e
		next[k]++
	}
	// next[i] is now the end of bucket i, so bucket i is tmp[end(i-1):next[i]].
	lo := int32(0)
	for i := range nb {
		hi := next[i]
		if hi-lo > 1 {
			slices.Sort(tmp[lo:hi])
		}
		lo = hi
	}
	copy(row, tmp)
}
