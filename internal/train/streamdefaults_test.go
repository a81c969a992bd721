package train

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestStreamDefaults: streamed, the SVM and NB-LR keep at most
// LogRegMaxFeatures terms; every other setting is Defaults'.
func TestStreamDefaults(t *testing.T) {
	for _, kind := range []model.Kind{model.SVM, model.NBLR, model.LogReg, model.Multinomial} {
		s, p := StreamDefaults(kind)
		ds, dp := Defaults(kind)
		want := ds.MaxFeatures
		if kind == model.SVM || kind == model.NBLR {
			want = LogRegMaxFeatures
		}
		if s.MaxFeatures != want {
			t.Errorf("%s: max features %d, want %d", kind, s.MaxFeatures, want)
		}
		s.MaxFeatures = ds.MaxFeatures
		if s != ds || p.C != dp.C || p.Alpha != dp.Alpha || p.Epochs != dp.Epochs {
			t.Errorf("%s: stream defaults %+v differ from Defaults %+v beyond max features", kind, s, ds)
		}
	}
}

// TestBlockRows: blocks keep the buffer's rows while they fit the bound,
// and shrink to the rows that fit past it, never below one.
func TestBlockRows(t *testing.T) {
	const n, terms = 1000, 10
	X := &vectorize.Matrix{Indptr: []int{0}, Cols: terms}
	y := make([]int, n)
	for range n {
		for j := range terms {
			X.Indices = append(X.Indices, int32(j))
			X.Values = append(X.Values, 1)
		}
		X.Indptr = append(X.Indptr, len(X.Indices))
	}
	rc := cacheOf(t, X, y)
	perRow := int64(16*terms + 16 + 8*3) // 3 problems
	for _, c := range []struct {
		buffer int
		bytes  int64
		want   int
	}{
		{64, 1 << 30, 64},
		{5000, 1 << 30, 5000},
		{500, 100 * perRow, 100},
		{500, 100*perRow + perRow - 1, 100},
		{500, 1, 1},
	} {
		if got := blockRows(rc, c.buffer, 3, c.bytes); got != c.want {
			t.Errorf("buffer %d, %d bytes: %d rows, want %d", c.buffer, c.bytes, got, c.want)
		}
	}
}

// TestStreamCap: the SVM's cap is cleared from a vocabulary it did not
// trim, noted on one it did, and other kinds' settings stay.
func TestStreamCap(t *testing.T) {
	s, _ := StreamDefaults(model.SVM)
	v, err := vectorize.NewVocabulary(s, []string{"a", "b"}, []int32{2, 3}, []int64{2, 3}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if msg := StreamCap(model.LogReg, v); msg != "" || v.Settings.MaxFeatures != LogRegMaxFeatures {
		t.Errorf("logreg: max features %d, note %q, want the cap kept, no note", v.Settings.MaxFeatures, msg)
	}
	if msg := StreamCap(model.SVM, v); msg != "" || v.Settings.MaxFeatures != 0 {
		t.Errorf("svm, 2 terms: max features %d, note %q, want 0, no note", v.Settings.MaxFeatures, msg)
	}
	terms := make([]string, LogRegMaxFeatures)
	df, cf := make([]int32, len(terms)), make([]int64, len(terms))
	for i := range terms {
		terms[i] = fmt.Sprintf("t%07d", i)
		df[i], cf[i] = 1, 1
	}
	if v, err = vectorize.NewVocabulary(s, terms, df, cf, 1); err != nil {
		t.Fatal(err)
	}
	if msg := StreamCap(model.NBLR, v); !strings.Contains(msg, "--max-features 0") || v.Settings.MaxFeatures != LogRegMaxFeatures {
		t.Errorf("nblr, %d terms: max features %d, note %q, want the cap kept and noted", len(terms), v.Settings.MaxFeatures, msg)
	}
}
