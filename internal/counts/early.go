package counts

import (
	"cmp"
	"slices"
	"unsafe"
)

// An early sink (statsSink.early) gives a vocabulary only: it drops the
// terms that fail the document-frequency window as they arrive, and with
// MaxFeatures holds at most about twice that many terms, so that round
// one's merge holds a few numbers per kept term, however many terms the
// corpus has.

// dropsEarly reports whether the sink drops the term of cells on arrival
// (see statsSink.early): exactly the terms whose document frequency
// vectorize.Prune's first filter drops.
func (s *statsSink) dropsEarly(cells []Cell) bool {
	if !s.early {
		return false
	}
	var df int64
	for _, x := range cells {
		df += x.Docs
	}
	maxDoc := s.h.Settings.MaxDF * float64(s.h.Documents()) // as Prune
	if df < int64(s.h.Settings.MinDF) || float64(df) > maxDoc {
		s.dropped++
		return true
	}
	return false
}

// trimAt returns how many terms an early sink holds before trim keeps
// MaxFeatures of them; 0 when it never trims.
func (s *statsSink) trimAt() int {
	k := s.h.Settings.MaxFeatures
	if !s.early || k <= 0 {
		return 0
	}
	return max(2*k, trimFloor)
}

// trimFloor is the fewest terms an early sink trims at (a variable for
// the tests).
var trimFloor = 4096

// trim keeps the MaxFeatures terms of highest document frequency among
// those the sink holds, ties to the earlier term, in their order, and
// drops the rest: the terms arrive in ascending order, and vectorize.Prune
// keeps the MaxFeatures terms of highest document frequency, ties to the
// lower term, after the document-frequency window that dropsEarly applies.
// A term trim drops has MaxFeatures held terms ranked above it, which only
// terms ranked higher still can replace, so Prune would drop it too: the
// vocabulary is the same, and the sink holds about 2·MaxFeatures terms
// however many the corpus has. (A hashed sink keeps every bucket's names
// alongside; trim drops them with their bucket.)
func (s *statsSink) trim() {
	k := s.h.Settings.MaxFeatures
	n := len(s.terms)
	if k <= 0 || n <= k {
		return
	}
	idx := make([]int32, n)
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp.Compare(s.df[b], s.df[a]) })
	keep := idx[:k]
	slices.Sort(keep)
	size := 0
	for _, i := range keep {
		size += len(s.terms[i])
	}
	// The kept terms move to a block of their own, so that the blocks of
	// the dropped ones are freed.
	block := make([]byte, 0, size)
	C := len(s.h.Classes)
	for j, i := range keep {
		s.terms[j] = blockString(&block, s.terms[i])
		s.df[j], s.cf[j] = s.df[i], s.cf[i]
		if s.cdf != nil {
			copy(s.cdf[j*C:(j+1)*C], s.cdf[int(i)*C:(int(i)+1)*C])
		}
		if s.names != nil {
			s.names[j] = s.names[i]
		}
	}
	clear(s.terms[k:])
	s.terms, s.df, s.cf = s.terms[:k], s.df[:k], s.cf[:k]
	if s.cdf != nil {
		s.cdf = s.cdf[:k*C]
	}
	if s.names != nil {
		clear(s.names[k:])
		s.names = s.names[:k]
	}
	s.block = nil
	s.dropped += n - k
}

// blockString appends term to *block, which must have room for it, and
// returns the appended bytes as a string: the sink's terms share blocks
// of 64 KiB instead of an allocation each. A block's bytes are never
// written again once appended.
func blockString(block *[]byte, term string) string {
	if term == "" {
		return ""
	}
	n0 := len(*block)
	*block = append(*block, term...)
	return unsafe.String(&(*block)[n0], len(term))
}
