package vectorize

import (
	"strings"
	"unsafe"
)

// This file holds Fit's per-worker counting: batches of documents, each
// worker's term table and the n-gram lookups (see fit.go for the whole).

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
	tids            []int32 // ids of the current text's terms (count)

	// With a filter (see dfSketch and dfFilter), n-grams whose bound is
	// below MinDF are left out.
	filter *dfFilter

	// With Settings.HashBits: the terms met and their buckets (see
	// countHashed); the table's terms are then buckets.
	hash *hashState

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
	// The lookups are over (tally has read the rows): the slots, hashes
	// and last sightings can go before sorting allocates.
	w.nterms = w.table.len()
	w.table.slots, w.table.hashes, w.seen = nil, nil, nil
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
	for i, id := range w.order {
		w.sorted[i], w.sortedDF[i], w.sortedCF[i] = w.table.terms[id], w.df[id], w.cf[id]
		if nc > 0 {
			copy(w.sortedCDF[i*nc:(i+1)*nc], w.cdf[int(id)*nc:int(id+1)*nc])
		}
	}
	// The bytes too, in order, in one block: the merge compares
	// neighbouring terms, which would otherwise be scattered over the
	// chunks in order of first sight, a cache miss each.
	packStrings(w.sorted)
	// What is left of the counting is done with: let it go before the
	// merge allocates. The batches stay in Fit's hands, for assemble.
	w.table, w.chunk, w.df, w.cf, w.cdf = nil, nil, nil, nil, nil
	w.batches, w.cur = nil, nil
}

// seen is where a term last appeared, the document (1-based, per worker),
// and its occurrences there so far. It is all that the per-token loop
// touches besides the table, 8 bytes per term, so that frequent terms stay
// in cache: a repeat costs one access, where a position in the row would
// cost a second one, into the row; the row's counts are read from the
// entries, still in cache, once the document is done (see add).
type seen struct{ doc, n int32 }

// newFitWorker returns the state of worker id.
func newFitWorker(s Settings, id int) *fitWorker {
	w := &fitWorker{id: id, tok: NewTokenizer(s), table: newTermTable(1 << 14)}
	w.hash = newHashState(s, w.tok)
	if w.tok.nmax > 1 && w.tok.nmin > 1 {
		w.words = newTermTable(1 << 14)
	}
	if w.tok.stop != nil && w.tok.nmax == 1 && w.hash == nil {
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
	// About one distinct term per 12 bytes of news text, and as many
	// again for each n-gram length beyond the first.
	size = size/10*(w.tok.nmax-w.tok.nmin+1) + 16
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
// long unigram document is tokenized in pieces (see nextPiece). The
// counting marks each term's seen entry and appends its id to the row the
// first time the document has it; the counts, kept in the entries, join
// the row once the document is done.
func (w *fitWorker) add(text string) {
	w.doc++
	start := len(w.cur.ids)
	if w.tok.nmax > 1 || len(text) <= longDocument {
		w.count(text, true)
	} else {
		for i := 0; i < len(text); {
			j := nextPiece(text, i)
			w.count(text[i:j], i == 0)
			i = j
		}
	}
	b, sn := w.cur, w.seen
	for _, i := range b.ids[start:] {
		b.vals = append(b.vals, float32(sn[i].n))
	}
	b.end = append(b.end, int32(len(b.ids)))
}

// count adds the terms of text to the current document's row (ids, with
// their counts in w.seen until add reads them); head says whether text
// opens the document.
func (w *fitWorker) count(text string, head bool) {
	if w.hash != nil {
		w.countHashed(text, head)
		return
	}
	if w.tok.nmax > 1 {
		w.countNGrams(text, head)
		return
	}
	var terms []string
	if w.nstop > 0 {
		terms = w.tok.words(text, head) // stop words are dropped below
	} else {
		terms = w.tok.terms(text, head)
	}
	// The ids first, in one sweep over the table, then the row: each loop
	// keeps its few variables in registers (a call per token in one loop
	// doing both spilled and reloaded a dozen of them every token).
	tids := w.lookupAll(w.table, terms, w.tids[:0])
	w.tids = tids
	ids, sn := w.cur.ids, w.seen
	doc, nstop := w.doc, int32(w.nstop)
	for _, i := range tids {
		if i < nstop {
			continue
		}
		if e := &sn[i]; e.doc != doc {
			e.doc, e.n = doc, 1
			ids = append(ids, i)
		} else {
			e.n++
		}
	}
	w.cur.ids = ids
}

// lookupAll appends to dst the ids of terms in table t (w.table or
// w.words), entering the new ones, and returns it; w.seen keeps one entry
// per id of w.table.
func (w *fitWorker) lookupAll(t *termTable, terms []string, dst []int32) []int32 {
	n0 := len(dst)
	dst = t.appendIDs(dst, terms)
	for j, i := range dst[n0:] {
		if i < 0 { // new, a second sighting of a term new in this text, or long
			term := terms[j]
			key, h := keyHash(term, t.seed)
			k, ok := t.find(term, key, h)
			if !ok {
				k = int(t.insertAt(k, w.keep(term), key, h))
			}
			dst[n0+j] = int32(k)
		}
	}
	if n := w.table.len(); n > len(w.seen) {
		w.seen = append(w.seen, make([]seen, n-len(w.seen))...)
	}
	return dst
}

// countNGrams is count with n-grams. Unigrams and field terms are looked
// up by their text; an n-gram (n ≥ 2) by the pair of its (n−1)-gram
// prefix's id and its last word's id in w.pairs[n-2], which names it
// exactly: its text is built only when it is first seen. No n-gram can
// equal another term (it holds n−1 spaces, which no word or field term
// holds), so n-grams take ids in w.table without entering its slots.
// Words are ids of w.table when unigrams are terms (NGramMin = 1), else
// of w.words, which only feeds the pairs.
func (w *fitWorker) countNGrams(text string, head bool) {
	tok, t := w.tok, w.table
	uni := tok.unigrams(text)
	words := w.words
	if tok.nmin == 1 {
		words = t
	}
	prev := w.lookupAll(words, uni, w.prev[:0])
	if tok.nmin == 1 {
		for _, i := range prev {
			w.addToRow(i)
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
			if !ok && n >= tok.nmin && w.filter != nil && !w.filter.reaches(w.gramHash(words, wid[i:i+n])) {
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
				w.addToRow(int32(j))
			}
		}
		prev, cur = cur, prev
	}
	if head {
		w.fields = tok.appendFields(text, w.fields[:0])
		for _, term := range w.fields {
			w.addToRow(w.tableID(term))
		}
	}
	w.prev, w.cur2, w.wid = prev, cur, wid
}

// tableID returns the local id of term in w.table, entering a new term
// (with its entry in w.seen).
func (w *fitWorker) tableID(term string) int32 {
	t := w.table
	key, h := keyHash(term, t.seed)
	i, ok := t.find(term, key, h)
	if !ok {
		i = int(t.insertAt(i, w.keep(term), key, h))
		w.seen = append(w.seen, seen{})
	}
	return int32(i)
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

// addToRow counts the term of local id i in the current document's row
// (see add).
func (w *fitWorker) addToRow(i int32) {
	if e := &w.seen[i]; e.doc != w.doc {
		e.doc, e.n = w.doc, 1
		w.cur.ids = append(w.cur.ids, i)
	} else {
		e.n++
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
