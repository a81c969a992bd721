package counts

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/nbtext/nbtext/internal/vectorize"
)

// Stats are what a Naive Bayes model is fitted from (see train.FitNB):
// the vocabulary, the documents of each class, and feature-major over the
// vocabulary's terms the per-(term, class) statistics.
type Stats struct {
	Header
	// Vocab is the model's vocabulary: the counted terms pruned with the
	// settings (round one), or the vocabulary the sums were weighted over
	// (round two).
	Vocab *vectorize.Vocabulary
	// ClassDocs[c] is the documents of class c; Stats[t*C+c] the
	// statistic of term t in class c (see Counts.NB).
	ClassDocs, Stats []float64
	// Counted is the number of terms counted, before pruning.
	Counted int
}

// statsSink gathers, from terms in ascending order, what Vocabulary and NB
// read: the terms, their document and occurrence counts, the documents of
// each class holding them when mutual-information selection needs them,
// and, when nb is set, every term's NB statistics. Nothing it holds grows
// with the documents: it is a few numbers per term and class.
type statsSink struct {
	h        *Header
	nb       bool // gather NB statistics
	presence bool // ... of Bernoulli NB
	terms    []string
	block    []byte
	df       []int64
	cf       []int64
	cdf      []int32 // term × class, for mi:K
	stats    []float64
	names    [][]vectorize.TermCount // by term, with hashing (names.go)
	// early: the sink gives a vocabulary only (Counter.Vocabulary), so a
	// term whose document frequency fails min_df or max_df is dropped as
	// it comes, rather than kept for vectorize.Prune to drop at the end:
	// with n-grams the terms counted grow with the corpus, the terms kept
	// far less (the first filter of Prune, which the rest of it follows).
	// With early and a MaxFeatures setting, the sink also holds at most
	// about twice MaxFeatures terms (see trim).
	early   bool
	dropped int // terms dropped on arrival (early), or by trim
}

// newStatsSink returns a sink for the terms of counts with header h.
func newStatsSink(h *Header, nb, presence bool) (*statsSink, error) {
	if nb && !presence && NeedsVocab(h.Settings) && !h.Weighted() {
		return nil, errNeedsRoundTwo(h.Settings)
	}
	s := &statsSink{h: h, nb: nb, presence: presence}
	if k, _ := h.Settings.SelectK(); k > 0 && !h.Weighted() {
		s.cdf = []int32{}
	}
	return s, nil
}

// MaxStatsCells bounds the terms × classes of the dense statistics a sink
// gathers for a model: model.MaxTableBytes / 16, the size rule of model
// files (a test holds the two equal), so that a fit never allocates for
// a model it could not write.
const MaxStatsCells = 1 << 26

// ErrSize: the statistics would exceed MaxStatsCells.
var ErrSize = errors.New("too many terms × classes")

// errNeedsRoundTwo is the error of fitting a weighting that NeedsVocab
// from round-one counts.
func errNeedsRoundTwo(s vectorize.Settings) error {
	return fmt.Errorf("weighting %s with norm %s needs the document frequencies of the whole corpus before values are summed: these are round-one counts; count again with --vocab THESE.nbc and merge that round", s.Weighting, normName(s.Norm))
}

// reserve makes room for about n terms, so that appending them does not
// copy the statistics over and over.
func (s *statsSink) reserve(n int) {
	if lim := s.trimAt(); lim > 0 {
		n = min(n, lim)
	} else {
		n += n / 8
	}
	C := len(s.h.Classes)
	s.terms = slices.Grow(s.terms, n)
	s.df = slices.Grow(s.df, n)
	s.cf = slices.Grow(s.cf, n)
	if s.cdf != nil {
		s.cdf = slices.Grow(s.cdf, n*C)
	}
	if s.nb {
		s.stats = slices.Grow(s.stats, n*C)
	}
}

func (s *statsSink) add(term string, cells []Cell) error {
	if s.dropsEarly(cells) {
		return nil
	}
	if C := len(s.h.Classes); (s.nb || s.cdf != nil) && C > 0 && len(s.terms) >= MaxStatsCells/C {
		return fmt.Errorf("%w: the statistics of more than %d terms × %d classes exceed the %d cells a model may hold (1 GiB at 16 bytes a cell); prune more (--min-df, --max-features) or count fewer classes", ErrSize, len(s.terms), C, MaxStatsCells)
	}
	if len(term) > cap(s.block)-len(s.block) {
		s.block = make([]byte, 0, max(1<<16, len(term)))
	}
	s.terms = append(s.terms, blockString(&s.block, term))
	C := len(s.h.Classes)
	var df, cf int64
	for _, x := range cells {
		df += x.Docs
		cf += x.Occ
	}
	s.df = append(s.df, df)
	s.cf = append(s.cf, cf)
	if s.cdf != nil {
		row := len(s.cdf)
		s.cdf = append(s.cdf, make([]int32, C)...)
		for _, x := range cells {
			s.cdf[row+int(x.Class)] = int32(x.Docs)
		}
	}
	if s.nb {
		row := len(s.stats)
		s.stats = append(s.stats, make([]float64, C)...)
		binary := s.h.Settings.Weighting == "binary"
		for _, x := range cells {
			s.stats[row+int(x.Class)] = nbValue(x, s.presence, binary, s.h.Weighted())
		}
	}
	if lim := s.trimAt(); lim > 0 && len(s.terms) >= lim {
		s.trim()
	}
	return nil
}

// nbValue is the NB statistic of a cell: with presence (Bernoulli NB) the
// documents holding the term, otherwise the sum of its values under the
// weighting, which for binary weighting is the documents, for count
// weighting the occurrences, and in round two the weighted sum.
func nbValue(x Cell, presence, binary, weighted bool) float64 {
	switch {
	case presence || !weighted && binary:
		return float64(x.Docs)
	case weighted:
		return x.Sum.Float64()
	}
	return float64(x.Occ)
}

// vocabulary returns the vocabulary of the terms added, and the index of
// each of its terms among them (see Counts.Vocabulary).
func (s *statsSink) vocabulary() (*vectorize.Vocabulary, []int32, error) {
	h := s.h
	n := h.Documents()
	if n > math.MaxInt32 {
		return nil, nil, fmt.Errorf("%d documents: a vocabulary holds document frequencies below 2^31", n)
	}
	df := make([]int32, len(s.df))
	for i, d := range s.df {
		df[i] = int32(d)
	}
	if h.Weighted() {
		keep := make([]int32, len(s.terms))
		for i := range keep {
			keep[i] = int32(i)
		}
		v, err := vectorize.NewSortedVocabulary(h.Settings, s.terms, df, s.cf, int(n))
		if err != nil {
			return nil, nil, err
		}
		v.Names = s.keptNames(keep)
		if d := VocabDigest(v); d != h.Vocab {
			return nil, nil, fmt.Errorf("the round-two counts do not add up to the vocabulary they were weighted over (%.12s…, got %.12s…): count the same documents in both rounds", h.Vocab, d)
		}
		return v, keep, nil
	}
	if len(s.terms) == 0 && s.dropped == 0 {
		return nil, nil, vectorize.ErrEmptyVocabulary
	}
	var classDocs []int
	if s.cdf != nil {
		classDocs = make([]int, len(h.Classes))
		for i, d := range h.ClassDocs {
			classDocs[i] = int(d)
		}
	}
	keep, err := vectorize.Prune(h.Settings, df, s.cdf, classDocs, int(n))
	if err != nil {
		return nil, nil, err
	}
	terms := make([]string, len(keep))
	kdf := make([]int32, len(keep))
	kcf := make([]int64, len(keep))
	for j, i := range keep {
		terms[j], kdf[j], kcf[j] = s.terms[i], df[i], s.cf[i]
	}
	v, err := vectorize.NewSortedVocabulary(h.Settings, terms, kdf, kcf, int(n))
	if err != nil {
		return nil, nil, err
	}
	v.Names = s.keptNames(keep)
	return v, keep, nil
}

// result returns the Stats of the terms added (the sink was made with
// nb set).
func (s *statsSink) result() (*Stats, error) {
	v, keep, err := s.vocabulary()
	if err != nil {
		return nil, err
	}
	C := len(s.h.Classes)
	st := &Stats{Header: *s.h, Vocab: v, ClassDocs: make([]float64, C), Counted: len(s.terms)}
	for i, d := range s.h.ClassDocs {
		st.ClassDocs[i] = float64(d)
	}
	// Compact the kept rows in place: keep is ascending.
	for j, i := range keep {
		copy(s.stats[j*C:(j+1)*C], s.stats[int(i)*C:(int(i)+1)*C])
	}
	st.Stats = s.stats[: len(keep)*C : len(keep)*C]
	s.stats = nil
	return st, nil
}

// Vocabulary returns the vocabulary a model fitted on c has, and for each
// of its terms the index of that term in c. Round one: c's terms pruned as
// vectorize.Fit prunes them with c's settings (vectorize.Prune), with
// their document and occurrence counts. Round two: all of c's terms, which
// must be, with their counts, the vocabulary the sums were weighted over
// (c.Vocab); otherwise the rounds counted different documents.
func (c *Counts) Vocabulary() (*vectorize.Vocabulary, []int32, error) {
	s, err := c.drain()
	if err != nil {
		return nil, nil, err
	}
	return s.vocabulary()
}

// Stats returns the statistics an NB model (Bernoulli when presence) is
// fitted from: Vocabulary, and NB over its terms.
//
// The statistics are gathered for the kept terms only (NB), so that a
// count of many more terms than the model keeps (n-grams, min_df) costs
// no dense row per counted term.
func (c *Counts) Stats(presence bool) (*Stats, error) {
	if !presence && NeedsVocab(c.Settings) && !c.Weighted() {
		return nil, errNeedsRoundTwo(c.Settings)
	}
	v, keep, err := c.Vocabulary()
	if err != nil {
		return nil, err
	}
	classDocs, stats, err := c.NB(presence, keep)
	if err != nil {
		return nil, err
	}
	return &Stats{Header: c.Header, Vocab: v, ClassDocs: classDocs, Stats: stats, Counted: c.Len()}, nil
}

// drain adds every term of c to a new statsSink.
func (c *Counts) drain() (*statsSink, error) {
	s, err := newStatsSink(&c.Header, false, false)
	if err != nil {
		return nil, err
	}
	s.reserve(len(c.Terms))
	for i, t := range c.Terms {
		var err error
		if c.Names != nil {
			err = s.addNamed(t, c.Row(i), c.names(i))
		} else {
			err = s.add(t, c.Row(i))
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// NB returns the statistics Naive Bayes is fitted from (see
// train.FitNB): the documents of each class, and feature-major over the
// terms keep names (the second result of Vocabulary) the per-(term,
// class) statistics: with presence (Bernoulli NB) the documents holding
// the term, otherwise the sum of its values under the settings'
// weighting, which for binary weighting is the documents, for count
// weighting the occurrences, and for the weightings NeedsVocab names the
// weighted sums of round two. Round-one counts of such settings are an
// error that says to count again with --vocab.
func (c *Counts) NB(presence bool, keep []int32) (classDocs, stats []float64, err error) {
	C := len(c.Classes)
	if !presence && NeedsVocab(c.Settings) && !c.Weighted() {
		return nil, nil, errNeedsRoundTwo(c.Settings)
	}
	classDocs = make([]float64, C)
	for i, d := range c.ClassDocs {
		classDocs[i] = float64(d)
	}
	stats = make([]float64, len(keep)*C)
	binary := c.Settings.Weighting == "binary"
	for j, i := range keep {
		dst := stats[j*C : (j+1)*C]
		for _, x := range c.Row(int(i)) {
			dst[x.Class] = nbValue(x, presence, binary, c.Weighted())
		}
	}
	return classDocs, stats, nil
}

// normName returns the name of a Norm setting ("" is none).
func normName(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// sumTables adds to s the terms of round two's tables ws, their class ids
// mapped by toSum, as merging their sources (mergeInto) would, without
// the merge: the tables' columns are all indexed by the ids of vocab,
// which are in term order, so a term's cells are at the same index in
// every table. Goroutines sum ranges of ids, one per core, into s's
// slices at the ids' places (a vocabulary term that no document holds is
// dropped after); the sums are integers and Fixed, so the result does not
// depend on who added what. The terms are vocab's strings, which s then
// shares: they are the terms of the vocabulary fitted from s anyway.
func (s *statsSink) sumTables(ws []*worker, toSum []int32, vocab *vectorize.Vocabulary) error {
	V, C := len(vocab.Terms), len(s.h.Classes)
	s.terms = make([]string, V)
	s.df = make([]int64, V)
	s.cf = make([]int64, V)
	if s.nb {
		s.stats = make([]float64, V*C)
	}
	if hashed(s.h) {
		s.names = make([][]vectorize.TermCount, V)
	}
	binary := s.h.Settings.Weighting == "binary"
	var next atomic.Int64
	var mu sync.Mutex
	bad := -1 // the least id whose counts overflow
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := make([]tally, sumStep*C)
			for {
				lo := int(next.Add(sumStep)) - sumStep
				if lo >= V {
					return
				}
				if id := s.sumRange(ws, toSum, lo, min(lo+sumStep, V), acc, binary); id >= 0 {
					mu.Lock()
					if bad < 0 || id < bad {
						bad = id
					}
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if bad >= 0 {
		return fmt.Errorf("counts of term %q overflow", vocab.Terms[bad])
	}
	// Drop the terms no document held, keeping the order.
	n := 0
	for id, df := range s.df {
		if df == 0 {
			continue
		}
		if n < id {
			s.terms[n], s.df[n], s.cf[n] = s.terms[id], df, s.cf[id]
			if s.stats != nil {
				copy(s.stats[n*C:(n+1)*C], s.stats[id*C:(id+1)*C])
			}
			if s.names != nil {
				s.names[n] = s.names[id]
			}
		}
		n++
	}
	s.terms, s.df, s.cf = s.terms[:n], s.df[:n], s.cf[:n]
	if s.stats != nil {
		s.stats = s.stats[:n*C]
	}
	if s.names != nil {
		s.names = s.names[:n]
	}
	return nil
}

// sumStep is the ids sumTables sums at a time: a range within a block of
// the columns, whose sums (sumStep × classes tallies) stay in a core's
// cache.
const sumStep = 1 << (blockBits - 2)

// tally is the sum of a term's cells in a class over the workers.
type tally struct {
	docs, occ int64
	sum       Fixed
}

// sumRange sums the cells of the terms lo ≤ id < hi (in one block of the
// columns) of the tables ws into s (see sumTables), with acc as scratch
// of sumStep × classes tallies. It reads each column's range in order, a
// stream of cells the processor prefetches, not a cell of each column by
// turns; a cell is its wcell and its wide cell together (worker.sumCell).
// It returns the least id whose sums overflow, or -1.
func (s *statsSink) sumRange(ws []*worker, toSum []int32, lo, hi int, acc []tally, binary bool) int {
	C := len(s.h.Classes)
	acc = acc[:(hi-lo)*C]
	clear(acc)
	bad := -1
	for _, w := range ws {
		for k, col := range w.wcols {
			if lo>>blockBits >= len(col) { // a class this worker did not meet
				continue
			}
			var wide [][]wideCell
			if k < len(w.wwide) {
				wide = w.wwide[k]
			}
			kk := int(toSum[k])
			off := lo & (1<<blockBits - 1)
			for j, c := range col[lo>>blockBits][off : off+hi-lo] {
				id := lo + j
				docs, occ, sum := c.stats()
				docs, occ, sum, over := withWide(docs, occ, sum, wideOf(wide, id))
				if docs == 0 {
					continue
				}
				a := &acc[j*C+kk]
				a.docs += docs
				a.occ += occ
				var o bool
				if a.sum, o = a.sum.Add(sum); (o || over || a.docs < 0 || a.occ < 0) && (bad < 0 || id < bad) {
					bad = id
				}
			}
		}
	}
	if bad >= 0 {
		return bad
	}
	for j := range hi - lo {
		id, row := lo+j, acc[j*C:(j+1)*C]
		var df, cf int64
		for _, a := range row {
			df += a.docs
			cf += a.occ
		}
		if df == 0 {
			continue
		}
		s.terms[id], s.df[id], s.cf[id] = ws[0].vocab.Terms[id], df, cf
		if s.stats != nil {
			st := s.stats[id*C : (id+1)*C]
			for k, a := range row {
				if a.docs > 0 {
					st[k] = nbValue(Cell{Docs: a.docs, Occ: a.occ, Sum: a.sum}, s.presence, binary, true)
				}
			}
		}
		if s.names != nil {
			if names := ws[0].names(); id < len(names) {
				s.names[id] = ownNames(names[id])
			}
		}
	}
	return -1
}

// mergeRangeTerms is the fewest terms of the largest table per range of
// mergeRanges. It is a variable so that tests can make ranges.
var mergeRangeTerms = 1 << 12

// mergeRanges adds to s, which gathers no NB statistics, the merge of the
// workers' tables m.srcs (all *workerSource), as mergeInto would, with a
// goroutine per core each merging the terms of one range: the ranges are
// cut at terms of the largest table, so that they hold about as many
// terms, and the sinks of the ranges, in order, are the sink of the
// whole. (With NB statistics, the sinks of the ranges would hold a second
// copy of the largest part of memory while they are joined.)
func (s *statsSink) mergeRanges(m *merged) error {
	srcs := make([]*workerSource, len(m.srcs))
	big := 0
	for i, src := range m.srcs {
		srcs[i] = src.(*workerSource)
		if len(srcs[i].order) > len(srcs[big].order) {
			big = i
		}
	}
	P := min(runtime.GOMAXPROCS(0), len(srcs[big].order)/mergeRangeTerms+1)
	// cuts[i][r] is where range r begins in source i's order.
	cuts := make([][]int, len(srcs))
	for i, src := range srcs {
		cuts[i] = make([]int, P+1)
		for r := 1; r < P; r++ {
			pivot := srcs[big].w.term(srcs[big].order[r*len(srcs[big].order)/P])
			cuts[i][r] = sort.Search(len(src.order), func(x int) bool { return src.w.term(src.order[x]) >= pivot })
		}
		cuts[i][P] = len(src.order)
	}
	parts := make([]*statsSink, P)
	errs := make([]error, P)
	var wg sync.WaitGroup
	for r := range P {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sub := make([]source, len(srcs))
			n := 0
			for i, src := range srcs {
				sub[i] = &workerSource{w: src.w, order: src.order[cuts[i][r]:cuts[i][r+1]], names: src.names}
				n = max(n, cuts[i][r+1]-cuts[i][r])
			}
			parts[r] = &statsSink{h: s.h, presence: s.presence, early: s.early}
			if s.cdf != nil {
				parts[r].cdf = []int32{}
			}
			parts[r].reserve(n)
			errs[r] = mergeInto(parts[r], sub, m.remap, len(s.h.Classes))
		}()
	}
	wg.Wait()
	n := 0
	for r, p := range parts {
		if errs[r] != nil {
			return errs[r]
		}
		n += len(p.terms)
		s.dropped += p.dropped
	}
	s.reserve(n)
	for _, p := range parts {
		s.terms = append(s.terms, p.terms...)
		s.df = append(s.df, p.df...)
		s.cf = append(s.cf, p.cf...)
		if s.cdf != nil {
			s.cdf = append(s.cdf, p.cdf...)
		}
		if p.names != nil {
			s.names = append(s.names, p.names...)
		}
	}
	return nil
}
