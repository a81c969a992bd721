package vectorize

import (
	"strings"
	"testing"
)

func TestOverride(t *testing.T) {
	base := DefaultSettings()
	base.NGramMax, base.StopWords, base.Fields, base.MaxFeatures = 2, "english", "subject:2", 100000
	tests := []struct {
		name  string
		given map[string]string
		want  func(s *Settings)
	}{
		{"nothing given", nil, func(s *Settings) {}},
		{"unknown names ignored", map[string]string{"alpha": "2", "model": "svm"}, func(s *Settings) {}},
		{"plain settings", map[string]string{"lowercase": "false", "ngram": "1,3", "min-df": "2", "max-df": "0.5", "select": "mi:10", "weighting": "tfidf", "sublinear-tf": "true", "norm": "l2"},
			func(s *Settings) {
				s.Lowercase, s.NGramMin, s.NGramMax, s.MinDF, s.MaxDF = false, 1, 3, 2, 0.5
				s.Select, s.Weighting, s.Sublinear, s.Norm = "mi:10", "tfidf", true, "l2"
			}},
		{"single ngram", map[string]string{"ngram": "2"}, func(s *Settings) { s.NGramMin, s.NGramMax = 2, 2 }},
		{"fields none", map[string]string{"fields": " None "}, func(s *Settings) { s.Fields = "" }},
		{"hash-bits lifts the cap", map[string]string{"hash-bits": "18"}, func(s *Settings) { s.HashBits, s.MaxFeatures = 18, 0 }},
		{"hash-bits keeps a given cap", map[string]string{"hash-bits": "18", "max-features": "50"}, func(s *Settings) { s.HashBits, s.MaxFeatures = 18, 50 }},
		{"char analyzer drops word settings", map[string]string{"analyzer": "char_wb"},
			func(s *Settings) {
				s.Analyzer, s.CharMin, s.CharMax = "char_wb", 1, 3
				s.NGramMax, s.StopWords, s.Fields, s.CJKBigrams = 1, "", "", false
			}},
		{"char analyzer with its range", map[string]string{"analyzer": "char", "char-ngram": "2,4"},
			func(s *Settings) {
				s.Analyzer, s.CharMin, s.CharMax = "char", 2, 4
				s.NGramMax, s.StopWords, s.Fields, s.CJKBigrams = 1, "", "", false
			}},
		{"subwords", map[string]string{"subwords": "3,5"}, func(s *Settings) { s.SubwordMin, s.SubwordMax = 3, 5 }},
		{"subwords none", map[string]string{"subwords": "none"}, func(s *Settings) {}},
		{"analysis flags", map[string]string{"cjk-bigrams": "false", "case-fold": "true", "strip-accents": "true", "unicode-norm": "nfkc", "token-pattern": `\w+`},
			func(s *Settings) {
				s.CJKBigrams, s.CaseFold, s.StripAccents, s.Normalize, s.TokenPattern = false, true, true, "nfkc", `\w+`
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, want := base, base
			tt.want(&want)
			if err := got.Override(tt.given); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestOverrideErrors(t *testing.T) {
	for given, want := range map[string]string{
		"ngram=0,1":          `--ngram: want 1 ≤ MIN ≤ MAX, got "0,1"`,
		"ngram=a":            `--ngram: want MIN,MAX, got "a"`,
		"ngram=1,9":          "--ngram max must be ≤ 5",
		"min-df=0":           "--min-df must be ≥ 1, got 0",
		"min-df=x":           `--min-df: invalid value "x"`,
		"analyzer=bytes":     `--analyzer must be word, char or char_wb, got "bytes"`,
		"char-ngram=2,3":     "--char-ngram is for --analyzer char or char_wb",
		"subwords=5,3":       `--subwords: want 1 ≤ MIN ≤ MAX, got "5,3"`,
		"weighting=bm25":     `--weighting must be binary, count or tfidf, got "bm25"`,
		"strip-accents=many": `--strip-accents: invalid value "many"`,
		// A given word setting stays, and validation names it.
		"analyzer=char_wb;stop-words=english": "--stop-words is for the word analyzer",
	} {
		m := map[string]string{}
		for _, kv := range strings.Split(given, ";") {
			name, value, _ := strings.Cut(kv, "=")
			m[name] = value
		}
		s := DefaultSettings()
		err := s.Override(m)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Override(%s) = %v, want an error containing %q", given, err, want)
		}
	}
}

func TestParseRange(t *testing.T) {
	for in, want := range map[string][2]int{"1,2": {1, 2}, "3": {3, 3}, " 2 , 4 ": {2, 4}} {
		if lo, hi, err := ParseRange(in); err != nil || lo != want[0] || hi != want[1] {
			t.Errorf("ParseRange(%q) = %d, %d, %v; want %v", in, lo, hi, err, want)
		}
	}
	for _, in := range []string{"", "0", "2,1", "1,2,3", "a,b"} {
		if _, _, err := ParseRange(in); err == nil {
			t.Errorf("ParseRange(%q): no error", in)
		}
	}
}
