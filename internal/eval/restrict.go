package eval

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// This file realises "refit the vocabulary on a subset of the documents"
// without tokenizing again. The documents are tokenized once against their
// full, unpruned vocabulary (vectorize.Fit with min_df 1, max_df 1, no
// max_features, no selection, count values). Refitting on a subset S with
// settings s is then a column restriction: vectorize.Fit on S's texts would
// see exactly the terms of the full vocabulary whose document frequency in
// S is positive, with their df and cf counted over S, prune them in the
// same order by the same rules (df window, max_features, mutual
// information, each with ties broken by ascending term), and number the
// survivors in ascending term order, which the full vocabulary's ids
// already follow. Restricting S's count rows to the survivors and renumbering
// gives the matrix Fit would return; documents outside S (held-out or test)
// are Transform'ed by dropping the terms the restricted vocabulary lacks.
// TestRestrictMatchesFit checks the equivalence against vectorize.Fit.

// baseSettings returns the unpruned count settings that tokenize as s does:
// everything of s that decides tokenization, and nothing else. Models whose
// baseSettings are equal share one tokenization (it is the key of that
// sharing, so key and tokenizer cannot disagree).
func baseSettings(s vectorize.Settings) vectorize.Settings {
	return vectorize.Settings{
		Lowercase: s.Lowercase, StopWords: s.StopWords, NGramMin: s.NGramMin, NGramMax: s.NGramMax,
		Fields: s.Fields, Remove: s.Remove, MinDF: 1, MaxDF: 1, Weighting: "count", Norm: "none",
		HashBits: s.HashBits, // buckets are the terms
		Analysis: s.Analysis,
	}
}

// tokenized is a set of documents tokenized once: the full vocabulary's
// terms (ascending) and the count matrix of the documents over them.
type tokenized struct {
	terms []string
	X     *vectorize.Matrix
}

// tokenize fits the full vocabulary of texts with s's tokenizer and returns
// it with the count rows of texts and, when extra is not nil, the count
// rows of extra over the same vocabulary (terms unseen in texts dropped).
func tokenize(texts []string, s vectorize.Settings, workers int, extra []string) (*tokenized, *vectorize.Matrix, error) {
	v, X, err := vectorize.Fit(texts, nil, 0, baseSettings(s), workers, nil)
	if err != nil {
		return nil, nil, err
	}
	var E *vectorize.Matrix
	if extra != nil {
		E = v.Transform(extra, workers)
	}
	return &tokenized{terms: v.Terms, X: X}, E, nil
}

// scratch holds per-goroutine buffers over the full vocabulary.
type scratch struct {
	df    []int32
	cf    []int64
	cdf   []int32   // term × class, for mutual information
	mi    []float64 // mutual information per term
	newID []int32
}

func newScratch(V int) *scratch {
	return &scratch{df: make([]int32, V), cf: make([]int64, V), newID: make([]int32, V)}
}

// restriction is a refitted vocabulary and the map from full-vocabulary ids
// to its ids (-1 for terms it lacks). newID aliases the scratch buffer and
// is valid until the scratch is used again.
type restriction struct {
	vocab *vectorize.Vocabulary
	newID []int32
}

// restrict returns the vocabulary vectorize.Fit would build with settings
// s from the documents rows of tk (labels y indexed like tk's rows, used by
// mutual-information selection only, with nClasses classes).
func (tk *tokenized) restrict(rows []int, y []int, nClasses int, s vectorize.Settings, sc *scratch) (*restriction, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	k, _ := s.SelectK()
	n := len(rows)
	maxDoc := int(math.Floor(s.MaxDF*float64(n) + 1e-9))
	if maxDoc < s.MinDF && n > 0 {
		return nil, fmt.Errorf("--max-df %g keeps terms in at most %d of %d documents, fewer than --min-df %d", s.MaxDF, maxDoc, n, s.MinDF)
	}
	V := len(tk.terms)
	df, cf := sc.df[:V], sc.cf[:V]
	clear(df)
	clear(cf)
	var cdf []int32
	var classDocs []int
	if k > 0 {
		if len(sc.cdf) < V*nClasses {
			sc.cdf = make([]int32, V*nClasses)
		}
		cdf = sc.cdf[:V*nClasses]
		clear(cdf)
		classDocs = make([]int, nClasses)
	}
	for _, r := range rows {
		ind, val := tk.X.Row(r)
		for j, t := range ind {
			df[t]++
			cf[t] += int64(val[j])
		}
		if k > 0 {
			c := y[r]
			classDocs[c]++
			for _, t := range ind {
				cdf[int(t)*nClasses+c]++
			}
		}
	}
	keep := make([]int32, 0, V)
	seen := false
	for t, d := range df {
		if d > 0 {
			seen = true
			if int(d) >= s.MinDF && int(d) <= maxDoc {
				keep = append(keep, int32(t))
			}
		}
	}
	if !seen {
		return nil, errors.New("empty vocabulary: the documents hold no tokens, or only stop words")
	}
	if s.MaxFeatures > 0 && len(keep) > s.MaxFeatures {
		slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(df[b], df[a]) })
		keep = keep[:s.MaxFeatures]
		slices.Sort(keep)
	}
	if k > 0 && len(keep) > k {
		if len(sc.mi) < V {
			sc.mi = make([]float64, V)
		}
		mi := sc.mi[:V]
		for _, t := range keep {
			mi[t] = vectorize.MutualInformation(cdf[int(t)*nClasses:int(t+1)*nClasses], classDocs, int(df[t]), n)
		}
		slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(mi[b], mi[a]) })
		keep = keep[:k]
		slices.Sort(keep)
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("no terms left after pruning: lower --min-df (%d) or raise --max-df (%g)", s.MinDF, s.MaxDF)
	}
	newID := sc.newID[:V]
	for i := range newID {
		newID[i] = -1
	}
	terms := make([]string, len(keep))
	vdf := make([]int32, len(keep))
	vcf := make([]int64, len(keep))
	for i, t := range keep {
		newID[t] = int32(i)
		terms[i], vdf[i], vcf[i] = tk.terms[t], df[t], cf[t]
	}
	v, err := vectorize.NewVocabulary(s, terms, vdf, vcf, n)
	if err != nil {
		return nil, err
	}
	return &restriction{vocab: v, newID: newID}, nil
}

// apply returns the rows of X (all rows when rows is nil) over the
// restricted vocabulary, weighted as its settings say: what
// train.PrepareWith(vocab, texts) would give for those documents.
func (r *restriction) apply(X *vectorize.Matrix, rows []int) *vectorize.Matrix {
	n := X.Rows()
	if rows != nil {
		n = len(rows)
	}
	row := func(i int) int {
		if rows != nil {
			return rows[i]
		}
		return i
	}
	nnz := 0
	for i := range n {
		ind, _ := X.Row(row(i))
		for _, t := range ind {
			if r.newID[t] >= 0 {
				nnz++
			}
		}
	}
	out := &vectorize.Matrix{
		Indptr:  make([]int, 1, n+1),
		Indices: make([]int32, 0, nnz),
		Values:  make([]float32, 0, nnz),
		Cols:    r.vocab.Len(),
	}
	for i := range n {
		ind, val := X.Row(row(i))
		for j, t := range ind {
			if id := r.newID[t]; id >= 0 {
				out.Indices = append(out.Indices, id)
				out.Values = append(out.Values, val[j])
			}
		}
		out.Indptr = append(out.Indptr, len(out.Indices))
	}
	r.vocab.Weight(out)
	return out
}

// prunedSize returns how many of tk's terms survive s's document-frequency
// pruning (MinDF, MaxDF, MaxFeatures) on all of tk's documents: the
// vocabulary of a model fitted on the whole split before any selection.
func prunedSize(tk *tokenized, s vectorize.Settings) int {
	df := make([]int, len(tk.terms))
	for _, t := range tk.X.Indices {
		df[t]++
	}
	maxDoc := float64(tk.X.Rows()) // as vectorize.Fit: df ≤ MaxDF·n, in floating point
	if s.MaxDF > 0 {
		maxDoc *= s.MaxDF
	}
	kept := 0
	for _, d := range df {
		if d >= max(s.MinDF, 1) && float64(d) <= maxDoc {
			kept++
		}
	}
	if s.MaxFeatures > 0 {
		kept = min(kept, s.MaxFeatures)
	}
	return kept
}
