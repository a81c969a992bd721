package vectorize

// Settings by name: the command line's vectorizer flags (and their
// NBTEXT_* and config-file forms) name the settings they override; this
// file maps each name to its field and holds the rules that tie them.

import (
	"fmt"
	"strconv"
	"strings"
)

// setters sets the field a name overrides from its value, in the order
// Override applies them.
var setters = []struct {
	name string
	set  func(s *Settings, v string) error
}{
	{"lowercase", func(s *Settings, v string) (err error) { s.Lowercase, err = strconv.ParseBool(v); return }},
	{"stop-words", func(s *Settings, v string) error { s.StopWords = v; return nil }},
	{"ngram", func(s *Settings, v string) (err error) { s.NGramMin, s.NGramMax, err = ParseRange(v); return }},
	{"min-df", func(s *Settings, v string) (err error) { s.MinDF, err = strconv.Atoi(v); return }},
	{"max-df", func(s *Settings, v string) (err error) { s.MaxDF, err = strconv.ParseFloat(v, 64); return }},
	{"max-features", func(s *Settings, v string) (err error) { s.MaxFeatures, err = strconv.Atoi(v); return }},
	{"select", func(s *Settings, v string) error { s.Select = v; return nil }},
	{"weighting", func(s *Settings, v string) error { s.Weighting = v; return nil }},
	{"sublinear-tf", func(s *Settings, v string) (err error) { s.Sublinear, err = strconv.ParseBool(v); return }},
	{"norm", func(s *Settings, v string) error { s.Norm = v; return nil }},
	{"fields", func(s *Settings, v string) error {
		if s.Fields = v; strings.EqualFold(strings.TrimSpace(v), "none") {
			s.Fields = ""
		}
		return nil
	}},
	{"hash-bits", func(s *Settings, v string) (err error) { s.HashBits, err = strconv.Atoi(v); return }},
}

// Override sets the settings that given names, each by the flag that
// sets it (lowercase, stop-words, ngram, min-df, max-df, max-features,
// select, weighting, sublinear-tf, norm, fields, hash-bits and the
// analyzer's: analyzer, char-ngram, subwords, cjk-bigrams, unicode-norm,
// case-fold, strip-accents, token-pattern), from the value as the flag
// takes it ("1,2" for ngram, "true" for lowercase, "none" for no fields
// or no subwords); names that are not settings are ignored. Then it
// applies the rules that tie settings together, where the one they
// change is not in given: hash-bits lifts the default cap on the terms
// (max-features), since hashing fixes the model's size; a character
// analyzer turns off the word-only settings (word n-grams, stop words,
// field terms, subwords, CJK bigrams). Last it validates the result. An
// error names the flag, e.g. "--ngram: want 1 ≤ MIN ≤ MAX, got \"0\"".
func (s *Settings) Override(given map[string]string) error {
	for _, st := range setters {
		v, ok := given[st.name]
		if !ok {
			continue
		}
		if err := st.set(s, v); err != nil {
			if st.name == "ngram" {
				return fmt.Errorf("--ngram: %v", err)
			}
			return fmt.Errorf("--%s: invalid value %q", st.name, v)
		}
	}
	_, capped := given["max-features"]
	if _, hashed := given["hash-bits"]; hashed && !capped && s.HashBits > 0 {
		// A model's default cap on its terms (train.Defaults) bounds a
		// vocabulary that grows with the corpus; hashing fixes the
		// model's size itself, at 2^B buckets.
		s.MaxFeatures = 0
	}
	if err := s.overrideAnalysis(given); err != nil {
		return err
	}
	return s.Validate()
}

// overrideAnalysis is Override for the analyzer's settings.
func (s *Settings) overrideAnalysis(given map[string]string) error {
	has := func(name string) bool { _, ok := given[name]; return ok }
	a := &s.Analysis
	if v, ok := given["analyzer"]; ok {
		switch v {
		case "word", "":
			a.Analyzer, a.CharMin, a.CharMax = "", 0, 0
		case "char", "char_wb":
			a.Analyzer = v
		default:
			return fmt.Errorf("--analyzer must be word, char or char_wb, got %q", v)
		}
	}
	if a.Analyzer != "" && (has("analyzer") || has("char-ngram")) {
		charNGram, ok := given["char-ngram"]
		if !ok {
			charNGram = DefaultCharNGram
		}
		lo, hi, err := ParseRange(charNGram)
		if err != nil {
			return fmt.Errorf("--char-ngram: %v", err)
		}
		a.CharMin, a.CharMax = lo, hi
		if !has("ngram") {
			s.NGramMin, s.NGramMax = 1, 1
		}
		if !has("stop-words") {
			s.StopWords = ""
		}
		if !has("fields") {
			s.Fields = ""
		}
		if !has("subwords") {
			a.SubwordMin, a.SubwordMax = 0, 0
		}
		a.CJKBigrams = false
	} else if has("char-ngram") {
		return fmt.Errorf("--char-ngram is for --analyzer char or char_wb")
	}
	if v, ok := given["subwords"]; ok {
		if v = strings.TrimSpace(v); v == "none" || v == "0" || v == "" {
			a.SubwordMin, a.SubwordMax = 0, 0
		} else {
			lo, hi, err := ParseRange(v)
			if err != nil {
				return fmt.Errorf("--subwords: %v", err)
			}
			a.SubwordMin, a.SubwordMax = lo, hi
		}
	}
	bools := []struct {
		name string
		to   *bool
	}{{"cjk-bigrams", &a.CJKBigrams}, {"case-fold", &a.CaseFold}, {"strip-accents", &a.StripAccents}}
	for _, b := range bools {
		if v, ok := given[b.name]; ok {
			var err error
			if *b.to, err = strconv.ParseBool(v); err != nil {
				return fmt.Errorf("--%s: invalid value %q", b.name, v)
			}
		}
	}
	if v, ok := given["unicode-norm"]; ok {
		if a.Normalize = v; v == "none" {
			a.Normalize = ""
		}
	}
	if v, ok := given["token-pattern"]; ok {
		a.TokenPattern = v
	}
	return nil
}

// DefaultCharNGram is the character n-gram range of a character analyzer
// when Override is given none (the default of --char-ngram).
const DefaultCharNGram = "1,3"

// ParseRange parses "MIN,MAX" or a single "N" (meaning N,N), with
// 1 ≤ MIN ≤ MAX.
func ParseRange(s string) (int, int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
	}
	lo, err := strconv.Atoi(strings.TrimSpace(parts[0]))
	if err != nil {
		return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
	}
	hi := lo
	if len(parts) == 2 {
		if hi, err = strconv.Atoi(strings.TrimSpace(parts[1])); err != nil {
			return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
		}
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("want 1 ≤ MIN ≤ MAX, got %q", s)
	}
	return lo, hi, nil
}
