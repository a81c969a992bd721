package vectorize

import "github.com/nbtext/nbtext/internal/prefault"

// dfSketch is a count-min sketch (Cormode & Muthukrishnan 2005) of n-gram
// occurrences with conservative update and small saturating cells: an
// upper bound on each n-gram's occurrences, and so on its document
// frequency. Fit fills one in a first pass when n-grams meet a MinDF of 2
// or more; its second pass never enters an n-gram whose bound is below
// MinDF in its tables (it asks the sketch's dfFilter, which may pass a
// few more). A sketch never under-counts, so no term that
// reaches MinDF is lost, and the counts of those entered are exact: the
// vocabulary and matrix are those of exact counting, only the rare
// n-grams, most of them, never take memory.
//
// Two choices keep it small and fast. A cell only needs to tell whether
// MinDF is reached, so it saturates at the smallest 2^b − 1 ≥ MinDF with
// b = 2, 4 or 8 bits (2 bits for the usual MinDF 2: four times the cells
// of a byte each, in the same memory). And the sketchDepth cells of an
// n-gram lie in one 64-byte block, a cache line (a blocked sketch, as
// blocked Bloom filters are): an add or an estimate costs one cache miss
// instead of one per row.
type dfSketch struct {
	words []uint64 // blocks of blockWords words
	mask  uint64   // blocks − 1
	cw    uint     // bits per cell: 2, 4 or 8
	lg    uint     // log2(cw)
	cmax  uint64   // the saturated value, 2^cw − 1
}

const (
	// sketchDepth is the number of cells of an n-gram, each at its own
	// hash position in the n-gram's block (block and add spell out 4).
	sketchDepth = 4
	// blockWords is the size of a block in 64-bit words: a cache line.
	blockWords = 8
)

// maxSketchBits caps a sketch at 2^maxSketchBits cells (8 MiB of 2-bit
// cells for 2^25). Tests lower it to force collisions.
var maxSketchBits = 25

// newDFSketch returns a sketch for about n occurrences, whose cells
// saturate at or above minDF (at most 255): eight cells per occurrence,
// within 2^10 cells and 2^maxSketchBits.
func newDFSketch(n, minDF int) *dfSketch {
	bits := 10
	for bits < maxSketchBits && 1<<bits < 8*n {
		bits++
	}
	return newDFSketchBits(bits, minDF)
}

// newDFSketchBits returns a sketch of 2^bits cells (bits ≥ 10) that
// saturate at or above minDF (at most 255).
func newDFSketchBits(bits, minDF int) *dfSketch {
	lg := uint(3)
	switch {
	case minDF <= 3:
		lg = 1
	case minDF <= 15:
		lg = 2
	}
	cw := uint(1) << lg
	blocks := (1 << bits) * int(cw) / (64 * blockWords)
	return &dfSketch{words: prefault.Make[uint64](blocks * blockWords), mask: uint64(blocks - 1), cw: cw, lg: lg, cmax: 1<<cw - 1}
}

// block returns the block of hash h, from the low bits of a remix of h,
// and the bit offsets in it of h's sketchDepth cells, one from each byte
// of the remix's high half (scaled to the cell width, modulo the 512 bits
// of a block).
func (s *dfSketch) block(h uint64) (blk *[blockWords]uint64, c0, c1, c2, c3 uint) {
	g := mix(h^wyp0, wyp2)
	i := int(g&s.mask) * blockWords
	blk = (*[blockWords]uint64)(s.words[i : i+blockWords])
	sel, lg := uint(g>>32), s.lg
	return blk, sel << lg & 511, sel >> 8 << lg & 511, sel >> 16 << lg & 511, sel >> 24 << lg & 511
}

// cell returns the cell at bit offset c of blk.
func (s *dfSketch) cell(blk *[blockWords]uint64, c uint) uint64 {
	return blk[c>>6&(blockWords-1)] >> (c & 63) & s.cmax
}

// add counts one occurrence of hash h: only the cells at the current
// minimum grow (conservative update), which keeps every estimate an
// upper bound and makes it tighter.
func (s *dfSketch) add(h uint64) {
	blk, c0, c1, c2, c3 := s.block(h)
	m := min(s.cell(blk, c0), s.cell(blk, c1), s.cell(blk, c2), s.cell(blk, c3))
	if m == s.cmax {
		return
	}
	// Each cell is read again: one chosen twice grows once, as it no
	// longer reads m.
	for _, c := range [sketchDepth]uint{c0, c1, c2, c3} {
		if s.cell(blk, c) == m {
			blk[c>>6&(blockWords-1)] += 1 << (c & 63)
		}
	}
}

// estimate returns the bound on the occurrences of hash h, capped at the
// saturated value (at least the sketch's MinDF).
func (s *dfSketch) estimate(h uint64) int {
	blk, c0, c1, c2, c3 := s.block(h)
	return int(min(s.cell(blk, c0), s.cell(blk, c1), s.cell(blk, c2), s.cell(blk, c3)))
}

// merge adds o's cells to s's, saturating: the sum of two upper bounds is
// an upper bound on the union of their occurrences. o must have s's size
// and cell width.
func (s *dfSketch) merge(o *dfSketch) {
	hi := uint64(0) // the top bit of every cell
	for b := s.cw - 1; b < 64; b += s.cw {
		hi |= 1 << b
	}
	for i, a := range s.words {
		s.words[i] = satAdd(a, o.words[i], hi, s.cw, s.cmax)
	}
}

// satAdd adds the cells of a and b lane by lane, each lane cw bits wide
// with its top bit in hi, saturating at cmax = 2^cw − 1. The low bits of
// the lanes add without crossing lanes; a lane overflows when both top
// bits are set, or one is and the low bits carry into it; an overflowing
// lane is then set to all ones.
func satAdd(a, b, hi uint64, cw uint, cmax uint64) uint64 {
	s := (a &^ hi) + (b &^ hi)
	top := (a ^ b) & hi
	over := (a & b & hi) | (top & s)
	return (s ^ top) | (over>>(cw-1))*cmax
}

// ngramHash extends the hash h of an n-gram's first words by the hash w
// of its next word. The hash of a word is its keyHash.
func ngramHash(h, w uint64) uint64 { return mix(h^wyp0, w^wyp2) }

// sketchNGrams adds to sk the n-grams (max(nmin, 2) ≤ n ≤ nmax) of each
// text as the tokenizer forms them; buf is scratch space, returned for
// reuse.
func sketchNGrams(tok *Tokenizer, sk *dfSketch, texts []string, buf []uint64) []uint64 {
	for _, text := range texts {
		uni := tok.unigrams(text)
		buf = buf[:0]
		for _, u := range uni {
			_, h := keyHash(u, tableSeed)
			buf = append(buf, h)
		}
		buf = append(buf, buf...)
		wh, gh := buf[:len(uni)], buf[len(uni):] // word hashes, n-gram hashes
		for n := 2; n <= tok.nmax && n <= len(uni); n++ {
			for i := 0; i+n <= len(uni); i++ {
				gh[i] = ngramHash(gh[i], wh[i+n-1])
				if n >= tok.nmin {
					sk.add(gh[i])
				}
			}
		}
	}
	return buf
}

// maxFilterBits caps a dfFilter at 2^maxFilterBits bits (1 MiB for 2^23):
// small enough to stay in a core's L2 cache. Tests lower it to fold more.
var maxFilterBits = 23

// dfFilter is the read-only form of a merged dfSketch that Fit's second
// pass asks, for each n-gram it has not entered yet, whether the sketch's
// bound reaches MinDF: one bit per cell, set where the cell holds MinDF or
// more (the bound, the least of an n-gram's cells, reaches MinDF exactly
// when all of them do), in blocks of as many bits as a sketch block has
// cells. A sketch larger than 2^maxFilterBits cells is folded: sketch
// block i goes to filter block i mod the filter's blocks, OR-ed with the
// others there, so a bit is set where any of its cells reaches MinDF. A
// folded filter passes more rare n-grams (their counts stay exact: Fit
// prunes them after counting) and never fails one that reaches MinDF; its
// lookups touch a quarter or less of the sketch's memory, which on 20
// Newsgroups' bigrams (8 MiB of sketch, 1 MiB of filter) fits in a
// core's cache rather than in the shared one.
type dfFilter struct {
	bits []uint64
	mask uint64 // filter blocks − 1
	lg   uint   // log2 of the sketch's cell width
	cm   uint   // cells per block − 1
}

// filter returns s's dfFilter for minDF (at most s's saturated value).
func (s *dfSketch) filter(minDF int) *dfFilter {
	cells := len(s.words) * 64 >> s.lg // the sketch's cells
	perBlock := 512 >> s.lg
	size := cells
	for size > 1<<maxFilterBits && size > perBlock {
		size /= 2
	}
	f := &dfFilter{bits: make([]uint64, max(size/64, 1)), mask: uint64(size/perBlock - 1), lg: s.lg, cm: uint(perBlock - 1)}
	// Per sketch word, the top bit of each lane whose cell reaches minDF
	// (the carry out of cell + 2^cw − minDF, as satAdd finds it), then
	// those bits gathered into the low 64/cw bits.
	cw := s.cw
	hi, k := uint64(0), uint64(0)
	for b := uint(0); b < 64; b += cw {
		hi |= 1 << (b + cw - 1)
		k |= (s.cmax + 1 - uint64(minDF)) << b
	}
	type step struct {
		shift uint
		mask  uint64
	}
	var steps []step
	for span, gap := uint(1), cw; gap < 64; span, gap = 2*span, 2*gap {
		m := uint64(0)
		for b := uint(0); b < 64; b += 2 * gap {
			m |= (1<<(2*span) - 1) << b
		}
		steps = append(steps, step{gap - span, m})
	}
	low := hi >> (cw - 1) // bit 0 of every lane
	out := int(64 / cw)   // bits per sketch word
	for i, w := range s.words {
		sum := (w &^ hi) + (k &^ hi)
		top := (w ^ k) & hi
		x := ((w & k & hi) | (top & sum)) >> (cw - 1) & low
		if x == 0 {
			continue
		}
		// Lane j's bit is at j*cw: gather them, doubling the run of
		// gathered bits at each step.
		for _, st := range steps {
			x = (x | x>>st.shift) & st.mask
		}
		j := int(uint64(i/blockWords)&f.mask)*perBlock + i%blockWords*out
		f.bits[j>>6] |= x << (j & 63)
	}
	return f
}

// reaches reports whether the n-gram of hash h may occur in minDF
// documents or more: false only when its bound in the sketch is below.
func (f *dfFilter) reaches(h uint64) bool {
	g := mix(h^wyp0, wyp2)
	base := uint(g&f.mask) * (f.cm + 1)
	sel, cm := uint(g>>32), f.cm
	for j := uint(0); j < 32; j += 8 {
		b := base + (sel>>j)&cm
		if f.bits[b>>6]>>(b&63)&1 == 0 {
			return false
		}
	}
	return true
}
