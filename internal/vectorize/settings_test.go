package vectorize

import (
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	if err := DefaultSettings().Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	tests := []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.MinDF = 0 }, "--min-df must be ≥ 1, got 0"},
		{func(s *Settings) { s.MaxDF = 0 }, "--max-df must be in (0, 1], got 0"},
		{func(s *Settings) { s.MaxDF = 1.5 }, "--max-df must be in (0, 1], got 1.5"},
		{func(s *Settings) { s.NGramMin = 0 }, "--ngram min must be ≥ 1, got 0"},
		{func(s *Settings) { s.NGramMin, s.NGramMax = 2, 1 }, "--ngram min must be ≤ max, got 2,1"},
		{func(s *Settings) { s.MaxFeatures = -1 }, "--max-features must be ≥ 0 (0 keeps all), got -1"},
		{func(s *Settings) { s.Select = "mi:0" }, `--select must look like mi:K with K > 0, got "mi:0"`},
		{func(s *Settings) { s.Select = "chi2:10" }, `--select must look like mi:K with K > 0, got "chi2:10"`},
		{func(s *Settings) { s.Select = "mi:x" }, `--select must look like mi:K with K > 0, got "mi:x"`},
		{func(s *Settings) { s.Weighting = "bm25" }, `--weighting must be binary, count or tfidf, got "bm25"`},
		{func(s *Settings) { s.Norm = "l1" }, `--norm must be l2 or none, got "l1"`},
		{func(s *Settings) { s.StopWords = "french" }, `--stop-words must be english or empty, got "french"`},
		{func(s *Settings) { s.NGramMin, s.NGramMax = 1, 50 }, "--ngram max must be ≤ 5, got 50"},
	}
	for _, tt := range tests {
		s := DefaultSettings()
		tt.edit(&s)
		if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("got %v, want %q", err, tt.want)
		}
	}
	s := DefaultSettings()
	s.Select = "mi:500"
	if k, err := s.SelectK(); k != 500 || err != nil {
		t.Errorf("SelectK = %d, %v", k, err)
	}
}

func TestValidateNGramBound(t *testing.T) {
	s := DefaultSettings()
	s.NGramMin, s.NGramMax = 1, MaxNGram
	if err := s.Validate(); err != nil {
		t.Errorf("--ngram 1,%d: %v", MaxNGram, err)
	}
	s.NGramMax++
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "grows with n") {
		t.Errorf("--ngram 1,%d: %v, want an error saying why", s.NGramMax, err)
	}
}
