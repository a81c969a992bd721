package vectorize

import (
	"fmt"
	"maps"
	"math"
	"strings"
	"testing"
)

// TestTermCounterRowsAreFits checks that TermCounter's rows, named by
// Term, are Fit's rows without pruning, for every tokenizer path: stop
// words in the term table, n-grams with and without unigrams, field terms
// and long documents tokenized in pieces.
func TestTermCounterRowsAreFits(t *testing.T) {
	texts := stopText(5, 300, 50)
	for i := range texts {
		if i%7 == 0 {
			texts[i] = "Subject: Re: the " + texts[i][:min(len(texts[i]), 30)] + "\nFrom: x\n\n" + texts[i]
		}
	}
	texts = append(texts, "", "a b c", "Subject: only\n\n")
	for name, s := range fitSettings() {
		s.MinDF, s.MaxDF, s.MaxFeatures, s.Select = 1, 1.0, 0, ""
		for _, grams := range [][2]int{{1, 1}, {1, 3}, {2, 3}} {
			if grams != [2]int{1, 1} && name != "stop" && name != "fields" {
				continue
			}
			s.NGramMin, s.NGramMax = grams[0], grams[1]
			v, m, err := Fit(texts, nil, 0, s, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			tc := NewTermCounter(s)
			counted := map[int32]bool{}
			for i, text := range texts {
				ids, vals := tc.Row(text)
				got := map[string]float32{}
				for j, id := range ids {
					if _, dup := got[tc.Term(id)]; dup {
						t.Fatalf("%s %v: doc %d: term %q twice in a row", name, grams, i, tc.Term(id))
					}
					got[tc.Term(id)] = vals[j]
					counted[id] = true
					if id < tc.First() {
						t.Fatalf("%s %v: id %d below First %d", name, grams, id, tc.First())
					}
					if int(id) >= tc.Len() {
						t.Fatalf("%s %v: id %d ≥ Len %d", name, grams, id, tc.Len())
					}
				}
				if want := row(v, m, i); !maps.Equal(got, want) {
					t.Fatalf("%s %v: doc %d (%.40q): row %v, Fit's %v", name, grams, i, text, got, want)
				}
			}
			if n := int(tc.First()) + len(counted); n != tc.Len() {
				t.Errorf("%s %v: %d ids from First %d counted, Len %d", name, grams, len(counted), tc.First(), tc.Len())
			}
			if tc.Bytes() <= 0 {
				t.Errorf("%s: Bytes %d", name, tc.Bytes())
			}
		}
	}
}

// TestTermCounterRowCounts checks each row's counts against the terms of
// Tokenizer.Terms counted one by one, for documents that repeat terms,
// share them with the documents before, and run long enough to be counted
// in pieces, so that a count left over from an earlier document or piece
// shows.
func TestTermCounterRowCounts(t *testing.T) {
	texts := []string{
		"the cat sat on the mat, the cat",
		"cat cat cat dog",
		"",
		"dog and the cat; a mat",
		strings.Repeat("alpha beta beta gamma_1 Δέλτα\n", longDocument/20),
		"beta",
	}
	for _, stop := range []string{"english", ""} {
		s := DefaultSettings()
		s.StopWords = stop
		tc, tok := NewTermCounter(s), NewTokenizer(s)
		for i, text := range texts {
			want := map[string]float32{}
			for _, term := range tok.Terms(text) {
				want[term]++
			}
			ids, vals := tc.Row(text)
			got := map[string]float32{}
			for j, id := range ids {
				got[tc.Term(id)] = vals[j]
			}
			if !maps.Equal(got, want) {
				t.Errorf("stop words %q: doc %d: row %v, want %v", s.StopWords, i, got, want)
			}
		}
	}
}

// TestTermCounterTotals checks Total against the sums of the rows Row
// returned, for every tokenizer path, with sums that stay in the seen
// entries and with sums that move to the wide totals before they would
// pass the limit (lowered here to a few counts).
func TestTermCounterTotals(t *testing.T) {
	texts := stopText(9, 200, 40)
	texts = append(texts, "Subject: Re: the cat\n\nthe cat cat sat", "",
		strings.Repeat("alpha beta beta gamma_1 Δέλτα\n", longDocument/20))
	defer func(m uint32) { maxTotal32 = m }(maxTotal32)
	all := fitSettings()
	all["hashed"] = func() Settings { s := DefaultSettings(); s.HashBits = 8; return s }()
	for name, s := range all {
		for _, grams := range [][2]int{{1, 1}, {1, 2}} {
			s.NGramMin, s.NGramMax = grams[0], grams[1]
			for _, lim := range []uint32{1, 2, 7, math.MaxUint32} {
				maxTotal32 = lim
				tc := NewTermCounter(s)
				tc.CountTotals()
				want := map[int32][2]int64{}
				for _, text := range texts {
					ids, vals := tc.Row(text)
					for j, id := range ids {
						w := want[id]
						w[0]++
						w[1] += int64(vals[j])
						want[id] = w
					}
				}
				if lim < 7 && len(tc.w.wide) == 0 {
					t.Errorf("%s %v: limit %d: no total widened", name, grams, lim)
				}
				for id := int32(0); id < int32(tc.Len()); id++ {
					if docs, occ := tc.Total(id); [2]int64{docs, occ} != want[id] {
						t.Fatalf("%s %v: limit %d: %q: Total %d, %d, the rows give %v", name, grams, lim, tc.Term(id), docs, occ, want[id])
					}
				}
			}
		}
	}
}

// TestTermCounterBytesHashed: with hashing, Bytes counts the table of the
// terms named in the buckets, which grows with the distinct terms while
// the buckets stay few, so that a counter bounding its memory by Bytes
// (counts.Options.Mem) spills before that table outgrows the bound.
func TestTermCounterBytesHashed(t *testing.T) {
	s := DefaultSettings()
	s.HashBits = 6
	c := NewTermCounter(s)
	const distinct = 10000
	var b strings.Builder
	for i := range distinct {
		fmt.Fprintf(&b, "w%d ", i)
	}
	c.Row(b.String())
	if c.Len() > 1<<s.HashBits {
		t.Fatalf("%d local ids for %d buckets", c.Len(), 1<<s.HashBits)
	}
	if got := c.Bytes(); got < distinct*40 {
		t.Errorf("Bytes = %d for %d distinct terms in %d buckets, want at least %d", got, distinct, c.Len(), distinct*40)
	}
}
