package vectorize

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"unsafe"

	"github.com/nbtext/nbtext/internal/prefault"
)

// termTable maps distinct strings to dense ids 0, 1, 2, … in insertion
// order: the term index of Fit's workers and of a Vocabulary.
//
// It is an open-addressing hash table with linear probing. Each 16-byte
// slot holds the id, the term's length and hash tag, and an 8-byte key
// that, for terms of up to 8 bytes (most tokens), is the whole term: such
// a lookup reads one slot and never touches the term's bytes. Longer
// terms compare the key first, then the string. A Go map[string]int32
// reads the slot, then the string header and bytes it points to; on the
// 20 Newsgroups token stream this table was about 20% faster (measured
// under load: noisy).
//
// A table is kept at most half full up to bigTable slots (4 MiB), and at
// most 7/8 full (as Go's own maps and Abseil's tables are) from there.
// A small table sits in a core's cache either way, and a sparse one keeps
// the probes short, those of a term it does not hold above all (they run
// on to an empty slot). A large one does not fit: the slots of rare terms
// are cache misses, and the lookups wait on them, so the smaller the
// table the fewer of them, while a found term's longer probe stays in one
// or two cache lines (four slots each). On a synthetic corpus of a
// 200,000-word vocabulary (a table of 4 MiB instead of 8) the gain is
// small but came out in every measurement: TermCounter rows over a table
// holding all 200,000 terms about 2% faster (medians of 4 runs), train
// --stream 1-5% less CPU and 7 MB less peak RSS (pairs run alternately
// under varying load). A worker's table on 20 Newsgroups (about 100,000
// terms) has the size it had at half full, where a bound of 7/8 at every
// size made counting it about 3% slower.
//
// The hash is a multiply-fold over 8-byte loads, seeded per process; ids,
// and so everything built from them, do not depend on the seed.
type termTable struct {
	seed   uint64
	slots  []tslot
	mask   int
	terms  []string // id → term
	hashes []uint64 // id → hash, for growing and for merging tables

	slotted int // terms in the slots: all but those of appendTerm
}

// tslot is one table entry. id1 is id+1, 0 for an empty slot; meta is the
// term's length (capped at 255) in the low byte and hash bits above.
type tslot struct {
	key  uint64
	meta uint32
	id1  int32
}

// tableSeed is the hash seed of this process.
var tableSeed = func() uint64 {
	return maphash.String(maphash.MakeSeed(), "nbtext") | 1
}()

// bigTable is the number of slots (4 MiB of them) from which a table is
// kept at most 7/8 full rather than half full.
const bigTable = 1 << 18

// newTermTable returns a table sized for about n terms, at most half
// full: a Vocabulary's table never grows, and predict looks up many terms
// it does not hold, whose probes run on to an empty slot, longer the
// fuller the table.
func newTermTable(n int) *termTable {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	return &termTable{
		seed:   tableSeed,
		slots:  prefault.Make[tslot](size),
		mask:   size - 1,
		terms:  make([]string, 0, n),
		hashes: make([]uint64, 0, n),
	}
}

// len returns the number of terms.
func (t *termTable) len() int { return len(t.terms) }

// Multipliers of the hash (from wyhash).
const (
	wyp0 = 0xa0761d6478bd642f
	wyp1 = 0xe7037ed1a0b428db
	wyp2 = 0x8ebc6af09c88c6e3
)

// mix folds the 128-bit product of a and b.
func mix(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

// keyHash returns the slot key of s and its hash. For len(s) ≤ 8 the key
// and the length determine s: it packs s[0], s[n/2], s[n-1] (n < 4) or the
// overlapping 4-byte words at both ends (4 ≤ n ≤ 8), which cover every
// byte. Longer strings key on their first 8 bytes and hash all of them.
func keyHash(s string, seed uint64) (key, h uint64) {
	n := len(s)
	b := unsafe.Slice(unsafe.StringData(s), n)
	switch {
	case n == 0:
		return 0, mix(seed, wyp0)
	case n < 4:
		key = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
		return key, mix(key^wyp0^uint64(n), seed^wyp1)
	case n <= 8:
		key = uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[n-4:]))
		return key, mix(key^wyp0^uint64(n), seed^wyp1)
	}
	key = binary.LittleEndian.Uint64(b)
	h = mix(key^wyp0, seed^wyp1)
	i := 8
	for ; i+8 < n; i += 8 {
		h = mix(binary.LittleEndian.Uint64(b[i:])^wyp0, h^wyp2)
	}
	h = mix(binary.LittleEndian.Uint64(b[n-8:])^wyp1, h^uint64(n))
	return key, h
}

// meta returns the slot meta of a term of length n with hash h: hash bits
// and the low byte of the length (the whole length up to 255, which is
// all that a key of up to 8 bytes needs; longer terms compare bytes).
func meta(n int, h uint64) uint32 {
	return uint32(h>>32)&^0xff | uint32(n)&0xff
}

// appendIDs appends to dst the id of each of terms of 1 to 8 bytes, −1
// for one t does not hold and for a longer or empty term, and returns it.
// It is the per-token lookup of Fit's workers (fitWorker.lookupAll looks
// up the −1s the slow way), one call for a document's terms rather than
// one (and one hash call) per token: a term of up to 8 bytes, most
// tokens, is hashed and probed inline, and its bytes are never read again
// once its key is made. The loop calls nothing, so its variables stay in
// registers.
func (t *termTable) appendIDs(dst []int32, terms []string) []int32 {
	seed := t.seed ^ wyp1
	base, mask := unsafe.Pointer(unsafe.SliceData(t.slots)), uint(len(t.slots)-1) // a power of two, minus 1
	for _, s := range terms {
		n := len(s)
		if n == 0 || n > 8 {
			dst = append(dst, -1)
			continue
		}
		var key uint64
		b := unsafe.Slice(unsafe.StringData(s), n)
		if n < 4 {
			key = uint64(b[0])<<16 | uint64(b[n>>1])<<8 | uint64(b[n-1])
		} else {
			key = uint64(binary.LittleEndian.Uint32(b))<<32 | uint64(binary.LittleEndian.Uint32(b[n-4:]))
		}
		h := mix(key^wyp0^uint64(n), seed) // as keyHash
		m := uint64(uint32(h>>32)&^0xff | uint32(n))
		// The first two slots of the probe without a branch: at most one
		// slot holds the term, and an empty one (id1 0, meta 0 where m
		// is not) never matches, so id1 is the match's or 0, and the
		// probe is over unless both slots hold other terms. A loop
		// branching on each slot mispredicts whenever a term is not in
		// its first slot, and those are mostly the rare terms, whose
		// slots are cache misses: the processor then waits for the slot
		// before it looks up the next tokens. On synthetic text of a
		// 200,000-word vocabulary (its table 3/4 full), 92% of tokens are
		// in their first slot, 97.6% in one of the first two (99.3% in
		// the first four; probing four without a branch was slower).
		i := uint(h) & mask
		s0 := (*tslot)(unsafe.Add(base, i*uint(unsafe.Sizeof(tslot{}))))          // i ≤ mask: in bounds
		s1 := (*tslot)(unsafe.Add(base, (i+1)&mask*uint(unsafe.Sizeof(tslot{})))) // likewise
		a0, a1 := s0.id1, s1.id1
		var id1 int32
		if (s0.key^key)|(uint64(s0.meta)^m) == 0 {
			id1 = a0
		}
		if (s1.key^key)|(uint64(s1.meta)^m) == 0 {
			id1 = a1
		}
		if id1 == 0 && min(a0, a1) != 0 { // rare: probe on
			for i = (i + 2) & mask; ; i = (i + 1) & mask {
				sl := (*tslot)(unsafe.Add(base, i*uint(unsafe.Sizeof(tslot{})))) // i ≤ mask: in bounds
				if sl.id1 == 0 {
					break
				}
				if sl.key == key && uint64(sl.meta) == m {
					id1 = sl.id1
					break
				}
			}
		}
		dst = append(dst, id1-1)
	}
	return dst
}

// find returns the id of s (with key and hash from keyHash) and true, or
// the slot where s would go and false.
func (t *termTable) find(s string, key, h uint64) (int, bool) {
	m := meta(len(s), h)
	for i := int(h) & t.mask; ; i = (i + 1) & t.mask {
		sl := &t.slots[i]
		if sl.id1 == 0 {
			return i, false
		}
		if sl.meta == m && sl.key == key && (len(s) <= 8 || t.terms[sl.id1-1] == s) {
			return int(sl.id1 - 1), true
		}
	}
}

// lookup returns the id of s, and whether t holds it.
func (t *termTable) lookup(s string) (int32, bool) {
	key, h := keyHash(s, t.seed)
	id, ok := t.find(s, key, h)
	return int32(id), ok
}

// insertAt adds s (with key and hash h) at slot i, as returned by a failed
// find, and returns its id. The table keeps s: its bytes must not change.
func (t *termTable) insertAt(i int, s string, key, h uint64) int32 {
	id := int32(len(t.terms))
	t.terms = append(t.terms, s)
	t.hashes = append(t.hashes, h)
	t.slots[i] = tslot{key: key, meta: meta(len(s), h), id1: id + 1}
	if t.slotted++; 2*t.slotted > len(t.slots) && (len(t.slots) < bigTable || 8*t.slotted > 7*len(t.slots)) {
		t.grow()
	}
	return id
}

// add inserts s if it is new and returns its id either way.
func (t *termTable) add(s string) int32 {
	key, h := keyHash(s, t.seed)
	i, ok := t.find(s, key, h)
	if ok {
		return int32(i)
	}
	return t.insertAt(i, s, key, h)
}

// grow doubles the slots and reinserts every term.
func (t *termTable) grow() {
	old := t.slots
	t.slots = prefault.Make[tslot](2 * len(old))
	t.mask = len(t.slots) - 1
	for _, sl := range old {
		if sl.id1 == 0 {
			continue
		}
		i := int(t.hashes[sl.id1-1]) & t.mask
		for t.slots[i].id1 != 0 {
			i = (i + 1) & t.mask
		}
		t.slots[i] = sl
	}
}

// appendTerm gives s the next id without entering it in the slots: for
// terms that are found another way (n-grams, through a pairTable), so
// that lookup never finds them. The table keeps s.
func (t *termTable) appendTerm(s string) int32 {
	id := int32(len(t.terms))
	t.terms = append(t.terms, s)
	t.hashes = append(t.hashes, 0) // never read: grow reinserts slots only
	return id
}

// pairTable maps a pair of ids, packed in a uint64, to an id: the n-gram
// index of a fitWorker, where an n-gram is its (n−1)-gram prefix and its
// last word. The pair determines the n-gram exactly, so a lookup hashes 8
// bytes, whatever the length of the n-gram, and never compares strings;
// the n-gram's text is built once, when it is first seen. Open addressing
// with linear probing, at most 3/4 full: a slot is 12 bytes, and the
// table is most of a worker's memory with n-grams, so it packs tighter
// than termTable (on 20 Newsgroups bigrams, 6 MiB a worker instead of 16).
type pairTable struct {
	slots []pslot
	mask  int
	n     int
}

// pslot is one pairTable entry: the pair's key in two halves (12 bytes
// rather than the 16 of a uint64 and an int32); id1 is id+1, 0 for an
// empty slot.
type pslot struct {
	lo, hi uint32
	id1    int32
}

// newPairTable returns an empty pair table.
func newPairTable() *pairTable {
	return &pairTable{slots: make([]pslot, 1<<12), mask: 1<<12 - 1}
}

// pairKey packs the ids a and b.
func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// pairSlot returns the first slot to probe for key.
func (p *pairTable) pairSlot(key uint64) int { return int(mix(key^wyp0, wyp1)) & p.mask }

// find returns the id of key and true, or the slot where it would go and
// false.
func (p *pairTable) find(key uint64) (int, bool) {
	lo, hi := uint32(key), uint32(key>>32)
	for i := p.pairSlot(key); ; i = (i + 1) & p.mask {
		sl := &p.slots[i]
		if sl.id1 == 0 {
			return i, false
		}
		if sl.lo == lo && sl.hi == hi {
			return int(sl.id1 - 1), true
		}
	}
}

// insertAt records id for key at slot i, as returned by a failed find.
func (p *pairTable) insertAt(i int, key uint64, id int32) {
	p.slots[i] = pslot{lo: uint32(key), hi: uint32(key >> 32), id1: id + 1}
	if p.n++; 4*p.n > 3*len(p.slots) {
		old := p.slots
		p.slots = prefault.Make[pslot](2 * len(old))
		p.mask = len(p.slots) - 1
		for _, sl := range old {
			if sl.id1 == 0 {
				continue
			}
			j := p.pairSlot(uint64(sl.hi)<<32 | uint64(sl.lo))
			for p.slots[j].id1 != 0 {
				j = (j + 1) & p.mask
			}
			p.slots[j] = sl
		}
	}
}
