package vectorize

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
)

// FitStream is Fit for documents that arrive one at a time while a reader
// decodes them (corpus.ReadStream): its workers tokenize each batch of
// documents as soon as it is complete, so that tokenizing overlaps
// reading instead of waiting for the whole corpus.
//
// Add numbers the documents 0, 1, 2, … in the order of the calls. Finish
// then says which of them make up the corpus, in which order, and returns
// exactly what Fit returns for those texts in that order: the same
// vocabulary and the same matrix, whatever the number of workers and the
// order of arrival. Documents that Finish leaves out count for nothing.
//
// Add and Finish are called from one goroutine at a time; Finish once. A
// FitStream that is not finished must be closed, to stop its workers
// (a deferred Close after a successful Finish does nothing).
type FitStream struct {
	s       Settings
	workers int
	ws      []*fitWorker
	batches []*batch // batch k holds documents k*batchSize onwards
	pending []string // texts of the batch being gathered
	n       int      // documents added
	jobs    chan fitJob
	wg      sync.WaitGroup
	closed  bool
	discard atomic.Bool // set by Close: workers skip the jobs left
	relax   bool        // see RelaxMinDF
	// unpruned is the number of distinct terms before pruning (Unpruned).
	unpruned int

	// With n-grams and a MinDF of 2 to 255 (see ngramFilter), the
	// workers only sketch the n-grams as documents arrive (sketches, one
	// per worker); Finish counts the texts kept here in a second pass
	// that leaves out the n-grams below MinDF.
	sketches []*dfSketch
	texts    [][]string // by batch
	filtered bool       // the last count left out n-grams below MinDF
}

// streamSketchBits is the size, in bits, of a FitStream's n-gram
// sketches (the corpus size is not known in advance): 32 Mi cells, 8 MiB
// a worker with the 2-bit cells of MinDF 2, about ten cells per bigram
// occurrence of 20 Newsgroups. A larger corpus fills the cells more and
// filters less; it stays exact.
const streamSketchBits = 25

// fitJob is a batch for a worker and its texts.
type fitJob struct {
	b     *batch
	texts []string
}

// NewFitStream starts a FitStream with settings s on workers goroutines (0
// means runtime.GOMAXPROCS). It fails on invalid settings.
func NewFitStream(s Settings, workers int) (*FitStream, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	f := &FitStream{s: s, workers: workers, jobs: make(chan fitJob, 256)}
	f.ws = make([]*fitWorker, workers)
	filtering := wantFilter(s)
	if filtering {
		f.sketches = make([]*dfSketch, workers)
	}
	for w := range f.ws {
		fw := newFitWorker(s, w)
		f.ws[w] = fw
		var sk *dfSketch
		if filtering {
			sk = newDFSketchBits(min(streamSketchBits, maxSketchBits), s.MinDF)
			f.sketches[w] = sk
		}
		f.wg.Add(1)
		go func() {
			defer f.wg.Done()
			var buf []uint64
			for j := range f.jobs {
				switch {
				case f.discard.Load():
				case sk != nil:
					buf = sketchNGrams(fw.tok, sk, j.texts, buf)
				default:
					fw.process(j.b, j.texts)
				}
			}
		}()
	}
	return f, nil
}

// Add hands the next document to the stream; its number is the count of
// the documents added before it. It may wait while the workers are
// behind. The text must not change until Finish returns.
func (f *FitStream) Add(text string) {
	if f.closed {
		return
	}
	if f.pending == nil {
		f.pending = make([]string, 0, batchSize)
	}
	f.pending = append(f.pending, text)
	f.n++
	if len(f.pending) == batchSize {
		f.flush()
	}
}

// flush sends the pending texts to the workers as the next batch.
func (f *FitStream) flush() {
	if len(f.pending) == 0 {
		return
	}
	b := &batch{first: len(f.batches) * batchSize}
	f.batches = append(f.batches, b)
	if f.sketches != nil {
		f.texts = append(f.texts, f.pending)
	}
	f.jobs <- fitJob{b, f.pending}
	f.pending = nil
}

// Len returns the number of documents added so far.
func (f *FitStream) Len() int { return f.n }

// Close stops the workers, skipping the documents they have not taken yet,
// and discards what they counted: for a reader that failed. It may be
// called more than once, and after Finish. Add after Close does nothing.
func (f *FitStream) Close() {
	if f.closed {
		return
	}
	f.discard.Store(true)
	f.stop()
}

// stop closes the job queue and waits for the workers to empty it.
func (f *FitStream) stop() {
	f.closed = true
	close(f.jobs)
	f.wg.Wait()
}

// Finish waits for the workers and returns the vocabulary and count
// matrix of the documents numbered order[0], order[1], … (distinct numbers
// below Len; nil means all of them, in the order added), exactly as Fit
// returns them for those texts; labels (by position in order) and
// nClasses are as in Fit. It releases the stream.
func (f *FitStream) Finish(order []int, labels []int, nClasses int) (*Vocabulary, *Matrix, error) {
	return f.finish(order, labels, nClasses, true)
}

// FinishVocabulary is Finish without the count matrix, as FitVocabulary
// is Fit without it.
func (f *FitStream) FinishVocabulary(order []int, labels []int, nClasses int) (*Vocabulary, error) {
	v, _, err := f.finish(order, labels, nClasses, false)
	return v, err
}

// RelaxMinDF makes Settings.MinDF a soft default: when the corpus is too
// small for it (a minimum document frequency above 1 that would keep no
// term at all, as on a corpus of two short lines), Finish lowers it to 1,
// and the vocabulary's Settings record MinDF 1. Commands call it when
// MinDF is a model's default rather than the user's choice; a MinDF the
// user gave fails as it always does (scikit-learn's CountVectorizer
// raises "After pruning, no terms remain" for an explicit min_df).
func (f *FitStream) RelaxMinDF() { f.relax = true }

// Unpruned returns, after Finish or FinishVocabulary, the number of
// distinct terms of the corpus before pruning (--min-df, --max-df,
// --max-features, --select): with the vocabulary's length, how much the
// pruning dropped.
func (f *FitStream) Unpruned() int { return f.unpruned }

func (f *FitStream) finish(order []int, labels []int, nClasses int, wantMatrix bool) (*Vocabulary, *Matrix, error) {
	if f.closed {
		return nil, nil, errors.New("vectorize: FitStream finished or closed")
	}
	f.flush()
	f.stop()
	n := f.n
	if order != nil {
		n = len(order)
	}
	labels, nClasses, err := checkFitLabels(f.s, labels, nClasses, n)
	if err != nil {
		return nil, nil, err
	}
	s := f.s
	if err := checkFitDF(s, n); err != nil {
		if !f.relax || s.MinDF <= 1 {
			return nil, nil, err
		}
		s.MinDF = 1 // fewer documents than the default minimum
	}
	ws, batches := f.ws, f.batches
	f.ws, f.batches = nil, nil
	if f.sketches == nil {
		return finishFit(s, ws, batches, f.n, order, labels, nClasses, f.workers, wantMatrix, f.relax, &f.unpruned)
	}
	sk := f.sketches[0]
	for _, o := range f.sketches[1:] {
		sk.merge(o)
	}
	f.sketches = nil
	if s.MinDF < f.s.MinDF { // lowered above: the filter would drop terms it keeps
		f.count(ws, batches, nil)
	} else {
		f.count(ws, batches, sk)
		// RelaxMinDF lowers MinDF to 1 only when no term is within the
		// document-frequency bounds, and the filter leaves out only
		// n-grams below MinDF, so a term of MinDF documents or more
		// (and no max_df, every document kept) rules that out and the
		// filtered counts give the relaxed vocabulary. Otherwise (a tiny
		// corpus) count again without the filter: a lowered MinDF keeps
		// every n-gram.
		if f.relax && !(s.MaxDF >= 1 && anyTermReaches(ws, s.MinDF, order, f.n)) {
			for w := range ws {
				ws[w] = newFitWorker(f.s, w)
			}
			f.count(ws, batches, nil)
		}
	}
	f.texts = nil
	return finishFit(s, ws, batches, f.n, order, labels, nClasses, f.workers, wantMatrix, f.relax, &f.unpruned)
}

// anyTermReaches reports whether some term is in at least minDF of the
// documents kept (numbers order holds; nil: all n) in the counts of a
// single worker of ws (so in at least minDF overall). A row holds each
// of its terms once, and frequent words reach minDF within the first
// documents.
func anyTermReaches(ws []*fitWorker, minDF int, order []int, n int) bool {
	var kept []bool
	if order != nil {
		kept = make([]bool, n)
		for _, q := range order {
			if q >= 0 && q < n {
				kept[q] = true
			}
		}
	}
	for _, w := range ws {
		df := make(map[int32]int)
		for _, b := range w.batches {
			for r := range b.end {
				if kept != nil && !kept[b.first+r] {
					continue
				}
				lo, hi := b.row(r)
				for _, id := range b.ids[lo:hi] {
					if df[id]++; df[id] >= minDF {
						return true
					}
				}
			}
		}
	}
	return false
}

// count is the second pass of a filtering FitStream: it counts every
// batch, leaving out the n-grams whose bound in the workers' merged
// sketch sk is below MinDF (nil: none), as its dfFilter tells.
func (f *FitStream) count(ws []*fitWorker, batches []*batch, sk *dfSketch) {
	f.filtered = sk != nil
	var filter *dfFilter
	if sk != nil {
		filter = sk.filter(f.s.MinDF)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, w := range ws {
		w.filter = filter
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				k := int(next.Add(1) - 1)
				if k >= len(batches) {
					return
				}
				w.process(batches[k], f.texts[k])
			}
		}()
	}
	wg.Wait()
	for _, w := range ws {
		w.filter = nil
	}
}
