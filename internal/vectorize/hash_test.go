package vectorize

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestHashTermVectors pins HashTerm to XXH64 (seed 0) by the published
// test vectors: model files depend on it, so it must never change.
func TestHashTermVectors(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
	}{
		{"", 0xef46db3751d8e999},
		{"a", 0xd24ec4f1a98c6e5b},
		{"abc", 0x44bc2cf5ad770999},
		{"abcd", 0xde0327b0d25d92cc},
		{"abcdefgh", 0x3ad351775b4634b7},
		{"abcdefghij", 0xd6287a1de5498bb2},
		{"abcdefghijklmnop", 0x71ce8137ca2dd53d},
		{"abcdefghijklmnopqrstuvwxyz01234", 0x16058c7b947da137},
		{"abcdefghijklmnopqrstuvwxyz012345", 0xbf2cd639b4143b80},
		{"abcdefghijklmnopqrstuvwxyz0123456789", 0x64f23ecf1609b766},
		{"Call me Ishmael. Some years ago--never mind how long precisely-", 0x02a2e85470d6fd96},
	} {
		if got := HashTerm(tc.in); got != tc.want {
			t.Errorf("HashTerm(%q) = %#016x, want %#016x", tc.in, got, tc.want)
		}
	}
}

func TestBucketName(t *testing.T) {
	for _, tc := range []struct {
		k    uint64
		bits int
		want string
	}{
		{0, 1, "~0"}, {1, 1, "~1"}, {15, 4, "~f"}, {16, 5, "~10"}, {0xa3f1, 18, "~0a3f1"}, {1<<28 - 1, 28, "~fffffff"},
	} {
		if got := BucketName(tc.k, tc.bits); got != tc.want {
			t.Errorf("BucketName(%d, %d) = %q, want %q", tc.k, tc.bits, got, tc.want)
		}
		if k, ok := ParseBucketName(tc.want, tc.bits); !ok || k != tc.k {
			t.Errorf("ParseBucketName(%q, %d) = %d, %v", tc.want, tc.bits, k, ok)
		}
	}
	for _, bad := range []string{"0a3f1", "~a3f1", "~0A3F1", "~0a3f1x", "~4ffff", "~"} {
		if _, ok := ParseBucketName(bad, 18); ok {
			t.Errorf("ParseBucketName(%q, 18) accepted", bad)
		}
	}
}

func TestHashBitsValidate(t *testing.T) {
	for _, b := range []int{-1, MaxHashBits + 1, 64} {
		s := DefaultSettings()
		s.HashBits = b
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), "--hash-bits must be in 1..28") {
			t.Errorf("HashBits %d: error %v", b, err)
		}
	}
	for _, b := range []int{0, 1, 18, MaxHashBits} {
		s := DefaultSettings()
		s.HashBits = b
		if err := s.Validate(); err != nil {
			t.Errorf("HashBits %d: %v", b, err)
		}
	}
}

// prehash returns texts with each term (as s tokenizes them, n-grams and
// field terms included) replaced by its bucket's hexadecimal digits: a
// corpus that unhashed unigram settings read as the buckets of texts.
func prehash(texts []string, s Settings) []string {
	tok := NewTokenizer(s)
	out := make([]string, len(texts))
	for i, text := range texts {
		var b strings.Builder
		for _, term := range tok.Terms(text) {
			b.WriteString(strings.TrimPrefix(BucketName(Bucket(term, s.HashBits), s.HashBits), BucketPrefix))
			b.WriteByte(' ')
		}
		out[i] = b.String()
	}
	return out
}

// plain are the settings that read prehash's output as it is.
func plain(s Settings) Settings {
	p := DefaultSettings()
	p.Lowercase = false
	p.MinDF, p.MaxDF, p.MaxFeatures, p.Select = s.MinDF, s.MaxDF, s.MaxFeatures, s.Select
	p.Weighting, p.Norm, p.Sublinear = s.Weighting, s.Norm, s.Sublinear
	return p
}

// TestFitHashedMatchesPrehashed checks Fit with HashBits against Fit
// without it on the pre-hashed tokens: the same buckets, document
// frequencies, counts and rows, whatever the tokenizer settings and the
// pruning, which act on buckets.
func TestFitHashedMatchesPrehashed(t *testing.T) {
	texts := synthText(3, 600, 50)
	for i := 0; i < len(texts); i += 7 {
		texts[i] = "Subject: Space the final frontier\nFrom: a@b\n\n" + texts[i]
	}
	labels := make([]int, len(texts))
	for i := range labels {
		labels[i] = i % 3
	}
	for name, s := range fitSettings() {
		for _, b := range []int{6, 12} {
			s.HashBits = b
			t.Run(fmt.Sprintf("%s/%d", name, b), func(t *testing.T) {
				hv, hm, err := Fit(texts, labels, 3, s, 2, nil)
				if err != nil {
					t.Fatal(err)
				}
				pv, pm, err := Fit(prehash(texts, s), labels, 3, plain(s), 1, nil)
				if err != nil {
					t.Fatal(err)
				}
				want := make([]string, len(pv.Terms))
				for i, term := range pv.Terms {
					want[i] = BucketPrefix + term
				}
				if !slices.Equal(hv.Terms, want) {
					t.Fatalf("buckets %d, want %d: %q…", len(hv.Terms), len(want), hv.Terms[:min(5, len(hv.Terms))])
				}
				if !slices.Equal(hv.DF, pv.DF) || !slices.Equal(hv.CF, pv.CF) {
					t.Errorf("df or cf differ")
				}
				if !slices.Equal(hm.Indptr, pm.Indptr) || !slices.Equal(hm.Indices, pm.Indices) || !slices.Equal(hm.Values, pm.Values) {
					t.Errorf("count matrices differ")
				}
				if len(hv.Terms) > 1<<b {
					t.Errorf("%d buckets, more than 2^%d", len(hv.Terms), b)
				}
				// The per-document path gives Fit's rows.
				z := hv.NewVectorizer()
				for i := 0; i < len(texts); i += 37 {
					ind, val := z.Vectorize(texts[i])
					wi, wv := hm.Row(i)
					if !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
						t.Fatalf("Vectorize(text %d) differs from Fit's row", i)
					}
				}
			})
		}
	}
}

// TestHashCollisionsMergeCounts checks, with 2 buckets, that each
// bucket's count in a row is exactly the sum of its terms' counts, and
// that the names kept are the bucket's most frequent terms with their
// exact occurrences.
func TestHashCollisionsMergeCounts(t *testing.T) {
	texts := []string{"alpha beta gamma alpha", "delta alpha epsilon zeta eta theta", "beta beta iota"}
	s := DefaultSettings()
	s.HashBits = 1
	v, m, err := Fit(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	tok := NewTokenizer(s)
	total := map[string]map[string]int64{} // bucket → term → occurrences
	for i, text := range texts {
		want := map[string]float32{}
		for _, term := range tok.Terms(text) {
			name := BucketName(Bucket(term, 1), 1)
			want[name]++
			if total[name] == nil {
				total[name] = map[string]int64{}
			}
			total[name][term]++
		}
		if got := row(v, m, i); !maps.Equal(got, want) {
			t.Errorf("row %d = %v, want %v", i, got, want)
		}
	}
	if len(v.Names) != len(v.Terms) {
		t.Fatalf("%d name lists for %d buckets", len(v.Names), len(v.Terms))
	}
	for id, bucket := range v.Terms {
		var want []TermCount
		for term, n := range total[bucket] {
			want = append(want, TermCount{term, n})
		}
		sortNames(want)
		want = want[:min(len(want), MaxBucketNames)]
		if !slices.Equal(v.Names[id], want) {
			t.Errorf("names of %s = %v, want %v", bucket, v.Names[id], want)
		}
		if err := CheckNames(v.Names, len(v.Terms)); err != nil {
			t.Error(err)
		}
	}
	if got := v.DisplayName(0); !strings.HasPrefix(got, v.Terms[0]+" (") || !strings.Contains(got, v.Names[0][0].Term) {
		t.Errorf("DisplayName(0) = %q", got)
	}
}

// TestHashedVocabularyBounded checks that the vocabulary, and so the
// model, is bounded by 2^HashBits buckets however many terms the corpus
// holds.
func TestHashedVocabularyBounded(t *testing.T) {
	texts := synthText(5, 2000, 80)
	s := DefaultSettings()
	full, err := FitVocabulary(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.HashBits = 10
	v, err := FitVocabulary(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if full.Len() <= 1<<10 || v.Len() > 1<<10 {
		t.Errorf("%d terms hashed into %d buckets of 2^10", full.Len(), v.Len())
	}
	for _, ns := range v.Names {
		if len(ns) == 0 || len(ns) > MaxBucketNames {
			t.Fatalf("a bucket has %d names", len(ns))
		}
	}
}

// TestFitStreamHashed checks that FitStream hashes as Fit does.
func TestFitStreamHashed(t *testing.T) {
	texts := synthText(9, 700, 40)
	s := DefaultSettings()
	s.HashBits = 8
	s.NGramMax = 2
	s.MinDF = 2
	wv, wm, err := Fit(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFitStream(s, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range texts {
		f.Add(x)
	}
	v, m, err := f.Finish(nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(v.Terms, wv.Terms) || !slices.Equal(v.DF, wv.DF) || !slices.Equal(m.Indices, wm.Indices) || !slices.Equal(m.Values, wm.Values) {
		t.Error("FitStream and Fit differ under hashing")
	}
}

// TestBucketNamesExact: with many terms per bucket, the names are the
// bucket's most frequent terms with their exact occurrences (the corpus
// frequencies of an unhashed Fit), whatever the number of workers.
func TestBucketNamesExact(t *testing.T) {
	texts := synthText(4, 900, 40)
	s := DefaultSettings()
	full, err := FitVocabulary(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.HashBits = 5
	want := map[string][]TermCount{}
	for id, term := range full.Terms {
		b := BucketName(Bucket(term, 5), 5)
		want[b] = append(want[b], TermCount{term, full.CF[id]})
	}
	for _, workers := range []int{1, 3} {
		v, err := FitVocabulary(texts, nil, 0, s, workers, nil)
		if err != nil {
			t.Fatal(err)
		}
		for id, b := range v.Terms {
			w := want[b]
			sortNames(w)
			if len(w) <= MaxBucketNames || !slices.Equal(v.Names[id], w[:MaxBucketNames]) {
				t.Fatalf("%d workers: bucket %s of %d terms named %v, want %v", workers, b, len(w), v.Names[id], w[:min(len(w), MaxBucketNames)])
			}
		}
	}
}

// TestLocalNames: one worker's names by local bucket id are every term
// it counted in the bucket, most frequent first, and their top ones
// (TopNames) are Fit's with one worker.
func TestLocalNames(t *testing.T) {
	texts := synthText(6, 300, 30)
	s := DefaultSettings()
	s.HashBits = 6
	s.StopWords = "english"
	w := newFitWorker(s, 0)
	w.process(&batch{}, texts)
	local := w.localNames()
	v, err := FitVocabulary(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(local) != len(v.Terms) {
		t.Fatalf("%d local buckets, Fit has %d", len(local), len(v.Terms))
	}
	more := 0
	for id, name := range w.table.terms {
		k := slices.Index(v.Terms, name)
		all := slices.Clone(local[id])
		if len(all) > MaxBucketNames {
			more++
		}
		if k < 0 || !slices.Equal(TopNames(all), v.Names[k]) || !slices.IsSortedFunc(local[id], func(a, b TermCount) int { return cmp.Compare(b.Count, a.Count) }) {
			t.Errorf("bucket %s: local names %v, Fit's %v", name, local[id], v.Names[max(k, 0)])
		}
	}
	if more == 0 {
		t.Error("no bucket holds more than MaxBucketNames terms: the test checks nothing of them")
	}
	if (&fitWorker{}).localNames() != nil {
		t.Error("names without hashing")
	}
}
