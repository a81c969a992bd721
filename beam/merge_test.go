package nbbeam

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
)

// parts returns the counts of three small sets of documents.
func parts(t *testing.T) []*counts.Counts {
	t.Helper()
	s, err := Settings(model.Bernoulli, "", "")
	if err != nil {
		t.Fatal(err)
	}
	return []*counts.Counts{
		inProcess(t, s, nil, genDocs(21, 40, []string{"a", "b"}, false)),
		inProcess(t, s, nil, genDocs(22, 30, []string{"b", "c"}, false)),
		inProcess(t, s, nil, genDocs(23, 1, []string{"d"}, false)),
	}
}

// TestMergeFnGrouping: however the runner adds inputs and merges
// accumulators, through the accumulator coder or not, the output is the
// bytes of counts.Merge.
func TestMergeFnGrouping(t *testing.T) {
	ps := parts(t)
	whole, err := counts.Merge(ps, []string{"1", "2", "3"})
	if err != nil {
		t.Fatal(err)
	}
	want := encoded(t, whole)
	var fn mergeFn
	in := func(a partial, c *counts.Counts) partial {
		a, err := fn.AddInput(a, encoded(t, c))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	coded := func(a partial) partial {
		b, err := encodePartial(a)
		if err != nil {
			t.Fatal(err)
		}
		a, err = decodePartial(b)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// One accumulator, in order.
	a := fn.CreateAccumulator()
	for _, p := range ps {
		a = in(a, p)
	}
	// Two accumulators, reversed, one through the coder, merged.
	b := coded(in(fn.CreateAccumulator(), ps[2]))
	c := in(in(fn.CreateAccumulator(), ps[1]), ps[0])
	d, err := fn.MergeAccumulators(coded(fn.CreateAccumulator()), b)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = fn.MergeAccumulators(c, d); err != nil {
		t.Fatal(err)
	}
	// Past pendingMax, the parts are summed as they come.
	e := fn.CreateAccumulator()
	for i := range 3*pendingMax + 1 {
		e = in(e, ps[i%len(ps)])
	}
	for _, acc := range []partial{a, d} {
		got, err := fn.ExtractOutput(acc)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatal("a grouping of the merge changed its bytes")
		}
	}
	if len(e.parts) > pendingMax {
		t.Errorf("accumulator holds %d parts, want ≤ %d", len(e.parts), pendingMax)
	}
	eb, err := e.sum()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := counts.Decode(bytes.NewReader(eb), "sum")
	if err != nil {
		t.Fatal(err)
	}
	if docs := sum.Documents(); docs != 16*whole.Documents()+40 {
		// 3·16+1 inputs: 17 of ps[0], 16 of ps[1], 16 of ps[2].
		t.Errorf("summed %d documents, want %d", docs, 16*whole.Documents()+40)
	}
}

// TestEmitPartsConcat: the parts a count emits hold the terms of their
// partition and the whole header, and concatenated they are the table.
func TestEmitPartsConcat(t *testing.T) {
	s, err := Settings(model.Bernoulli, "", "")
	if err != nil {
		t.Fatal(err)
	}
	docs := genDocs(24, 60, []string{"a", "b", "c"}, false)
	want := encoded(t, inProcess(t, s, nil, docs))
	for _, n := range []int{1, 3, 64} {
		ctr, err := counts.NewCounter(s, nil, counts.Options{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range docs {
			if err := ctr.Add(d.text, d.label); err != nil {
				t.Fatal(err)
			}
		}
		got := map[int][]byte{}
		err = emitParts(ctr, n, func(p int, b []byte) { got[p] = b })
		ctr.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != n {
			t.Fatalf("%d partitions: %d parts emitted", n, len(got))
		}
		var rs []io.Reader
		var names []string
		for p := n - 1; p >= 0; p-- {
			c, err := counts.Decode(bytes.NewReader(got[p]), "part")
			if err != nil {
				t.Fatal(err)
			}
			for _, term := range c.Terms {
				if Partition(term, n) != p {
					t.Fatalf("%d partitions: term %q in part %d, its partition is %d", n, term, p, Partition(term, n))
				}
			}
			rs, names = append(rs, bytes.NewReader(got[p])), append(names, fmt.Sprint(p))
		}
		var all bytes.Buffer
		if _, _, err := counts.Concat(&all, rs, names); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(all.Bytes(), want) {
			t.Fatalf("%d partitions: concatenated, they are not the table", n)
		}
	}
}

func TestFileFormatAndNames(t *testing.T) {
	for _, f := range []string{"", "auto", "dir", "tar", "tsv", "csv", "jsonl", "fasttext"} {
		if err := checkFormat(f); err != nil {
			t.Errorf("checkFormat(%q): %v", f, err)
		}
	}
	if err := checkFormat("xml"); err == nil || !strings.Contains(err.Error(), "fasttext") {
		t.Errorf("checkFormat(xml): %v, want an error listing the formats", err)
	}
	for in, want := range map[string]string{"out/all.nbc": "out/all.round1.nbc", "gs://b/c.d/all": "gs://b/c.d/all.round1"} {
		if got := round1Name(in); got != want {
			t.Errorf("round1Name(%q) = %q, want %q", in, got, want)
		}
	}
	if !isLocal("/tmp/x.nbc") || !isLocal("x.nbc") || isLocal("gs://b/x.nbc") || isLocal("s3://b/x") {
		t.Error("isLocal tells local paths from gs:// and s3:// wrongly")
	}
}

func TestSettings(t *testing.T) {
	s, err := Settings(model.Multinomial, `{"ngram_max": 2, "min_df": 3}`, "headers,quotes")
	if err != nil {
		t.Fatal(err)
	}
	if s.NGramMax != 2 || s.MinDF != 3 || s.Weighting != "tfidf" || s.Remove != "headers,quotes" {
		t.Errorf("settings %+v: want ngram_max 2, min_df 3, tfidf, remove headers,quotes", s)
	}
	for _, tc := range []struct {
		kind             model.Kind
		override, remove string
		want             string
	}{
		{model.LogReg, "", "", "naive bayes"},
		{model.Bernoulli, `{"ngram_maxx": 2}`, "", "unknown field"},
		{model.Bernoulli, `{"ngram_max": 2} {}`, "", "one JSON object"},
		{model.Bernoulli, `{"ngram_min": 3, "ngram_max": 2}`, "", "ngram"},
		{model.Bernoulli, "", "tails", "--remove"},
	} {
		if _, err := Settings(tc.kind, tc.override, tc.remove); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Settings(%s, %q, %q): error %v, want one with %q", tc.kind, tc.override, tc.remove, err, tc.want)
		}
	}
}
