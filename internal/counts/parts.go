package counts

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/nbtext/nbtext/internal/vectorize"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// This file holds the merged view of a Counter's parts: its spilled runs
// and its workers' tables, each a sorted source of terms, and the map of
// their classes into the sum's (see count.go for the Counter itself).

// merged holds what merging the Counter's parts reads: the header of the
// sum, the sources (the spilled runs, then the workers' tables) and the
// map of each source's class ids into the sum's.
type merged struct {
	terms int // about the terms of the sum (at least the most of one part)
	h     *Header
	srcs  []source
	remap [][]int32
	files []*os.File
	// workers are the tables to merge after the runs, their class ids
	// mapped by toSum; sources adds them to srcs.
	workers []*worker
	toSum   []int32
}

// sources adds the workers' tables to the sources, each sorted by a
// goroutine of its own: in round one, sorting a worker's terms is most of
// the work between the two rounds.
func (m *merged) sources() {
	srcs := make([]*workerSource, len(m.workers))
	var wg sync.WaitGroup
	for i, w := range m.workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			srcs[i] = w.source()
		}()
	}
	wg.Wait()
	for _, src := range srcs {
		m.srcs = append(m.srcs, src)
		m.remap = append(m.remap, m.toSum)
		m.terms = max(m.terms, len(src.order))
	}
	m.workers = nil
}

func (m *merged) close() {
	for _, f := range m.files {
		f.Close()
	}
}

// sortedTerms returns the local ids of the terms tc counted (from
// First on), in ascending order of their terms. It sorts the ids by the
// first 8 bytes of their terms, as a big-endian number held beside them,
// with a radix sort (8 passes of a byte, fewer for short terms), then the
// runs of ids whose terms share those bytes (rare) by their whole terms:
// no comparison of two strings elsewhere in memory per step of a sort.
// That made sorting a 200,000-term table about 4 times faster.
func sortedTerms(tc *vectorize.TermCounter) []int32 {
	n := tc.Len() - int(tc.First())
	if n == 0 {
		return nil
	}
	keys, tmp := make([]termKey, n), make([]termKey, n)
	for i := range keys {
		id := tc.First() + int32(i)
		var b [8]byte
		copy(b[:], tc.Term(id))
		keys[i] = termKey{binary.BigEndian.Uint64(b[:]), id}
	}
	for shift := uint(0); shift < 64; shift += 8 {
		var count [256]int
		for _, k := range keys {
			count[k.head>>shift&0xff]++
		}
		if count[keys[0].head>>shift&0xff] == n { // one digit: nothing to move
			continue
		}
		at := 0
		for d, c := range count {
			count[d], at = at, at+c
		}
		for _, k := range keys {
			d := k.head >> shift & 0xff
			tmp[count[d]] = k
			count[d]++
		}
		keys, tmp = tmp, keys
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[j].head == keys[i].head {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(keys[i:j], func(a, b termKey) int { return strings.Compare(tc.Term(a.id), tc.Term(b.id)) })
		}
		i = j
	}
	order := make([]int32, n)
	for i, k := range keys {
		order[i] = k.id
	}
	return order
}

// termKey is a term's local id and its first 8 bytes, 0-padded, as a
// big-endian number: the order of the numbers is the terms', up to ties.
type termKey struct {
	head uint64
	id   int32
}

// into merges the parts into the sink dst.
func (m *merged) into(dst sink) error {
	m.sources()
	return mergeInto(dst, m.srcs, m.remap, len(m.h.Classes))
}

// write merges the parts into a counts file written to w.
func (m *merged) write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	cw, err := newWriter(bw, m.h)
	if err != nil {
		return err
	}
	if err := m.into(cw); err != nil {
		return err
	}
	if err := cw.close(); err != nil {
		return err
	}
	return bw.Flush()
}

// openRuns opens the spilled runs as sources of m, and returns their
// headers and names, for MergeHeaders. The caller closes m, also on error.
func (m *merged) openRuns(runs []string) (hs []*Header, names []string, err error) {
	for _, p := range runs {
		f, err := fsutil.OpenRegular(p)
		if err != nil {
			return nil, nil, err
		}
		m.files = append(m.files, f)
		r, err := newReader(bufio.NewReaderSize(f, 1<<16), p)
		if err != nil {
			return nil, nil, err
		}
		hs, names = append(hs, &r.hdr), append(names, p)
		m.srcs = append(m.srcs, r)
	}
	return hs, names, nil
}

// parts drains the workers and opens the spilled runs (with withRuns;
// draining can spill one more) and the workers' tables for merging. The
// caller closes the result.
func (c *Counter) parts(withRuns bool) (*merged, error) {
	if err := c.drain(); err != nil {
		return nil, err
	}
	var runs []string
	if withRuns {
		runs = c.runs
	}
	m := &merged{}
	hs, names, err := m.openRuns(runs)
	if err != nil {
		m.close()
		return nil, err
	}
	mh, idx := c.memHeader()
	if len(mh.Classes) > 0 || len(hs) == 0 {
		hs, names = append(hs, mh), append(names, "the count table")
	}
	h, remap, err := MergeHeaders(hs, names)
	if err != nil {
		m.close()
		return nil, err
	}
	m.h, m.remap = h, remap[:len(runs)]
	if len(remap) > len(runs) {
		mem := remap[len(runs)]
		toSum := make([]int32, len(idx))
		for k, i := range idx {
			toSum[k] = -1
			if i >= 0 {
				toSum[k] = mem[i]
			}
		}
		m.workers, m.toSum = c.workers, toSum
	}
	return m, nil
}
