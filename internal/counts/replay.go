package counts

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"slices"

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
// count). A segment ends when its worker's table is
// emptied (a spill, or the end of the round), and keeps that
// TermCounter's terms, which name its ids. Round two maps each segment's
// local ids to vocabulary ids (dropping pruned terms), sorts each row by
// them, and from there counts it as a row from Vectorize: the same ids,
// the same counts, so the same weighted values and sums.

// segment is one finished cache file, open for reading, and the terms of
// its ids.
type segment struct {
	f    *fsutil.Scratch
	size int64
	tc   *vectorize.TermCounter
}

// release closes and removes the segment's file.
func (s *segment) release() { s.f.Close() }

// cacheWriter is a worker's open segment, a scratch file (nothing is left
// behind however the process ends) read back through the open file.
type cacheWriter struct {
	f    *fsutil.Scratch
	w    *bufio.Writer
	size int64
	buf  []byte
	err  error
}

// newCacheWriter creates a segment file in dir.
func newCacheWriter(dir string) (*cacheWriter, error) {
	f, err := fsutil.NewScratch(dir, "nbtext-rows-*.bin")
	if err != nil {
		return nil, fmt.Errorf("row cache: %w", err)
	}
	return &cacheWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

// add writes the row ids, vals of class k.
func (c *cacheWriter) add(k int32, ids []int32, vals []float32) {
	if c.err != nil {
		return
	}
	b := binary.AppendUvarint(c.buf[:0], uint64(k))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for j, id := range ids {
		if vals[j] == 1 {
			b = binary.AppendUvarint(b, uint64(id)<<1)
			continue
		}
		b = binary.AppendUvarint(b, uint64(id)<<1|1)
		b = binary.AppendUvarint(b, uint64(vals[j]))
	}
	c.buf = b
	var n [binary.MaxVarintLen64]byte
	ln := n[:binary.PutUvarint(n[:], uint64(len(b)))]
	if _, err := c.w.Write(ln); err != nil {
		c.err = err
		return
	}
	_, c.err = c.w.Write(b)
	c.size += int64(len(ln) + len(b))
}

// finish flushes the segment and returns it, still open, for reading; on
// error the segment is released.
func (c *cacheWriter) finish(tc *vectorize.TermCounter) (segment, error) {
	s := segment{f: c.f, size: c.size, tc: tc}
	err := c.err
	if ferr := c.w.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		s.release()
		return segment{}, fmt.Errorf("row cache %s: %w", c.f.Name(), err)
	}
	return s, nil
}

// RoundTwo returns a round-two Counter over vocab (which must have c's
// settings) holding every document added to c, counted from the row
// cache of c (made with Options.Replay) instead of the documents: the
// counts are those of a NewCounter(settings, vocab, ...) that the same
// documents are added to. It does not spill: Options.Mem bounds round
// one, and round two's tables are the size of vocab. c's counting must be
// finished (Vocabulary, Stats, Counts or WriteFile).
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
	case vocab.Settings != c.s:
		return nil, errors.New("round two from the row cache needs a vocabulary of round one's settings")
	}
	// Round one's tables are garbage now: collect them before round two
	// allocates its own, so that the peak is one round's, not two.
	runtime.GC()
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
	for i := range c.segments {
		c2.pending.Add(1)
		c2.queue <- &work{seg: &c.segments[i]}
	}
	c2.pending.Wait()
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
	for i := range c.segments {
		c.segments[i].tc = nil // the names are mapped: let them go
	}
	return c2, nil
}

// replay counts the rows of segment s in round two.
func (w *worker) replay(s *segment) error {
	idmap := make([]int32, s.tc.Len())
	for id := range idmap {
		vid, ok := w.vocab.Lookup(s.tc.Term(int32(id)))
		if !ok {
			vid = -1
		}
		idmap[id] = vid
	}
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, s.size), 1<<20)
	bad := func(err error) error { return fmt.Errorf("row cache %s: %w", s.f.Name(), err) }
	var buf []byte
	var pairs []uint64
	var lids []int32
	var cnts []uint32
	rs := newRowSorter(len(w.vocab.Terms))
	var ind []int32
	var val []float32
	for {
		n, err := binary.ReadUvarint(r)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return bad(err)
		}
		if n > math.MaxInt32 {
			return bad(errors.New("a row too long"))
		}
		buf = slices.Grow(buf[:0], int(n))[:n]
		if _, err := io.ReadFull(r, buf); err != nil {
			return bad(err)
		}
		row := buf // next consumes it; buf keeps its capacity
		k, ok1 := next(&row)
		m, ok2 := next(&row)
		if !ok1 || !ok2 || k >= uint64(len(w.docs)) {
			return bad(errors.New("a damaged row"))
		}
		w.docs[k]++
		// Decode the row, then map its ids: idmap's entries for rare
		// terms are cache misses, which a loop of loads alone overlaps
		// (see touchCells).
		lids, cnts = lids[:0], cnts[:0]
		for range m {
			id, ok := next(&row)
			cnt := uint64(1)
			if ok && id&1 == 1 {
				cnt, ok = next(&row)
			}
			if id >>= 1; !ok || id >= uint64(len(idmap)) || cnt >= 1<<32 {
				return bad(errors.New("a damaged row"))
			}
			lids, cnts = append(lids, int32(id)), append(cnts, uint32(cnt))
		}
		w.touched += int64(touch(idmap, lids))
		pairs = pairs[:0]
		for j, id := range lids {
			if vid := idmap[id]; vid >= 0 {
				pairs = append(pairs, uint64(vid)<<32|uint64(cnts[j]))
			}
		}
		rs.sort(pairs)
		ind, val = ind[:0], val[:0]
		for _, p := range pairs {
			ind = append(ind, int32(p>>32))
			val = append(val, float32(uint32(p)))
		}
		if err := w.sumRow(int32(k), ind, val); err != nil {
			return err
		}
	}
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
