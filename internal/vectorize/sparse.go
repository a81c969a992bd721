package vectorize

// Matrix is a sparse document-term matrix in compressed sparse row form.
// Row i holds the term ids Indices[Indptr[i]:Indptr[i+1]] in ascending order
// and their values Values[Indptr[i]:Indptr[i+1]] (counts, 1 for binary, or
// tf-idf weights, depending on the weighting applied). Cols is the vocabulary
// size. Values are float32: counts are exact up to 2²⁴ per document and term.
type Matrix struct {
	Indptr  []int
	Indices []int32
	Values  []float32
	Cols    int
}

// Rows returns the number of documents in m.
func (m *Matrix) Rows() int { return len(m.Indptr) - 1 }

// Row returns the term ids and values of document i. The slices alias m.
func (m *Matrix) Row(i int) ([]int32, []float32) {
	a, b := m.Indptr[i], m.Indptr[i+1]
	return m.Indices[a:b], m.Values[a:b]
}

// Subset returns a new matrix holding the given rows of m, in the given
// order. Its slices are copies.
func (m *Matrix) Subset(rows []int) *Matrix {
	nnz := 0
	for _, r := range rows {
		nnz += m.Indptr[r+1] - m.Indptr[r]
	}
	out := &Matrix{
		Indptr:  make([]int, 1, len(rows)+1),
		Indices: make([]int32, 0, nnz),
		Values:  make([]float32, 0, nnz),
		Cols:    m.Cols,
	}
	for _, r := range rows {
		ind, val := m.Row(r)
		out.Indices = append(out.Indices, ind...)
		out.Values = append(out.Values, val...)
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	return out
}
