package train

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// cacheOf writes the rows of X with labels y to a new RowCache.
func cacheOf(t testing.TB, X *vectorize.Matrix, y []int) *RowCache {
	t.Helper()
	rc, err := NewRowCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rc.Close() })
	for i := range y {
		ind, val := X.Row(i)
		if err := rc.Add(y[i], ind, val); err != nil {
			t.Fatal(err)
		}
	}
	return rc
}

func TestRowCacheRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	X := &vectorize.Matrix{Indptr: []int{0}, Cols: 1 << 20}
	var y []int
	for i := 0; i < 500; i++ {
		k := r.IntN(40) // some rows empty
		ids := map[int32]bool{}
		for range k {
			ids[int32(r.IntN(X.Cols))] = true
		}
		ind := make([]int32, 0, len(ids))
		for t := range ids {
			ind = append(ind, t)
		}
		slices.Sort(ind)
		for _, t := range ind {
			X.Indices = append(X.Indices, t)
			X.Values = append(X.Values, float32(r.NormFloat64()*1e3))
		}
		X.Indptr = append(X.Indptr, len(X.Indices))
		y = append(y, r.IntN(300))
	}
	rc := cacheOf(t, X, y)
	for pass := 0; pass < 2; pass++ {
		i := 0
		err := rc.Each(func(label int, ind []int32, val []float32) error {
			wi, wv := X.Row(i)
			if label != y[i] || !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
				t.Fatalf("pass %d row %d: got %d %v %v, want %d %v %v", pass, i, label, ind, val, y[i], wi, wv)
			}
			i++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if i != len(y) {
			t.Fatalf("pass %d: %d rows, want %d", pass, i, len(y))
		}
	}
	// Chunks in reverse: each chunk's rows in order.
	var order, want []int
	for k := rc.Chunks() - 1; k >= 0; k-- {
		order = append(order, k)
		for i := k * 64; i < min(len(y), (k+1)*64); i++ {
			want = append(want, i)
		}
	}
	i := 0
	err := rc.EachChunk(order, func(label int, ind []int32, _ []float32) error {
		wi, _ := X.Row(want[i])
		if label != y[want[i]] || !slices.Equal(ind, wi) {
			t.Fatalf("chunk read %d: got row %d %v, want row %d", i, label, ind, want[i])
		}
		i++
		return nil
	})
	if err != nil || i != len(y) {
		t.Fatalf("chunk reads: %d rows, err %v", i, err)
	}
	if err := rc.Add(0, nil, nil); err == nil {
		t.Error("Add after Each succeeded")
	}
	if err := rc.Add(0, []int32{3, 3}, []float32{1, 1}); err == nil {
		t.Error("Add of repeated term ids succeeded")
	}
}

// TestRowCacheRemoved: the cache leaves no file behind.
func TestRowCacheRemoved(t *testing.T) {
	dir := t.TempDir()
	rc, err := NewRowCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := rc.Add(1, []int32{2}, []float32{3}); err != nil {
		t.Fatal(err)
	}
	if err := rc.Close(); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// TestStreamMatchesInMemory: with a buffer that holds every row, the
// streamed fit visits the rows as FitLogReg does and gives the same
// weights, to the bit; with a small buffer it shuffles within blocks and
// its accuracy stays close.
func TestStreamMatchesInMemory(t *testing.T) {
	s := makeSkewed(t, 3000, 60, 4, 2, 0.1, 7)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	for _, pen := range []string{"l2", "l1"} {
		p := lrParams("sgd", pen, 10, 8)
		mem, err := FitLogReg(X, s.Y, s.Classes, vocab, p, Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		rc := cacheOf(t, X, s.Y)
		st, err := FitLogRegStream(rc, s.Classes, vocab, p, Options{Workers: 1}, len(s.Y)+5)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(mem.W, st.W) || !slices.Equal(mem.B, st.B) {
			t.Errorf("%s: streamed weights differ from in-memory ones", pen)
		}
		small, err := FitLogRegStream(rc, s.Classes, vocab, p, Options{}, 256)
		if err != nil {
			t.Fatal(err)
		}
		am, as := Accuracy(mem, X, s.Y, 1), Accuracy(small, X, s.Y, 1)
		t.Logf("%s: accuracy in memory %.4f, streamed with 256-row buffer %.4f", pen, am, as)
		if as < am-0.02 {
			t.Errorf("%s: streamed accuracy %.4f is not within 2 points of %.4f", pen, as, am)
		}
	}
}

// TestStreamSortedByLabel: a corpus sorted by label (as folders and
// archives are read) still trains well with a buffer far smaller than the
// corpus, since blocks gather chunks from across the cache.
func TestStreamSortedByLabel(t *testing.T) {
	s := makeSkewed(t, 4000, 60, 8, 1, 0.1, 3)
	X, vocab := s.weighted(t, "tfidf", true, "l2")
	idx := make([]int, len(s.Y))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return s.Y[a] - s.Y[b] })
	Xs := X.Subset(idx)
	ys := make([]int, len(idx))
	for i, j := range idx {
		ys[i] = s.Y[j]
	}
	p := lrParams("sgd", "l2", 10, 8)
	mem, err := FitLogReg(Xs, ys, s.Classes, vocab, p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := FitLogRegStream(cacheOf(t, Xs, ys), s.Classes, vocab, p, Options{}, 256)
	if err != nil {
		t.Fatal(err)
	}
	am, as := Accuracy(mem, Xs, ys, 1), Accuracy(st, Xs, ys, 1)
	t.Logf("sorted by label: accuracy in memory %.4f, streamed with 256-row buffer %.4f", am, as)
	if as < am-0.02 {
		t.Errorf("streamed accuracy %.4f is not within 2 points of %.4f", as, am)
	}
}
