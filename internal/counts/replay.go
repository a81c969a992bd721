package counts

import (
	"encoding/binary"
	"errors"
	"fmt"
	mbits "math/bits"
	"runtime"
	"slices"
	"sync"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file holds the row cache of round one (Options.Replay) and
// RoundTwo, which counts round two from it without the documents, as VW's
// --cache spares its later passes the parsing.
//
// Each worker writes the rows it counts to a segment file of its own, in
// the local term ids of its TermCounter, or under hashing in buckets (see
// below): per document, a varint byte
// length, then the row: varints of the class id, of the number m₁ of its
// terms whose count is 1 and of the number m₂ of the others (most terms
// of a document occur once); then the terms, those of count 1 first, in
// the layout of "stream VByte" (Lemire, Kurz and Rupp 2018): ⌈m/4⌉
// control bytes (m = m₁+m₂) of four 2-bit codes each, term t's at bits
// 2·(t mod 4) of byte t/4 (unused codes 0), code c meaning that the
// term's local id takes c+1 bytes; the ids in those bytes, little-endian;
// then the m₂ counts, as varints. replay's decoder finds each term from
// the control bytes alone, where a varint's length is known only once its
// bytes are read: a chain from one term to the next, and a branch per
// byte that the mix of 1-, 2- and 3-byte ids made mispredicted. It is
// smaller than varints of the ids shifted left by one with a flag for a
// count (the layout before): an id in [2⁶, 2⁸), [2¹³, 2¹⁶) or [2²⁰, 2²⁴)
// takes three quarters of a byte less, any other a quarter more, and a
// row a byte more (m₂): 41.6 MB instead of 44.6 MB for a synthetic
// corpus of 10^5 documents (tools/gencorpus). The order of a row's terms
// changes nothing (see below).
//
// The rows are gathered by partition, the class id modulo cacheParts, in
// buffers of cacheChunk bytes written out as chunks, so
// that round two replays the rows of a few classes at a time: their
// columns of cells, not every class's, share the processor's caches.
// Without hashing, a segment ends when its worker's table is emptied (a
// spill, or the end of the round), and keeps that TermCounter's terms,
// which name its ids: memory grows with the spills. Under hashing
// (Settings.HashBits) the rows hold buckets, a pure function of the
// terms: a segment needs no TermCounter, goes on across spills in the
// next worker, and ends with the round, so a spill lets every term go.
// Round two maps each segment's local ids (or the buckets, through one
// bucketIndex) to vocabulary ids (dropping pruned terms) and from there
// counts each row as a row from Vectorize: the same ids and counts, in
// another order, so the same weighted values and sums (neither depends on
// the order of a row's terms).

// cacheParts is the number of partitions of a segment: a row goes to
// partition class id mod cacheParts.
const cacheParts = 16

// cacheChunk is the size of a partition's buffer, and so of most chunks.
const cacheChunk = 128 << 10

// chunk is a range of a segment's file holding whole rows of one
// partition.
type chunk struct{ off, n int64 }

// segment is one finished cache file, open for reading, the chunks of
// each partition, and the terms of its ids: tc's local ids, or with bits
// (Settings.HashBits) buckets.
type segment struct {
	f      *fsutil.Scratch
	chunks [cacheParts][]chunk
	tc     *vectorize.TermCounter
	bits   int
	// buckets maps the buckets of a hashed segment to vocabulary ids, one
	// index that every hashed segment shares (RoundTwo).
	buckets *bucketIndex
	// idmap maps the local ids to vocabulary ids (-1: pruned), for the
	// partitions' replays to share (RoundTwo).
	idmap []int32
}

// release closes and removes the segment's file.
func (s *segment) release() { s.f.Close() }

// cacheWriter is a worker's open segment, a scratch file (nothing is left
// behind however the process ends) read back through the open file.
type cacheWriter struct {
	f      *fsutil.Scratch
	bits   int // Settings.HashBits: the ids are buckets
	size   int64
	buf    []byte              // the row being encoded
	ord    []int32             // its ids, those of count 1 first
	cnt    []uint32            // the counts of the others, at their places in ord
	parts  [cacheParts][]byte  // each partition's rows not yet written
	chunks [cacheParts][]chunk // each partition's rows written
	err    error
}

// newCacheWriter creates a segment file in dir, of rows of buckets under
// hashing (bits > 0), else of local ids.
func newCacheWriter(dir string, bits int) (*cacheWriter, error) {
	f, err := fsutil.NewScratch(dir, "nbtext-rows-*.bin")
	if err != nil {
		return nil, fmt.Errorf("row cache: %w", err)
	}
	return &cacheWriter{f: f, bits: bits}, nil
}

// add writes the row ids, vals of class k.
func (c *cacheWriter) add(k int32, ids []int32, vals []uint32) {
	if c.err != nil {
		return
	}
	// Room for everything at its longest, so the loops write without
	// checking the length: a class, two lengths, the control bytes, and
	// per term 4 bytes (each store writes 4) and a count.
	m, nc := len(ids), (len(ids)+3)/4
	b := slices.Grow(c.buf[:0], 3*maxRowVarint+nc+(4+maxRowVarint)*m)
	b = b[:cap(b)]
	// The terms of count 1 to the front of ord, the others to its back,
	// without a branch (a term's count is 1 or not at random): each term
	// is written at both ends, and the end it belongs to moves.
	ord := slices.Grow(c.ord[:0], m)[:m]
	cnt := slices.Grow(c.cnt[:0], m)[:m]
	c.ord, c.cnt = ord, cnt
	lo, hi := 0, m
	for j, id := range ids {
		f := 0
		if vals[j] != 1 { // a count follows
			f = 1
		}
		ord[lo], ord[hi-1], cnt[hi-1] = id, id, vals[j]
		lo, hi = lo+1-f, hi-f
	}
	i := putUvarint(b, 0, uint64(k))
	i = putUvarint(b, i, uint64(lo))
	i = putUvarint(b, i, uint64(m-lo))
	ctrl := b[i : i+nc]
	clear(ctrl)
	i += nc
	for t, id := range ord {
		x := uint32(id)
		code := (mbits.Len32(x|1) - 1) >> 3
		binary.LittleEndian.PutUint32(b[i:], x)
		ctrl[t>>2] |= byte(code << (2 * (t & 3)))
		i += code + 1
	}
	for _, v := range cnt[lo:] {
		i = putUvarint(b, i, uint64(v))
	}
	b = b[:i]
	c.buf = b
	p := int(k) % cacheParts
	if len(c.parts[p])+binary.MaxVarintLen64+len(b) > cacheChunk {
		c.flush(p)
	}
	if c.parts[p] == nil {
		c.parts[p] = make([]byte, 0, cacheChunk)
	}
	c.parts[p] = binary.AppendUvarint(c.parts[p], uint64(len(b)))
	c.parts[p] = append(c.parts[p], b...)
	if len(c.parts[p]) >= cacheChunk { // a row longer than a buffer: a chunk of its own
		c.flush(p)
		c.parts[p] = nil
	}
}

// flush writes the rows of partition p to the file, as a chunk.
func (c *cacheWriter) flush(p int) {
	b := c.parts[p]
	if len(b) == 0 || c.err != nil {
		return
	}
	if _, err := c.f.Write(b); err != nil {
		c.err = err
		return
	}
	c.chunks[p] = append(c.chunks[p], chunk{off: c.size, n: int64(len(b))})
	c.size += int64(len(b))
	c.parts[p] = b[:0]
}

// finish writes the rows left and returns the segment, still open, for
// reading, with tc naming its local ids (none when they are buckets); on
// error the segment is released.
func (c *cacheWriter) finish(tc *vectorize.TermCounter) (segment, error) {
	for p := range c.parts {
		c.flush(p)
	}
	if c.bits > 0 {
		tc = nil
	}
	s := segment{f: c.f, chunks: c.chunks, tc: tc, bits: c.bits}
	if c.err != nil {
		s.release()
		return segment{}, fmt.Errorf("row cache %s: %w", c.f.Name(), c.err)
	}
	return s, nil
}

// sameButWeighting reports whether a and b are the same settings but for
// the weighting of the values (Weighting, Sublinear, Norm).
func sameButWeighting(a, b vectorize.Settings) bool {
	a.Weighting, a.Sublinear, a.Norm = b.Weighting, b.Sublinear, b.Norm
	return a == b
}

// RoundTwo returns a round-two Counter over vocab (which must have c's
// settings, but for the weighting of the values: Weighting, Sublinear and
// Norm, which a caller may choose once round one is counted) holding
// every document added to c, counted from the row cache of c (made with
// Options.Replay) instead of the documents: the counts are those of a NewCounter(settings, vocab, ...) that the same
// documents are added to. It does not spill: Options.Mem bounds round
// one, and round two's tables are the size of vocab. c's counting must be
// finished (Vocabulary, Stats, Counts or WriteFile). The row cache is
// replayed once: RoundTwo releases it when done (in the background; the
// returned Counter's Close waits for that), and a second call fails.
func (c *Counter) RoundTwo(vocab *vectorize.Vocabulary) (*Counter, error) {
	switch {
	case !c.opt.Replay:
		return nil, errors.New("round two from the row cache needs a round-one counter made with Options.Replay")
	case c.vocab != nil:
		return nil, errors.New("round two from the row cache follows round one, not round two")
	case c.workers != nil || len(c.carried) > 0 || len(c.cur.texts) > 0:
		return nil, errors.New("round two from the row cache: round one is not finished")
	case c.cacheErr != nil:
		return nil, c.cacheErr
	case c.replayed:
		return nil, errors.New("round two from the row cache: the cache was replayed already")
	case !sameButWeighting(vocab.Settings, c.s):
		return nil, errors.New("round two from the row cache needs a vocabulary of round one's settings")
	}
	// Round one's tables are garbage now: collect them before round two
	// allocates its own, so that the peak is one round's, not two (feed
	// has, when round one was read through it).
	if !c.collected {
		runtime.GC()
	}
	c2, err := NewCounter(c.s, vocab, Options{Workers: c.opt.Workers, TempDir: c.opt.TempDir})
	if err != nil {
		return nil, err
	}
	c2.names = slices.Clone(c.names)
	c2.classDocs = make([]int64, len(c.names))
	c2.total = make([]int64, len(c.names))
	for i, n := range c.names {
		c2.classes[n] = int32(i)
	}
	if err := c2.start(); err != nil {
		return nil, err
	}
	for _, w := range c2.workers {
		w.docs = make([]int64, len(c.names))
	}
	var (
		wg      sync.WaitGroup
		buckets *bucketIndex
	)
	if c.s.HashBits > 0 {
		if buckets, err = newBucketIndex(vocab); err != nil {
			c2.Close()
			return nil, err
		}
	}
	for i := range c.segments { // a goroutine per segment of local ids
		s := &c.segments[i]
		if s.bits > 0 {
			s.buckets = buckets
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.idmap = make([]int32, s.tc.Len())
			for id := range s.idmap {
				vid, ok := vocab.Lookup(s.tc.Term(int32(id)))
				if !ok {
					vid = -1
				}
				s.idmap[id] = vid
			}
			// The ids are mapped: round one's term table goes before
			// round two's tables grow.
			s.tc = nil
		}()
	}
	wg.Wait()
	sched := newSchedule(c.segments, len(c2.workers))
	for i, w := range c2.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for w.err == nil {
				it, ok := sched.next(i)
				if !ok {
					return
				}
				w.err = w.replay(it.seg, it.part, it.chunks)
			}
		}()
	}
	wg.Wait()
	for _, w := range c2.workers {
		if w.err != nil {
			c2.Close()
			return nil, w.err
		}
		for k, d := range w.docs {
			c2.classDocs[k] += d
			c2.total[k] += d
		}
	}
	// The cache is replayed: let it go. Closing its files frees their
	// pages, which takes the kernel a while: a goroutine does it while
	// the caller reads c2, whose Close waits for it.
	segs := c.segments
	c.segments, c.replayed = nil, true
	c2.freeing.Add(1)
	go func() {
		defer c2.freeing.Done()
		for i := range segs {
			segs[i].release()
		}
	}()
	return c2, nil
}

// replay counts in round two the rows of chunks, of partition p of
// segment s. It runs in a goroutine of RoundTwo's (schedule), not of the
// worker's queue.
func (w *worker) replay(s *segment, p int, chunks []chunk) error {
	// The ids of the rows are below idEnd: local ids of the segment's
	// TermCounter, or buckets.
	idmap, idEnd := s.idmap, int64(len(s.idmap))
	if s.bits > 0 {
		idEnd = 1 << s.bits
	}
	bad := func(err error) error { return fmt.Errorf("row cache %s: %w", s.f.Name(), err) }
	// The worker's scratch, kept from one call to the next: a call per
	// item of the schedule (thousands on a large corpus) would otherwise
	// leave a chunk's buffer of garbage each, and the heap would drift up
	// to the collector's goal, the longer the corpus the higher.
	r := &w.rb
	buf, lids, cnts, ind, val, occ := r.buf, r.lids, r.cnts, r.ind, r.val, r.occ
	defer func() { r.buf, r.lids, r.cnts, r.ind, r.val, r.occ = buf, lids, cnts, ind, val, occ }()
	damaged := bad(errors.New("a damaged row"))
	for _, ch := range chunks {
		// The chunk, then rowPad zero bytes, so that every term is loaded
		// as a word at its position.
		n := int(ch.n)
		buf = slices.Grow(buf[:0], n+rowPad)[:n+rowPad]
		if _, err := s.f.ReadAt(buf[:n], ch.off); err != nil {
			return bad(err)
		}
		clear(buf[n:])
		for i := 0; i < n; {
			ln, j := uvarint(buf[:n], i)
			if j < 0 || ln > uint64(n-j) {
				return damaged
			}
			end := j + int(ln)
			row := buf[:end]
			k, j := uvarint(row, j)
			m1, j := uvarint(row, j)
			m2, j := uvarint(row, j)
			// A term takes a byte at least, so m ≤ end-j bounds the
			// slices below by the chunk.
			m := m1 + m2
			if j < 0 || k >= uint64(len(w.docs)) || int(k)%cacheParts != p || m1 > uint64(end) || m > uint64(end-j) {
				return damaged
			}
			i = end
			w.docs[k]++
			nc := (int(m) + 3) / 4
			ctrl := row[j : j+nc]
			j += nc
			// Where the ids end: the sum of their lengths, the unused codes
			// of the last control byte (0, one byte each) taken off.
			ids := j - (4*nc - int(m))
			for _, cb := range ctrl {
				ids += int(ctrlBytes[cb])
			}
			if ids > end || m%4 != 0 && ctrl[nc-1]>>(2*(m%4)) != 0 {
				return damaged
			}
			// Decode the row, then map its ids: idmap's entries for rare
			// terms are cache misses, which a loop of loads alone overlaps
			// (see touchCells).
			lids, cnts = slices.Grow(lids[:0], int(m))[:m], slices.Grow(cnts[:0], int(m))[:m]
			var top uint32 // the largest id, checked after the row
			for t := range lids {
				code := ctrl[t>>2] >> (2 * (t & 3)) & 3
				x := binary.LittleEndian.Uint32(buf[j:]) & codeMask[code]
				j += int(code) + 1
				lids[t] = int32(x)
				top = max(top, x)
			}
			for t := range cnts[:m1] {
				cnts[t] = 1
			}
			for t := range cnts[m1:] {
				var c uint64
				if c, j = uvarint(row, j); j < 0 || c >= 1<<32 {
					return damaged
				}
				cnts[m1+uint64(t)] = uint32(c)
			}
			if j != end || int64(top) >= idEnd {
				return damaged
			}
			// The row stays in its cached order: sumRow's sums, and the l2
			// norm of its weighting (vectorize.sumSquares), do not depend
			// on the order of a row's terms.
			ind, val, occ = ind[:0], val[:0], occ[:0]
			if bx := s.buckets; bx != nil {
				for j, b := range lids {
					if vid := bx.id(uint32(b)); vid >= 0 {
						ind, val, occ = append(ind, vid), append(val, float32(cnts[j])), append(occ, int64(cnts[j]))
					}
				}
			} else {
				w.touched += int64(touch(idmap, lids))
				for j, id := range lids {
					if vid := idmap[id]; vid >= 0 {
						ind, val, occ = append(ind, vid), append(val, float32(cnts[j])), append(occ, int64(cnts[j]))
					}
				}
			}
			if err := w.sumRow(int32(k), ind, val, occ); err != nil {
				return err
			}
		}
	}
	return nil
}

// bucketIndex maps the buckets of a hashed vocabulary, whose terms are
// bucket names in ascending order (BucketName's byte order is bucket
// order), to their ids, in 1.5 bits a bucket: bit b of set says bucket b
// is a term, and its id is the number of bits set below b. That is 48 MiB
// at vectorize.MaxHashBits, where an id by bucket would take 1 GiB, and
// 192 KiB, in cache, at 20 bits.
type bucketIndex struct {
	set  []uint64
	rank []int32 // the bits set in the words of set before each
}

// newBucketIndex returns the bucketIndex of the hashed vocabulary v.
func newBucketIndex(v *vectorize.Vocabulary) (*bucketIndex, error) {
	bits := v.Settings.HashBits
	x := &bucketIndex{set: make([]uint64, (1<<bits+63)/64)}
	prev := int64(-1)
	for id, t := range v.Terms {
		b, ok := vectorize.ParseBucketName(t, bits)
		if !ok || int64(b) <= prev {
			return nil, fmt.Errorf("round two from the row cache: vocabulary term %d %q is not the next bucket of --hash-bits %d", id, t, bits)
		}
		prev = int64(b)
		x.set[b>>6] |= 1 << (b & 63)
	}
	x.rank = make([]int32, len(x.set))
	var n int32
	for i, w := range x.set {
		x.rank[i] = n
		n += int32(mbits.OnesCount64(w))
	}
	return x, nil
}

// id returns the vocabulary id of bucket b (below 2^bits), -1 when it is
// not a term.
func (x *bucketIndex) id(b uint32) int32 {
	w, bit := x.set[b>>6], uint64(1)<<(b&63)
	if w&bit == 0 {
		return -1
	}
	return x.rank[b>>6] + int32(mbits.OnesCount64(w&(bit-1)))
}

// replayBuf is a worker's scratch for replay.
type replayBuf struct {
	buf  []byte   // a chunk of the row cache
	lids []int32  // a row's round-one ids
	cnts []uint32 // and their counts
	ind  []int32  // the row in vocabulary ids
	val  []float32
	occ  []int64 // its exact occurrences
}

// rowPad is the number of zero bytes replay reads past a chunk: a term's
// word loaded at its last byte.
const rowPad = 3

// ctrlBytes[b] is the number of bytes of the four terms of control byte b.
var ctrlBytes = func() (t [256]uint8) {
	for b := range t {
		t[b] = uint8(4 + b&3 + b>>2&3 + b>>4&3 + b>>6)
	}
	return t
}()

// codeMask[c] keeps the c+1 bytes of a term's word.
var codeMask = [4]uint32{0xff, 0xffff, 0xffffff, 0xffffffff}
