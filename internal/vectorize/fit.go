package vectorize

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
)

// collectTerms is the number of distinct terms (n-grams included) the
// workers' tables must hold for finishFit to collect them: 20 Newsgroups'
// train split with bigrams has 740,000.
const collectTerms = 1 << 19

// batchSize is the number of documents a worker takes at a time. Small
// enough to balance two busy cores, large enough that the atomic counter
// and the per-batch bookkeeping cost nothing.
const batchSize = 32

// Fit builds the vocabulary of texts under s and returns it with the count
// matrix of the same texts (row i = texts[i], values = occurrences), in one
// tokenizing pass: fit and transform together.
//
// Tokenizing runs on workers goroutines (0 means runtime.GOMAXPROCS), each
// with its own term table; the tables are merged at the end, so the result
// does not depend on the number of workers. Terms are pruned in
// scikit-learn's order:
//
//  1. document frequency: keep MinDF ≤ df ≤ MaxDF·n (n = len(texts));
//
//  2. MaxFeatures: keep the MaxFeatures terms of highest df, ties broken by
//     ascending term (scikit-learn ranks by corpus frequency cf instead);
//
//  3. Select "mi:K": keep the K terms of highest mutual information between
//     the presence of the term in a document and its class, ties broken by
//     ascending term (McCallum & Nigam 1998; Rainbow's information gain):
//
//     MI(t) = Σ_c Σ_{x∈{0,1}} P(c, x) · ln( P(c, x) / (P(c) · P(x)) )
//
//     with P estimated from document counts and 0·ln 0 = 0. Only this step
//     reads labels (values in 0..nClasses-1, one per text); otherwise
//     labels may be nil.
//
// The surviving terms are sorted ascending and numbered in that order; DF
// and CF are their document and corpus frequencies in texts. progress, if
// not nil, is called now and then with the number of documents tokenized
// so far and len(texts), from one goroutine at a time, ending with
// (len(texts), len(texts)).
//
// Fit fails on invalid settings, on labels that do not match texts when
// Select needs them, and when no term is left.
func Fit(texts []string, labels []int, nClasses int, s Settings, workers int, progress func(done, total int)) (*Vocabulary, *Matrix, error) {
	return fit(texts, labels, nClasses, s, workers, progress, true)
}

// FitVocabulary is Fit without the count matrix, for when only the
// vocabulary is wanted (nbtext vocab): it skips building the matrix, about
// a fifth of Fit's time.
func FitVocabulary(texts []string, labels []int, nClasses int, s Settings, workers int, progress func(done, total int)) (*Vocabulary, error) {
	v, _, err := fit(texts, labels, nClasses, s, workers, progress, false)
	return v, err
}

// fit is Fit; it builds the matrix only when wantMatrix.
func fit(texts []string, labels []int, nClasses int, s Settings, workers int, progress func(done, total int), wantMatrix bool) (*Vocabulary, *Matrix, error) {
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	n := len(texts)
	labels, nClasses, err := checkFitLabels(s, labels, nClasses, n)
	if err != nil {
		return nil, nil, err
	}
	if err := checkFitDF(s, n); err != nil {
		return nil, nil, err
	}

	// Tokenize: each worker counts into its own table and rows.
	nb := (n + batchSize - 1) / batchSize
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, nb))
	var filter *dfFilter
	if sk := ngramFilter(texts, s, workers); sk != nil {
		filter = sk.filter(s.MinDF)
	}
	ws := make([]*fitWorker, workers)
	batches := make([]*batch, nb)
	var next, done, reported atomic.Int64
	var mu sync.Mutex
	step := int64(max(n/100, 1024))
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = newFitWorker(s, w)
		ws[w].filter = filter
		wg.Add(1)
		go func(fw *fitWorker) {
			defer wg.Done()
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					return
				}
				lo, hi := b*batchSize, min((b+1)*batchSize, n)
				batches[b] = &batch{first: lo}
				fw.process(batches[b], texts[lo:hi])
				if progress != nil {
					dn := done.Add(int64(hi - lo))
					if dn-reported.Load() >= step && dn < int64(n) && mu.TryLock() {
						if dn > reported.Load() {
							reported.Store(dn)
							progress(int(dn), n)
						}
						mu.Unlock()
					}
				}
			}
		}(ws[w])
	}
	wg.Wait()
	for _, w := range ws {
		w.filter = nil // no longer needed: let it go before the merge
	}
	filter = nil
	v, m, err := finishFit(s, ws, batches, n, nil, labels, nClasses, workers, wantMatrix, false, nil)
	if err == nil && progress != nil {
		progress(n, n)
	}
	return v, m, err
}

// prefilter turns ngramFilter on; tests turn it off to compare.
var prefilter = true

// ngramFilter returns, when s asks for n-grams (n ≥ 2) with a MinDF of 2
// to 255, a sketch of the n-gram occurrences of texts (see dfSketch),
// counted on workers goroutines; else nil.
func ngramFilter(texts []string, s Settings, workers int) *dfSketch {
	if !wantFilter(s) {
		return nil
	}
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	occ := size / 8 * (s.NGramMax - max(s.NGramMin, 2) + 1) // about a word per 8 bytes of text
	sks := make([]*dfSketch, workers)
	nb := (len(texts) + batchSize - 1) / batchSize
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range sks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sk, tok := newDFSketch(occ, s.MinDF), NewTokenizer(s)
			var buf []uint64
			for {
				b := int(next.Add(1) - 1)
				if b >= nb {
					break
				}
				buf = sketchNGrams(tok, sk, texts[b*batchSize:min((b+1)*batchSize, len(texts))], buf)
			}
			sks[w] = sk
		}()
	}
	wg.Wait()
	for _, o := range sks[1:] {
		sks[0].merge(o)
	}
	return sks[0]
}

// wantFilter reports whether Fit and FitStream sketch the n-grams of s
// first (see dfSketch): n-grams and a MinDF of 2 to 255.
func wantFilter(s Settings) bool {
	return prefilter && s.HashBits == 0 && s.NGramMax >= 2 && s.MinDF >= 2 && s.MinDF <= 255
}

// checkFitLabels checks labels against the n documents when s.Select needs
// them, and returns nil labels and 0 classes when it does not.
func checkFitLabels(s Settings, labels []int, nClasses, n int) ([]int, int, error) {
	k, _ := s.SelectK()
	if k == 0 {
		return nil, 0, nil
	}
	if len(labels) != n {
		return nil, 0, fmt.Errorf("--select %s needs a label for each document: %d labels for %d documents", s.Select, len(labels), n)
	}
	for i, l := range labels {
		if l < 0 || l >= nClasses {
			return nil, 0, fmt.Errorf("document %d has label %d, want 0..%d", i, l, nClasses-1)
		}
	}
	return labels, nClasses, nil
}

// checkFitDF reports document frequency bounds that no term of n documents
// can meet.
func checkFitDF(s Settings, n int) error {
	maxDoc := s.MaxDF * float64(n)
	if maxDoc < float64(s.MinDF) && n > 0 {
		return fmt.Errorf("--max-df %g keeps terms in at most %g of %d documents, fewer than --min-df %d", s.MaxDF, maxDoc, n, s.MinDF)
	}
	return nil
}

// finishFit turns the workers' counts into the vocabulary and, when
// wantMatrix, the count matrix. nseq documents were tokenized, batch k
// holding numbers k*batchSize onwards; document i of the result is number
// order[i] (nil: number i), and numbers order leaves out are dropped.
// labels (checked by checkFitLabels) are by result document. With
// relaxMinDF, a MinDF above 1 that would keep no term is lowered to 1 (see
// FitStream.RelaxMinDF).
//
// unpruned, when not nil, gets the number of distinct terms before
// pruning.
func finishFit(s Settings, ws []*fitWorker, batches []*batch, nseq int, order []int, labels []int, nClasses, workers int, wantMatrix, relaxMinDF bool, unpruned *int) (*Vocabulary, *Matrix, error) {
	n := nseq
	var pos []int32 // document number → result document, or -1; nil: the same
	if order != nil {
		n = len(order)
		pos = make([]int32, nseq)
		for i := range pos {
			pos[i] = -1
		}
		for i, q := range order {
			if q < 0 || q >= nseq || pos[q] >= 0 {
				return nil, nil, fmt.Errorf("document order: entry %d is %d, want distinct numbers in 0..%d", i, q, nseq-1)
			}
			pos[q] = int32(i)
		}
	}
	ngrams, seen := false, 0
	for _, w := range ws { // the n-gram indexes are done with: let them go
		ngrams = ngrams || w.pairs != nil
		w.words, w.pairs, w.filter = nil, nil, nil
		if w.table != nil {
			seen += w.table.len()
		}
	}
	// collect: with n-grams, the indexes are the largest garbage of the
	// fit (every n-gram seen, with its bytes), and sorting, merging and
	// assembling allocate about as much again: collect them first and
	// return their pages, so that the peak is the larger of the two, not
	// their sum plus the collector's headroom. A collection costs a few
	// milliseconds: small fits skip it.
	collect := ngrams && seen >= collectTerms
	if collect {
		debug.FreeOSMemory()
	}
	// Statistics of each worker's terms, then their sorted order.
	var wg sync.WaitGroup
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.tally(pos, labels, nClasses)
			w.sortTerms()
		}()
	}
	wg.Wait()

	// Merge the workers' sorted terms into their sorted union.
	g := mergeTerms(ws, nClasses)
	if len(g.terms) == 0 {
		return nil, nil, ErrEmptyVocabulary
	}

	// Prune.
	if unpruned != nil {
		*unpruned = len(g.terms)
	}
	if relaxMinDF && s.MinDF > 1 && !anyWithinDF(s, g.df, n) {
		s.MinDF = 1 // recorded in the vocabulary's settings
	}
	var classDocs []int
	if k, _ := s.SelectK(); k > 0 {
		classDocs = make([]int, nClasses)
		for _, l := range labels {
			classDocs[l]++
		}
	}
	keep, err := Prune(s, g.df, g.cdf, classDocs, n)
	if err != nil {
		return nil, nil, err
	}
	final := make([]int32, len(g.terms)) // global id → final id, or -1
	for i := range final {
		final[i] = -1
	}
	terms := make([]string, len(keep))
	df := make([]int32, len(keep))
	cf := make([]int64, len(keep))
	for i, id := range keep {
		final[id] = int32(i)
		terms[i], df[i], cf[i] = g.terms[id], g.df[id], g.cf[id]
	}
	packStrings(terms) // so the vocabulary holds no worker memory
	v := newVocabulary(s, terms, df, cf, n)
	if s.HashBits > 0 {
		v.Names = bucketNames(ws, g, keep)
	}

	var m *Matrix
	if wantMatrix {
		// The vocabulary holds copies: the workers' sorted terms and
		// their union are garbage, as big as the matrix when there are
		// n-grams. Collect them before assembling allocates it.
		for _, w := range ws {
			w.sorted, w.sortedDF, w.sortedCF, w.sortedCDF = nil, nil, nil, nil
		}
		g.terms, g.df, g.cf, g.cdf = nil, nil, nil, nil
		if collect {
			runtime.GC()
		}
		m = assemble(batches, g.local, final, df, n, order, pos, workers)
	}
	return v, m, nil
}

// anyWithinDF reports whether a term of document frequencies df (of n
// documents) is within s's MinDF and MaxDF.
func anyWithinDF(s Settings, df []int32, n int) bool {
	maxDoc := s.MaxDF * float64(n)
	for _, d := range df {
		if int(d) >= s.MinDF && float64(d) <= maxDoc {
			return true
		}
	}
	return false
}

// ErrEmptyVocabulary is the error of Fit when the documents hold no term.
var ErrEmptyVocabulary = errors.New("empty vocabulary: the documents hold no tokens, or only stop words")

// ErrPrunedAll is the error of Prune when min_df, max_df or the selection
// keep no term.
var ErrPrunedAll = errors.New("no terms left after pruning")

// Prune returns the ids of the terms that s keeps, ascending, as Fit
// prunes them (see Fit: document frequency, then MaxFeatures, then Select
// "mi:K"). Term id t (ids in ascending term order) is in df[t] of n
// documents; when s.Select is set, cdf[t*C+c] of them are in class c,
// which holds classDocs[c] documents (C = len(classDocs)); otherwise cdf
// and classDocs may be nil. It fails when no term is left. Fit and the
// training of NB models from counts (internal/counts) share it, so a
// vocabulary pruned from counts is the one Fit builds.
func Prune(s Settings, df []int32, cdf []int32, classDocs []int, n int) ([]int32, error) {
	k, _ := s.SelectK()
	maxDoc := s.MaxDF * float64(n)    // as scikit-learn: df ≤ max_df·n, in floating point
	keep := make([]int32, 0, len(df)) // ids kept, ascending
	for id, d := range df {
		if int(d) >= s.MinDF && float64(d) <= maxDoc {
			keep = append(keep, int32(id))
		}
	}
	if s.MaxFeatures > 0 && len(keep) > s.MaxFeatures {
		slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(df[b], df[a]) })
		keep = keep[:s.MaxFeatures]
		slices.Sort(keep)
	}
	if k > 0 && len(keep) > k {
		nClasses := len(classDocs)
		if len(cdf) != len(df)*nClasses {
			return nil, fmt.Errorf("--select %s needs the class document frequencies of every term", s.Select)
		}
		mi := make([]float64, len(df))
		for _, id := range keep {
			mi[id] = MutualInformation(cdf[int(id)*nClasses:int(id+1)*nClasses], classDocs, int(df[id]), n)
		}
		slices.SortStableFunc(keep, func(a, b int32) int { return cmp.Compare(mi[b], mi[a]) })
		keep = keep[:k]
		slices.Sort(keep)
	}
	if len(keep) == 0 {
		return nil, fmt.Errorf("%w: lower --min-df (%d) or raise --max-df (%g)", ErrPrunedAll, s.MinDF, s.MaxDF)
	}
	return keep, nil
}

// MutualInformation returns the mutual information between the presence of
// a term and the class, as Select "mi:K" ranks terms (McCallum & Nigam
// 1998): the term is in df of n documents, cdf[c] of them in class c, which
// holds classDocs[c] documents.
//
//	MI(t) = (1/n) Σ_c Σ_{e∈{0,1}} N_ce · ln(N_ce · n / (N_c · N_e))
//
// with N_ce the documents of class c with (e=1) or without (e=0) the term
// and N_e the documents with or without it; empty cells contribute 0.
// Callers that restrict a vocabulary themselves (eval's learning curves)
// use it so that ties break exactly as Fit's do.
func MutualInformation(cdf []int32, classDocs []int, df, n int) float64 {
	N := float64(n)
	p1 := float64(df)
	p0 := float64(n - df)
	mi := 0.0
	for c, a := range cdf {
		nc := float64(classDocs[c])
		if a > 0 {
			x := float64(a)
			mi += x * math.Log(x*N/(nc*p1))
		}
		if b := classDocs[c] - int(a); b > 0 {
			x := float64(b)
			mi += x * math.Log(x*N/(nc*p0))
		}
	}
	return mi / N
}
