package vectorize

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

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
	filter := ngramFilter(texts, s, workers)
	ws := make([]*fitWorker, workers)
	batches := make([]*batch, nb)
	var next, done, reported atomic.Int64
	var mu sync.Mutex
	step := int64(max(n/100, 1024))
	var wg sync.WaitGroup
	for w := range ws {
		ws[w] = newFitWorker(s, w)
		ws[w].filter, ws[w].minDF = filter, s.MinDF
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
	v, m, err := finishFit(s, ws, batches, n, nil, labels, nClasses, workers, wantMatrix, false)
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
			sk, tok := newDFSketch(occ), NewTokenizer(s)
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
	return prefilter && s.NGramMax >= 2 && s.MinDF >= 2 && s.MinDF <= 255
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
func finishFit(s Settings, ws []*fitWorker, batches []*batch, nseq int, order []int, labels []int, nClasses, workers int, wantMatrix, relaxMinDF bool) (*Vocabulary, *Matrix, error) {
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
	for _, w := range ws { // the n-gram indexes are done with: let them go
		w.words, w.pairs, w.filter = nil, nil, nil
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
	size := 0
	for _, id := range keep {
		size += len(g.terms[id])
	}
	buf := make([]byte, 0, size) // one block for the kept terms, so the vocabulary holds no worker memory
	for i, id := range keep {
		final[id] = int32(i)
		n0 := len(buf)
		buf = append(buf, g.terms[id]...)
		terms[i], df[i], cf[i] = unsafe.String(unsafe.SliceData(buf[n0:]), len(buf)-n0), g.df[id], g.cf[id]
	}
	v := newVocabulary(s, terms, df, cf, n)

	var m *Matrix
	if wantMatrix {
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
		return nil, fmt.Errorf("no terms left after pruning: lower --min-df (%d) or raise --max-df (%g)", s.MinDF, s.MaxDF)
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

// batch holds the rows of batchSize consecutive documents (fewer for the
// last), numbered from first, as the worker that took them counted them:
// row r is ids[end[r-1]:end[r]] (from 0 for r = 0), in that worker's local
// ids, each with its count in vals. Storage per batch, sized from the text
// length, avoids growing (and copying) one big array per worker.
type batch struct {
	first  int
	worker int
	end    []int32
	ids    []int32
	vals   []float32
}

// row returns the bounds of row r in b.ids.
func (b *batch) row(r int) (lo, hi int) {
	if r > 0 {
		lo = int(b.end[r-1])
	}
	return lo, int(b.end[r])
}

// fitWorker is one tokenizing goroutine's state: a term table with local
// ids in order of first sight, and the rows of the documents it took, in
// local ids (in order of first occurrence within each document).
//
// With unigrams and stop words, the table starts with the stop words as
// local ids 0..nstop-1: a token is looked up in the table anyway, so
// finding it among the first ids drops it at no extra cost, where a stop
// word set would cost a second lookup per token. Stop ids never enter a
// row and are left out of the worker's sorted terms.
type fitWorker struct {
	id    int
	tok   *Tokenizer
	table *termTable
	nstop int
	seen  []seen // by local id
	doc   int32  // documents taken so far
	chunk []byte // storage for the bytes of new terms

	// With n-grams (see countNGrams): the word table when unigrams are
	// not terms, the n-gram tables by n−2, and scratch slices.
	words           *termTable
	pairs           []*pairTable
	prev, cur2, wid []int32
	fields          []string

	// With a filter (see dfSketch), n-grams whose bound is below minDF
	// are left out.
	filter *dfSketch
	minDF  int

	cur     *batch   // the batch being filled
	batches []*batch // the batches this worker took
	order   []int32  // local ids of the non-stop terms in ascending term order, once done
	nterms  int      // local ids, stop words included, once sorted (the table is then gone)

	// Per local id, from tally: documents, occurrences, and documents of
	// each class (id × nc + class).
	nc  int
	df  []int32
	cf  []int64
	cdf []int32

	// The terms and their statistics in ascending term order, from
	// sortTerms, for mergeTerms to read sequentially.
	sorted    []string
	sortedDF  []int32
	sortedCF  []int64
	sortedCDF []int32
}

// sortTerms sorts the worker's terms and lays out their statistics in that
// order.
func (w *fitWorker) sortTerms() {
	w.order = sortStrings(w.table.terms[w.nstop:])
	for i := range w.order {
		w.order[i] += int32(w.nstop)
	}
	n, nc := len(w.order), w.nc
	w.sorted = make([]string, n)
	w.sortedDF = make([]int32, n)
	w.sortedCF = make([]int64, n)
	if nc > 0 {
		w.sortedCDF = make([]int32, n*nc)
	}
	size := 0
	for _, t := range w.table.terms[w.nstop:] {
		size += len(t)
	}
	// The bytes too, in order, in one block: the merge compares
	// neighbouring terms, which would otherwise be scattered over the
	// chunks in order of first sight, a cache miss each.
	buf := make([]byte, 0, size)
	for i, id := range w.order {
		t := w.table.terms[id]
		n0 := len(buf)
		buf = append(buf, t...)
		w.sorted[i], w.sortedDF[i], w.sortedCF[i] = unsafe.String(unsafe.SliceData(buf[n0:]), len(t)), w.df[id], w.cf[id]
		if nc > 0 {
			copy(w.sortedCDF[i*nc:(i+1)*nc], w.cdf[int(id)*nc:int(id+1)*nc])
		}
	}
	// What is left of the counting is done with: let it go before the
	// merge allocates.
	w.nterms = w.table.len()
	w.table, w.seen, w.chunk, w.df, w.cf, w.cdf = nil, nil, nil, nil, nil, nil
}

// seen is where a term last appeared: the document (1-based, per worker)
// and the term's position in that document's row. It is all that the
// per-token loop touches besides the table, 8 bytes per term, so that
// frequent terms stay in cache; frequencies are tallied from the rows
// afterwards.
type seen struct{ doc, pos int32 }

// newFitWorker returns the state of worker id.
func newFitWorker(s Settings, id int) *fitWorker {
	w := &fitWorker{id: id, tok: NewTokenizer(s), table: newTermTable(1 << 14)}
	if w.tok.nmax > 1 && w.tok.nmin > 1 {
		w.words = newTermTable(1 << 14)
	}
	if w.tok.stop != nil && w.tok.nmax == 1 {
		for _, sw := range englishStopWords {
			w.table.add(sw)
		}
		w.nstop = w.table.len()
		w.seen = make([]seen, w.nstop)
	}
	return w
}

// process tokenizes texts, the documents of b, into b.
func (w *fitWorker) process(b *batch, texts []string) {
	size := 0
	for _, t := range texts {
		size += len(t)
	}
	size = size/10 + 16 // about one distinct term per 12 bytes of news text
	b.worker = w.id
	b.end = make([]int32, 0, len(texts))
	b.ids = make([]int32, 0, size)
	b.vals = make([]float32, 0, size)
	w.cur = b
	w.batches = append(w.batches, b)
	for _, t := range texts {
		w.add(t)
	}
}

// add tokenizes one document and appends its row to the current batch. A
// long unigram document is tokenized in pieces (see nextPiece).
func (w *fitWorker) add(text string) {
	w.doc++
	start := len(w.cur.ids)
	if w.tok.nmax > 1 || len(text) <= longDocument {
		w.count(text, start, true)
	} else {
		for i := 0; i < len(text); {
			j := nextPiece(text, i)
			w.count(text[i:j], start, i == 0)
			i = j
		}
	}
	w.cur.end = append(w.cur.end, int32(len(w.cur.ids)))
}

// count adds the terms of text to the current document's row, which
// starts at w.cur.ids[start]; head says whether text opens the document.
func (w *fitWorker) count(text string, start int, head bool) {
	if w.tok.nmax > 1 {
		w.countNGrams(text, start, head)
		return
	}
	t := w.table
	ids, vals, sn := w.cur.ids, w.cur.vals, w.seen
	doc := w.doc
	var terms []string
	if w.nstop > 0 {
		terms = w.tok.words(text, head) // stop words are dropped below
	} else {
		terms = w.tok.terms(text, head)
	}
	nstop := w.nstop
	for _, term := range terms {
		key, h := keyHash(term, t.seed)
		i, ok := t.find(term, key, h)
		if !ok {
			i = int(t.insertAt(i, w.keep(term), key, h))
			sn = append(sn, seen{})
		} else if i < nstop {
			continue
		}
		if e := &sn[i]; e.doc != doc {
			e.doc = doc
			e.pos = int32(len(ids) - start)
			ids = append(ids, int32(i))
			vals = append(vals, 1)
		} else {
			vals[start+int(e.pos)]++
		}
	}
	w.cur.ids, w.cur.vals, w.seen = ids, vals, sn
}

// countNGrams is count with n-grams. Unigrams and field terms are looked
// up by their text; an n-gram (n ≥ 2) by the pair of its (n−1)-gram
// prefix's id and its last word's id in w.pairs[n-2], which names it
// exactly: its text is built only when it is first seen. No n-gram can
// equal another term (it holds n−1 spaces, which no word or field term
// holds), so n-grams take ids in w.table without entering its slots.
// Words are ids of w.table when unigrams are terms (NGramMin = 1), else
// of w.words, which only feeds the pairs.
func (w *fitWorker) countNGrams(text string, start int, head bool) {
	tok, t := w.tok, w.table
	uni := tok.unigrams(text)
	words := w.words
	if tok.nmin == 1 {
		words = t
	}
	prev := w.prev[:0]
	for _, term := range uni {
		key, h := keyHash(term, words.seed)
		i, ok := words.find(term, key, h)
		if !ok {
			i = int(words.insertAt(i, w.keep(term), key, h))
			if words == t {
				w.seen = append(w.seen, seen{})
			}
		}
		prev = append(prev, int32(i))
		if tok.nmin == 1 {
			w.addToRow(int32(i), start)
		}
	}
	wid := append(w.wid[:0], prev...)
	cur := w.cur2[:0]
	for n := 2; n <= tok.nmax && n <= len(uni); n++ {
		if len(w.pairs) < n-1 {
			w.pairs = append(w.pairs, newPairTable())
		}
		pt := w.pairs[n-2]
		cur = cur[:0]
		for i := 0; i+n <= len(uni); i++ {
			if prev[i] < 0 { // a prefix below MinDF: so is the n-gram
				cur = append(cur, -1)
				continue
			}
			key := pairKey(prev[i], wid[i+n-1])
			j, ok := pt.find(key)
			if !ok && n >= tok.nmin && w.filter != nil && w.filter.estimate(w.gramHash(words, wid[i:i+n])) < w.minDF {
				cur = append(cur, -1)
				continue
			}
			if !ok {
				var id int32
				if n >= tok.nmin {
					id = t.appendTerm(w.keepJoined(uni[i : i+n]))
					w.seen = append(w.seen, seen{})
				} else {
					id = int32(pt.n) // a prefix only: ids of its own
				}
				pt.insertAt(j, key, id)
				j = int(id)
			}
			cur = append(cur, int32(j))
			if n >= tok.nmin {
				w.addToRow(int32(j), start)
			}
		}
		prev, cur = cur, prev
	}
	if head {
		w.fields = tok.appendFields(text, w.fields[:0])
		for _, term := range w.fields {
			key, h := keyHash(term, t.seed)
			i, ok := t.find(term, key, h)
			if !ok {
				i = int(t.insertAt(i, w.keep(term), key, h))
				w.seen = append(w.seen, seen{})
			}
			w.addToRow(int32(i), start)
		}
	}
	w.prev, w.cur2, w.wid = prev, cur, wid
}

// gramHash returns the hash of the n-gram of the words with ids wid in
// table words, as sketchNGrams computes it.
func (w *fitWorker) gramHash(words *termTable, wid []int32) uint64 {
	h := words.hashes[wid[0]]
	for _, id := range wid[1:] {
		h = ngramHash(h, words.hashes[id])
	}
	return h
}

// addToRow counts the term of local id i in the current document's row,
// which starts at w.cur.ids[start].
func (w *fitWorker) addToRow(i int32, start int) {
	b := w.cur
	if e := &w.seen[i]; e.doc != w.doc {
		e.doc = w.doc
		e.pos = int32(len(b.ids) - start)
		b.ids = append(b.ids, i)
		b.vals = append(b.vals, 1)
	} else {
		b.vals[start+int(e.pos)]++
	}
}

// keepJoined is keep of the words joined by single spaces: the text of an
// n-gram, copied once.
func (w *fitWorker) keepJoined(words []string) string {
	size := len(words) - 1
	for _, x := range words {
		size += len(x)
	}
	if size > 1<<12 {
		return strings.Join(words, " ")
	}
	if size > cap(w.chunk)-len(w.chunk) {
		w.chunk = make([]byte, 0, 1<<16)
	}
	n0 := len(w.chunk)
	for k, x := range words {
		if k > 0 {
			w.chunk = append(w.chunk, ' ')
		}
		w.chunk = append(w.chunk, x...)
	}
	return unsafe.String(&w.chunk[n0], size)
}

// tally computes df, cf and cdf (with nc classes) of the worker's terms
// from its rows. pos maps document numbers to result documents (-1:
// dropped; nil: the same), and labels[d] is the class of result document d
// when nc > 0.
func (w *fitWorker) tally(pos []int32, labels []int, nc int) {
	n := w.table.len()
	w.nc = nc
	w.df = make([]int32, n)
	w.cf = make([]int64, n)
	if nc > 0 {
		w.cdf = make([]int32, n*nc)
	}
	for _, b := range w.batches {
		for r := range b.end {
			d := b.first + r
			if pos != nil {
				if d = int(pos[d]); d < 0 {
					continue
				}
			}
			lo, hi := b.row(r)
			for j := lo; j < hi; j++ {
				id := b.ids[j]
				w.df[id]++
				w.cf[id] += int64(b.vals[j])
				if nc > 0 {
					w.cdf[int(id)*nc+labels[d]]++
				}
			}
		}
	}
}

// keep returns a copy of term that outlives the tokenizer's buffers. The
// copies are carved from 64 KiB chunks, one allocation for thousands of
// terms rather than one each; a chunk is never written again once a term
// in it is handed out.
func (w *fitWorker) keep(term string) string {
	if len(term) > cap(w.chunk)-len(w.chunk) {
		if len(term) > 1<<12 {
			return strings.Clone(term)
		}
		w.chunk = make([]byte, 0, 1<<16)
	}
	n0 := len(w.chunk)
	w.chunk = append(w.chunk, term...)
	return unsafe.String(&w.chunk[n0], len(term))
}

// globalTerms is the sorted union of the workers' terms with their summed
// statistics, and for each worker the global id of each local id.
type globalTerms struct {
	terms []string
	df    []int32
	cf    []int64
	cdf   []int32
	local [][]int32
}

// mergeTerms merges the workers' sorted terms (sortTerms) into their
// sorted union, summing the statistics. It is a k-way merge over a heap of
// the workers' next terms; everything it reads and writes but the local
// id map is sequential.
func mergeTerms(ws []*fitWorker, nc int) *globalTerms {
	g := &globalTerms{local: make([][]int32, len(ws))}
	total := 0
	for i, w := range ws {
		g.local[i] = make([]int32, w.nterms)
		total += len(w.sorted)
	}
	if len(ws) == 1 {
		w := ws[0]
		for pos, lid := range w.order {
			g.local[0][lid] = int32(pos)
		}
		g.terms, g.df, g.cf, g.cdf = w.sorted, w.sortedDF, w.sortedCF, w.sortedCDF
		return g
	}
	g.terms = make([]string, 0, total)
	g.df = make([]int32, 0, total)
	g.cf = make([]int64, 0, total)
	pos := make([]int, len(ws))
	less := func(i, j int) bool {
		a, b := ws[i].sorted[pos[i]], ws[j].sorted[pos[j]]
		return a < b || a == b && i < j
	}
	var h []int // min-heap of the workers with terms left, by next term
	down := func(k int) {
		for {
			c := 2*k + 1
			if c >= len(h) {
				return
			}
			if c+1 < len(h) && less(h[c+1], h[c]) {
				c++
			}
			if !less(h[c], h[k]) {
				return
			}
			h[k], h[c] = h[c], h[k]
			k = c
		}
	}
	for i, w := range ws {
		if len(w.sorted) > 0 {
			h = append(h, i)
		}
	}
	for k := len(h)/2 - 1; k >= 0; k-- {
		down(k)
	}
	for len(h) > 0 {
		i := h[0]
		term := ws[i].sorted[pos[i]]
		gid := int32(len(g.terms))
		g.terms = append(g.terms, term)
		g.df = append(g.df, 0)
		g.cf = append(g.cf, 0)
		if nc > 0 {
			g.cdf = append(g.cdf, make([]int32, nc)...)
		}
		for len(h) > 0 {
			i := h[0]
			w, p := ws[i], pos[i]
			if w.sorted[p] != term {
				break
			}
			g.local[i][w.order[p]] = gid
			g.df[gid] += w.sortedDF[p]
			g.cf[gid] += w.sortedCF[p]
			if nc > 0 {
				dst := g.cdf[int(gid)*nc : int(gid+1)*nc]
				for c, x := range w.sortedCDF[p*nc : (p+1)*nc] {
					dst[c] += x
				}
			}
			if pos[i]++; pos[i] == len(w.sorted) {
				h[0] = h[len(h)-1]
				h = h[:len(h)-1]
			}
			down(0)
		}
	}
	return g
}

// sortStrings returns the indices of ss in ascending order of ss[i]
// (byte order, which for UTF-8 is code point order, as Python sorts). ss
// must hold distinct strings without NUL bytes (terms never hold one).
func sortStrings(ss []string) []int32 {
	ids := make([]int32, len(ss))
	for i := range ids {
		ids[i] = int32(i)
	}
	a := make([]radixEntry, len(ss))
	b := make([]radixEntry, len(ss))
	sortFrom(ss, ids, 0, a, b)
	return ids
}

// radixEntry is an 8-byte chunk of a string, big-endian, and its index.
type radixEntry struct {
	key uint64
	id  int32
}

// sortFrom sorts ids by ss[id][depth:]; all of them share their first
// depth bytes. It radix-sorts the 8-byte chunks at depth (LSD, one byte per
// pass, skipping bytes that are the same in every key), then sorts each run
// of equal chunks from depth+8: a string that ends inside the chunk is
// padded with zeros, which sort first, and two distinct strings without NUL
// bytes tie only if both go on. a and b are scratch of len(ids).
func sortFrom(ss []string, ids []int32, depth int, a, b []radixEntry) {
	if len(ids) <= 16 {
		for i := 1; i < len(ids); i++ {
			x := ids[i]
			j := i
			for ; j > 0 && ss[ids[j-1]][depth:] > ss[x][depth:]; j-- {
				ids[j] = ids[j-1]
			}
			ids[j] = x
		}
		return
	}
	for i, id := range ids {
		s := ss[id]
		var k uint64
		for j := depth; j < depth+8; j++ {
			k <<= 8
			if j < len(s) {
				k |= uint64(s[j])
			}
		}
		a[i] = radixEntry{k, id}
	}
	for shift := 0; shift < 64; shift += 8 {
		var count [256]int
		for _, e := range a {
			count[byte(e.key>>shift)]++
		}
		if count[byte(a[0].key>>shift)] == len(a) {
			continue
		}
		sum := 0
		for i, c := range count {
			count[i] = sum
			sum += c
		}
		for _, e := range a {
			d := byte(e.key >> shift)
			b[count[d]] = e
			count[d]++
		}
		a, b = b, a
	}
	for i, e := range a {
		ids[i] = e.id
	}
	for i := 0; i < len(a); {
		j := i + 1
		for j < len(a) && a[j].key == a[i].key {
			j++
		}
		if j-i > 1 {
			sortFrom(ss, ids[i:j], depth+8, a[i:j], b[i:j])
		}
		i = j
	}
}

// assemble builds the final count matrix: row d is the batch row that
// holds document number order[d] (d when order is nil; pos is the inverse,
// -1 for dropped numbers), its local ids mapped to final ids (dropping
// pruned terms) and sorted. Instead of sorting each row it transposes
// twice, each a counting sort in O(nnz): rows → columns, then columns →
// rows, which visits the columns of each row in ascending order.
func assemble(batches []*batch, local [][]int32, final []int32, df []int32, n int, order []int, pos []int32, workers int) *Matrix {
	cols := len(df)
	// Map local ids to final ids in place (−1: pruned) and count survivors.
	indptr := make([]int, n+1)
	parallel(n, workers, func(lo, hi int) {
		for d := lo; d < hi; d++ {
			q := d
			if order != nil {
				q = order[d]
			}
			b := batches[q/batchSize]
			loc := local[b.worker]
			a, e := b.row(q % batchSize)
			kept := 0
			for j := a; j < e; j++ {
				id := final[loc[b.ids[j]]]
				b.ids[j] = id
				if id >= 0 {
					kept++
				}
			}
			indptr[d+1] = kept
		}
	})
	for d := 0; d < n; d++ {
		indptr[d+1] += indptr[d]
	}
	nnz := indptr[n]
	// Columns: colptr from df, which counts exactly the entries of each.
	// An entry of the column form packs its row and value in one word, so
	// the scattering pass makes one random store per entry, not two.
	colptr := make([]int, cols+1)
	for c, x := range df {
		colptr[c+1] = colptr[c] + int(x)
	}
	csc := make([]uint64, nnz)
	parallel(cols, workers, func(c0, c1 int) {
		next := make([]int32, c1-c0) // int32 cursors: half the cache footprint
		for c := c0; c < c1; c++ {
			next[c-c0] = int32(colptr[c])
		}
		for _, b := range batches {
			for r := range b.end {
				d := b.first + r
				if pos != nil {
					if d = int(pos[d]); d < 0 {
						continue // dropped: its ids were never mapped
					}
				}
				a, e := b.row(r)
				row := uint64(d) << 32
				for j := a; j < e; j++ {
					if c := int(b.ids[j]); c >= c0 && c < c1 {
						p := next[c-c0]
						next[c-c0]++
						csc[p] = row | uint64(math.Float32bits(b.vals[j]))
					}
				}
			}
		}
	})
	m := &Matrix{
		Indptr:  indptr,
		Indices: make([]int32, nnz),
		Values:  make([]float32, nnz),
		Cols:    cols,
	}
	parallel(n, workers, func(d0, d1 int) {
		next := make([]int32, d1-d0)
		for d := d0; d < d1; d++ {
			next[d-d0] = int32(indptr[d])
		}
		for c := 0; c < cols; c++ {
			for _, x := range csc[colptr[c]:colptr[c+1]] {
				if d := int(x >> 32); d >= d0 && d < d1 {
					q := next[d-d0]
					next[d-d0]++
					m.Indices[q] = int32(c)
					m.Values[q] = math.Float32frombits(uint32(x))
				}
			}
		}
	})
	return m
}

// parallel runs fn over [0, n) split into contiguous chunks on up to
// workers goroutines, and waits.
func parallel(n, workers int, fn func(lo, hi int)) {
	if workers <= 1 || n < 2*batchSize {
		fn(0, n)
		return
	}
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for lo := 0; lo < n; lo += chunk {
		wg.Add(1)
		go func(lo, hi int) {
			defer wg.Done()
			fn(lo, hi)
		}(lo, min(lo+chunk, n))
	}
	wg.Wait()
}
