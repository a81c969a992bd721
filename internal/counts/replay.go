package counts

import (
	"encoding/binary"
	"errors"
	"fmt"
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
// the local term ids of its TermCounter: per document, a varint byte
// length, then varints: the class id, the number of terms, and per term
// its local id shifted left by one, the low bit set when a count other
// than 1 follows (most terms of a document occur once, so most take no
// count). The rows are gathered by partition, the class id modulo
// cacheParts, in buffers of cacheChunk bytes written out as chunks, so
// that round two replays the rows of a few classes at a time: their
// columns of cells, not every class's, share the processor's caches. A
// segment ends when its worker's table is emptied (a spill, or the end of
// the round), and keeps that TermCounter's terms, which name its ids.
// Round two maps each segment's local ids to vocabulary ids (dropping
// pruned terms) and from there counts each row as a row from Vectorize:
// the same ids and counts, in another order, so the same weighted values
// and sums (neither depends on the order of a row's terms).

// cacheParts is the number of partitions of a segment: a row goes to
// partition class id mod cacheParts.
const cacheParts = 16

// cacheChunk is the size of a partition's buffer, and so of most chunks.
const cacheChunk = 128 << 10

// chunk is a range of a segment's file holding whole rows of one
// partition.
type chunk struct{ off, n int64 }

// segment is one finished cache file, open for reading, the chunks of
// each partition, and the terms of its ids.
type segment struct {
	f      *fsutil.Scratch
	chunks [cacheParts][]chunk
	tc     *vectorize.TermCounter
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
	size   int64
	buf    []byte              // the row being encoded
	parts  [cacheParts][]byte  // each partition's rows not yet written
	chunks [cacheParts][]chunk // each partition's rows written
	err    error
}

// newCacheWriter creates a segment file in dir.
func newCacheWriter(dir string) (*cacheWriter, error) {
	f, err := fsutil.NewScratch(dir, "nbtext-rows-*.bin")
	if err != nil {
		return nil, fmt.Errorf("row cache: %w", err)
	}
	return &cacheWriter{f: f}, nil
}

// add writes the row ids, vals of class k.
func (c *cacheWriter) add(k int32, ids []int32, vals []float32) {
	if c.err != nil {
		return
	}
	// Room for every varint at its longest, so the loop writes without
	// checking the length: a class, a length, and two per term.
	b := slices.Grow(c.buf[:0], binary.MaxVarintLen64*(2+2*len(ids)))
	b = b[:cap(b)]
	i := putUvarint(b, 0, uint64(k))
	i = putUvarint(b, i, uint64(len(ids)))
	for j, id := range ids {
		if vals[j] == 1 {
			i = putUvarint(b, i, uint64(id)<<1)
			continue
		}
		i = putUvarint(b, i, uint64(id)<<1|1)
		i = putUvarint(b, i, uint64(vals[j]))
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
// reading; on error the segment is released.
func (c *cacheWriter) finish(tc *vectorize.TermCounter) (segment, error) {
	for p := range c.parts {
		c.flush(p)
	}
	s := segment{f: c.f, chunks: c.chunks, tc: tc}
	if c.err != nil {
		s.release()
		return segment{}, fmt.Errorf("row cache %s: %w", c.f.Name(), c.err)
	}
	return s, nil
}

// RoundTwo returns a round-two Counter over vocab (which must have c's
// settings) holding every document added to c, counted from the row
// cache of c (made with Options.Replay) instead of the documents: the
// counts are those of a NewCounter(settings, vocab, ...) that the same
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
	case c.workers != nil || len(c.cur.texts) > 0:
		return nil, errors.New("round two from the row cache: round one is not finished")
	case c.cacheErr != nil:
		return nil, c.cacheErr
	case c.replayed:
		return nil, errors.New("round two from the row cache: the cache was replayed already")
	case vocab.Settings != c.s:
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
	var wg sync.WaitGroup
	for i := range c.segments { // a goroutine per segment
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &c.segments[i]
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
	idmap := s.idmap
	bad := func(err error) error { return fmt.Errorf("row cache %s: %w", s.f.Name(), err) }
	// The worker's scratch, kept from one call to the next: a call per
	// item of the schedule (thousands on a large corpus) would otherwise
	// leave a chunk's buffer of garbage each, and the heap would drift up
	// to the collector's goal, the longer the corpus the higher.
	r := &w.rb
	buf, lids, cnts, ind, val := r.buf, r.lids, r.cnts, r.ind, r.val
	defer func() { r.buf, r.lids, r.cnts, r.ind, r.val = buf, lids, cnts, ind, val }()
	for _, ch := range chunks {
		buf = slices.Grow(buf[:0], int(ch.n))[:ch.n]
		if _, err := s.f.ReadAt(buf, ch.off); err != nil {
			return bad(err)
		}
		rows := buf
		for len(rows) > 0 {
			n, ok := next(&rows)
			if !ok || n > uint64(len(rows)) {
				return bad(errors.New("a damaged row"))
			}
			row := rows[:n]
			rows = rows[n:]
			k, ok1 := next(&row)
			m, ok2 := next(&row)
			if !ok1 || !ok2 || k >= uint64(len(w.docs)) || int(k)%cacheParts != p {
				return bad(errors.New("a damaged row"))
			}
			w.docs[k]++
			// Decode the row, then map its ids: idmap's entries for rare
			// terms are cache misses, which a loop of loads alone overlaps
			// (see touchCells).
			lids, cnts = lids[:0], cnts[:0]
			i := 0
			for range m {
				id, j := uvarint(row, i)
				cnt := uint64(1)
				if j >= 0 && id&1 == 1 {
					cnt, j = uvarint(row, j)
				}
				if id >>= 1; j < 0 || id >= uint64(len(idmap)) || cnt >= 1<<32 {
					return bad(errors.New("a damaged row"))
				}
				i = j
				lids, cnts = append(lids, int32(id)), append(cnts, uint32(cnt))
			}
			w.touched += int64(touch(idmap, lids))
			// The row stays in order of first occurrence: sumRow's sums,
			// and the l2 norm of its weighting (vectorize.sumSquares), do
			// not depend on the order of a row's terms.
			ind, val = ind[:0], val[:0]
			for j, id := range lids {
				if vid := idmap[id]; vid >= 0 {
					ind, val = append(ind, vid), append(val, float32(cnts[j]))
				}
			}
			if err := w.sumRow(int32(k), ind, val); err != nil {
				return err
			}
		}
	}
	return nil
}

// replayBuf is a worker's scratch for replay.
type replayBuf struct {
	buf  []byte   // a chunk of the row cache
	lids []int32  // a row's round-one ids
	cnts []uint32 // and their counts
	ind  []int32  // the row in vocabulary ids
	val  []float32
}

// next decodes a varint from the front of *b.
func next(b *[]byte) (uint64, bool) {
	x, n := binary.Uvarint(*b)
	if n <= 0 {
		return 0, false
	}
	*b = (*b)[n:]
	return x, true
}
