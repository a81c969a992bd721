package counts

import (
	"bytes"
	"reflect"
	"testing"

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
