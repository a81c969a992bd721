package vectorize

import (
	"fmt"
	"strconv"
	"strings"
)

// Settings are everything that turns text into a row: the tokenizer, the
// vocabulary pruning and the weighting. They are written into vocabulary
// files and model files so that predict tokenizes exactly as train did.
type Settings struct {
	// Lowercase folds text to lower case before tokenizing (default true).
	Lowercase bool `json:"lowercase"`
	// StopWords is "" (none) or "english" (scikit-learn's English list).
	StopWords string `json:"stop_words"`
	// NGramMin and NGramMax bound the word n-grams (default 1, 1).
	NGramMin int `json:"ngram_min"`
	NGramMax int `json:"ngram_max"`
	// MinDF keeps terms that occur in at least MinDF documents (default 1).
	MinDF int `json:"min_df"`
	// MaxDF drops terms that occur in more than this fraction of documents:
	// it keeps df ≤ MaxDF·n (default 1.0: keep all).
	MaxDF float64 `json:"max_df"`
	// MaxFeatures keeps the MaxFeatures terms of highest document
	// frequency, ties broken by ascending term (0: all). Unlike
	// scikit-learn's max_features, which ranks by corpus frequency.
	MaxFeatures int `json:"max_features"`
	// Select is "" or "mi:K": keep the K terms of highest mutual information
	// with the class (needs labels at fit time; see Fit).
	Select string `json:"select"`
	// Weighting is "binary", "count" or "tfidf".
	Weighting string `json:"weighting"`
	// Sublinear replaces tf by 1+ln(tf) under tfidf weighting (and is
	// ignored under the others).
	Sublinear bool `json:"sublinear_tf"`
	// Norm is "l2" or "none" ("" means none): divide each row by its
	// Euclidean norm after weighting, whatever the weighting.
	Norm string `json:"norm"`
	// Fields lists header fields whose words also become terms of their
	// own, prefixed by the field name, with a weight: "subject:2" adds, for
	// each word w of a document's Subject header (tokenized as the text,
	// but keeping stop words), the term "subject:w", counted twice. The words
	// stay terms of the text as well. ParseFields reads it; a document
	// without a header block (see Tokenizer.Terms) adds no field terms, and
	// with Remove naming headers Fields is ignored.
	Fields string `json:"fields,omitempty"`
	// Remove records the parts of each document the corpus reader stripped
	// before tokenizing ("headers,footers,quotes", as corpus.ParseRemove
	// reads it), so that predict strips new documents the same way. This
	// package only carries it; internal/corpus does the stripping.
	Remove string `json:"remove,omitempty"`
	// HashBits, when > 0, hashes every term into one of 2^HashBits
	// buckets (feature hashing, as Vowpal Wabbit and scikit-learn's
	// HashingVectorizer): the bucket of a term is the low HashBits bits
	// of HashTerm, and the vocabulary's terms are bucket names
	// (BucketName). Pruning and weighting then act on buckets. 0: no
	// hashing.
	HashBits int `json:"hash_bits,omitempty"`
	// Analysis chooses the analyzer (words, character n-grams, subwords,
	// CJK bigrams, Unicode normalisation); see analyzer.go. Its fields
	// are written inline, and only when set.
	Analysis
}

// headersRemoved reports whether Remove names headers.
func (s Settings) headersRemoved() bool {
	for _, part := range strings.Split(s.Remove, ",") {
		if strings.TrimSpace(part) == "headers" {
			return true
		}
	}
	return false
}

// DefaultSettings returns the tokenizer settings that match scikit-learn's
// CountVectorizer defaults, with count weighting, and CJK bigrams (which
// change nothing in text without Han, Kana, Hangul or Thai).
func DefaultSettings() Settings {
	return Settings{
		Lowercase: true,
		NGramMin:  1,
		NGramMax:  1,
		MinDF:     1,
		MaxDF:     1.0,
		Weighting: "count",
		Norm:      "none",
		Analysis:  Analysis{CJKBigrams: true},
	}
}

// MaxNGram is the longest word n-gram a vocabulary may count (see
// Validate).
const MaxNGram = 5

// Validate reports the first setting that is out of range, naming the
// command-line flag that sets it and the allowed values, e.g.
// "--min-df must be ≥ 1, got 0". The zero Norm ("") means "none".
func (s Settings) Validate() error {
	switch s.StopWords {
	case "", "english":
	default:
		return fmt.Errorf("--stop-words must be english or empty, got %q", s.StopWords)
	}
	if s.NGramMin < 1 {
		return fmt.Errorf("--ngram min must be ≥ 1, got %d", s.NGramMin)
	}
	if s.NGramMin > s.NGramMax {
		return fmt.Errorf("--ngram min must be ≤ max, got %d,%d", s.NGramMin, s.NGramMax)
	}
	if s.NGramMax > MaxNGram {
		return fmt.Errorf("--ngram max must be ≤ %d, got %d: every document has about as many distinct n-grams as words for each n, so the vocabulary grows with n until it holds most of the text (1,50 took 6.7 GB on 20 Newsgroups), while n-grams longer than 3 words rarely help a classifier", MaxNGram, s.NGramMax)
	}
	if s.MinDF < 1 {
		return fmt.Errorf("--min-df must be ≥ 1, got %d", s.MinDF)
	}
	if !(s.MaxDF > 0 && s.MaxDF <= 1) {
		return fmt.Errorf("--max-df must be in (0, 1], got %g", s.MaxDF)
	}
	if s.MaxFeatures < 0 {
		return fmt.Errorf("--max-features must be ≥ 0 (0 keeps all), got %d", s.MaxFeatures)
	}
	if _, err := s.SelectK(); err != nil {
		return err
	}
	if err := s.validateHashBits(); err != nil {
		return err
	}
	if _, err := ParseFields(s.Fields); err != nil {
		return err
	}
	if err := s.Analysis.validate(s); err != nil {
		return err
	}
	switch s.Weighting {
	case "binary", "count", "tfidf":
	default:
		return fmt.Errorf("--weighting must be binary, count or tfidf, got %q", s.Weighting)
	}
	switch s.Norm {
	case "", "none", "l2":
	default:
		return fmt.Errorf("--norm must be l2 or none, got %q", s.Norm)
	}
	return nil
}

// SelectK returns K of a Select setting "mi:K", or 0 when Select is empty.
// Anything else is an error naming the --select flag.
func (s Settings) SelectK() (int, error) {
	if s.Select == "" {
		return 0, nil
	}
	rest, ok := strings.CutPrefix(s.Select, "mi:")
	k, err := strconv.Atoi(rest)
	if !ok || err != nil || k <= 0 {
		return 0, fmt.Errorf("--select must look like mi:K with K > 0, got %q", s.Select)
	}
	return k, nil
}
