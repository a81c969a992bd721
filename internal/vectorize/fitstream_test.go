package vectorize

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// stopText returns synthText documents with English stop words mixed in,
// some upper-cased, and a few long enough to be tokenized in pieces.
func stopText(seed uint64, n, words int) []string {
	texts := synthText(seed, n, words)
	r := rand.New(rand.NewPCG(seed, 9))
	for i, t := range texts {
		w := strings.Fields(t)
		for j := range w {
			if r.IntN(3) == 0 {
				s := englishStopWords[r.IntN(len(englishStopWords))]
				if r.IntN(8) == 0 {
					s = strings.ToUpper(s)
				}
				w[j] = s
			}
		}
		texts[i] = strings.Join(w, " ")
		if i%97 == 5 {
			texts[i] = strings.Repeat(texts[i]+"\n", longDocument/len(texts[i])+2)
		}
	}
	return texts
}

// fitSettings are settings that exercise every path of Fit: stop words in
// the term table (unigrams), stop words before n-grams, pruning and
// selection.
func fitSettings() map[string]Settings {
	mk := func(f func(*Settings)) Settings { s := DefaultSettings(); f(&s); return s }
	return map[string]Settings{
		"default":   DefaultSettings(),
		"stop":      mk(func(s *Settings) { s.StopWords = "english"; s.MinDF = 2 }),
		"stop-case": mk(func(s *Settings) { s.StopWords = "english"; s.Lowercase = false }),
		"bigrams":   mk(func(s *Settings) { s.StopWords = "english"; s.NGramMax = 2; s.MinDF = 2 }),
		"mi":        mk(func(s *Settings) { s.StopWords = "english"; s.Select = "mi:500"; s.MaxDF = 0.9 }),
		"maxf":      mk(func(s *Settings) { s.MaxFeatures = 300 }),
		"fields":    mk(func(s *Settings) { s.StopWords = "english"; s.Fields = "subject:2" }),
	}
}

// TestFitStopWordsUnigrams checks the unigram stop word path (stop words
// as the first ids of the term table) against a plain reference: Fit
// without stop words on the texts with their stop tokens taken out.
func TestFitStopWordsUnigrams(t *testing.T) {
	texts := stopText(21, 400, 80)
	for _, lower := range []bool{true, false} {
		s := DefaultSettings()
		s.Lowercase = lower
		s.StopWords = "english"
		plain := s
		plain.StopWords = ""
		tok := NewTokenizer(plain)
		stripped := make([]string, len(texts))
		for i, text := range texts {
			var kept []string
			for _, w := range tok.Terms(text) {
				if _, stop := englishStopSet[w]; !stop {
					kept = append(kept, w)
				}
			}
			stripped[i] = strings.Join(kept, " ")
		}
		want, wm, err := Fit(stripped, nil, 0, plain, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range []int{1, 3} {
			got, gm, err := Fit(texts, nil, 0, s, w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Terms, want.Terms) || !slices.Equal(got.DF, want.DF) || !slices.Equal(got.CF, want.CF) || !reflect.DeepEqual(gm, wm) {
				t.Errorf("lowercase %v, %d workers: stop words removed in the table differ from the reference", lower, w)
			}
		}
	}
}

// TestFitStream checks that FitStream returns exactly what Fit returns,
// whatever the order of arrival, the documents it is told to drop and the
// number of workers.
func TestFitStream(t *testing.T) {
	texts := stopText(22, 700, 60)
	labels := make([]int, len(texts))
	for i := range labels {
		labels[i] = i % 4
	}
	junk := synthText(23, 50, 40)
	r := rand.New(rand.NewPCG(24, 0))
	for name, s := range fitSettings() {
		want, wm, err := Fit(texts, labels, 4, s, 2, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, workers := range []int{1, 3} {
			// Arrival: the texts shuffled, with junk documents between.
			perm := r.Perm(len(texts))
			fs, err := NewFitStream(s, workers)
			if err != nil {
				t.Fatal(err)
			}
			order := make([]int, len(texts))
			for k, i := range perm {
				if k%14 == 0 {
					fs.Add(junk[k%len(junk)])
				}
				order[i] = fs.Len()
				fs.Add(texts[i])
			}
			if name == "stop" {
				v, err := fs.FinishVocabulary(order, labels, 4)
				if err != nil || !slices.Equal(v.Terms, want.Terms) || !slices.Equal(v.DF, want.DF) || !slices.Equal(v.CF, want.CF) || v.NDocs != want.NDocs {
					t.Errorf("%s, %d workers: FinishVocabulary differs from Fit: %v", name, workers, err)
				}
				continue
			}
			got, gm, err := fs.Finish(order, labels, 4)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !reflect.DeepEqual(got.Settings, want.Settings) || !slices.Equal(got.Terms, want.Terms) || !slices.Equal(got.DF, want.DF) || !slices.Equal(got.CF, want.CF) || got.NDocs != want.NDocs {
				t.Errorf("%s, %d workers: vocabulary differs from Fit's", name, workers)
			}
			if !reflect.DeepEqual(gm, wm) {
				t.Errorf("%s, %d workers: matrix differs from Fit's", name, workers)
			}
		}
	}
	// In arrival order (nil order): the same as Fit of the texts.
	fs, err := NewFitStream(DefaultSettings(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range texts {
		fs.Add(text)
	}
	got, gm, err := fs.Finish(nil, nil, 0)
	want, wm, _ := Fit(texts, nil, 0, DefaultSettings(), 0, nil)
	if err != nil || !slices.Equal(got.Terms, want.Terms) || !reflect.DeepEqual(gm, wm) {
		t.Errorf("nil order: differs from Fit: %v", err)
	}
}

func TestFitStreamErrors(t *testing.T) {
	if _, err := NewFitStream(Settings{Weighting: "tf"}, 1); err == nil {
		t.Error("invalid settings: no error")
	}
	start := func() *FitStream {
		fs, err := NewFitStream(DefaultSettings(), 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"aa bb", "bb cc", "cc dd"} {
			fs.Add(text)
		}
		return fs
	}
	for _, tt := range []struct {
		name  string
		order []int
		want  string
	}{
		{"repeated", []int{0, 0}, "document order: entry 1 is 0"},
		{"out of range", []int{3}, "document order: entry 0 is 3, want distinct numbers in 0..2"},
		{"negative", []int{-1}, "entry 0 is -1"},
	} {
		fs := start()
		if _, _, err := fs.Finish(tt.order, nil, 0); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
	s := DefaultSettings()
	s.Select = "mi:2"
	fs, _ := NewFitStream(s, 1)
	fs.Add("aa bb")
	if _, _, err := fs.Finish(nil, []int{0, 1}, 2); err == nil || !strings.Contains(err.Error(), "2 labels for 1 documents") {
		t.Errorf("labels: error %v", err)
	}
	fs = start()
	if _, _, err := fs.Finish([]int{2, 0}, nil, 0); err != nil {
		t.Fatal(err)
	}
	if _, _, err := fs.Finish(nil, nil, 0); err == nil {
		t.Error("second Finish: no error")
	}
	fs.Close() // after Finish: no effect
	fs = start()
	fs.Close()
	fs.Close()
	if _, _, err := fs.Finish(nil, nil, 0); err == nil {
		t.Error("Finish after Close: no error")
	}
	// Only stop words, or only dropped documents: an empty vocabulary.
	s = DefaultSettings()
	s.StopWords = "english"
	fs, _ = NewFitStream(s, 2)
	fs.Add("the and of")
	if _, _, err := fs.Finish(nil, nil, 0); err == nil || !strings.Contains(err.Error(), "empty vocabulary") {
		t.Errorf("stop words only: error %v", err)
	}
}

// TestVectorizerSkipsStopFilter: a unigram vocabulary without stop words
// vectorizes without removing them first, with the same rows; one that
// holds a stop word (a hand-made vocabulary) still removes them.
func TestVectorizerSkipsStopFilter(t *testing.T) {
	texts := stopText(25, 200, 50)
	s := DefaultSettings()
	s.StopWords = "english"
	v, m, err := Fit(texts, nil, 0, s, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !v.NewVectorizer().words {
		t.Error("vectorizer of a stop-free vocabulary removes stop words")
	}
	if got := v.Transform(texts, 2); !reflect.DeepEqual(got, m) {
		t.Error("Transform differs from Fit's matrix")
	}
	terms := append(slices.Clone(v.Terms[:10]), "the")
	slices.Sort(terms)
	hand, err := NewVocabulary(s, terms, make([]int32, len(terms)), make([]int64, len(terms)), 1)
	if err != nil {
		t.Fatal(err)
	}
	z := hand.NewVectorizer()
	if z.words {
		t.Error("vectorizer of a vocabulary holding \"the\" skips stop word removal")
	}
	if ind, _ := z.Vectorize("the the " + terms[0]); len(ind) != 1 || hand.Terms[ind[0]] != terms[0] {
		t.Errorf("stop word kept: %v", ind)
	}
}

// TestFitStreamRelaxMinDF checks that RelaxMinDF lowers a MinDF that would
// keep no term to 1 (recorded in the vocabulary's settings), leaves one
// that keeps terms alone, and that without it the fit fails as before.
func TestFitStreamRelaxMinDF(t *testing.T) {
	fit := func(texts []string, minDF int, relax bool) (*Vocabulary, error) {
		t.Helper()
		s := DefaultSettings()
		s.MinDF = minDF
		f, err := NewFitStream(s, 2)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if relax {
			f.RelaxMinDF()
		}
		for _, x := range texts {
			f.Add(x)
		}
		return f.FinishVocabulary(nil, nil, 0)
	}
	two := []string{"good movie", "bad film"}
	if _, err := fit(two, 2, false); err == nil || !strings.Contains(err.Error(), "no terms left") {
		t.Fatalf("strict min_df 2 on two disjoint lines: %v", err)
	}
	v, err := fit(two, 2, true)
	if err != nil || v.Len() != 4 || v.Settings.MinDF != 1 {
		t.Fatalf("relaxed: %v, %d terms, recorded min_df %d", err, v.Len(), v.Settings.MinDF)
	}
	// One document: fewer than min_df, which checkFitDF refuses unless relaxed.
	if v, err = fit([]string{"good movie"}, 3, true); err != nil || v.Len() != 2 {
		t.Fatalf("relaxed, one document: %v", err)
	}
	// A min_df that keeps terms is applied as given.
	v, err = fit([]string{"good movie", "good film", "bad film"}, 2, true)
	if err != nil || v.Len() != 2 || v.Settings.MinDF != 2 {
		t.Fatalf("min_df 2 keeping good, film: %v, %d terms, min_df %d", err, v.Len(), v.Settings.MinDF)
	}
}
