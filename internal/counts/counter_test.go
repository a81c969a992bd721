package counts

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// counter returns a Counter holding texts.
func counter(t *testing.T, s vectorize.Settings, v *vectorize.Vocabulary, texts, labels []string, opt Options) *Counter {
	t.Helper()
	c, err := NewCounter(s, v, opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	for i := range texts {
		if err := c.Add(texts[i], labels[i]); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// TestCounterWorkersExact: the counts do not depend on the workers, nor
// on spilling, in either round.
func TestCounterWorkersExact(t *testing.T) {
	texts, labels := docs(500, 11)
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	want := encode(t, countAll(t, s, nil, texts, labels, Options{Workers: 1}))
	for _, w := range []int{2, 5} {
		if got := encode(t, countAll(t, s, nil, texts, labels, Options{Workers: w})); !bytes.Equal(got, want) {
			t.Errorf("round one with %d workers differs from one worker's", w)
		}
	}
	r1, _ := Decode(bytes.NewReader(want), "r1")
	v, _, err := r1.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want2 := encode(t, countAll(t, s, v, texts, labels, Options{Workers: 1}))
	for _, opt := range []Options{{Workers: 3}, {Workers: 4, Mem: 8 << 10, TempDir: t.TempDir()}} {
		if got := encode(t, countAll(t, s, v, texts, labels, opt)); !bytes.Equal(got, want2) {
			t.Errorf("round two with %+v differs from one worker's", opt)
		}
	}
}

// TestCounterStats: Counter.Stats and Counter.Vocabulary, which build no
// Counts, give what Counts.Stats and Counts.Vocabulary give for the
// counts, in both rounds, with spilled runs too.
func TestCounterStats(t *testing.T) {
	texts, labels := docs(400, 12)
	for name, f := range map[string]func(*vectorize.Settings){
		"counts": func(s *vectorize.Settings) { s.MinDF, s.Select = 2, "mi:40" },
		"binary": func(s *vectorize.Settings) { s.Weighting, s.MaxFeatures = "binary", 100 },
		"tfidf":  func(s *vectorize.Settings) { s.Weighting, s.Sublinear, s.Norm, s.MaxDF = "tfidf", true, "l2", 0.8 },
		// Hashed: the vocabulary's buckets carry their names, in both rounds.
		"hashed":       func(s *vectorize.Settings) { s.HashBits, s.MinDF = 16, 2 },
		"hashed-tfidf": func(s *vectorize.Settings) { s.HashBits, s.Weighting, s.Norm = 16, "tfidf", "l2" },
	} {
		s := settings()
		f(&s)
		var v *vectorize.Vocabulary
		if NeedsVocab(s) {
			var err error
			c := counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, TempDir: t.TempDir()})
			if v, _, err = c.Vocabulary(); err != nil {
				t.Fatal(err)
			}
			want, _, _ := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("%s: Counter.Vocabulary differs from Counts.Vocabulary", name)
			}
		}
		cs := countAll(t, s, v, texts, labels, Options{})
		for _, presence := range []bool{false, true} {
			want, err := cs.Stats(presence)
			if err != nil {
				t.Fatal(err)
			}
			if named := want.Vocab.Names != nil && len(want.Vocab.Names) == len(want.Vocab.Terms) && len(want.Vocab.Names[0]) > 0; named != (s.HashBits > 0) {
				t.Errorf("%s: %d bucket name lists for %d terms", name, len(want.Vocab.Names), len(want.Vocab.Terms))
			}
			for _, opt := range []Options{{Workers: 3}, {Workers: 2, Mem: 8 << 10, TempDir: t.TempDir()}} {
				got, err := counter(t, s, v, texts, labels, opt).Stats(presence)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s presence=%v %+v: Counter.Stats differs from Counts.Stats", name, presence, opt)
				}
			}
			// Counts.Stats is Vocabulary and NB.
			_, keep, _ := cs.Vocabulary()
			classDocs, stats, err := cs.NB(presence, keep)
			if err != nil || !reflect.DeepEqual(classDocs, want.ClassDocs) || !reflect.DeepEqual(stats, want.Stats) || want.Counted != cs.Len() {
				t.Errorf("%s presence=%v: Stats differs from NB (%v)", name, presence, err)
			}
		}
	}
}

// replayed returns the encoded round two that c, a round-one Counter
// with a row cache, counts from it over its own vocabulary.
func replayed(t *testing.T, c *Counter) []byte {
	t.Helper()
	v, _, err := c.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	return replayedOver(t, c, v)
}

// replayedOver returns the encoded round two that c, a finished
// round-one Counter with a row cache, counts from it over v.
func replayedOver(t *testing.T, c *Counter, v *vectorize.Vocabulary) []byte {
	t.Helper()
	c2, err := c.RoundTwo(v)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	cs, err := c2.Counts()
	if err != nil {
		t.Fatal(err)
	}
	return encode(t, cs)
}

// TestRoundTwoReplay: round two counted from round one's row cache is the
// round two of the documents, whatever the workers and spills of round
// one; the cache goes with Close.
func TestRoundTwoReplay(t *testing.T) {
	texts, labels := docs(500, 13)
	for name, f := range map[string]func(*vectorize.Settings){
		"tfidf":   func(s *vectorize.Settings) { s.Weighting, s.Sublinear, s.Norm, s.MinDF = "tfidf", true, "l2", 2 },
		"mi-norm": func(s *vectorize.Settings) { s.Weighting, s.Norm, s.Select = "count", "l2", "mi:60" },
		"hashed":  func(s *vectorize.Settings) { s.Weighting, s.Norm, s.HashBits, s.MinDF = "tfidf", "l2", 16, 2 },
	} {
		s := settings()
		f(&s)
		r1 := countAll(t, s, nil, texts, labels, Options{})
		v, _, err := r1.Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		want := encode(t, countAll(t, s, v, texts, labels, Options{}))
		for _, opt := range []Options{{Workers: 1}, {Workers: 3}, {Workers: 2, Mem: 8 << 10}, {Workers: 2, VocabOnly: true}, {Workers: 3, Mem: 8 << 10, VocabOnly: true}} {
			dir := t.TempDir()
			opt.TempDir, opt.Replay = dir, true
			c := counter(t, s, nil, texts, labels, opt)
			if _, err := c.RoundTwo(v); err == nil {
				t.Errorf("%s: RoundTwo before round one is finished", name)
			}
			if got := replayed(t, c); !bytes.Equal(got, want) {
				t.Errorf("%s %+v: round two from the row cache differs from counting the documents", name, opt)
			}
			c.Close()
			if left, _ := os.ReadDir(dir); len(left) > 0 {
				t.Errorf("%s: Close left %d files in the temporary folder", name, len(left))
			}
		}
	}
	c := counter(t, settings(), nil, texts[:10], labels[:10], Options{})
	v, _, _ := c.Vocabulary()
	if _, err := c.RoundTwo(v); err == nil || !strings.Contains(err.Error(), "Replay") {
		t.Errorf("RoundTwo without a row cache: %v", err)
	}
}

// TestRoundTwoReplayParts: the row cache gathers rows by partition (class
// id mod cacheParts) in chunks; with more classes than partitions, many
// chunks per partition and a document whose row outgrows a chunk, round
// two from the cache is still the round two of the documents.
func TestRoundTwoReplayParts(t *testing.T) {
	texts, labels := docs(3000, 15)
	for i := range labels {
		labels[i] = fmt.Sprintf("%s-%d", labels[i], i%(2*cacheParts+3))
	}
	var long strings.Builder
	for i := range 50000 { // distinct terms: a row of over 100 KiB of varints
		fmt.Fprintf(&long, "v%d ", i)
	}
	texts, labels = append(texts, long.String(), long.String()+long.String()), append(labels, "long", "alpha-1")
	s := settings()
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	r1 := countAll(t, s, nil, texts, labels, Options{})
	v, _, err := r1.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want := encode(t, countAll(t, s, v, texts, labels, Options{}))
	c := counter(t, s, nil, texts, labels, Options{Workers: 2, Replay: true, VocabOnly: true, TempDir: t.TempDir()})
	v1, _, err := c.Vocabulary() // v, as its documents are v's
	if err != nil {
		t.Fatal(err)
	}
	parts, most := 0, 0
	for _, sg := range c.segments {
		for _, ch := range sg.chunks {
			if len(ch) > 0 {
				parts++
			}
			most = max(most, len(ch))
		}
	}
	if parts < cacheParts || most < 2 {
		t.Errorf("the row cache has %d non-empty partitions, at most %d chunks in one: want ≥ %d and ≥ 2", parts, most, cacheParts)
	}
	if got := replayedOver(t, c, v1); !bytes.Equal(got, want) {
		t.Error("round two from a partitioned row cache differs from counting the documents")
	}
}

// TestCounterSparseClasses: workers that meet only some classes (the
// first class has one document, and small batches spread the documents
// over many workers) count both rounds right.
func TestCounterSparseClasses(t *testing.T) {
	texts, labels := docs(400, 14)
	texts, labels = append([]string{"Subject: first\n\nw1 w2 w3 zz"}, texts...), append([]string{"first"}, labels...)
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	r1 := countAll(t, s, nil, texts, labels, Options{Workers: 1})
	v, _, err := r1.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want := encode(t, countAll(t, s, v, texts, labels, Options{Workers: 1}))
	for _, w := range []int{4, 16} {
		small := Options{Workers: w, Mem: 8 << 10, TempDir: t.TempDir()}
		// Whether and how often many workers spill depends on timing
		// (countAll would insist on runs): the counts must not.
		p := filepath.Join(t.TempDir(), "r2.nbc")
		if _, err := counter(t, s, v, texts, labels, small).WriteFile(p); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
			t.Errorf("round two with %d workers differs", w)
		}
		small.Replay = true
		if got := replayed(t, counter(t, s, nil, texts, labels, small)); !bytes.Equal(got, want) {
			t.Errorf("round two replayed by %d workers differs", w)
		}
	}
}

// TestCounterVocabOnly: a Counter made with Options.VocabOnly pools the
// classes of its tables (unless the settings select by mutual
// information) and gives the vocabulary and header of one that does not,
// with spilled runs too; it refuses to give more.
func TestCounterVocabOnly(t *testing.T) {
	texts, labels := docs(400, 15)
	for name, f := range map[string]func(*vectorize.Settings){
		"tfidf":  func(s *vectorize.Settings) { s.Weighting, s.Norm, s.MinDF, s.MaxFeatures = "tfidf", "l2", 2, 150 },
		"mi":     func(s *vectorize.Settings) { s.Weighting, s.Norm, s.Select = "count", "l2", "mi:60" },
		"hashed": func(s *vectorize.Settings) { s.Weighting, s.Norm, s.HashBits, s.MaxDF = "tfidf", "l2", 16, 0.5 },
	} {
		s := settings()
		f(&s)
		want, wantH, err := counter(t, s, nil, texts, labels, Options{Workers: 1}).Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{{Workers: 1, VocabOnly: true}, {Workers: 3, Mem: 8 << 10, TempDir: t.TempDir(), VocabOnly: true}} {
			c := counter(t, s, nil, texts, labels, opt)
			if k, _ := s.SelectK(); c.pooled != (k == 0) {
				t.Errorf("%s: pooled %v with select %q", name, c.pooled, s.Select)
			}
			if opt.Mem > 0 {
				if err := c.drain(); err != nil {
					t.Fatal(err)
				}
				if c.Runs() == 0 {
					t.Errorf("%s %+v: no run spilled", name, opt)
				}
			}
			got, h, err := c.Vocabulary()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(h, wantH) {
				t.Errorf("%s %+v: the vocabulary or header differs from counting by class", name, opt)
			}
			if c.pooled {
				if _, err := c.Stats(false); err != errVocabOnly {
					t.Errorf("%s: Stats of a pooled counter: %v", name, err)
				}
				if _, err := c.Counts(); err != errVocabOnly {
					t.Errorf("%s: Counts of a pooled counter: %v", name, err)
				}
				if _, err := c.WriteFile(filepath.Join(t.TempDir(), "x.nbc")); err != errVocabOnly {
					t.Errorf("%s: WriteFile of a pooled counter: %v", name, err)
				}
			}
		}
	}
}

// TestCounterWideCells: round one's half-size cells move their counts to
// wide cells before they would overflow, and the counts, the vocabulary
// and round two from the row cache stay the same bits.
func TestCounterWideCells(t *testing.T) {
	texts, labels := docs(300, 21)
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	want := encode(t, countAll(t, s, nil, texts, labels, Options{Workers: 2}))
	wantV, _, err := counter(t, s, nil, texts, labels, Options{Workers: 2, VocabOnly: true}).Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	defer func(m uint32) { maxCell32 = m }(maxCell32)
	for _, lim := range []uint32{1, 2, 7} {
		maxCell32 = lim
		c := counter(t, s, nil, texts, labels, Options{Workers: 2})
		var wide int
		c.dispatch()
		c.pending.Wait()
		for _, w := range c.workers {
			wide += len(w.wide)
		}
		if wide == 0 {
			t.Fatalf("maxCell32 %d: no cell widened", lim)
		}
		if got := encode(t, countAll(t, s, nil, texts, labels, Options{Workers: 2})); !bytes.Equal(got, want) {
			t.Errorf("maxCell32 %d: round one differs", lim)
		}
		vc := counter(t, s, nil, texts, labels, Options{Workers: 2, VocabOnly: true, Replay: true, TempDir: t.TempDir()})
		v, _, err := vc.Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(v, wantV) {
			t.Errorf("maxCell32 %d: the vocabulary differs", lim)
		}
		maxCell32 = math.MaxUint32
		if got, want2 := replayedOver(t, vc, v), encode(t, countAll(t, s, v, texts, labels, Options{Workers: 1})); !bytes.Equal(got, want2) {
			t.Errorf("maxCell32 %d: round two from the row cache differs", lim)
		}
	}
}

// workersSum returns the sum of f over the workers of c once they have
// counted every document added.
func workersSum(t *testing.T, c *Counter, f func(*worker) int) int {
	t.Helper()
	c.dispatch()
	c.pending.Wait()
	n := 0
	for _, w := range c.workers {
		n += f(w)
	}
	return n
}

// TestCounterWideSums: round two's 16-byte cells move their fields to
// wide cells before they would overflow, and values too large for a cell
// go there at once; the counts stay the same bits whatever the guard, from
// the documents and from the row cache. With raw counts a cell's sum is
// its occurrences, and with binary weighting its documents, exactly,
// even for a term met 2^20 times in one document.
func TestCounterWideSums(t *testing.T) {
	texts, labels := docs(300, 22)
	s := settings()
	s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2"
	v, _, err := countAll(t, s, nil, texts, labels, Options{Workers: 2}).Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	want := encode(t, countAll(t, s, v, texts, labels, Options{Workers: 2}))
	defer func(g uint64) { wcellGuard = g }(wcellGuard)
	guard := wcellGuard
	for _, b := range []uint{0, 1, 3} {
		wcellGuard = wcellGuardAt(b)
		if workersSum(t, counter(t, s, v, texts, labels, Options{Workers: 2}), func(w *worker) int { return len(w.wwide) }) == 0 {
			t.Fatalf("guard bit %d: no cell widened", b)
		}
		if got := encode(t, countAll(t, s, v, texts, labels, Options{Workers: 2})); !bytes.Equal(got, want) {
			t.Errorf("guard bit %d: round two differs", b)
		}
		vc := counter(t, s, nil, texts, labels, Options{Workers: 2, VocabOnly: true, Replay: true, TempDir: t.TempDir()})
		if got := replayed(t, vc); !bytes.Equal(got, want) {
			t.Errorf("guard bit %d: round two from the row cache differs", b)
		}
	}

	big := "Subject: zz\n\n" + strings.Repeat("zz yy ", 1<<20+3) + "xx"
	texts, labels = append(texts, big, big), append(labels, "alpha", "alpha")
	for _, weighting := range []string{"count", "binary"} {
		s := settings()
		s.NGramMax, s.Weighting, s.Norm = 1, weighting, ""
		v, _, err := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		for b, g := range []uint64{guard, wcellGuardAt(2)} {
			wcellGuard = g
			cs := countAll(t, s, v, texts, labels, Options{Workers: 2})
			for i := range cs.Len() {
				for _, c := range cs.Row(i) {
					want := Fixed{Hi: uint64(c.Occ)}
					if weighting == "binary" {
						want = Fixed{Hi: uint64(c.Docs)}
					}
					if c.Sum != want {
						t.Errorf("%s, guard %d: %q in class %d: sum %v, want %v (docs %d, occ %d)",
							weighting, b, cs.Terms[i], c.Class, c.Sum, want, c.Docs, c.Occ)
					}
				}
			}
			if i, ok := slices.BinarySearch(cs.Terms, "zz"); !ok || cs.Row(i)[0].Occ < 2*(1<<20+3) {
				t.Errorf("%s, guard %d: zz's counts are wrong", weighting, b)
			}
		}
	}
}

// TestWcellLayout: the fields of wcell.meta fill its 64 bits without
// overlapping, each guard bit is its field's top bit, and an update that
// adds less than wmaxAdd to a field below its guard cannot carry out of it.
func TestWcellLayout(t *testing.T) {
	fields := []struct {
		shift uint
		mask  uint64
	}{{0, wdocsMask}, {woccShift, woccMask}, {whiShift, whiMask}}
	var all uint64
	for _, f := range fields {
		m := f.mask << f.shift
		if all&m != 0 || m>>f.shift != f.mask {
			t.Fatalf("field at bit %d overlaps another or overflows 64 bits", f.shift)
		}
		all |= m
		top := uint64(1) << (f.shift + uint(bits.Len64(f.mask)) - 1)
		if wcellGuard&m != top {
			t.Errorf("field at bit %d: guard %#x, want its top bit %#x", f.shift, wcellGuard&m, top)
		}
		if half := (f.mask + 1) / 2; wmaxAdd > half {
			t.Errorf("field at bit %d: wmaxAdd %d is more than half its range %d", f.shift, wmaxAdd, half)
		}
	}
	if all != math.MaxUint64 {
		t.Errorf("the fields leave bits %#x unused", ^all)
	}
}

// TestSumTables: round two's Stats sums the workers' tables id by id
// (sumTables) into what merging their sources gives, with and without
// hashing, with wide cells, terms of the vocabulary that no document of
// round two holds (a vocabulary of more documents) dropped.
func TestSumTables(t *testing.T) {
	guard := wcellGuard
	defer func() { wcellGuard = guard }()
	texts, labels := docs(400, 12)
	for _, hashBits := range []int{0, 16, -1} {
		wcellGuard = guard
		widen := hashBits < 0
		if widen {
			hashBits, wcellGuard = 0, wcellGuardAt(0)
		}
		s := settings()
		s.Weighting, s.Norm, s.HashBits = "tfidf", "l2", hashBits
		v, _, err := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		var sinks [2]*statsSink
		for i := range sinks {
			c := counter(t, s, v, texts[:40], labels[:40], Options{Workers: 3})
			m, err := c.parts(true)
			if err != nil {
				t.Fatal(err)
			}
			if sinks[i], err = newStatsSink(m.h, true, false); err != nil {
				t.Fatal(err)
			}
			if wide := 0; widen {
				for _, w := range m.workers {
					wide += len(w.wwide)
				}
				if wide == 0 {
					t.Fatal("no cell widened")
				}
			}
			if i == 0 {
				err = sinks[i].sumTables(m.workers, m.toSum, v)
			} else {
				m.sources()
				err = mergeInto(sinks[i], m.srcs, m.remap, len(m.h.Classes))
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		got, want := sinks[0], sinks[1]
		if len(want.terms) == len(v.Terms) || len(want.terms) == 0 {
			t.Fatalf("bits %d: %d terms of %d held: want some, not all", hashBits, len(want.terms), len(v.Terms))
		}
		if !reflect.DeepEqual(got.terms, want.terms) || !reflect.DeepEqual(got.df, want.df) || !reflect.DeepEqual(got.cf, want.cf) ||
			!reflect.DeepEqual(got.stats, want.stats) || !reflect.DeepEqual(got.names, want.names) {
			t.Errorf("bits %d: the summed tables differ from their merge", hashBits)
		}
		if (got.names != nil) != (hashBits > 0) {
			t.Errorf("bits %d: %d bucket name lists", hashBits, len(got.names))
		}
	}
}

// TestRoundTwoOnce: RoundTwo releases the row cache it replayed, so a
// second RoundTwo fails instead of counting nothing.
func TestRoundTwoOnce(t *testing.T) {
	texts, labels := docs(50, 14)
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	c := counter(t, s, nil, texts, labels, Options{Replay: true, TempDir: t.TempDir()})
	v, _, err := c.Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	c2, err := c.RoundTwo(v)
	if err != nil {
		t.Fatal(err)
	}
	c2.Close()
	if _, err := c.RoundTwo(v); err == nil || !strings.Contains(err.Error(), "replayed already") {
		t.Errorf("a second RoundTwo: %v", err)
	}
}

// TestAddCopies: Add keeps copies of the text and label it is given, so
// that the caller may reuse their memory at once (as a stream with
// corpus.Options.Transient does), with documents longer than a batch too.
func TestAddCopies(t *testing.T) {
	texts, labels := docs(300, 16)
	for i := 3; i < len(texts); i += 7 {
		// Past a batch of 4 KiB, or enough to fill its buffer early
		// (between spills).
		texts[i] = strings.Repeat(texts[i]+" ", 1+i%60)
	}
	s := settings()
	s.Weighting, s.Norm = "tfidf", "l2"
	opt := Options{Workers: 2, Mem: 64 << 10, TempDir: t.TempDir()} // batches of 4 KiB
	v, _, err := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	for _, vocab := range []*vectorize.Vocabulary{nil, v} { // both rounds
		want := encode(t, countAll(t, s, vocab, texts, labels, opt))
		c, err := NewCounter(s, vocab, opt)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		var buf []byte
		for i := range texts {
			buf = append(append(buf[:0], labels[i]...), texts[i]...)
			label := unsafe.String(&buf[0], len(labels[i]))
			text := unsafe.String(&buf[len(labels[i])], len(texts[i]))
			if err := c.Add(text, label); err != nil {
				t.Fatal(err)
			}
			for j := range buf { // the caller reuses its memory
				buf[j] = 'x'
			}
		}
		if got := written(t, c); !bytes.Equal(encode(t, got), want) {
			t.Errorf("round two %v: counts of texts whose memory was reused after Add differ", vocab != nil)
		}
	}
}

// TestSortedTerms: sortedTerms orders a term table's ids by their terms'
// bytes, terms sharing their first 8 bytes, or shorter, or beyond ASCII
// included.
func TestSortedTerms(t *testing.T) {
	texts, _ := docs(200, 17)
	texts = append(texts, "abcdefghij abcdefghi abcdefgh abcdefg abcdefgz abcdefgha zz é éa ea e b a ab")
	tc := vectorize.NewTermCounter(settings())
	for _, text := range texts {
		tc.Row(text)
	}
	order := sortedTerms(tc)
	if len(order) != tc.Len()-int(tc.First()) {
		t.Fatalf("%d ids of %d", len(order), tc.Len()-int(tc.First()))
	}
	for i := 1; i < len(order); i++ {
		if a, b := tc.Term(order[i-1]), tc.Term(order[i]); a >= b {
			t.Fatalf("%q before %q", a, b)
		}
	}
}

// TestMergeRanges: Counter.Vocabulary merges the workers' tables in
// ranges of terms, a goroutine each; the vocabulary is the one of the
// counts merged whole, with any number of workers and ranges, hashed
// and selecting by mutual information too.
func TestMergeRanges(t *testing.T) {
	defer func(n int) { mergeRangeTerms = n }(mergeRangeTerms)
	texts, labels := docs(400, 18)
	for name, f := range map[string]func(*vectorize.Settings){
		"tfidf":  func(s *vectorize.Settings) { s.Weighting, s.Norm, s.MinDF = "tfidf", "l2", 2 },
		"mi":     func(s *vectorize.Settings) { s.Weighting, s.Norm, s.Select = "count", "l2", "mi:60" },
		"hashed": func(s *vectorize.Settings) { s.Weighting, s.Norm, s.HashBits = "tfidf", "l2", 12 },
	} {
		s := settings()
		f(&s)
		want, _, err := countAll(t, s, nil, texts, labels, Options{}).Vocabulary()
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 7, 100, 1 << 20} {
			mergeRangeTerms = n
			for _, opt := range []Options{{Workers: 1}, {Workers: 3}, {Workers: 2, VocabOnly: true}} {
				got, _, err := counter(t, s, nil, texts, labels, opt).Vocabulary()
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, ranges of %d terms, %+v: the vocabulary differs from the counts'", name, n, opt)
				}
			}
		}
	}
}

// TestVocabularyDropsEarly: the vocabulary of round one keeps, as the
// merge streams, only the terms min_df and max_df keep, and it is the
// vocabulary of keeping every term and pruning at the end; a vocabulary
// that nothing is left of says so as Prune does.
func TestVocabularyDropsEarly(t *testing.T) {
	texts, labels := docs(400, 16)
	s := settings()
	s.NGramMax, s.Weighting, s.Norm, s.MinDF, s.MaxDF = 2, "tfidf", "l2", 3, 0.5
	opt := Options{Workers: 2, Mem: 8 << 10, VocabOnly: true}
	sinkOf := func(early bool) *statsSink {
		opt.TempDir = t.TempDir()
		c := counter(t, s, nil, texts, labels, opt)
		m, err := c.parts(true)
		if err != nil {
			t.Fatal(err)
		}
		defer m.close()
		if len(m.srcs) == 0 {
			t.Fatal("no run spilled")
		}
		sk, err := newStatsSink(m.h, false, false)
		if err != nil {
			t.Fatal(err)
		}
		sk.early = early
		m.sources()
		sk.reserve(m.terms)
		if err := mergeInto(sk, m.srcs, m.remap, len(m.h.Classes)); err != nil {
			t.Fatal(err)
		}
		return sk
	}
	all, early := sinkOf(false), sinkOf(true)
	want, _, err := all.vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := early.vocabulary()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("dropping terms early changes the vocabulary")
	}
	if len(early.terms) != len(want.Terms) || len(all.terms) <= len(want.Terms) {
		t.Errorf("the sink kept %d terms of %d counted, for a vocabulary of %d", len(early.terms), len(all.terms), len(want.Terms))
	}
	c := counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, VocabOnly: true, TempDir: t.TempDir()})
	if v, _, err := c.Vocabulary(); err != nil || !reflect.DeepEqual(v, want) {
		t.Errorf("Counter.Vocabulary: %v", err)
	}
	s.MinDF = len(texts) + 1
	c = counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, VocabOnly: true, TempDir: t.TempDir()})
	if _, _, err := c.Vocabulary(); err == nil || !strings.Contains(err.Error(), "no terms left after pruning") {
		t.Errorf("a vocabulary min_df empties: %v", err)
	}
	c = counter(t, s, nil, []string{"!", "? ."}, []string{"a", "b"}, Options{Workers: 2, VocabOnly: true})
	if _, _, err := c.Vocabulary(); !errors.Is(err, vectorize.ErrEmptyVocabulary) {
		t.Errorf("a vocabulary of documents without tokens: %v", err)
	}
}

// TestVocabularyTrims: with max_features, the vocabulary of round one
// holds about twice max_features terms as the merge streams them (trim),
// and it is the vocabulary of keeping every term and pruning at the end,
// spilled or not, with ties of document frequency at the cut and with
// mutual-information selection after it.
func TestVocabularyTrims(t *testing.T) {
	defer func(f, n int) { trimFloor, mergeRangeTerms = f, n }(trimFloor, mergeRangeTerms)
	trimFloor, mergeRangeTerms = 1, 50
	texts, labels := docs(400, 16)
	for _, tc := range []struct {
		minDF, k int
		sel      string
	}{{1, 1, ""}, {1, 7, ""}, {2, 40, ""}, {1, 333, ""}, {3, 100, "mi:30"}, {1, 1 << 20, ""}} {
		s := settings()
		s.NGramMax, s.Weighting, s.Norm, s.MinDF = 2, "tfidf", "l2", tc.minDF
		name := fmt.Sprintf("min_df %d, max_features %d, select %q", tc.minDF, tc.k, tc.sel)
		s.Select = tc.sel
		s.MaxFeatures = tc.k
		want := func() *vectorize.Vocabulary {
			s := s
			s.MaxFeatures = 0 // every term the window keeps, then Prune
			c := counter(t, s, nil, texts, labels, Options{Workers: 1})
			m, err := c.parts(true)
			if err != nil {
				t.Fatal(err)
			}
			defer m.close()
			sk, err := newStatsSink(m.h, false, false)
			if err != nil {
				t.Fatal(err)
			}
			m.sources()
			if err := mergeInto(sk, m.srcs, m.remap, len(m.h.Classes)); err != nil {
				t.Fatal(err)
			}
			sk.h.Settings.MaxFeatures = tc.k
			v, _, err := sk.vocabulary()
			if err != nil {
				t.Fatal(err)
			}
			return v
		}()
		if tc.k < 100 && tc.minDF == 1 {
			if dfAt := want.DF[0]; len(want.Terms) != tc.k || dfAt == 0 {
				t.Fatalf("%s: the reference keeps %d terms", name, len(want.Terms))
			}
		}
		for _, opt := range []Options{{Workers: 2, VocabOnly: true}, {Workers: 2, Mem: 8 << 10, VocabOnly: true}} {
			opt.TempDir = t.TempDir()
			c := counter(t, s, nil, texts, labels, opt)
			m, err := c.parts(true)
			if err != nil {
				t.Fatal(err)
			}
			spilled := len(m.srcs) > 0
			m.close()
			got, _, err := c.Vocabulary()
			if err != nil {
				t.Fatalf("%s, spilled %v: %v", name, spilled, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s, spilled %v: trimming changes the vocabulary (%d terms, want %d)", name, spilled, len(got.Terms), len(want.Terms))
			}
		}
		// The sink itself never holds more than trimAt terms.
		c := counter(t, s, nil, texts, labels, Options{Workers: 1, Mem: 8 << 10, VocabOnly: true, TempDir: t.TempDir()})
		m, err := c.parts(true)
		if err != nil {
			t.Fatal(err)
		}
		sk, err := newStatsSink(m.h, false, false)
		if err != nil {
			t.Fatal(err)
		}
		sk.early = true
		m.sources()
		most := 0
		err = mergeInto(&maxSink{sink: sk, most: &most}, m.srcs, m.remap, len(m.h.Classes))
		m.close()
		if err != nil {
			t.Fatal(err)
		}
		if lim := sk.trimAt(); most > lim || lim == 0 {
			t.Errorf("%s: the sink held %d terms, trimming at %d", name, most, lim)
		}
	}
}

// maxSink passes terms to a statsSink and records the most it held.
type maxSink struct {
	sink *statsSink
	most *int
}

func (m *maxSink) add(term string, cells []Cell) error {
	err := m.sink.add(term, cells)
	*m.most = max(*m.most, len(m.sink.terms))
	return err
}

// TestCounterCompactsRuns: when spills make maxRuns runs, a Counter
// merges them into one and removes them, and its counts are the same
// bits as counting in memory, whatever the bound.
func TestCounterCompactsRuns(t *testing.T) {
	texts, labels := docs(1200, 17)
	s := settings()
	want := encode(t, countAll(t, s, nil, texts, labels, Options{Workers: 2}))
	defer func(n int) { maxRuns = n }(maxRuns)
	maxRuns = 1 << 20
	spills := counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, TempDir: t.TempDir()})
	if err := spills.drain(); err != nil {
		t.Fatal(err)
	}
	if spills.Runs() < 6 {
		t.Fatalf("%d runs spilled: too few to compact", spills.Runs())
	}
	for _, n := range []int{2, 3, 5} {
		maxRuns = n
		dir := t.TempDir()
		c := counter(t, s, nil, texts, labels, Options{Workers: 2, Mem: 8 << 10, TempDir: dir})
		if err := c.drain(); err != nil {
			t.Fatal(err)
		}
		files, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		if r := c.Runs(); r == 0 || r >= n || len(files) != r {
			t.Errorf("maxRuns %d: %d runs, %d files", n, r, len(files))
		}
		if got := written(t, c); !bytes.Equal(encode(t, got), want) {
			t.Errorf("maxRuns %d: the counts differ from counting in memory", n)
		}
	}
}
