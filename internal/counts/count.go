package counts

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"unsafe"

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
// Transform and weighting in round two), turned into sorted per-term
// cells, and added to the table, exactly. Where the batches begin does not
// change the result, nor does spilling: a Counter's counts are those of
// its documents, whatever Options say.
type Counter struct {
	s      vectorize.Settings // recorded in the header
	tok    vectorize.Settings // round one: s without pruning and weighting
	vocab  *vectorize.Vocabulary
	digest string
	opt    Options
	batch  int

	texts, labels []string
	size          int
	acc           *Counts
	accBytes      int64
	runs          []string
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
	b, err := c.countBatch(c.texts, c.labels)
	if err != nil {
		return err
	}
	clear(c.texts)
	clear(c.labels)
	c.texts, c.labels, c.size = c.texts[:0], c.labels[:0], 0
	if c.acc == nil {
		c.acc = b
	} else if c.acc, err = Merge([]*Counts{c.acc, b}, []string{"table", "batch"}); err != nil {
		return err
	}
	c.accBytes = memSize(c.acc)
	if c.opt.Mem > 0 && c.accBytes > c.opt.Mem/2 {
		return c.spill()
	}
	return nil
}

// memSize estimates the bytes c holds.
func memSize(c *Counts) int64 {
	n := int64(len(c.Terms))*int64(unsafe.Sizeof("")+unsafe.Sizeof(0)) + int64(len(c.Cells))*int64(unsafe.Sizeof(Cell{}))
	for _, t := range c.Terms {
		n += int64(len(t))
	}
	return n
}

// spill writes the table to a run on disk and empties it.
func (c *Counter) spill() error {
	f, err := os.CreateTemp(c.opt.TempDir, "nbtext-run-*.nbc")
	if err != nil {
		return fmt.Errorf("spill the count table: %w", err)
	}
	c.runs = append(c.runs, f.Name())
	if err := encodeBuffered(f, c.acc); err != nil {
		f.Close()
		return fmt.Errorf("spill the count table to %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("spill the count table to %s: %w", f.Name(), err)
	}
	c.acc, c.accBytes = nil, 0
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
	if c.acc == nil {
		return &Counts{Header: Header{Settings: c.s, Vocab: c.digest}, Start: []int{0}}, nil
	}
	return c.acc, nil
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
	if c.acc != nil {
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

// countBatch counts texts, of classes labels.
func (c *Counter) countBatch(texts, labels []string) (*Counts, error) {
	classes, y := sortedClasses(labels)
	h := Header{Settings: c.s, Vocab: c.digest, Classes: classes, ClassDocs: make([]int64, len(classes))}
	for _, k := range y {
		h.ClassDocs[k]++
	}
	var terms []string
	var X, W *vectorize.Matrix
	if c.vocab == nil {
		v, m, err := vectorize.Fit(texts, nil, 0, c.tok, c.opt.Workers, nil)
		if errors.Is(err, vectorize.ErrEmptyVocabulary) {
			return &Counts{Header: h, Start: []int{0}}, nil
		}
		if err != nil {
			return nil, err
		}
		terms, X = v.Terms, m
	} else {
		terms = c.vocab.Terms
		X = c.vocab.Transform(texts, c.opt.Workers)
		W = &vectorize.Matrix{Indptr: X.Indptr, Indices: X.Indices, Values: slices.Clone(X.Values), Cols: X.Cols}
		c.vocab.Weight(W)
	}
	return FromMatrix(h, terms, X, W, y)
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
