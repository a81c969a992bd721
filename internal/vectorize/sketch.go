package vectorize

// dfSketch is a count-min sketch (Cormode & Muthukrishnan 2005) of n-gram
// occurrences with conservative update and small saturating cells: an
// upper bound on each n-gram's occurrences, and so on its document
// frequency. Fit fills one in a first pass when n-grams meet a MinDF of 2
// or more; its second pass never enters an n-gram whose bound is below
// MinDF in its tables. A sketch never under-counts, so no term that
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
	cmax  uint64   // the saturated value, 2^cw − 1
}

const (
	// sketchDepth is the number of cells of an n-gram, each at its own
	// hash position in the n-gram's block.
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
	cw := uint(8)
	switch {
	case minDF <= 3:
		cw = 2
	case minDF <= 15:
		cw = 4
	}
	blocks := (1 << bits) * int(cw) / (64 * blockWords)
	return &dfSketch{words: make([]uint64, blocks*blockWords), mask: uint64(blocks - 1), cw: cw, cmax: 1<<cw - 1}
}

// cells returns the word index and bit shift of the sketchDepth cells of
// hash h: its block from the low bits of a remix of h, the cells in the
// block from the high bits.
func (s *dfSketch) cells(h uint64) (w [sketchDepth]int, sh [sketchDepth]uint) {
	g := mix(h^wyp0, wyp2)
	base := int(g&s.mask) * blockWords
	perBlock := uint64(64 * blockWords / s.cw) // cells per block: 256, 128 or 64
	g >>= 32
	for r := range sketchDepth {
		c := uint(g&(perBlock-1)) * s.cw // bit offset in the block
		g >>= 8
		w[r], sh[r] = base+int(c>>6), c&63
	}
	return w, sh
}

// add counts one occurrence of hash h: only the cells at the current
// minimum grow (conservative update), which keeps every estimate an
// upper bound and makes it tighter.
func (s *dfSketch) add(h uint64) {
	w, sh := s.cells(h)
	m := s.cmax
	for r := range sketchDepth {
		m = min(m, s.words[w[r]]>>sh[r]&s.cmax)
	}
	if m == s.cmax {
		return
	}
	for r := range sketchDepth { // a cell chosen twice grows once: it no longer reads m
		if s.words[w[r]]>>sh[r]&s.cmax == m {
			s.words[w[r]] += 1 << sh[r]
		}
	}
}

// estimate returns the bound on the occurrences of hash h, capped at the
// saturated value (at least the sketch's MinDF).
func (s *dfSketch) estimate(h uint64) int {
	w, sh := s.cells(h)
	m := s.cmax
	for r := range sketchDepth {
		m = min(m, s.words[w[r]]>>sh[r]&s.cmax)
	}
	return int(m)
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
