package counts

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRowSorter: rows of every length, ids spread or crowded into a few
// buckets, sort as slices.Sort sorts them.
func TestRowSorter(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, vocab := range []int{1, 2, 7, 300, 1 << 12, 200000, 1 << 20} {
		s := newRowSorter(vocab)
		for _, n := range []int{0, 1, 2, 5, 12, 13, 40, 150, 1000, 5000} {
			for _, crowd := range []bool{false, true} {
				if n > vocab {
					continue
				}
				// Distinct ids: spread over the vocabulary, or crowded at
				// its start (so into one or two buckets).
				span := vocab
				if crowd {
					span = min(vocab, n+n/4+1)
				}
				ids := rng.Perm(span)[:n]
				row := make([]uint64, n)
				for i, id := range ids {
					row[i] = uint64(id)<<32 | uint64(rng.IntN(1000))
				}
				want := slices.Clone(row)
				slices.Sort(want)
				s.sort(row)
				if !slices.Equal(row, want) {
					t.Fatalf("vocab %d, %d ids (crowded %v): not sorted", vocab, n, crowd)
				}
			}
		}
	}
}
