package eval

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestRestrictMatchesFit checks that restricting one tokenization to a
// subset gives exactly the vocabulary and weighted matrices that fitting on
// the subset's texts gives (train.Prepare / train.PrepareWith).
func TestRestrictMatchesFit(t *testing.T) {
	texts, y, classes := synthCorpus(3, 60, 1)
	for i, text := range texts {
		// A header whose subject repeats the first words, for "fields".
		texts[i] = "Subject: " + strings.Join(strings.Fields(text)[:3], " ") + "\n\n" + text
	}
	C := len(classes)
	base := vectorize.DefaultSettings()
	variants := map[string]func(*vectorize.Settings){
		"count":        func(s *vectorize.Settings) {},
		"binary":       func(s *vectorize.Settings) { s.Weighting = "binary" },
		"tfidf l2":     func(s *vectorize.Settings) { s.Weighting, s.Sublinear, s.Norm = "tfidf", true, "l2" },
		"min_df 3":     func(s *vectorize.Settings) { s.MinDF = 3; s.Weighting = "tfidf"; s.Norm = "l2" },
		"max_df .3":    func(s *vectorize.Settings) { s.MaxDF = 0.3 },
		"max_features": func(s *vectorize.Settings) { s.MaxFeatures = 25 },
		"mi:12":        func(s *vectorize.Settings) { s.Select = "mi:12"; s.Weighting = "binary" },
		"all pruning":  func(s *vectorize.Settings) { s.MinDF, s.MaxDF, s.MaxFeatures, s.Select = 2, 0.5, 60, "mi:30" },
		"fields":       func(s *vectorize.Settings) { s.Fields, s.MinDF, s.StopWords = "subject:2", 2, "english" },
		"hashed":       func(s *vectorize.Settings) { s.HashBits, s.MinDF, s.MaxFeatures, s.Fields = 5, 2, 20, "subject:2" },
		"trigrams":     func(s *vectorize.Settings) { s.NGramMax, s.MinDF, s.Weighting = 3, 2, "binary" },
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for name, mod := range variants {
		s := base
		mod(&s)
		tk, err := Tokenize(texts, y, C, s, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range []int{15, 40, len(texts)} {
			rows := corpus.StratifiedSubset(y, m, rng)
			held := corpus.Complement(len(texts), rows)
			sub := make([]string, len(rows))
			ysub := make([]int, len(rows))
			for i, r := range rows {
				sub[i], ysub[i] = texts[r], y[r]
			}
			wantV, wantX, err := train.Prepare(sub, ysub, C, s, 1, nil)
			if err != nil {
				t.Fatalf("%s m=%d: prepare: %v", name, m, err)
			}
			gotV, gotX, gotH, err := tk.Split(rows, held, s)
			if err != nil {
				t.Fatalf("%s m=%d: split: %v", name, m, err)
			}
			if !reflect.DeepEqual(gotV.Terms, wantV.Terms) || !reflect.DeepEqual(gotV.DF, wantV.DF) ||
				!reflect.DeepEqual(gotV.CF, wantV.CF) || gotV.NDocs != wantV.NDocs {
				t.Fatalf("%s m=%d: vocabulary differs: %d terms vs %d", name, m, gotV.Len(), wantV.Len())
			}
			if !reflect.DeepEqual(gotX, wantX) {
				t.Errorf("%s m=%d: training matrix differs", name, m)
			}
			if len(held) > 0 {
				heldTexts := make([]string, len(held))
				for i, r := range held {
					heldTexts[i] = texts[r]
				}
				want := train.PrepareWith(wantV, heldTexts, 1)
				if !reflect.DeepEqual(gotH, want) {
					t.Errorf("%s m=%d: held-out matrix differs", name, m)
				}
			}
		}
	}
	if !SameTokenization(base, vectorize.Settings{Lowercase: base.Lowercase, NGramMin: 1, NGramMax: 1, MinDF: 5, Weighting: "tfidf", Analysis: base.Analysis}) {
		t.Error("settings that differ only in pruning and weighting do not share a tokenization")
	}
	if SameTokenization(base, vectorize.Settings{Lowercase: base.Lowercase, NGramMin: 1, NGramMax: 2}) {
		t.Error("unigrams and bigrams share a tokenization")
	}
}

// TestTokenizeKeepsMinDF: Tokenize keeps only the terms in at least
// MinDF documents, and Split refuses settings with a lower MinDF, whose
// splits would need the terms dropped.
func TestTokenizeKeepsMinDF(t *testing.T) {
	texts, y, classes := synthCorpus(3, 60, 1)
	s := vectorize.DefaultSettings()
	s.NGramMax = 2
	all, err := Tokenize(texts, y, len(classes), s, 2)
	if err != nil {
		t.Fatal(err)
	}
	s.MinDF = 2
	pruned, err := Tokenize(texts, y, len(classes), s, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(pruned.tk.terms) >= len(all.tk.terms) {
		t.Fatalf("min_df 2 kept %d terms of %d", len(pruned.tk.terms), len(all.tk.terms))
	}
	held := []int{0, 1, 2}
	rows := corpus.Complement(len(texts), held)
	s.MinDF = 1
	if _, _, _, err := pruned.Split(rows, held, s); err == nil || !strings.Contains(err.Error(), "min_df 1") {
		t.Errorf("Split with min_df 1 of a min_df 2 tokenization: err = %v", err)
	}
}

// TestTokenizeExtraMatchesTransform: rows of documents outside the fitted
// ones (the test split), restricted, equal PrepareWith on their texts.
func TestTokenizeExtraMatchesTransform(t *testing.T) {
	texts, y, classes := synthCorpus(2, 50, 2)
	s := vectorize.DefaultSettings()
	s.Weighting, s.Norm, s.MinDF = "tfidf", "l2", 2
	tk, test, err := tokenize(texts[:70], s, 2, texts[70:])
	if err != nil {
		t.Fatal(err)
	}
	rows := corpus.StratifiedSubset(y[:70], 30, rand.New(rand.NewPCG(1, 1)))
	rs, err := tk.restrict(rows, y, len(classes), s, newScratch(len(tk.terms)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := rs.apply(test, nil), train.PrepareWith(rs.vocab, texts[70:], 1); !reflect.DeepEqual(got, want) {
		t.Error("test matrix differs from PrepareWith")
	}
}
