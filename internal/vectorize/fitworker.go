package vectorize

import (
	"math"
	"slices"
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
	occ    []uint32 // the exact counts of vals, for a TermCounter (fitWorker.exact)
}

// row returns the bounds of row r in b.ids.
func (b *batch) row(r int) (lo, hi int) {
	if r > 0 {
		lo = int(b.end[r-1])
	}
	return lo, int(b.end[r])
}

// maxLoweredRoom is the most room a fit worker keeps for a document's
// lowering between documents (fitWorker.lowered): a larger document's
// goes with it.
const maxLoweredRoom = 1 << 20

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
	exact bool // also keep each row's exact counts (batch.occ): TermCounter
	id    int
	tok   *Tokenizer
	table *termTable
	nstop int
	seen  []uint32 // by local id i, from i*stride: see the seen entries below
	// stride is the words of a term's seen entry: 1, or 3 with totals
	// (TermCounter.CountTotals); wide holds the totals that would
	// overflow there.
	stride int
	wide   map[int32]total
	chunk  []byte // storage for the bytes of new terms

	// With n-grams (see countNGrams): the word table when unigrams are
	// not terms, the n-gram tables by n−2, and scratch slices.
	words           *termTable
	pairs           []*pairTable
	grams           *gramTable  // character n-grams of up to 7 bytes (countChars)
	short           []shortGram // ASCII n-grams of 1 or 2 bytes (countGram)
	touched         []int32     // short entries (i) and gramTable slots (^i) counted since flushGrams
	later           bool        // the seen entries may hold counts of the current document (countChars)
	scratch         []uint32    // a row's exact counts, without exact (rowFromGrams)
	prev, cur2, wid []int32
	fields          []string
	tids            []int32 // ids of the current text's terms (count)
	lowered         []byte  // the current text lowered (countChars), up to maxLoweredRoom kept

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

// The seen entry of local id i, w.seen[i*w.stride], is the term's
// occurrences in the current document so far: 0 until the document has
// it, when the per-token loop appends i to the row. It is all that loop
// touches besides the table, 4 bytes per term, so that frequent terms
// stay in cache: a repeat costs one access, where a position in the row
// would cost a second one, into the row. Once the document is done, add
// reads the row's counts from the entries, still in cache, and sets them
// back to 0.
//
// With totals (TermCounter.CountTotals, stride 3), the two words after
// the count sum the documents that held the term and its occurrences in
// them: add sums them while the entry is in cache, where a caller that
// pools every document would otherwise add into an array of its own, a
// second cache miss per rare term. Before a sum would pass maxTotal32 it
// moves to the worker's wide totals (see addTotals): the term's totals
// are the sum of the two.

// maxTotal32 bounds the sums of a seen entry. It is a variable so that
// tests can make them widen.
var maxTotal32 uint32 = math.MaxUint32

// total is a term's documents and occurrences, in full.
type total struct{ df, occ int64 }

// newFitWorker returns the state of worker id.
func newFitWorker(s Settings, id int) *fitWorker {
	w := &fitWorker{id: id, tok: NewTokenizer(s), table: newTermTable(1 << 14), stride: 1}
	w.hash = newHashState(s, w.tok)
	if w.tok.nmax > 1 && w.tok.nmin > 1 {
		w.words = newTermTable(1 << 14)
	}
	if w.tok.wordsOnly() && w.hash == nil {
		for _, sw := range englishStopWords {
			w.table.add(sw)
		}
		w.nstop = w.table.len()
		w.growSeen()
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
	if w.tok.an != nil && w.tok.an.isChar() {
		size *= 10 // distinct character n-grams: about one per byte
	}
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
// counting counts each term in its seen entry and appends its id to the
// row the first time the document has it; the counts, kept in the
// entries, join the row once the document is done, and the entries are
// set back to 0.
func (w *fitWorker) add(text string) {
	start := len(w.cur.ids)
	if w.tok.nmax > 1 || w.tok.an.whole() || len(text) <= longDocument {
		w.count(text, true)
		w.tok.forget() // its tokens alias text: keep no document alive
	} else {
		for i := 0; i < len(text); {
			j := nextPiece(text, i)
			w.count(text[i:j], i == 0)
			w.tok.forget()
			i = j
		}
	}
	if len(w.touched) > 0 { // character n-grams: their counts are in the gram entries
		if w.rowFromGrams(start) {
			w.cur.end = append(w.cur.end, int32(len(w.cur.ids)))
			return
		}
		w.flushGrams()
	}
	if w.stride > 1 {
		w.addTotals(start)
	} else {
		b, sn := w.cur, w.seen
		for _, i := range b.ids[start:] {
			b.vals = append(b.vals, float32(sn[i]))
			if w.exact {
				b.occ = append(b.occ, sn[i])
			}
			sn[i] = 0
		}
	}
	b := w.cur
	b.end = append(b.end, int32(len(b.ids)))
}

// countTotals gives each seen entry the term's totals. It is for a
// worker that has counted nothing yet.
func (w *fitWorker) countTotals() {
	w.stride = 3
	w.seen = nil
	w.growSeen()
}

// growSeen gives every local id of w.table its seen entry.
func (w *fitWorker) growSeen() {
	if n := w.table.len() * w.stride; n > len(w.seen) {
		w.seen = append(w.seen, make([]uint32, n-len(w.seen))...)
	}
}

// addTotals is add's last loop with totals: it appends the counts of the
// row's terms from ids[start:] to the row, and adds the document to the
// terms' totals in their seen entries, moving a total to w.wide before it
// would pass maxTotal32.
func (w *fitWorker) addTotals(start int) {
	b, sn, lim := w.cur, w.seen, maxTotal32
	for _, i := range b.ids[start:] {
		e := (*[3]uint32)(sn[int(i)*3:])
		n := e[0]
		if e[1] >= lim || n > lim-e[2] {
			w.widenTotal(i, e)
		} else {
			e[1]++
			e[2] += n
		}
		e[0] = 0
		b.vals = append(b.vals, float32(n))
		if w.exact {
			b.occ = append(b.occ, n)
		}
	}
}

// widenTotal adds a document holding the term of local id i e[0] times,
// and the sums of e, its seen entry, to the term's wide totals, and
// empties e's sums.
func (w *fitWorker) widenTotal(i int32, e *[3]uint32) {
	if w.wide == nil {
		w.wide = map[int32]total{}
	}
	x := w.wide[i]
	x.df += int64(e[1]) + 1
	x.occ += int64(e[2]) + int64(e[0])
	w.wide[i] = x
	e[1], e[2] = 0, 0
}

// total returns the documents and occurrences of local id i so far
// (with totals).
func (w *fitWorker) total(i int32) (df, occ int64) {
	e := w.seen[int(i)*3:]
	df, occ = int64(e[1]), int64(e[2])
	if x, ok := w.wide[i]; ok {
		df, occ = df+x.df, occ+x.occ
	}
	return df, occ
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
	if w.tok.an != nil && w.tok.an.isChar() {
		w.countChars(text, head)
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
	// Without a branch on the entry: each id is written past the row,
	// and the row grows over it only when the entry was 0. A branch
	// there is mispredicted for about every new term, and the
	// processor then waits for that term's entry, a cache miss for a
	// rare term, before it loads the next ones.
	ids := slices.Grow(w.cur.ids, len(tids))
	n, sn, st := len(ids), w.seen, w.stride
	ids = ids[:cap(ids)]
	nstop := int32(w.nstop)
	for _, i := range tids {
		if i < nstop {
			continue
		}
		e := &sn[int(i)*st]
		v := *e
		ids[n] = i
		n += int((uint64(v) - 1) >> 63) // 1 when v is 0
		*e = v + 1
	}
	w.cur.ids = ids[:n]
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
	w.growSeen()
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
					w.growSeen()
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
	if tok.swMax > 0 {
		w.fields = tok.appendSubwords(uni, w.fields[:0])
		for _, term := range w.fields {
			w.addToRow(w.tableID(term))
		}
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
		w.growSeen()
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
	e := &w.seen[int(i)*w.stride]
	if *e == 0 {
		w.cur.ids = append(w.cur.ids, i)
	}
	*e++
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
