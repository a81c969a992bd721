package counts

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Header is what a counts file says before its terms: the settings the
// documents were counted with, the digest of the round-one vocabulary
// when the weighted sums were counted over one (round two), and the
// classes with their document counts.
type Header struct {
	// Settings are the vectorizer settings of the count, what the corpus
	// reader stripped (Remove) included. Pruning and weighting apply when a
	// model is fitted: a count keeps every term it meets (round one) or
	// every term of its vocabulary that it meets (round two).
	Settings vectorize.Settings `json:"settings"`
	// Vocab is the hex SHA-256 of the vocabulary (VocabDigest) the
	// weighted sums follow; empty in round one, whose cells hold no sums.
	Vocab string `json:"vocab,omitempty"`
	// Classes are the class names of the counted documents, ascending and
	// distinct; ClassDocs[c] ≥ 1 is the number of documents of class c.
	Classes   []string `json:"classes"`
	ClassDocs []int64  `json:"class_docs"`
	// Inputs record what was counted: each input, by content, and the
	// shards of it (see inputs.go), ordered by digest; nil in counts of
	// older nbtext, and in sums with such counts, which cannot say.
	Inputs []Input `json:"inputs,omitempty"`
}

// Weighted reports whether the cells carry weighted sums (round two).
func (h *Header) Weighted() bool { return h.Vocab != "" }

// Documents returns the number of counted documents, Σ ClassDocs.
func (h *Header) Documents() int64 {
	var n int64
	for _, d := range h.ClassDocs {
		n += d
	}
	return n
}

// Cell is the statistics of one term in one class: the documents of the
// class that hold the term, the term's occurrences in them (field terms
// count their weight), and in round two the sum of the term's weighted
// values in them.
type Cell struct {
	Class int32
	Docs  int64
	Occ   int64
	Sum   Fixed
}

// Counts are the sufficient statistics of the Naive Bayes models for one
// set of documents: Header, and for each term (ascending byte order) its
// cells, one per class whose documents hold it, by ascending class. The
// cells of term i are Cells[Start[i]:Start[i+1]].
type Counts struct {
	Header
	Terms []string
	Start []int
	Cells []Cell
	// Names are, with feature hashing (Settings.HashBits), by term the
	// most frequent terms of the bucket (see names.go); nil otherwise.
	Names [][]vectorize.TermCount
}

// Row returns the cells of term i.
func (c *Counts) Row(i int) []Cell { return c.Cells[c.Start[i]:c.Start[i+1]] }

// Len returns the number of terms.
func (c *Counts) Len() int { return len(c.Terms) }

// NeedsVocab reports whether models with settings s weight a term by
// something that depends on the whole corpus or on the other terms kept:
// idf (tfidf) or the row norm (l2). Those values can only be summed in a
// second round, over the vocabulary of the first.
func NeedsVocab(s vectorize.Settings) bool {
	return s.Weighting == "tfidf" || s.Norm == "l2"
}

// countSettings returns s with the fields that only pruning and weighting
// read cleared to their defaults, as the round-one tokenizer sees them.
func countSettings(s vectorize.Settings) vectorize.Settings {
	d := vectorize.DefaultSettings()
	s.MinDF, s.MaxDF, s.MaxFeatures, s.Select = d.MinDF, d.MaxDF, d.MaxFeatures, d.Select
	s.Weighting, s.Sublinear, s.Norm = d.Weighting, d.Sublinear, d.Norm
	return s
}

// VocabDigest returns the hex SHA-256 of what the weighting of v reads:
// its document count and each term with its df and cf, in id order.
func VocabDigest(v *vectorize.Vocabulary) string {
	h := sha256.New()
	var b [binary.MaxVarintLen64]byte
	put := func(x uint64) { h.Write(b[:binary.PutUvarint(b[:], x)]) }
	put(uint64(v.NDocs))
	for i, t := range v.Terms {
		put(uint64(len(t)))
		h.Write([]byte(t))
		put(uint64(v.DF[i]))
		put(uint64(v.CF[i]))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Compatible reports why counts with header b cannot be added to counts
// with header a (nil if they can): settings or round-one vocabularies that
// differ. aName and bName name them in the error.
func Compatible(a, b *Header, aName, bName string) error {
	if a.Settings != b.Settings {
		return fmt.Errorf("%s and %s were counted with different settings: %s", aName, bName, settingsDiff(a.Settings, b.Settings, aName, bName))
	}
	if a.Vocab != b.Vocab {
		switch {
		case a.Vocab == "" || b.Vocab == "":
			return fmt.Errorf("%s and %s are of different rounds: one was counted with --vocab, the other without", aName, bName)
		default:
			return fmt.Errorf("%s and %s were counted over different vocabularies (--vocab): %.12s… and %.12s…", aName, bName, a.Vocab, b.Vocab)
		}
	}
	return nil
}

// settingsDiff names the settings that differ, by their JSON names.
func settingsDiff(a, b vectorize.Settings, aName, bName string) string {
	var ma, mb map[string]any
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	json.Unmarshal(ja, &ma)
	json.Unmarshal(jb, &mb)
	keys := make([]string, 0, len(ma)+len(mb))
	for k := range ma {
		keys = append(keys, k)
	}
	for k := range mb {
		if _, ok := ma[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var diff string
	for _, k := range keys {
		va, vb := fmt.Sprint(ma[k]), fmt.Sprint(mb[k])
		if _, ok := ma[k]; !ok {
			va = `""`
		}
		if _, ok := mb[k]; !ok {
			vb = `""`
		}
		if va != vb {
			if diff != "" {
				diff += ", "
			}
			diff += fmt.Sprintf("%s %s in %s, %s in %s", k, va, aName, vb, bName)
		}
	}
	return diff
}

// sortedClasses returns the distinct names of labels, ascending, and the
// id of each label in them.
func sortedClasses(labels []string) ([]string, []int32) {
	names := slices.Clone(labels)
	slices.Sort(names)
	names = slices.Compact(names)
	ids := make([]int32, len(labels))
	idx := make(map[string]int32, len(names))
	for i, s := range names {
		idx[s] = int32(i)
	}
	for i, l := range labels {
		ids[i] = idx[l]
	}
	return names, ids
}
