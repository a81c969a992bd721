package counts

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Options tune a Counter.
type Options struct {
	// Workers is the number of tokenizing goroutines (0: one per core).
	Workers int
	// Mem bounds the memory of the count table in bytes: past half of
	// it the table is written to a sorted run on disk and emptied, and the
	// runs are merged at the end. 0 keeps the table in memory.
	Mem int64
	// TempDir is where runs go ("": os.TempDir()).
	TempDir string
}

// defaultBatchBytes is the text a Counter tokenizes at a time when Mem
// does not ask for less.
const defaultBatchBytes = 16 << 20

// Counter counts documents into Counts, a batch at a time: each batch is
// tokenized on all cores (vectorize.Fit in round one, the vocabulary's
// Transform and weighting in round two), and its rows are added to a
// table with one row of cells per term and one column per class, exactly.
// The table grows with the terms and classes met, not with the documents,
// so memory is bounded by the model (vocabulary × classes). Where the
// batches begin does not change the result, nor does spilling: a
// Counter's counts are those of its documents, whatever Options say.
type Counter struct {
	s      vectorize.Settings // recorded in the header
	tok    vectorize.Settings // round one: s without pruning and weighting
	vocab  *vectorize.Vocabulary
	digest string
	opt    Options
	batch  int

	texts, labels []string
	size          int
	tab           *table
	runs          []string
}

// table is the Counter's count table: term ids in order of first sight,
// class ids likewise, and per class a column of each term's statistics.
type table struct {
	ids       map[string]int32
	terms     []string
	termBytes int
	classes   map[string]int32
	names     []string
	classDocs []int64
	cols      []column
	weighted  bool
	bnames    [][]vectorize.TermCount // by term id, with hashing: bucket names (names.go)
}

// column is one class's statistics of every term, by term id.
type column struct {
	docs, occ []int64
	sum       []Fixed
}

func newTable(weighted bool) *table {
	return &table{ids: map[string]int32{}, classes: map[string]int32{}, weighted: weighted}
}

// term returns the id of term t, adding it.
func (t *table) term(s string) int32 {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := int32(len(t.terms))
	s = strings.Clone(s)
	t.ids[s] = id
	t.terms = append(t.terms, s)
	t.termBytes += len(s)
	return id
}

// class returns the id of class name, adding it.
func (t *table) class(name string) int32 {
	if id, ok := t.classes[name]; ok {
		return id
	}
	id := int32(len(t.names))
	t.classes[name] = id
	t.names = append(t.names, name)
	t.classDocs = append(t.classDocs, 0)
	t.cols = append(t.cols, column{})
	return id
}

// grow makes every column as long as the terms.
func (t *table) grow() {
	n := len(t.terms)
	for k := range t.cols {
		c := &t.cols[k]
		if len(c.docs) < n {
			c.docs = slices.Grow(c.docs, n-len(c.docs))[:n]
			c.occ = slices.Grow(c.occ, n-len(c.occ))[:n]
			if t.weighted {
				c.sum = slices.Grow(c.sum, n-len(c.sum))[:n]
			}
		}
	}
}

// bytes estimates the memory of the table.
func (t *table) bytes() int64 {
	per := int64(16)
	if t.weighted {
		per += 16
	}
	return int64(len(t.terms))*(48+per*int64(len(t.cols))) + int64(t.termBytes)
}

// counts returns the table as Counts with header h (whose classes it
// sets): terms ascending, classes ascending.
func (t *table) counts(h Header) *Counts {
	order := make([]int32, len(t.terms))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(t.terms[a], t.terms[b]) })
	byName := make([]int32, len(t.names))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(a, b int32) int { return strings.Compare(t.names[a], t.names[b]) })
	h.Classes = make([]string, len(byName))
	h.ClassDocs = make([]int64, len(byName))
	for k, id := range byName {
		h.Classes[k], h.ClassDocs[k] = t.names[id], t.classDocs[id]
	}
	nCells := 0
	for _, c := range t.cols {
		for _, d := range c.docs {
			if d > 0 {
				nCells++
			}
		}
	}
	out := &Counts{Header: h, Terms: make([]string, 0, len(order)), Start: make([]int, 1, len(order)+1), Cells: make([]Cell, 0, nCells)}
	for _, id := range order {
		n0 := len(out.Cells)
		for k, cid := range byName {
			c := &t.cols[cid]
			if c.docs[id] == 0 {
				continue
			}
			cell := Cell{Class: int32(k), Docs: c.docs[id], Occ: c.occ[id]}
			if t.weighted {
				cell.Sum = c.sum[id]
			}
			out.Cells = append(out.Cells, cell)
		}
		if len(out.Cells) == n0 {
			continue // a vocabulary term these documents do not hold
		}
		out.Terms = append(out.Terms, t.terms[id])
		out.Start = append(out.Start, len(out.Cells))
		if hashed(&h) {
			out.Names = append(out.Names, t.namesOf(id))
		}
	}
	return out
}

// NewCounter returns a Counter of documents tokenized with s. With a
// vocabulary (round two), s is vocab.Settings, only vocab's terms are
// counted, and each cell also sums the term's values as the vocabulary
// weights them; without one (round one) every term is counted.
func NewCounter(s vectorize.Settings, vocab *vectorize.Vocabulary, opt Options) (*Counter, error) {
	if vocab != nil {
		s = vocab.Settings
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	c := &Counter{s: s, tok: countSettings(s), vocab: vocab, opt: opt, batch: defaultBatchBytes}
	if vocab != nil {
		c.digest = VocabDigest(vocab)
	}
	if opt.Mem > 0 {
		c.batch = int(min(int64(c.batch), max(opt.Mem/8, 1<<12)))
	}
	c.tab = newTable(vocab != nil)
	return c, nil
}

// Add counts one document of class label.
func (c *Counter) Add(text, label string) error {
	c.texts = append(c.texts, text)
	c.labels = append(c.labels, label)
	c.size += len(text) + 64
	if c.size >= c.batch {
		return c.flush()
	}
	return nil
}

// flush counts the pending batch into the table, and spills the table when
// it is over its bound.
func (c *Counter) flush() error {
	if len(c.texts) == 0 {
		return nil
	}
	if err := c.countBatch(c.texts, c.labels); err != nil {
		return err
	}
	clear(c.texts)
	clear(c.labels)
	c.texts, c.labels, c.size = c.texts[:0], c.labels[:0], 0
	if c.opt.Mem > 0 && c.tab.bytes() > c.opt.Mem/2 {
		return c.spill()
	}
	return nil
}

// header returns the header of the Counter's counts, without classes.
func (c *Counter) header() Header { return Header{Settings: c.s, Vocab: c.digest} }

// spill writes the table to a run on disk and empties it.
func (c *Counter) spill() error {
	f, err := os.CreateTemp(c.opt.TempDir, "nbtext-run-*.nbc")
	if err != nil {
		return fmt.Errorf("spill the count table: %w", err)
	}
	c.runs = append(c.runs, f.Name())
	if err := encodeBuffered(f, c.tab.counts(c.header())); err != nil {
		f.Close()
		return fmt.Errorf("spill the count table to %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("spill the count table to %s: %w", f.Name(), err)
	}
	c.tab = newTable(c.vocab != nil)
	return nil
}

// Runs returns the number of runs spilled so far.
func (c *Counter) Runs() int { return len(c.runs) }

// Counts returns the counts of every document added, in memory. It fails
// once the table has been spilled: use WriteFile then.
func (c *Counter) Counts() (*Counts, error) {
	if err := c.flush(); err != nil {
		return nil, err
	}
	if len(c.runs) > 0 {
		return nil, errors.New("the count table was spilled to disk: write it with WriteFile")
	}
	cs := c.tab.counts(c.header())
	c.tab = newTable(c.vocab != nil)
	return cs, nil
}

// WriteFile writes the counts of every document added to path,
// atomically: the table itself, or the merge of the spilled runs and the
// table. It returns the header written.
func (c *Counter) WriteFile(path string) (*Header, error) {
	if err := c.flush(); err != nil {
		return nil, err
	}
	if len(c.runs) == 0 {
		cs, err := c.Counts()
		if err != nil {
			return nil, err
		}
		return &cs.Header, WriteFile(path, cs)
	}
	if len(c.tab.terms) > 0 || len(c.tab.names) > 0 {
		if err := c.spill(); err != nil {
			return nil, err
		}
	}
	return MergeFiles(path, c.runs)
}

// Close removes the spilled runs.
func (c *Counter) Close() {
	for _, r := range c.runs {
		os.Remove(r)
	}
	c.runs = nil
}

// countBatch counts texts, of classes labels, into the table.
func (c *Counter) countBatch(texts, labels []string) error {
	t := c.tab
	y := make([]int32, len(labels))
	for i, l := range labels {
		y[i] = t.class(l)
		t.classDocs[y[i]]++
	}
	var X, W *vectorize.Matrix
	var gid []int32 // the batch's term ids → table ids
	if c.vocab == nil {
		v, m, err := vectorize.Fit(texts, nil, 0, c.tok, c.opt.Workers, nil)
		if errors.Is(err, vectorize.ErrEmptyVocabulary) {
			t.grow()
			return nil
		}
		if err != nil {
			return err
		}
		X = m
		gid = make([]int32, len(v.Terms))
		for i, term := range v.Terms {
			gid[i] = t.term(term)
		}
		t.addNames(gid, v.Names)
	} else {
		X = c.vocab.Transform(texts, c.opt.Workers)
		W = &vectorize.Matrix{Indptr: X.Indptr, Indices: X.Indices, Values: slices.Clone(X.Values), Cols: X.Cols}
		c.vocab.Weight(W)
		if len(t.terms) == 0 { // the vocabulary's ids are the table's
			for _, term := range c.vocab.Terms {
				t.term(term)
			}
			t.bnames = c.vocab.Names // the round-one names, whatever these documents hold
		}
	}
	t.grow()
	for i := range X.Rows() {
		col := &t.cols[y[i]]
		for j := X.Indptr[i]; j < X.Indptr[i+1]; j++ {
			id := X.Indices[j]
			if gid != nil {
				id = gid[id]
			}
			col.docs[id]++
			col.occ[id] += int64(X.Values[j])
			if W != nil {
				f, err := FixedOf(W.Values[j])
				if err != nil {
					return fmt.Errorf("term %q: %w", t.terms[id], err)
				}
				var over bool
				if col.sum[id], over = col.sum[id].Add(f); over {
					return fmt.Errorf("term %q: the sum of its values overflows", t.terms[id])
				}
			}
		}
	}
	return nil
}

// FromMatrix returns the counts of the rows of X, a count matrix over
// terms (ascending) whose row i is a document of class y[i] (an index into
// h.Classes); W, when h is weighted, holds the same rows weighted. It
// turns the rows into per-term cells in O(non-zeros): a counting sort of
// the entries by term, then per term a sum by class.
func FromMatrix(h Header, terms []string, X, W *vectorize.Matrix, y []int32) (*Counts, error) {
	if h.Weighted() != (W != nil) {
		return nil, errors.New("counts: weighted values must come with a vocabulary digest, and only then")
	}
	cols, n := len(terms), X.Rows()
	colptr := make([]int, cols+1)
	for _, t := range X.Indices {
		colptr[t+1]++
	}
	for t := range cols {
		colptr[t+1] += colptr[t]
	}
	type entry struct {
		class int32
		cnt   float32
		w     float32
	}
	ents := make([]entry, len(X.Indices))
	next := slices.Clone(colptr[:cols])
	for i := range n {
		lo, hi := X.Indptr[i], X.Indptr[i+1]
		for j := lo; j < hi; j++ {
			t := X.Indices[j]
			e := entry{class: y[i], cnt: X.Values[j]}
			if W != nil {
				e.w = W.Values[j]
			}
			ents[next[t]] = e
			next[t]++
		}
	}
	C := len(h.Classes)
	acc := make([]Cell, C)
	has := make([]bool, C)
	var touched []int32
	out := &Counts{Header: h, Start: make([]int, 1, cols+1)}
	for t := range cols {
		es := ents[colptr[t]:colptr[t+1]]
		if len(es) == 0 {
			continue
		}
		touched = touched[:0]
		for _, e := range es {
			k := e.class
			if !has[k] {
				has[k] = true
				acc[k] = Cell{Class: k}
				touched = append(touched, k)
			}
			a := &acc[k]
			a.Docs++
			a.Occ += int64(e.cnt)
			if W != nil {
				f, err := FixedOf(e.w)
				if err != nil {
					return nil, fmt.Errorf("term %q: %w", terms[t], err)
				}
				a.Sum, _ = a.Sum.Add(f)
			}
		}
		slices.Sort(touched)
		for _, k := range touched {
			out.Cells = append(out.Cells, acc[k])
			has[k] = false
		}
		out.Terms = append(out.Terms, terms[t])
		out.Start = append(out.Start, len(out.Cells))
	}
	return out, nil
}
