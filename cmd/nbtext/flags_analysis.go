package main

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// analysisOptions are the analyzer flags (vectorize.Analysis): which text
// becomes which terms. See docs/languages.md.
type analysisOptions struct {
	analyzer     string
	charNGram    string
	subwords     string
	cjkBigrams   bool
	normalize    string
	caseFold     bool
	stripAccents bool
	tokenPattern string
}

func (o *analysisOptions) addFlags(fs *pflag.FlagSet, d vectorize.Settings) {
	fs.StringVar(&o.analyzer, "analyzer", "word", "terms: word (words, see --token-pattern), char (character n-grams of the text) or char_wb (character n-grams inside words padded with a space), as scikit-learn's")
	fs.StringVar(&o.charNGram, "char-ngram", "1,3", fmt.Sprintf("--analyzer char, char_wb: character n-gram range MIN,MAX, MAX ≤ %d", vectorize.MaxCharNGram))
	fs.StringVar(&o.subwords, "subwords", "none", "word analyzer: each word w also gives the character n-grams of \"<w>\" of MIN,MAX characters as terms of their own (fastText's -minn/-maxn), e.g. 3,5; none for none")
	fs.BoolVar(&o.cjkBigrams, "cjk-bigrams", d.CJKBigrams, "word analyzer: a run of Han, Hiragana, Katakana, Hangul or Thai characters gives its overlapping character bigrams, as Lucene's CJK analyzer (false: one token per run)")
	fs.StringVar(&o.normalize, "unicode-norm", orNone(d.Normalize), "Unicode normalisation before tokenizing (--normalize of eval is the confusion matrix): nfkc (full-width and compatibility forms to their plain ones) or none")
	fs.BoolVar(&o.caseFold, "case-fold", d.CaseFold, "with --lowercase, fold case fully (Unicode case folding: ß → ss) instead of Python's str.lower")
	fs.BoolVar(&o.stripAccents, "strip-accents", d.StripAccents, "remove accents after lower-casing, as scikit-learn's strip_accents='unicode' (NFKD, drop combining marks)")
	fs.StringVar(&o.tokenPattern, "token-pattern", "", "word analyzer: the tokens are the matches of this regular expression (Go RE2 syntax; \\w is ASCII there, use [\\pL\\pN_] for any script; one capturing group: the group), instead of scikit-learn's (?u)\\b\\w\\w+\\b")
}

// apply sets the analysis of s from the flags that changed; a character
// analyzer turns off the word-only settings the user did not set (the
// models' word bigrams, stop words and field terms).
func (o *analysisOptions) apply(s *vectorize.Settings, changed func(string) bool) error {
	a := &s.Analysis
	if changed("analyzer") {
		switch o.analyzer {
		case "word", "":
			a.Analyzer, a.CharMin, a.CharMax = "", 0, 0
		case "char", "char_wb":
			a.Analyzer = o.analyzer
		default:
			return usageErrorf("--analyzer must be word, char or char_wb, got %q", o.analyzer)
		}
	}
	if a.Analyzer != "" && (changed("analyzer") || changed("char-ngram")) {
		lo, hi, err := parseRange(o.charNGram)
		if err != nil {
			return usageErrorf("--char-ngram: %v", err)
		}
		a.CharMin, a.CharMax = lo, hi
		if !changed("ngram") {
			s.NGramMin, s.NGramMax = 1, 1
		}
		if !changed("stop-words") {
			s.StopWords = ""
		}
		if !changed("fields") {
			s.Fields = ""
		}
		if !changed("subwords") {
			a.SubwordMin, a.SubwordMax = 0, 0
		}
		a.CJKBigrams = false
	} else if changed("char-ngram") {
		return usageErrorf("--char-ngram is for --analyzer char or char_wb")
	}
	if changed("subwords") {
		if v := strings.TrimSpace(o.subwords); v == "none" || v == "0" || v == "" {
			a.SubwordMin, a.SubwordMax = 0, 0
		} else {
			lo, hi, err := parseRange(v)
			if err != nil {
				return usageErrorf("--subwords: %v", err)
			}
			a.SubwordMin, a.SubwordMax = lo, hi
		}
	}
	if changed("cjk-bigrams") {
		a.CJKBigrams = o.cjkBigrams
	}
	if changed("unicode-norm") {
		switch o.normalize {
		case "none", "":
			a.Normalize = ""
		default:
			a.Normalize = o.normalize
		}
	}
	if changed("case-fold") {
		a.CaseFold = o.caseFold
	}
	if changed("strip-accents") {
		a.StripAccents = o.stripAccents
	}
	if changed("token-pattern") {
		a.TokenPattern = o.tokenPattern
	}
	return nil
}
