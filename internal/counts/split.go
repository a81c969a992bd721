package counts

import (
	"bufio"
	"container/heap"
	"fmt"
	"io"
	"reflect"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file writes a Counter's counts as several counts files at once,
// split by term (nbtext-beam's count step emits one per term-hash
// partition), without building the counts in memory.

// Mem returns the Counter's estimate of the memory of its count tables,
// the figure Options.Mem bounds (past half of it they spill).
func (c *Counter) Mem() int64 {
	var mem int64
	for _, w := range c.workers {
		mem += w.mem.Load()
	}
	return mem
}

// WriteParts writes the counts of every document added as len(ws) counts
// files, ws[p] getting the terms t with part(t) == p, in ascending order,
// and each the whole header (so each holds the classes and documents of
// every document added). It merges the spilled runs and the tables as
// WriteFile does, term by term: the memory it adds is the writers'
// buffers. It returns the header written.
func (c *Counter) WriteParts(ws []io.Writer, part func(term string) int) (*Header, error) {
	if c.pooled {
		return nil, errVocabOnly
	}
	if len(ws) == 0 {
		return nil, fmt.Errorf("counts: no part to write")
	}
	m, err := c.parts(true)
	if err != nil {
		return nil, err
	}
	defer m.close()
	s := &splitSink{part: part}
	for _, w := range ws {
		bw := bufio.NewWriterSize(w, 1<<12)
		cw, err := newWriter(bw, m.h)
		if err != nil {
			return nil, err
		}
		s.bufs, s.ws = append(s.bufs, bw), append(s.ws, cw)
	}
	if err := m.into(s); err != nil {
		return nil, err
	}
	for i, cw := range s.ws {
		if err := cw.close(); err != nil {
			return nil, err
		}
		if err := s.bufs[i].Flush(); err != nil {
			return nil, err
		}
	}
	c.stop()
	return m.h, nil
}

// splitSink routes each term to the writer of its part.
type splitSink struct {
	part func(string) int
	ws   []*writer
	bufs []*bufio.Writer
}

func (s *splitSink) to(term string) (*writer, error) {
	p := s.part(term)
	if p < 0 || p >= len(s.ws) {
		return nil, fmt.Errorf("counts: term %q sent to part %d of %d", term, p, len(s.ws))
	}
	return s.ws[p], nil
}

func (s *splitSink) add(term string, cells []Cell) error {
	w, err := s.to(term)
	if err != nil {
		return err
	}
	return w.add(term, cells)
}

func (s *splitSink) addNamed(term string, cells []Cell, names []vectorize.TermCount) error {
	w, err := s.to(term)
	if err != nil {
		return err
	}
	return w.addNamed(term, cells, names)
}

// Concat writes to w the union of counts files that hold the same header
// and disjoint terms (the parts WriteParts writes, each summed over the
// same documents): that header, and the terms of all, ascending. It reads
// them term by term, so its memory is a term of each. A header that
// differs from the first's, or a term in two parts, is an error naming
// the parts (names). It returns the header and the number of terms
// written. Concat of one file checks it and counts its terms.
func Concat(w io.Writer, parts []io.Reader, names []string) (*Header, int, error) {
	if len(parts) == 0 {
		return nil, 0, fmt.Errorf("counts: nothing to concatenate")
	}
	rs := make([]*reader, len(parts))
	for i, p := range parts {
		r, err := newReader(bufio.NewReaderSize(p, 1<<16), names[i])
		if err != nil {
			return nil, 0, err
		}
		if i > 0 && !reflect.DeepEqual(r.hdr, rs[0].hdr) {
			return nil, 0, fmt.Errorf("%s and %s: different headers: not parts of the same counts", names[0], names[i])
		}
		rs[i] = r
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	cw, err := newWriter(bw, &rs[0].hdr)
	if err != nil {
		return nil, 0, err
	}
	q := &termHeap{}
	for _, r := range rs {
		if err := q.pushNext(r); err != nil {
			return nil, 0, err
		}
	}
	n := 0
	for q.Len() > 0 {
		top := heap.Pop(q).(headTerm)
		if q.Len() > 0 && (*q)[0].term == top.term {
			return nil, 0, fmt.Errorf("%s and %s: term %q in both: not disjoint parts", top.r.name, (*q)[0].r.name, top.term)
		}
		if err := cw.addNamed(top.term, top.r.cells, top.r.names); err != nil {
			return nil, 0, err
		}
		n++
		if err := q.pushNext(top.r); err != nil {
			return nil, 0, err
		}
	}
	if err := cw.close(); err != nil {
		return nil, 0, err
	}
	h := rs[0].hdr
	return &h, n, bw.Flush()
}

// headTerm is the current term of a reader.
type headTerm struct {
	term string
	r    *reader
}

// termHeap orders readers by their current terms.
type termHeap []headTerm

func (q termHeap) Len() int           { return len(q) }
func (q termHeap) Less(i, j int) bool { return q[i].term < q[j].term }
func (q termHeap) Swap(i, j int)      { q[i], q[j] = q[j], q[i] }
func (q *termHeap) Push(x any)        { *q = append(*q, x.(headTerm)) }
func (q *termHeap) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// pushNext reads r's next term onto q (nothing at r's end).
func (q *termHeap) pushNext(r *reader) error {
	term, _, ok, err := r.next()
	if err != nil || !ok {
		return err
	}
	heap.Push(q, headTerm{term, r})
	return nil
}
