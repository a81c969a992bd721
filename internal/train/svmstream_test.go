package train

import (
	"math"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// streamFitters are the in-memory and streamed fits of the dual-solver
// kinds.
var streamFitters = []struct {
	kind   model.Kind
	mem    func(*vectorize.Matrix, []int, []string, *vectorize.Vocabulary, model.Params, Options) (*model.Model, error)
	stream func(*RowCache, []string, *vectorize.Vocabulary, model.Params, Options, int) (*model.Model, error)
}{
	{model.SVM, FitSVM, FitSVMStream},
	{model.NBLR, FitNBLR, FitNBLRStream},
}

// sameModel reports whether two linear models have the same weights and
// biases, bit for bit.
func sameModel(a, b *model.Model) bool {
	eq := func(x, y []float64) bool {
		return slices.EqualFunc(x, y, func(u, v float64) bool { return math.Float64bits(u) == math.Float64bits(v) })
	}
	return eq(a.W, b.W) && eq(a.B, b.B) && a.Params.Temperature == b.Params.Temperature
}

// TestDualStreamOneBlock: a buffer that holds every row gives the
// in-memory model bit for bit, for two classes (one problem) and five,
// on any number of workers.
func TestDualStreamOneBlock(t *testing.T) {
	for _, nc := range []int{2, 5} {
		s := makeSynthetic(t, 300, 80, nc, 0.5, 11)
		X, vocab := s.weighted(t, "tfidf", true, "l2")
		for _, f := range streamFitters {
			_, p := Defaults(f.kind)
			want, err := f.mem(X, s.Y, s.Classes, vocab, p, Options{Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			rc := cacheOf(t, X, s.Y)
			for _, workers := range []int{1, 3} {
				got, err := f.stream(rc, s.Classes, vocab, p, Options{Workers: workers}, 0)
				if err != nil {
					t.Fatal(err)
				}
				if !sameModel(got, want) {
					t.Errorf("%s, %d classes, %d workers: the streamed model differs from the in-memory one", f.kind, nc, workers)
				}
			}
		}
	}
}

// TestDualStreamBlocks: with blocks of a few rows (sizes that do and do
// not divide the 64 rows of a cache chunk) the streamed fit converges to
// nearly the in-memory model: the decisions on held-out documents agree
// and its accuracy is within two points; it is deterministic for a seed
// and does not depend on the workers.
func TestDualStreamBlocks(t *testing.T) {
	s := makeSynthetic(t, 900, 120, 4, 0.35, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	train, test := make([]int, 600), make([]int, 300)
	for i := range train {
		train[i] = i
	}
	for i := range test {
		test[i] = 600 + i
	}
	Xtr, Xte := X.Subset(train), X.Subset(test)
	ytr, yte := s.Y[:600], s.Y[600:]
	for _, f := range streamFitters {
		_, p := Defaults(f.kind)
		mem, err := f.mem(Xtr, ytr, s.Classes, vocab, p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		memAcc := Accuracy(mem, Xte, yte, 1)
		rc := cacheOf(t, Xtr, ytr)
		for _, buffer := range []int{37, 50, 128} {
			a, err := f.stream(rc, s.Classes, vocab, p, Options{Workers: 1}, buffer)
			if err != nil {
				t.Fatal(err)
			}
			b, err := f.stream(rc, s.Classes, vocab, p, Options{Workers: 3}, buffer)
			if err != nil {
				t.Fatal(err)
			}
			if !sameModel(a, b) {
				t.Errorf("%s, buffer %d: the model depends on the workers", f.kind, buffer)
			}
			if sameModel(a, mem) {
				t.Errorf("%s, buffer %d: blocks gave the in-memory model bit for bit: were they used?", f.kind, buffer)
			}
			acc := Accuracy(a, Xte, yte, 1)
			agree := 0
			for i := range yte {
				ind, val := Xte.Row(i)
				if argmax(a.NewScorer().Scores(ind, val)) == argmax(mem.NewScorer().Scores(ind, val)) {
					agree++
				}
			}
			t.Logf("%s buffer %d: accuracy %.4f (in memory %.4f), %d/%d decisions agree", f.kind, buffer, acc, memAcc, agree, len(yte))
			if math.Abs(acc-memAcc) > 0.02 || agree < len(yte)*95/100 {
				t.Errorf("%s, buffer %d: accuracy %.4f against %.4f in memory, %d of %d decisions agree", f.kind, buffer, acc, memAcc, agree, len(yte))
			}
		}
	}
}

// TestDualStreamTemperature: a given temperature multiplies the weights as
// the in-memory fit's does; with none the model scores at temperature 1.
func TestDualStreamTemperature(t *testing.T) {
	s := makeSynthetic(t, 200, 50, 3, 0.5, 2)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	rc := cacheOf(t, X, s.Y)
	_, p := Defaults(model.SVM)
	plain, err := FitSVMStream(rc, s.Classes, vocab, p, Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	p.Temperature = 2
	hot, err := FitSVMStream(rc, s.Classes, vocab, p, Options{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if hot.Params.Temperature != 2 || plain.Params.Temperature != 0 {
		t.Errorf("temperatures %v and %v, want 2 and 0", hot.Params.Temperature, plain.Params.Temperature)
	}
	for i, w := range plain.W {
		if hot.W[i] != 2*w {
			t.Fatalf("weight %d: %v at temperature 2, %v at 1", i, hot.W[i], w)
		}
	}
}

// TestBlockPartition: the blocks hold every row of the cache once, in
// blocks of the buffer's size (the last may be smaller), and the
// permutation that places them is a bijection.
func TestBlockPartition(t *testing.T) {
	const n = 301
	X := &vectorize.Matrix{Indptr: []int{0}, Cols: n}
	y := make([]int, n)
	for i := range n {
		X.Indices = append(X.Indices, int32(i)) // row i holds term i alone
		X.Values = append(X.Values, 1)
		X.Indptr = append(X.Indptr, len(X.Indices))
	}
	rc := cacheOf(t, X, y)
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	for _, buffer := range []int{1, 37, 64, 100, 300, 301, 1000} {
		bs, err := newBlockSolver(rc, buffer, 2, perm, model.Params{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		seen := make([]int, n)
		off := 0
		for _, b := range bs.blocks {
			if b.off != off || b.rows != min(buffer, n-off) {
				t.Fatalf("buffer %d: block at %d of %d rows, want at %d and %d", buffer, b.off, b.rows, off, min(buffer, n-off))
			}
			off += b.rows
			if err := bs.load(b); err != nil {
				t.Fatal(err)
			}
			if bs.X.Rows() != b.rows || len(bs.a) != 2*b.rows {
				t.Fatalf("buffer %d: %d rows and %d α loaded, want %d rows", buffer, bs.X.Rows(), len(bs.a), b.rows)
			}
			for _, term := range bs.X.Indices {
				seen[term]++
			}
		}
		bs.close()
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("buffer %d: row %d in %d blocks", buffer, i, c)
			}
		}
	}
	for _, m := range []int{1, 2, 3, 5, 64, 1000, 4097} {
		pi := newRowPerm(m, 9)
		hit := make([]bool, m)
		moved := 0
		for i := range m {
			j := pi.at(i)
			if j < 0 || j >= m || hit[j] {
				t.Fatalf("rowPerm(%d): %d -> %d, not a bijection", m, i, j)
			}
			hit[j] = true
			if j != i {
				moved++
			}
		}
		if m >= 64 && moved < m/2 {
			t.Errorf("rowPerm(%d) moves %d rows only", m, moved)
		}
	}
}

// TestDualStreamSortedCorpus: a corpus sorted by label still converges in
// a few outer iterations with small blocks (the blocks take their rows
// from all over the cache, not from runs of one label), to the in-memory
// accuracy.
func TestDualStreamSortedCorpus(t *testing.T) {
	s := makeSynthetic(t, 4000, 2000, 5, 0.2, 5)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	idx := make([]int, len(s.Y))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return s.Y[a] - s.Y[b] })
	y := make([]int, len(idx))
	for i, j := range idx {
		y[i] = s.Y[j]
	}
	X = X.Subset(idx)
	_, p := Defaults(model.SVM)
	mem, err := FitSVM(X, y, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rc := cacheOf(t, X, y)
	iters := 0
	opt := Options{Progress: func(done, total int) {
		if done < total {
			iters = done
		}
	}}
	m, err := FitSVMStream(rc, s.Classes, vocab, p, opt, 200)
	if err != nil {
		t.Fatal(err)
	}
	a, b := Accuracy(m, X, y, 1), Accuracy(mem, X, y, 1)
	t.Logf("20 blocks of a sorted corpus: %d outer iterations, training accuracy %.4f (in memory %.4f)", iters, a, b)
	if iters > 20 || math.Abs(a-b) > 0.01 {
		t.Errorf("20 blocks of a sorted corpus: %d outer iterations, training accuracy %.4f against %.4f in memory", iters, a, b)
	}
}
