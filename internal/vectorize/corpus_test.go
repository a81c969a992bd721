package vectorize_test

import (
	"os"
	"reflect"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// trainTexts reads the 20 Newsgroups bydate train split (headers kept)
// from NBTEXT_20NEWS_TARBALL, or skips the test.
func trainTexts(tb testing.TB) *corpus.Corpus {
	tb.Helper()
	path := os.Getenv("NBTEXT_20NEWS_TARBALL")
	if path == "" {
		tb.Skip("NBTEXT_20NEWS_TARBALL is not set: no 20 Newsgroups corpus to test on (make test sets it when ../shared/data/20news-bydate.tar.gz exists)")
	}
	c, err := corpus.Read(path, corpus.Options{Split: "train"})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestFit20Newsgroups checks the default vocabulary of the train split
// against scikit-learn 1.2's CountVectorizer().fit_transform on the same
// documents: 130,107 terms, 1,787,565 non-zeros, and a few frequencies.
func TestFit20Newsgroups(t *testing.T) {
	c := trainTexts(t)
	texts := c.Texts()
	if len(texts) != 11314 {
		t.Fatalf("%d training documents, want 11314", len(texts))
	}
	v, m, err := vectorize.Fit(texts, nil, 0, vectorize.DefaultSettings(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 130107 {
		t.Errorf("default vocabulary has %d terms, want scikit-learn's 130107", v.Len())
	}
	if nnz := len(m.Indices); nnz != 1787565 {
		t.Errorf("count matrix has %d non-zeros, want scikit-learn's 1787565", nnz)
	}
	for _, want := range []struct {
		term   string
		df, cf int64
	}{
		{"00", 471, 1534}, {"__", 206, 654}, {"from", 11314, 22670},
		{"the", 10559, 146532}, {"zz", 15, 31}, {"ñaustin", 2, 2}, {"ýé", 3, 3},
	} {
		id, ok := v.Lookup(want.term)
		if !ok {
			t.Errorf("term %q missing", want.term)
			continue
		}
		if int64(v.DF[id]) != want.df || v.CF[id] != want.cf {
			t.Errorf("%q: df %d cf %d, want %d %d", want.term, v.DF[id], v.CF[id], want.df, want.cf)
		}
	}
	if top := v.Top(5); v.Terms[top[0]] != "from" || v.Terms[top[1]] != "subject" || v.Terms[top[4]] != "the" {
		t.Errorf("top terms %q %q … %q", v.Terms[top[0]], v.Terms[top[1]], v.Terms[top[4]])
	}
	v1, m1, err := vectorize.Fit(texts, nil, 0, vectorize.DefaultSettings(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v1.Terms, v.Terms) || !reflect.DeepEqual(m1, m) {
		t.Error("one worker gives another result than all cores")
	}
}

// TestSelectMI20Newsgroups keeps the 2,000 terms most informative of the
// class: the group names and their jargon should be among them.
func TestSelectMI20Newsgroups(t *testing.T) {
	c := trainTexts(t)
	s := vectorize.DefaultSettings()
	s.Select = "mi:2000"
	v, m, err := vectorize.Fit(c.Texts(), c.LabelIDs(), len(c.Labels), s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 2000 || m.Cols != 2000 {
		t.Fatalf("%d terms, %d columns, want 2000", v.Len(), m.Cols)
	}
	for _, term := range []string{"windows", "god", "hockey", "space", "israel", "dod"} {
		if _, ok := v.Lookup(term); !ok {
			t.Errorf("%q not among the 2000 most informative terms", term)
		}
	}
}

func corpusBytes(texts []string) int64 {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return int64(n)
}

// BenchmarkFit20Newsgroups measures Fit with the default settings on the
// train split (11,314 documents, 22 MB) with all cores; reading the
// corpus is outside the timer.
func BenchmarkFit20Newsgroups(b *testing.B) {
	texts := trainTexts(b).Texts()
	b.SetBytes(corpusBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := vectorize.Fit(texts, nil, 0, vectorize.DefaultSettings(), 0, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkTokenize20Newsgroups measures the tokenizer alone on the train
// split, on one core.
func BenchmarkTokenize20Newsgroups(b *testing.B) {
	texts := trainTexts(b).Texts()
	tok := vectorize.NewTokenizer(vectorize.DefaultSettings())
	b.SetBytes(corpusBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			tok.Terms(t)
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkVectorize20Newsgroups measures the predict path (Vectorize and
// tf-idf WeightRow) over the train documents, on one core, against their
// own vocabulary.
func BenchmarkVectorize20Newsgroups(b *testing.B) { benchVectorize(b, 0) }

// benchVectorize measures the predict path (Vectorize and WeightRow of
// every train document) of a tf-idf vocabulary of the train split, with
// hashBits buckets (0: none).
func benchVectorize(b *testing.B, hashBits int) {
	texts := trainTexts(b).Texts()
	s := vectorize.DefaultSettings()
	s.Weighting, s.Norm, s.HashBits = "tfidf", "l2", hashBits
	v, _, err := vectorize.Fit(texts, nil, 0, s, 0, nil)
	if err != nil {
		b.Fatal(err)
	}
	z := v.NewVectorizer()
	b.SetBytes(corpusBytes(texts))
	b.ReportAllocs()
	for b.Loop() {
		for _, t := range texts {
			v.WeightRow(z.Vectorize(t))
		}
	}
	b.ReportMetric(float64(len(texts)*b.N)/b.Elapsed().Seconds(), "docs/s")
}
