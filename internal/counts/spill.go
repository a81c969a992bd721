package counts

import (
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/fsutil"
)

// A Counter past its memory budget spills its tables to runs on disk
// (spill), merged into one when they grow many (compact).

// memHeader returns the header of the documents counted since the last
// spill (the classes with documents, ascending), and for each class id
// of the workers' tables its index in it (-1: none since). Pooled tables
// have the one class pooledClass, of every document.
func (c *Counter) memHeader() (*Header, []int32) {
	if !c.pooled {
		return c.header(c.classDocs)
	}
	h := &Header{Settings: c.s, Vocab: c.digest}
	var n int64
	for _, d := range c.classDocs {
		n += d
	}
	idx := make([]int32, max(len(c.names), 1))
	idx[0] = -1
	if n > 0 {
		h.Classes, h.ClassDocs, idx[0] = []string{pooledClass}, []int64{n}, 0
	}
	return h, idx
}

// header returns the header of docs documents of each class (the classes
// with documents, ascending), and for each class id its index in it (-1:
// none).
func (c *Counter) header(docs []int64) (*Header, []int32) {
	h := &Header{Settings: c.s, Vocab: c.digest}
	ids := make([]int32, 0, len(c.names))
	for k, d := range docs {
		if d > 0 {
			ids = append(ids, int32(k))
		}
	}
	slices.SortFunc(ids, func(a, b int32) int {
		if c.names[a] < c.names[b] {
			return -1
		}
		return 1
	})
	idx := make([]int32, len(c.names))
	for k := range idx {
		idx[k] = -1
	}
	for i, k := range ids {
		h.Classes = append(h.Classes, c.names[k])
		h.ClassDocs = append(h.ClassDocs, docs[k])
		idx[k] = int32(i)
	}
	return h, idx
}

// spill writes the workers' tables to a run on disk and empties them.
func (c *Counter) spill() error {
	f, err := fsutil.CreateTemp(c.opt.TempDir, "nbtext-run-*.nbc")
	if err != nil {
		return fmt.Errorf("spill the count table: %w", err)
	}
	name := f.Name()
	m, err := c.parts(false) // the workers' tables alone
	if err == nil {
		err = m.write(f)
		m.close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	c.runs = append(c.runs, name)
	if err != nil {
		return fmt.Errorf("spill the count table to %s: %w", name, err)
	}
	c.halt(true)
	if len(c.runs) >= maxRuns {
		return c.compact()
	}
	return nil
}

// maxRuns bounds the spilled runs a Counter keeps: when a spill makes
// that many, they are merged into one (compact), so that the files held
// open and the buffers of the merge at the end (64 KiB a run) do not grow
// with the corpus. Merges are exact in any grouping, so the counts are
// the same bits. It is a variable so that tests can lower it.
var maxRuns = 64

// compact merges the spilled runs into one run, and removes them.
func (c *Counter) compact() error {
	f, err := fsutil.CreateTemp(c.opt.TempDir, "nbtext-run-*.nbc")
	if err != nil {
		return fmt.Errorf("merge the spilled runs: %w", err)
	}
	name := f.Name()
	m := &merged{}
	hs, names, err := m.openRuns(c.runs)
	if err == nil {
		if m.h, m.remap, err = MergeHeaders(hs, names); err == nil {
			err = m.write(f)
		}
	}
	m.close()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		fsutil.RemoveTemp(name)
		return fmt.Errorf("merge the spilled runs into %s: %w", name, err)
	}
	for _, r := range c.runs {
		fsutil.RemoveTemp(r)
	}
	c.runs = []string{name}
	return nil
}

// Runs returns the number of runs spilled so far.
func (c *Counter) Runs() int { return len(c.runs) }
