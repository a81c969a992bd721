package counts

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// source yields the terms of one sorted part, ascending, with their cells
// (valid until the next call).
type source interface {
	next() (term string, cells []Cell, ok bool, err error)
}

// sink takes the merged terms, ascending.
type sink interface {
	add(term string, cells []Cell) error
}

// memSource reads a Counts in memory.
type memSource struct {
	c *Counts
	i int
}

func (s *memSource) next() (string, []Cell, bool, error) {
	if s.i == len(s.c.Terms) {
		return "", nil, false, nil
	}
	s.i++
	return s.c.Terms[s.i-1], s.c.Row(s.i - 1), true, nil
}

// memSink builds a Counts in memory. Its terms' bytes are copied into
// blocks of its own, so that it holds nothing of its sources.
type memSink struct {
	c     *Counts
	block []byte
	bytes int // the bytes of the terms, for the memory estimate
}

func newMemSink(h Header) *memSink {
	return &memSink{c: &Counts{Header: h, Start: []int{0}}}
}

func (s *memSink) add(term string, cells []Cell) error {
	if len(term) > cap(s.block)-len(s.block) {
		s.block = make([]byte, 0, max(1<<16, len(term)))
	}
	n0 := len(s.block)
	s.block = append(s.block, term...)
	s.c.Terms = append(s.c.Terms, string(s.block[n0:]))
	s.c.Cells = append(s.c.Cells, cells...)
	s.c.Start = append(s.c.Start, len(s.c.Cells))
	s.bytes += len(term)
	return nil
}

// addNamed is add with the bucket names of a hashed term.
func (s *memSink) addNamed(term string, cells []Cell, names []vectorize.TermCount) error {
	if hashed(&s.c.Header) {
		s.c.Names = append(s.c.Names, ownNames(names))
	}
	return s.add(term, cells)
}

// MergeHeaders checks that the headers can be added (Compatible, with the
// parts named by names) and returns the header of their sum: the union of
// the classes, ascending, with their documents summed, and for each part
// the id in it of each of the part's classes.
func MergeHeaders(hs []*Header, names []string) (*Header, [][]int32, error) {
	if len(hs) == 0 {
		return nil, nil, errors.New("nothing to merge")
	}
	for i := 1; i < len(hs); i++ {
		if err := Compatible(hs[0], hs[i], names[0], names[i]); err != nil {
			return nil, nil, err
		}
	}
	var all []string
	for _, h := range hs {
		all = append(all, h.Classes...)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	out := &Header{Settings: hs[0].Settings, Vocab: hs[0].Vocab, Classes: all, ClassDocs: make([]int64, len(all))}
	remap := make([][]int32, len(hs))
	var total int64
	var err error
	for i, h := range hs {
		remap[i] = make([]int32, len(h.Classes))
		for j, c := range h.Classes {
			k, _ := slices.BinarySearch(all, c)
			remap[i][j] = int32(k)
			if d := h.ClassDocs[j]; d > math.MaxInt64-out.ClassDocs[k] || d > math.MaxInt64-total {
				return nil, nil, fmt.Errorf("%s: the documents of the parts sum past 2^63 (class %q)", names[i], c)
			}
			out.ClassDocs[k] += h.ClassDocs[j]
			total += h.ClassDocs[j]
		}
	}
	if out.Inputs, err = mergeInputs(hs, names); err != nil {
		return nil, nil, err
	}
	return out, remap, nil
}

// mergeInto adds the terms of srcs (class ids mapped by remap) into dst,
// with nClasses classes in all: a k-way merge over a heap of the sources'
// next terms. Equal terms add their cells; sums that overflow are an
// error.
func mergeInto(dst sink, srcs []source, remap [][]int32, nClasses int) error {
	type head struct {
		term  string
		cells []Cell
		names []vectorize.TermCount
	}
	ns, named := dst.(namedSink)
	named = named && hashedSources(srcs)
	round2 := named && weighted(srcs) // how names merge (mergeTermNames)
	heads := make([]head, len(srcs))
	// A min-heap of the sources with terms left, by next term, ties by
	// source.
	h := &sourceHeap{less: func(a, b int) bool {
		return heads[a].term < heads[b].term || heads[a].term == heads[b].term && a < b
	}}
	advance := func(i int) (bool, error) {
		t, cells, ok, err := srcs[i].next()
		if err != nil || !ok {
			return false, err
		}
		heads[i] = head{t, cells, nil}
		if named {
			heads[i].names = srcs[i].(namedSource).lastNames()
		}
		return true, nil
	}
	for i := range srcs {
		ok, err := advance(i)
		if err != nil {
			return err
		}
		if ok {
			h.ids = append(h.ids, i)
		}
	}
	heap.Init(h)
	acc := make([]Cell, nClasses)
	has := make([]bool, nClasses)
	var touched []int32
	var out []Cell
	var term string
	var names []vectorize.TermCount
	for h.Len() > 0 {
		i := h.ids[0]
		term = heads[i].term // sources hand out terms that stay valid
		touched = touched[:0]
		names = nil
		for h.Len() > 0 && heads[h.ids[0]].term == term {
			i := h.ids[0]
			if named {
				names = mergeTermNames(names, heads[i].names, round2)
			}
			for _, c := range heads[i].cells {
				k := remap[i][c.Class]
				if !has[k] {
					has[k] = true
					acc[k] = Cell{Class: k}
					touched = append(touched, k)
				}
				a := &acc[k]
				a.Docs += c.Docs
				a.Occ += c.Occ
				var over bool
				if a.Sum, over = a.Sum.Add(c.Sum); over || a.Docs < 0 || a.Occ < 0 {
					return fmt.Errorf("counts of term %q overflow", term)
				}
			}
			ok, err := advance(i)
			if err != nil {
				return err
			}
			if ok {
				heap.Fix(h, 0)
			} else {
				heap.Pop(h)
			}
		}
		slices.Sort(touched)
		out = out[:0]
		for _, k := range touched {
			out = append(out, acc[k])
			has[k] = false
		}
		if named {
			if err := ns.addNamed(term, out, vectorize.TopNames(names)); err != nil {
				return err
			}
		} else if err := dst.add(term, out); err != nil {
			return err
		}
	}
	return nil
}

// sourceHeap is a container/heap of source indices ordered by less.
type sourceHeap struct {
	ids  []int
	less func(a, b int) bool
}

func (h *sourceHeap) Len() int           { return len(h.ids) }
func (h *sourceHeap) Less(i, j int) bool { return h.less(h.ids[i], h.ids[j]) }
func (h *sourceHeap) Swap(i, j int)      { h.ids[i], h.ids[j] = h.ids[j], h.ids[i] }
func (h *sourceHeap) Push(x any)         { h.ids = append(h.ids, x.(int)) }
func (h *sourceHeap) Pop() any {
	x := h.ids[len(h.ids)-1]
	h.ids = h.ids[:len(h.ids)-1]
	return x
}

// Merge returns the sum of parts, in memory; names name them in errors.
// The result does not depend on the order of the parts or on how they
// were grouped: Merge(a, Merge(b, c)) equals Merge(Merge(c, a), b).
func Merge(parts []*Counts, names []string) (*Counts, error) {
	hs := make([]*Header, len(parts))
	srcs := make([]source, len(parts))
	for i, p := range parts {
		hs[i] = &p.Header
		srcs[i] = &memSource{c: p}
	}
	h, remap, err := MergeHeaders(hs, names)
	if err != nil {
		return nil, err
	}
	dst := newMemSink(*h)
	// Room for the sum of the parts (at most), so that appending the
	// merged terms does not copy them over and over.
	nt, nc := 0, 0
	for _, p := range parts {
		nt, nc = nt+len(p.Terms), nc+len(p.Cells)
	}
	dst.c.Terms = make([]string, 0, nt)
	dst.c.Start = make([]int, 1, nt+1)
	dst.c.Cells = make([]Cell, 0, nc)
	if err := mergeInto(dst, srcs, remap, len(h.Classes)); err != nil {
		return nil, err
	}
	return dst.c, nil
}

// MergeFiles merges the counts files paths into out, streaming: it holds
// one term of each part at a time, whatever their size. out is written
// atomically and only when every part was read to its end and its
// checksum matched; it may not be one of the parts. Parts that would
// count a document twice are refused (see mergeParts).
func MergeFiles(out string, paths []string) (*Header, error) {
	return MergeFilesChecked(out, paths, 0)
}

// MergeFilesChecked is MergeFiles that, with expect > 0, also refuses a
// sum that does not cover its inputs as all expect shards do
// (Header.CheckShards), before it writes anything.
func MergeFilesChecked(out string, paths []string, expect int) (*Header, error) {
	if err := fsutil.CheckOutput(out, paths...); err != nil {
		return nil, err
	}
	files := make([]*os.File, 0, len(paths))
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	hs := make([]*Header, len(paths))
	srcs := make([]source, len(paths))
	for i, p := range paths {
		f, err := fsutil.OpenRegular(p)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
		r, err := newReader(f, p)
		if err != nil {
			return nil, err
		}
		hs[i], srcs[i] = &r.hdr, r
	}
	h, remap, err := MergeHeaders(hs, paths)
	if err != nil {
		return nil, err
	}
	if expect > 0 {
		if err := h.CheckShards(expect); err != nil {
			return nil, err
		}
	}
	err = fsutil.WriteFile(out, func(w io.Writer) error {
		cw, err := newWriter(w, h)
		if err != nil {
			return err
		}
		if err := mergeInto(cw, srcs, remap, len(h.Classes)); err != nil {
			return err
		}
		return cw.close()
	})
	return h, err
}
