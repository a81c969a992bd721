package vectorize

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestFitNGramsMatchTerms checks the n-gram path of Fit (n-grams counted
// by id pairs, their text built once) against a plain count of the terms
// Tokenizer.Terms lists, per document: ranges that start at 1, 2 and 3,
// stop words, and header field terms.
func TestFitNGramsMatchTerms(t *testing.T) {
	texts := synthText(21, 300, 40)
	texts = append(texts, "Subject: the big cat\nFrom: a b\n\nthe big cat sat on the big mat", "", "x", "aa", "aa bb aa bb aa bb")
	for _, c := range []struct{ nmin, nmax int }{{1, 2}, {2, 2}, {1, 3}, {2, 3}, {3, 4}} {
		for _, stop := range []string{"", "english"} {
			s := DefaultSettings()
			s.NGramMin, s.NGramMax, s.StopWords, s.Fields = c.nmin, c.nmax, stop, "subject"
			t.Run(fmt.Sprintf("ngram=%d,%d/stop=%q", c.nmin, c.nmax, stop), func(t *testing.T) {
				for _, workers := range []int{1, 3} {
					v, m, err := Fit(texts, nil, 0, s, workers, nil)
					if err != nil {
						t.Fatal(err)
					}
					tok := NewTokenizer(s)
					df := map[string]int32{}
					for i, text := range texts {
						want := map[string]float32{}
						for _, term := range tok.Terms(text) {
							want[strings.Clone(term)]++
						}
						for term := range want {
							df[term]++
						}
						got := row(v, m, i)
						if len(got) != len(want) {
							t.Fatalf("workers %d, document %d: %d terms, want %d", workers, i, len(got), len(want))
						}
						for term, n := range want {
							if got[term] != n {
								t.Fatalf("workers %d, document %d: %q counted %g, want %g", workers, i, term, got[term], n)
							}
						}
					}
					if v.Len() != len(df) {
						t.Fatalf("workers %d: %d terms, want %d", workers, v.Len(), len(df))
					}
					for id, term := range v.Terms {
						if v.DF[id] != df[term] {
							t.Fatalf("workers %d: %q df %d, want %d", workers, term, v.DF[id], df[term])
						}
					}
				}
			})
		}
	}
}

// TestFitNGramFilterExact checks that the count-min pre-filter of rare
// n-grams (MinDF ≥ 2) changes nothing in Fit's result: with the sketch at
// its usual width, with a tiny one where every cell collides, with its
// filter folded to one block, and without it.
func TestFitNGramFilterExact(t *testing.T) {
	texts := synthText(22, 600, 50)
	texts = append(texts, "Subject: the big cat\n\nthe big cat sat on the big mat", "the big cat", "", "x")
	for _, c := range []struct{ nmin, nmax, minDF int }{{1, 2, 2}, {2, 2, 3}, {1, 3, 2}, {2, 3, 2}, {3, 3, 2}} {
		s := DefaultSettings()
		s.NGramMin, s.NGramMax, s.MinDF, s.Fields = c.nmin, c.nmax, c.minDF, "subject"
		t.Run(fmt.Sprintf("ngram=%d,%d/min-df=%d", c.nmin, c.nmax, c.minDF), func(t *testing.T) {
			defer func(p bool, b, fb int) { prefilter, maxSketchBits, maxFilterBits = p, b, fb }(prefilter, maxSketchBits, maxFilterBits)
			prefilter = false
			want, wantM, err := Fit(texts, nil, 0, s, 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if f := ngramFilter(texts, s, 1); f != nil {
				t.Fatal("ngramFilter ignores prefilter = false")
			}
			prefilter = true
			if f := ngramFilter(texts, s, 2); f == nil {
				t.Fatal("no filter for n-grams with a min-df")
			}
			for _, bits := range [][2]int{{25, 23}, {10, 23}, {25, 6}} {
				maxSketchBits, maxFilterBits = bits[0], bits[1]
				got, gotM, err := Fit(texts, nil, 0, s, 2, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Terms, want.Terms) || !reflect.DeepEqual(got.DF, want.DF) || !reflect.DeepEqual(got.CF, want.CF) || !reflect.DeepEqual(gotM, wantM) {
					t.Fatalf("sketch of 2^%d cells, filter of at most 2^%d bits: %d terms, want the %d of exact counting", bits[0], bits[1], got.Len(), want.Len())
				}
			}
		})
	}
}

// TestDFSketchBounds checks that the sketch never under-counts, with each
// cell width, alone and merged (split over two sketches, as Fit's workers
// split a corpus), while it saturates at the cell's maximum.
func TestDFSketchBounds(t *testing.T) {
	defer func(b int) { maxSketchBits = b }(maxSketchBits)
	maxSketchBits = 10
	for _, minDF := range []int{2, 3, 4, 15, 16, 255} {
		whole, a, b := newDFSketch(1<<20, minDF), newDFSketch(1<<20, minDF), newDFSketch(1<<20, minDF)
		truth := map[uint64]int{}
		r := uint64(1)
		for i := range 20000 {
			r = r*6364136223846793005 + 1442695040888963407
			h := r % uint64(1+i%3000)
			whole.add(h)
			if i%2 == 0 {
				a.add(h)
			} else {
				b.add(h)
			}
			truth[h]++
		}
		a.merge(b)
		capped, full := 0, int(whole.cmax)
		for h, n := range truth {
			for _, sk := range []*dfSketch{whole, a} {
				if e := sk.estimate(h); e < min(n, full) || e > full {
					t.Fatalf("min-df %d: hash %d: estimate %d, want %d occurrences up to %d", minDF, h, e, n, full)
				}
			}
			if n < full {
				capped++
			}
		}
		want := 255
		if minDF <= 3 {
			want = 3
		} else if minDF <= 15 {
			want = 15
		}
		if full != want || capped == 0 {
			t.Fatalf("min-df %d: cells saturate at %d, want %d (%d hashes below it)", minDF, full, want, capped)
		}
	}
}

// TestDFFilter checks the filter of a sketch against its estimates, with
// each cell width: unfolded, it passes exactly the hashes whose bound
// reaches MinDF; folded to fewer bits, it still passes every one of them
// and more of the others, until a filter of one block passes nearly all.
func TestDFFilter(t *testing.T) {
	defer func(b int) { maxFilterBits = b }(maxFilterBits)
	for _, minDF := range []int{2, 3, 4, 7, 15, 16, 100, 255} {
		sk := newDFSketchBits(14, minDF)
		hs := make([]uint64, 3000)
		r := uint64(7)
		for i := range hs {
			r = r*6364136223846793005 + 1442695040888963407
			hs[i] = r
			for range int(r>>40) % (2 * minDF) {
				sk.add(hs[i])
			}
		}
		prev := -1
		for _, bits := range []int{23, 14, 12, 10, 6} {
			maxFilterBits = bits
			f := sk.filter(minDF)
			if want := max(min(1<<14, 1<<bits), 512>>sk.lg); len(f.bits)*64 != want {
				t.Fatalf("min-df %d, max 2^%d bits: a filter of %d bits, want %d", minDF, bits, len(f.bits)*64, want)
			}
			pass, reach := 0, 0
			for _, h := range hs {
				e, ok := sk.estimate(h) >= minDF, f.reaches(h)
				if e && !ok || bits >= 14 && ok != e {
					t.Fatalf("min-df %d, max 2^%d bits: hash %#x: reaches %v, estimate %d", minDF, bits, h, ok, sk.estimate(h))
				}
				if ok {
					pass++
				}
				if e {
					reach++
				}
			}
			if reach == 0 || reach == len(hs) || pass < prev {
				t.Fatalf("min-df %d, max 2^%d bits: %d of %d reach, %d pass (%d unfolded less)", minDF, bits, reach, len(hs), pass, prev)
			}
			if bits == 12 && pass == reach {
				t.Errorf("min-df %d: folded 4 to 1, the filter passes no more hashes than reach min-df (%d)", minDF, pass)
			}
			prev = pass
		}
	}
}

// TestSatAdd checks the lane-wise saturating addition of sketch cells
// against adding each cell on its own.
func TestSatAdd(t *testing.T) {
	r := uint64(7)
	for _, cw := range []uint{2, 4, 8} {
		s := newDFSketchBits(10, map[uint]int{2: 2, 4: 9, 8: 200}[cw])
		if s.cw != cw {
			t.Fatalf("cell width %d, want %d", s.cw, cw)
		}
		hi := uint64(0)
		for b := cw - 1; b < 64; b += cw {
			hi |= 1 << b
		}
		for range 10000 {
			r = r*6364136223846793005 + 1442695040888963407
			a := r
			r = r*6364136223846793005 + 1442695040888963407
			b := r
			got := satAdd(a, b, hi, cw, s.cmax)
			for sh := uint(0); sh < 64; sh += cw {
				x, y, z := a>>sh&s.cmax, b>>sh&s.cmax, got>>sh&s.cmax
				if want := min(x+y, s.cmax); z != want {
					t.Fatalf("%d-bit cells %x + %x: cell at %d is %d, want %d", cw, a, b, sh, z, want)
				}
			}
		}
	}
}

// TestFitStreamNGramFilterExact checks FitStream's two passes (sketch as
// documents arrive, then count without the n-grams below MinDF) against
// Fit without the filter, with documents left out by Finish, and with
// RelaxMinDF lowering a MinDF that no term reaches.
func TestFitStreamNGramFilterExact(t *testing.T) {
	texts := synthText(23, 700, 40)
	s := DefaultSettings()
	s.NGramMax, s.MinDF, s.StopWords = 3, 2, "english"
	order := make([]int, 0, len(texts))
	for i := len(texts) - 1; i >= 0; i -= 2 {
		order = append(order, i)
	}
	sub := make([]string, len(order))
	for i, q := range order {
		sub[i] = texts[q]
	}
	defer func(p bool) { prefilter = p }(prefilter)
	prefilter = false
	want, wantM, err := Fit(sub, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	prefilter = true
	f, err := NewFitStream(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	if f.sketches == nil {
		t.Fatal("FitStream does not sketch n-grams with a min-df")
	}
	for _, text := range texts {
		f.Add(text)
	}
	got, gotM, err := f.Finish(order, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Terms, want.Terms) || !reflect.DeepEqual(got.DF, want.DF) || !reflect.DeepEqual(gotM, wantM) {
		t.Fatalf("%d terms, want the %d of Fit without the filter", got.Len(), want.Len())
	}

	// Relaxed (a default min-df, as 'nbtext train' gives), with terms
	// above it: the filter still leaves the rare n-grams out, and the
	// result is the exact one.
	f, err = NewFitStream(s, 3)
	if err != nil {
		t.Fatal(err)
	}
	f.RelaxMinDF()
	for _, text := range texts {
		f.Add(text)
	}
	got, gotM, err = f.Finish(order, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !f.filtered || got.Settings.MinDF != 2 {
		t.Errorf("relaxed with terms above min-df: filtered %v, min-df %d; want the filter and min-df 2", f.filtered, got.Settings.MinDF)
	}
	if !reflect.DeepEqual(got.Terms, want.Terms) || !reflect.DeepEqual(got.DF, want.DF) || !reflect.DeepEqual(gotM, wantM) {
		t.Fatalf("relaxed: %d terms, want the %d of Fit without the filter", got.Len(), want.Len())
	}

	// Two documents share no n-gram and no word: min-df 2 keeps nothing,
	// and a relaxed stream must then count every n-gram.
	s.MinDF = 2
	f, err = NewFitStream(s, 2)
	if err != nil {
		t.Fatal(err)
	}
	f.RelaxMinDF()
	f.Add("alpha beta gamma")
	f.Add("delta epsilon zeta")
	v, _, err := f.Finish(nil, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != 12 || v.Settings.MinDF != 1 || f.filtered {
		t.Fatalf("relaxed: %d terms %q with min-df %d (filtered %v), want all 12 with min-df 1, unfiltered", v.Len(), v.Terms, v.Settings.MinDF, f.filtered)
	}
}
