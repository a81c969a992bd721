package vectorize

// dfSketch is a count-min sketch (Cormode & Muthukrishnan 2005) of n-gram
// occurrences with conservative update and saturating 8-bit cells: an
// upper bound on each n-gram's occurrences, and so on its document
// frequency. Fit fills one in a first pass when n-grams meet a MinDF of 2
// or more; its second pass never enters an n-gram whose bound is below
// MinDF in its tables. A sketch never under-counts, so no term that
// reaches MinDF is lost, and the counts of those entered are exact: the
// vocabulary and matrix are those of exact counting, only the rare
// n-grams, most of them, never take memory.
type dfSketch struct {
	cells []uint8 // sketchDepth rows of width cells
	mask  uint64  // width − 1
}

// sketchDepth is the number of rows, each with its own hash.
const sketchDepth = 3

// maxSketchBits caps the width of a sketch's rows at 2^maxSketchBits
// cells (48 MiB at depth 3 for 2^24). Tests lower it to force collisions.
var maxSketchBits = 24

// newDFSketch returns a sketch sized for about n occurrences: rows twice
// as wide as n, within 2^10 and 2^maxSketchBits.
func newDFSketch(n int) *dfSketch {
	bits := 10
	for bits < maxSketchBits && 1<<bits < 2*n {
		bits++
	}
	return &dfSketch{cells: make([]uint8, sketchDepth<<bits), mask: 1<<bits - 1}
}

// index returns the cell of hash h in row r.
func (s *dfSketch) index(h uint64, r int) int {
	return r*int(s.mask+1) + int(mix(h^sketchSeeds[r], wyp2)&s.mask)
}

var sketchSeeds = [sketchDepth]uint64{wyp0, wyp1, wyp0 ^ wyp1}

// add counts one occurrence of hash h: only the cells at the current
// minimum grow (conservative update), which keeps every estimate an
// upper bound and makes it tighter.
func (s *dfSketch) add(h uint64) {
	var idx [sketchDepth]int
	m := uint8(255)
	for r := range idx {
		idx[r] = s.index(h, r)
		m = min(m, s.cells[idx[r]])
	}
	if m == 255 {
		return
	}
	for _, i := range idx {
		if s.cells[i] == m {
			s.cells[i] = m + 1
		}
	}
}

// estimate returns the bound on the occurrences of hash h (at most 255).
func (s *dfSketch) estimate(h uint64) int {
	m := uint8(255)
	for r := range sketchDepth {
		m = min(m, s.cells[s.index(h, r)])
	}
	return int(m)
}

// merge adds o's cells to s's, saturating: the sum of two upper bounds is
// an upper bound on the union of their occurrences.
func (s *dfSketch) merge(o *dfSketch) {
	for i, c := range o.cells {
		s.cells[i] = uint8(min(int(s.cells[i])+int(c), 255))
	}
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
