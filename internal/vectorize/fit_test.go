package vectorize

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// row returns row i of m as a map term → value, for readable checks.
func row(v *Vocabulary, m *Matrix, i int) map[string]float32 {
	out := map[string]float32{}
	ind, val := m.Row(i)
	for j, id := range ind {
		out[v.Terms[id]] = val[j]
	}
	return out
}

func checkMatrix(t *testing.T, m *Matrix, rows, cols int) {
	t.Helper()
	if m.Rows() != rows || m.Cols != cols || len(m.Indices) != len(m.Values) || m.Indptr[rows] != len(m.Indices) {
		t.Fatalf("matrix shape: %d rows (want %d), %d cols (want %d), %d indices, %d values, indptr end %d",
			m.Rows(), rows, m.Cols, cols, len(m.Indices), len(m.Values), m.Indptr[rows])
	}
	for i := range rows {
		ind, _ := m.Row(i)
		for j := range ind {
			if ind[j] < 0 || int(ind[j]) >= cols || j > 0 && ind[j] <= ind[j-1] {
				t.Fatalf("row %d: ids not strictly ascending in [0, %d): %v", i, cols, ind)
			}
		}
	}
}

func TestFitCounts(t *testing.T) {
	texts := []string{"aa bb cc", "aa bb", "aa dd", "aa ee EE", "", "x"}
	v, m, err := Fit(texts, nil, 0, DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"aa", "bb", "cc", "dd", "ee"}; !slices.Equal(v.Terms, want) {
		t.Errorf("terms %q, want %q", v.Terms, want)
	}
	if want := []int32{4, 2, 1, 1, 1}; !slices.Equal(v.DF, want) {
		t.Errorf("df %v, want %v", v.DF, want)
	}
	if want := []int64{4, 2, 1, 1, 2}; !slices.Equal(v.CF, want) {
		t.Errorf("cf %v, want %v", v.CF, want)
	}
	if v.NDocs != 6 {
		t.Errorf("NDocs %d, want 6", v.NDocs)
	}
	checkMatrix(t, m, 6, 5)
	if got := row(v, m, 3); !reflect.DeepEqual(got, map[string]float32{"aa": 1, "ee": 2}) {
		t.Errorf("row 3 = %v", got)
	}
	if got := row(v, m, 4); len(got) != 0 {
		t.Errorf("empty document row = %v", got)
	}
	for term, want := range map[string]int32{"aa": 0, "ee": 4} {
		if id, ok := v.Lookup(term); !ok || id != want {
			t.Errorf("Lookup(%q) = %d, %v", term, id, ok)
		}
	}
	if _, ok := v.Lookup("zz"); ok {
		t.Error("Lookup(zz) found")
	}
}

func TestFitPruning(t *testing.T) {
	texts := []string{"aa bb cc", "aa bb", "aa dd", "aa ee ee"}
	tests := []struct {
		name string
		edit func(*Settings)
		want []string
	}{
		{"min-df 2", func(s *Settings) { s.MinDF = 2 }, []string{"aa", "bb"}},
		{"max-df 0.75", func(s *Settings) { s.MaxDF = 0.75 }, []string{"bb", "cc", "dd", "ee"}},
		{"max-df 0.5", func(s *Settings) { s.MaxDF = 0.5 }, []string{"bb", "cc", "dd", "ee"}},
		{"max-df 0.49", func(s *Settings) { s.MaxDF = 0.49 }, []string{"cc", "dd", "ee"}},
		{"max-features 2", func(s *Settings) { s.MaxFeatures = 2 }, []string{"aa", "bb"}},
		// cc, dd and ee tie on df = 1: the first by term wins (not ee,
		// whose cf is 2, as scikit-learn would pick).
		{"max-features 3", func(s *Settings) { s.MaxFeatures = 3 }, []string{"aa", "bb", "cc"}},
		{"max-features 9", func(s *Settings) { s.MaxFeatures = 9 }, []string{"aa", "bb", "cc", "dd", "ee"}},
		// df bounds apply before max-features.
		{"min-df then max-features", func(s *Settings) { s.MaxDF = 0.75; s.MaxFeatures = 2 }, []string{"bb", "cc"}},
	}
	for _, tt := range tests {
		s := DefaultSettings()
		tt.edit(&s)
		v, m, err := Fit(texts, nil, 0, s, 2, nil)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !slices.Equal(v.Terms, tt.want) {
			t.Errorf("%s: terms %q, want %q", tt.name, v.Terms, tt.want)
		}
		checkMatrix(t, m, len(texts), len(tt.want))
		// The matrix holds the kept terms only, with their counts.
		for i, text := range texts {
			want := map[string]float32{}
			for _, w := range strings.Fields(text) {
				if _, ok := slices.BinarySearch(tt.want, w); ok {
					want[w]++
				}
			}
			if got := row(v, m, i); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: row %d = %v, want %v", tt.name, i, got, want)
			}
		}
	}
}

// The example of TestFitSelectMI, worked by hand. n = 4 documents, two per
// class; MI = Σ_c Σ_x P(c,x) ln(P(c,x) / (P(c) P(x))).
//
//	apple  in c0:2 c1:0  MI = ln 2          ≈ 0.6931
//	banana in c0:1 c1:1  MI = 0
//	cherry in c0:1 c1:2  MI = ¾ ln(4/3)     ≈ 0.2158
//	date   in c0:0 c1:1  MI = ¾ ln(4/3)     (ties with cherry)
var miTexts = []string{"apple banana", "apple cherry", "banana cherry", "cherry date"}
var miLabels = []int{0, 0, 1, 1}

func TestMutualInformation(t *testing.T) {
	classDocs := []int{2, 2}
	tests := []struct {
		name string
		cdf  []int32
		want float64
	}{
		{"apple", []int32{2, 0}, math.Ln2},
		{"banana", []int32{1, 1}, 0},
		{"cherry", []int32{1, 2}, 0.75 * math.Log(4.0/3)},
		{"date", []int32{0, 1}, 0.75 * math.Log(4.0/3)},
		{"everywhere", []int32{2, 2}, 0},
	}
	for _, tt := range tests {
		df := int(tt.cdf[0] + tt.cdf[1])
		if got := MutualInformation(tt.cdf, classDocs, df, 4); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("MI(%s) = %.15g, want %.15g", tt.name, got, tt.want)
		}
	}
}

func TestFitSelectMI(t *testing.T) {
	for k, want := range map[int][]string{
		1: {"apple"},
		2: {"apple", "cherry"}, // cherry and date tie: the first by term
		3: {"apple", "cherry", "date"},
		4: {"apple", "banana", "cherry", "date"},
		9: {"apple", "banana", "cherry", "date"},
	} {
		s := DefaultSettings()
		s.Select = "mi:" + string(rune('0'+k))
		v, m, err := Fit(miTexts, miLabels, 2, s, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Terms, want) {
			t.Errorf("mi:%d: terms %q, want %q", k, v.Terms, want)
		}
		checkMatrix(t, m, 4, len(want))
	}
}

func TestFitErrors(t *testing.T) {
	bad := DefaultSettings()
	bad.MinDF = 0
	sel := DefaultSettings()
	sel.Select = "mi:2"
	maxdf := DefaultSettings()
	maxdf.MinDF, maxdf.MaxDF = 3, 0.5
	stop := DefaultSettings()
	stop.StopWords = "english"
	tests := []struct {
		name   string
		texts  []string
		labels []int
		s      Settings
		want   string
	}{
		{"invalid settings", miTexts, nil, bad, "--min-df must be ≥ 1, got 0"},
		{"select without labels", miTexts, nil, sel, "needs a label for each document"},
		{"label out of range", miTexts, []int{0, 1, 2, 0}, sel, "document 2 has label 2, want 0..1"},
		{"max-df below min-df", miTexts, nil, maxdf, "fewer than --min-df 3"},
		{"no tokens", []string{"a b c", "!"}, nil, DefaultSettings(), "empty vocabulary"},
		{"only stop words", []string{"the and of"}, nil, stop, "empty vocabulary"},
		{"no documents", nil, nil, DefaultSettings(), "empty vocabulary"},
	}
	for _, tt := range tests {
		_, _, err := Fit(tt.texts, tt.labels, 2, tt.s, 1, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
	s := DefaultSettings()
	s.MinDF = 5
	if _, _, err := Fit(slices.Repeat([]string{"aa bb", "cc"}, 3), nil, 0, s, 1, nil); err == nil || !strings.Contains(err.Error(), "no terms left") {
		t.Errorf("all pruned: error %v", err)
	}
}

// synthText returns n seeded documents of Zipf-distributed words.
func synthText(seed uint64, n, words int) []string {
	r := rand.New(rand.NewPCG(seed, 7))
	z := rand.NewZipf(r, 1.1, 2, 50000)
	texts := make([]string, n)
	var b strings.Builder
	for i := range texts {
		b.Reset()
		for j := range words {
			if j > 0 {
				b.WriteByte(" \n, "[r.IntN(4)])
			}
			w := z.Uint64()
			if r.IntN(10) == 0 {
				b.WriteString("W") // some upper case
			}
			for {
				b.WriteByte(byte('a' + w%26))
				w /= 26
				if w == 0 {
					break
				}
			}
		}
		texts[i] = b.String()
	}
	return texts
}

func TestFitWorkersDeterministic(t *testing.T) {
	texts := synthText(1, 1500, 60)
	labels := make([]int, len(texts))
	for i := range labels {
		labels[i] = i % 3
	}
	s := DefaultSettings()
	s.NGramMax = 2
	s.MinDF = 2
	s.Select = "mi:3000"
	v1, m1, err := Fit(texts, labels, 3, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	checkMatrix(t, m1, len(texts), v1.Len())
	for _, w := range []int{2, 3, 8} {
		v, m, err := Fit(texts, labels, 3, s, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(v.Terms, v1.Terms) || !slices.Equal(v.DF, v1.DF) || !slices.Equal(v.CF, v1.CF) {
			t.Errorf("workers %d: vocabulary differs from 1 worker", w)
		}
		if !reflect.DeepEqual(m, m1) {
			t.Errorf("workers %d: matrix differs from 1 worker", w)
		}
	}
	if v, err := FitVocabulary(texts, labels, 3, s, 2, nil); err != nil || !slices.Equal(v.Terms, v1.Terms) || !slices.Equal(v.CF, v1.CF) {
		t.Errorf("FitVocabulary differs from Fit: %v", err)
	}
	// Transform gives the same rows as Fit, in order, whatever the workers.
	for _, w := range []int{1, 3} {
		if m := v1.Transform(texts, w); !reflect.DeepEqual(m, m1) {
			t.Errorf("Transform with %d workers differs from Fit's matrix", w)
		}
	}
}

func TestFitProgress(t *testing.T) {
	texts := synthText(2, 5000, 5)
	var calls [][2]int
	_, _, err := Fit(texts, nil, 0, DefaultSettings(), 2, func(done, total int) {
		calls = append(calls, [2]int{done, total})
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) == 0 || calls[len(calls)-1] != [2]int{5000, 5000} {
		t.Fatalf("progress calls %v: want the last to be (5000, 5000)", calls)
	}
	if len(calls) > 10 {
		t.Errorf("%d progress calls for 5000 documents: not throttled", len(calls))
	}
	for i := 1; i < len(calls); i++ {
		if calls[i][0] <= calls[i-1][0] || calls[i][1] != 5000 {
			t.Errorf("progress not increasing: %v", calls)
		}
	}
}

func TestVectorizer(t *testing.T) {
	texts := synthText(3, 300, 40)
	v, m, err := Fit(texts, nil, 0, DefaultSettings(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	z := v.NewVectorizer()
	for i, text := range texts {
		ind, val := z.Vectorize(text)
		wi, wv := m.Row(i)
		if !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
			t.Fatalf("Vectorize(doc %d) = %v %v, want %v %v", i, ind, val, wi, wv)
		}
	}
	ind, val := z.Vectorize("unknownword " + texts[0][:20] + " UNKNOWNWORD")
	if len(ind) == 0 || len(ind) != len(val) {
		t.Errorf("partial document: %v %v", ind, val)
	}
	if ind, _ := z.Vectorize("qqqqqqqqqqqqqqqqqq zzzzzzzzzzzzzzz"); len(ind) != 0 {
		t.Errorf("unknown words only: %v", ind)
	}
}

func TestVectorizerAllocs(t *testing.T) {
	texts := synthText(4, 200, 20)
	v, _, err := Fit(texts, nil, 0, DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	z := v.NewVectorizer()
	for _, text := range texts {
		z.Vectorize(text) // warm up the buffers
	}
	i := 0
	allocs := testing.AllocsPerRun(200, func() {
		ind, val := z.Vectorize(texts[i%len(texts)])
		v.WeightRow(ind, val)
		i++
	})
	if allocs != 0 {
		t.Errorf("Vectorize + WeightRow: %v allocations per document, want 0", allocs)
	}
}

func TestTop(t *testing.T) {
	v, err := NewVocabulary(DefaultSettings(), []string{"a", "b", "c", "d"}, []int32{1, 3, 3, 2}, []int64{1, 3, 5, 2}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := v.Top(0), []int32{1, 2, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("Top(0) = %v, want %v", got, want)
	}
	if got, want := v.Top(2), []int32{1, 2}; !slices.Equal(got, want) {
		t.Errorf("Top(2) = %v, want %v", got, want)
	}
}

func TestNewVocabularyErrors(t *testing.T) {
	s := DefaultSettings()
	if _, err := NewVocabulary(s, []string{"a", "b", "a"}, []int32{1, 1, 1}, []int64{1, 1, 1}, 1); err == nil || !strings.Contains(err.Error(), `"a" appears twice`) {
		t.Errorf("duplicate: %v", err)
	}
	if _, err := NewVocabulary(s, []string{"a"}, []int32{1, 2}, []int64{1}, 1); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := NewVocabulary(s, []string{"a"}, []int32{5}, []int64{5}, 2); err == nil {
		t.Error("df > documents accepted")
	}
	// Ids are positions, in the order given.
	v, err := NewVocabulary(s, []string{"program", "password"}, []int32{1, 1}, []int64{1, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := v.Lookup("password"); id != 1 {
		t.Errorf("Lookup(password) = %d, want 1", id)
	}
}

// TestNewSortedVocabulary: terms out of ascending byte order (a
// duplicate among them) are refused; sorted ones give what NewVocabulary
// gives, indexed on first use.
func TestNewSortedVocabulary(t *testing.T) {
	s := DefaultSettings()
	for _, terms := range [][]string{{"a", "b", "b"}, {"b", "a"}} {
		if _, err := NewSortedVocabulary(s, terms, make([]int32, len(terms)), make([]int64, len(terms)), 1); err == nil || !strings.Contains(err.Error(), "ascending") {
			t.Errorf("%q: %v", terms, err)
		}
	}
	if _, err := NewSortedVocabulary(s, []string{"a"}, []int32{5}, []int64{5}, 2); err == nil {
		t.Error("df > documents accepted")
	}
	terms := []string{"alpha", "beta", "gamma"}
	v, err := NewSortedVocabulary(s, terms, []int32{1, 2, 1}, []int64{1, 3, 1}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.lazy.table != nil {
		t.Error("the index was built before its first use")
	}
	want, _ := NewVocabulary(s, terms, []int32{1, 2, 1}, []int64{1, 3, 1}, 2)
	for i, term := range terms {
		if id, ok := v.Lookup(term); !ok || int(id) != i {
			t.Errorf("Lookup(%q) = %d, %v, want %d", term, id, ok, i)
		}
	}
	if !reflect.DeepEqual(v, want) {
		t.Error("NewSortedVocabulary, indexed, differs from NewVocabulary")
	}
}

func TestLongDocumentInPieces(t *testing.T) {
	// Over longDocument bytes, Fit and Vectorize cut the text at white
	// space: the counts must equal those of the short pieces summed.
	piece := "Alpha beta ΟΔΟΣ ΣΑΣ. gamma_1 x² İx\n"
	text := strings.Repeat(piece, longDocument/len(piece)+50000)
	v, m, err := Fit([]string{text, piece}, nil, 0, DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	reps := float32(strings.Count(text, "\n"))
	want := row(v, m, 1)
	for term, c := range want {
		want[term] = c * reps
	}
	if got := row(v, m, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("Fit of a long document: %v, want %v", got, want)
	}
	ind, val := v.NewVectorizer().Vectorize(text)
	wi, wv := m.Row(0)
	if !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
		t.Errorf("Vectorize of a long document: %v %v, want %v %v", ind, val, wi, wv)
	}
}

func TestSortStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{0, 1, 5, 17, 300, 5000} {
		seen := map[string]bool{}
		var ss []string
		for len(ss) < n {
			// Long shared prefixes, prefixes of each other, multi-byte runes.
			var b strings.Builder
			for range r.IntN(30) {
				b.WriteString([]string{"a", "b", "é", "the comp", "z", " "}[r.IntN(6)])
			}
			if s := b.String(); !seen[s] {
				seen[s] = true
				ss = append(ss, s)
			}
		}
		ids := sortStrings(ss)
		got := make([]string, len(ids))
		for i, id := range ids {
			got[i] = ss[id]
		}
		if !slices.IsSorted(got) || len(got) != len(ss) {
			t.Fatalf("n=%d: not sorted: %q", n, got)
		}
	}
}

func TestVectorizerSortPaths(t *testing.T) {
	// A large vocabulary and rows of 5 to 3000 distinct terms: every way
	// piece sorts (insertion, bit set, comparison sort) must give the
	// ascending ids and counts of a plain count.
	const V = 200000
	terms := make([]string, V)
	for i := range terms {
		terms[i] = fmt.Sprintf("t%06d", i)
	}
	v, err := NewVocabulary(DefaultSettings(), terms, make([]int32, V), make([]int64, V), 1)
	if err != nil {
		t.Fatal(err)
	}
	z := v.NewVectorizer()
	r := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{5, 40, 100, 3000} {
		for _, spread := range []int{200, V} {
			want := map[int32]float32{}
			var b strings.Builder
			for range 2 * n {
				id := int32(r.IntN(min(spread, V)))
				want[id]++
				b.WriteString(terms[id] + " zzunknown ")
			}
			ind, val := z.Vectorize(b.String())
			if len(ind) != len(want) || !slices.IsSorted(ind) {
				t.Fatalf("n=%d spread=%d: %d ids (want %d), sorted %v", n, spread, len(ind), len(want), slices.IsSorted(ind))
			}
			for j, id := range ind {
				if val[j] != want[id] {
					t.Fatalf("n=%d spread=%d: id %d count %v, want %v", n, spread, id, val[j], want[id])
				}
			}
		}
	}
}
