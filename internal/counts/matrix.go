package counts

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nbtext/nbtext/internal/vectorize"
)

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
