package vectorize

import (
	"fmt"
	"io"
	"math"
	"sync"
	"text/tabwriter"
)

// Vocabulary maps terms to column ids. Ids are positions in Terms, which
// Fit and ReadTSV sort in ascending byte (= code point) order, so that a
// vocabulary rebuilt from the same terms assigns the same ids. It also
// carries the document frequencies needed for tf-idf and the settings that
// produced it.
//
// Build a Vocabulary with Fit, NewVocabulary or ReadTSV, never as a struct
// literal: they set up its index (built on first use) and its idf cache.
// Once built it is read-only and safe for concurrent use.
type Vocabulary struct {
	Settings Settings
	Terms    []string
	DF       []int32 // documents containing each term, in the fitted corpus
	CF       []int64 // total occurrences of each term, in the fitted corpus
	NDocs    int     // documents in the fitted corpus
	// Names, for a hashed vocabulary (Settings.HashBits), are by term id
	// the most frequent terms the bucket holds, at most MaxBucketNames,
	// count descending (see DisplayName); nil when unknown or unhashed.
	Names [][]TermCount

	lazy *vocabIndex
}

// vocabIndex is what a Vocabulary computes on first use: its term table
// and idf. Behind a pointer so that copies of a Vocabulary share it.
type vocabIndex struct {
	once  sync.Once
	table *termTable // term → id
	dup   int        // position of a second occurrence of a term, or -1
	// noStop: no stop word is a term, so a unigram tokenizer need not
	// remove them: the table lookup drops them as unknown terms.
	noStop bool

	// The idf, built on its own first use: weighting needs it, not the
	// term table (which, for a few hundred thousand n-grams, is tens of
	// MB that a training run never looks up).
	idfOnce sync.Once
	idf     []float32
}

// Len returns the number of terms.
func (v *Vocabulary) Len() int { return len(v.Terms) }

// NewVocabulary rebuilds a vocabulary from its stored fields (as decoded
// from a vocabulary or model file) and indexes it. Ids are positions in
// terms, in the order given: Fit and ReadTSV give them sorted, and a model
// file that stores them in id order gets the same ids back. Terms must be
// distinct; df and cf must have one entry per term, with 0 ≤ df ≤ nDocs.
// The slices are kept, not copied. s is taken as it is: validate it first
// (Settings.Validate) if it comes from outside.
func NewVocabulary(s Settings, terms []string, df []int32, cf []int64, nDocs int) (*Vocabulary, error) {
	v, err := checkedVocabulary(s, terms, df, cf, nDocs)
	if err != nil {
		return nil, err
	}
	if dup := v.index().dup; dup >= 0 {
		return nil, fmt.Errorf("vocabulary term %q appears twice", terms[dup])
	}
	return v, nil
}

// NewSortedVocabulary is NewVocabulary for terms in strictly ascending
// byte order (as Fit and merged counts give them), distinct by that: it
// checks their order instead of indexing them to find a duplicate, and
// leaves the index to be built on first use (Lookup), which a vocabulary
// that is only stored (a fitted model's) never needs.
func NewSortedVocabulary(s Settings, terms []string, df []int32, cf []int64, nDocs int) (*Vocabulary, error) {
	for i := 1; i < len(terms); i++ {
		if terms[i] <= terms[i-1] {
			return nil, fmt.Errorf("vocabulary terms %q and %q are not in ascending byte order", terms[i-1], terms[i])
		}
	}
	return checkedVocabulary(s, terms, df, cf, nDocs)
}

// checkedVocabulary checks the fields of a vocabulary but the distinctness
// of its terms, and wraps them.
func checkedVocabulary(s Settings, terms []string, df []int32, cf []int64, nDocs int) (*Vocabulary, error) {
	if len(df) != len(terms) || len(cf) != len(terms) {
		return nil, fmt.Errorf("vocabulary has %d terms but %d df and %d cf values", len(terms), len(df), len(cf))
	}
	if nDocs < 0 {
		return nil, fmt.Errorf("vocabulary has a negative document count %d", nDocs)
	}
	for i, t := range terms {
		if df[i] < 0 || int(df[i]) > nDocs {
			return nil, fmt.Errorf("vocabulary term %q has df %d, want 0..%d", t, df[i], nDocs)
		}
	}
	if err := checkBuckets(s, terms); err != nil {
		return nil, err
	}
	return newVocabulary(s, terms, df, cf, nDocs), nil
}

// newVocabulary wraps checked fields; the index is built on first use.
func newVocabulary(s Settings, terms []string, df []int32, cf []int64, nDocs int) *Vocabulary {
	return &Vocabulary{Settings: s, Terms: terms, DF: df, CF: cf, NDocs: nDocs, lazy: new(vocabIndex)}
}

// index returns v's term table and idf, building them on first use.
func (v *Vocabulary) index() *vocabIndex {
	x := v.lazy
	if x == nil {
		panic("vectorize: Vocabulary not built by Fit, NewVocabulary or ReadTSV")
	}
	x.once.Do(func() {
		x.table = newTermTable(len(v.Terms))
		x.dup = -1
		for i, t := range v.Terms {
			if id := x.table.add(t); int(id) != i && x.dup < 0 {
				x.dup = i
			}
		}
		x.noStop = true
		for _, w := range englishStopWords {
			if _, ok := x.table.lookup(w); ok {
				x.noStop = false
				break
			}
		}
	})
	return x
}

// idf returns v's idf, computing it on first use.
func (v *Vocabulary) idf() []float32 {
	x := v.lazy
	if x == nil {
		panic("vectorize: Vocabulary not built by Fit, NewVocabulary or ReadTSV")
	}
	x.idfOnce.Do(func() {
		x.idf = make([]float32, len(v.Terms))
		n := float64(v.NDocs)
		for i, d := range v.DF {
			x.idf[i] = float32(math.Log((1+n)/(1+float64(d))) + 1)
		}
	})
	return x.idf
}

// Lookup returns the id of term, and whether the vocabulary has it.
func (v *Vocabulary) Lookup(term string) (int32, bool) {
	return v.index().table.lookup(term)
}

// IDF returns the smoothed inverse document frequency of every term, as
// scikit-learn's TfidfTransformer(smooth_idf=True) computes it:
//
//	idf(t) = ln((1 + n) / (1 + df(t))) + 1
//
// with n = NDocs. The slice is shared: do not modify it.
func (v *Vocabulary) IDF() []float32 { return v.idf() }

// WriteTop writes the n terms of highest document frequency (Top) as a
// table for people: rank, term (DisplayName), df and cf, right-aligned.
func WriteTop(w io.Writer, v *Vocabulary, n int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "rank\tterm\tdf\tcf\t\n")
	for i, id := range v.Top(n) {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\t\n", i+1, v.DisplayName(int(id)), v.DF[id], v.CF[id])
	}
	return tw.Flush()
}

// Top returns the ids of the n terms of highest document frequency, ties
// broken by ascending term (= ascending id): the order of the vocabulary
// file. n ≤ 0 or n ≥ Len returns every id.
func (v *Vocabulary) Top(n int) []int32 {
	if n <= 0 || n > len(v.Terms) {
		n = len(v.Terms)
	}
	// Counting sort by df descending; ids within a df stay ascending.
	maxDF := int32(0)
	for _, d := range v.DF {
		maxDF = max(maxDF, d)
	}
	start := make([]int, maxDF+2)
	for _, d := range v.DF {
		start[maxDF-d+1]++
	}
	for i := 1; i < len(start); i++ {
		start[i] += start[i-1]
	}
	order := make([]int32, len(v.Terms))
	for id, d := range v.DF {
		order[start[maxDF-d]] = int32(id)
		start[maxDF-d]++
	}
	return order[:n]
}
