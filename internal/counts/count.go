package counts

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"unsafe"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/inflight"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Options tune a Counter.
type Options struct {
	// Workers is the number of tokenizing goroutines (0: one per core).
	Workers int
	// Mem bounds the memory of the count tables in bytes: past half of it
	// the tables are written to a sorted run on disk and emptied, and the
	// runs are merged at the end. 0 keeps the tables in memory.
	Mem int64
	// Ceiling bounds, in bytes, a count that does not spill (Mem 0): the
	// tables, plus ModelCell bytes per term held and class met (what a
	// model fitted from the terms would take). Past it, Add returns a
	// *TableFullError (see fullError); the count cannot go on, and the
	// caller may count again in less (with hashing, say). 0: no bound.
	Ceiling   int64
	ModelCell int64
	// TempDir is where runs and the row cache go ("": os.TempDir()).
	TempDir string
	// Replay keeps, in round one, every document's row in a cache on disk
	// (in TempDir), so that RoundTwo can count round two without reading
	// the documents again. Without hashing, each spill under Mem keeps its
	// workers' term tables in memory until RoundTwo, to name the local ids
	// of its part of the cache: with Mem, Replay's memory grows with the
	// number of spills (train --stream sets no Mem then). With hashing
	// (Settings.HashBits) the cache holds buckets, which need no term
	// table, so a spill lets the tables go, terms included, and memory
	// stays under Mem (train --stream sets it).
	Replay bool
	// VocabOnly says the Counter is read only for its Vocabulary (and,
	// with Replay, RoundTwo): round one then counts each term's documents
	// and occurrences over all classes at once, in one column instead of
	// one per class, which is all a vocabulary needs unless it selects
	// terms by mutual information (then the classes are kept). Counts,
	// WriteFile and Stats fail on such a Counter.
	VocabOnly bool
	// inFlight bounds the bytes of text in the batches queued and being
	// counted (0: inflight.Default, or a quarter of Mem when less). It is
	// unexported: tests set it small.
	inFlight int64
}

// pooledClass is the one class of the tables of a Counter that pools its
// classes (Options.VocabOnly): their documents are all the documents.
const pooledClass = "(all classes)"

// errVocabOnly is the error of reading more than the vocabulary of a
// Counter made with Options.VocabOnly.
var errVocabOnly = errors.New("counts: a counter made with Options.VocabOnly gives its vocabulary only")

// defaultBatchBytes is the text a Counter hands a worker at a time when
// Mem does not ask for less.
const defaultBatchBytes = 1 << 20

// Counter counts documents into Counts. Add hands batches of documents to
// worker goroutines, which tokenize them while the caller reads on; each
// worker adds its documents' rows straight into a table of its own, one
// column per class indexed by term (see worker), so a token's bytes are
// hashed once and nothing is kept per document. The tables grow with the
// terms and classes met, not with the documents: memory is bounded by the
// model (vocabulary × classes) times the workers, plus a few batches of
// text. The workers' tables are merged, term by term in ascending order,
// only when the counts are written or read (or spilled under Options.Mem).
// Which worker took which document, where the batches begin and whether
// the tables spilled do not change the result: a Counter's counts are
// those of its documents, whatever Options say.
type Counter struct {
	s      vectorize.Settings // recorded in the header
	tok    vectorize.Settings // round one: s without pruning and weighting
	vocab  *vectorize.Vocabulary
	digest string
	opt    Options
	batch  int

	classes   map[string]int32 // class ids in order of first sight
	names     []string
	classDocs []int64 // documents of each class since the last spill
	total     []int64 // documents of each class
	pooled    bool    // the tables pool the classes (Options.VocabOnly)

	cur  *batch
	free chan *batch // batches the workers are done with, for reuse
	// budget bounds the text of the batches queued and being counted
	// (package inflight): dispatch takes a batch's size before queueing
	// it, and its worker gives it back once the batch is counted.
	budget  *inflight.Budget
	workers []*worker
	queue   chan *batch
	pending sync.WaitGroup // batches queued and not yet counted
	running sync.WaitGroup // worker goroutines
	runs    []string

	segments []segment      // the closed segments of the row cache
	carried  []*cacheWriter // hashed segments left open by a spill (halt)
	cacheErr error          // the first error writing it
	replayed bool           // RoundTwo took the row cache

	freeing   sync.WaitGroup // the release of a replayed row cache (RoundTwo)
	collected bool           // feed collected the garbage of the tables
	record    []Input        // what was counted (SetInputs), for the header written
}

// MaxClasses bounds the classes a Counter counts. Its tables hold, for
// each class a worker meets, a column over the terms met (blocks of 4,096
// cells), and writing them walks every class for every term, so time and
// memory grow as terms × classes; past this bound a corpus is refused at
// the document of its first class too many (ErrClasses) rather than left
// to run for hours. See docs/limits.md for the figures.
const MaxClasses = 1024

// ErrClasses: a corpus has more than MaxClasses classes.
var ErrClasses = errors.New("too many classes")

// checkTempDir reports, before any counting, a folder for spilled runs
// and the row cache ("": the system's) in which a file cannot be created,
// rather than failing at the first spill, after the counting done.
func checkTempDir(dir string) error {
	f, err := fsutil.CreateTemp(dir, "nbtext-probe-*")
	if err != nil {
		if dir == "" {
			return fmt.Errorf("the temporary folder for spilled runs: %w", err)
		}
		return fmt.Errorf("--tmp-dir %s: %w", dir, err)
	}
	f.Close()
	return fsutil.RemoveTemp(f.Name())
}

// NewCounter returns a Counter of documents tokenized with s. With a
// vocabulary (round two), s is vocab.Settings, only vocab's terms are
// counted, and each cell also sums the term's values as the vocabulary
// weights them; without one (round one) every term is counted.
func NewCounter(s vectorize.Settings, vocab *vectorize.Vocabulary, opt Options) (*Counter, error) {
	if vocab != nil {
		s = vocab.Settings
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if opt.Mem > 0 || opt.Replay {
		if err := checkTempDir(opt.TempDir); err != nil {
			return nil, err
		}
	}
	c := &Counter{s: s, tok: countSettings(s), vocab: vocab, opt: opt, batch: defaultBatchBytes, classes: map[string]int32{}}
	if vocab != nil {
		c.digest = VocabDigest(vocab)
	}
	if k, _ := s.SelectK(); opt.VocabOnly && vocab == nil && k == 0 {
		c.pooled = true
	}
	if opt.Mem > 0 {
		// The text in flight, up to 2 batches a worker and the one being
		// filled, stays under about a quarter of the bound.
		c.batch = int(min(int64(c.batch), max(opt.Mem/int64(8*c.workerCount()), 1<<12)))
	}
	limit := int64(inflight.Default)
	if opt.Mem > 0 {
		limit = min(limit, max(opt.Mem/4, 1<<20))
	}
	if opt.inFlight > 0 {
		limit = opt.inFlight
	}
	c.budget = inflight.New(limit)
	// The batches in flight: queued, counted, and the one being filled.
	c.free = make(chan *batch, 2*c.workerCount()+1)
	c.cur = c.newBatch()
	return c, nil
}

// Add counts one document of class label. It keeps nothing of text and
// label past its return (it copies what it keeps), so that the caller may
// reuse their memory once Add returns (corpus.Options.Transient).
//
// The text of the batches queued and being counted is bounded in bytes
// (Counter.budget): Add waits while a batch would pass the bound. A text
// larger than half the bound is not copied: Add hands it to a worker
// alone, once the batches before it fit beside it, and returns when it is
// counted, so that however large the documents, memory holds the bound's
// worth of batches and the reader's one huge document, not a copy of it
// per batch queued.
func (c *Counter) Add(text, label string) error {
	b := c.cur
	huge := int64(len(text)) > c.budget.Limit()/2
	if len(b.texts) > 0 && (huge || len(text) > cap(b.buf)-len(b.buf)) {
		// The batch's buffer is full, or the text goes alone: the
		// batch goes as it is (before this document is in
		// c.classDocs: dispatch may spill).
		if err := c.dispatch(); err != nil {
			return err
		}
		b = c.cur
	}
	k, err := c.classOf(label)
	if err != nil {
		return err
	}
	c.classDocs[k]++
	c.total[k]++
	if huge {
		return c.countNow(text, k)
	}
	if len(text) <= cap(b.buf)-len(b.buf) {
		n0 := len(b.buf)
		b.buf = append(b.buf, text...)
		text = unsafe.String(unsafe.SliceData(b.buf[n0:]), len(text))
	} else {
		text = strings.Clone(text) // longer than a batch
	}
	b.texts = append(b.texts, text)
	b.classes = append(b.classes, k)
	if b.size += len(text) + 64; b.size >= c.batch {
		return c.dispatch()
	}
	return nil
}

// classOf returns the id of class label, a new one (label copied) the
// first time, or ErrClasses past MaxClasses.
func (c *Counter) classOf(label string) (int32, error) {
	if k, ok := c.classes[label]; ok {
		return k, nil
	}
	if len(c.names) >= MaxClasses {
		return 0, fmt.Errorf("%w: class %q would be class number %d; nbtext counts at most %d classes (its count tables are dense in the classes: see docs/limits.md)", ErrClasses, label, len(c.names)+1, MaxClasses)
	}
	label = strings.Clone(label)
	k := int32(len(c.names))
	c.classes[label] = k
	c.names = append(c.names, label)
	c.classDocs = append(c.classDocs, 0)
	c.total = append(c.total, 0)
	return k, nil
}

// countNow has a worker count text, of class k, alone and waits until it
// is counted: text is the caller's, not copied (see Add). The batch ahead
// of it was dispatched.
func (c *Counter) countNow(text string, k int32) error {
	if err := c.start(); err != nil {
		return err
	}
	b := &batch{work: work{texts: []string{text}, classes: []int32{k}, size: len(text)}, counted: make(chan struct{})}
	b.held, _ = c.budget.Acquire(int64(b.size))
	c.pending.Add(1)
	c.queue <- b
	<-b.counted
	return c.spillIfFull()
}

// batch is a worker's work, with buf, the batch's own copy of its texts:
// reused once the batch is counted (no worker keeps a text: the terms
// are copied into the term tables), it leaves no garbage.
type batch struct {
	work
	buf  []byte
	held int64 // bytes taken from Counter.budget
	// counted, when set, is closed once the batch is counted: a batch of
	// one huge text that is not a copy (Counter.countNow), never reused.
	counted chan struct{}
}

// newBatch returns an empty batch: one the workers are done with, or a
// new one.
func (c *Counter) newBatch() *batch {
	select {
	case b := <-c.free:
		return b
	default:
		return &batch{buf: make([]byte, 0, c.batch)}
	}
}

// recycle empties the batch b, which its worker is done with, for
// newBatch.
func (c *Counter) recycle(b *batch) {
	// A text longer than the batch is its own copy: a batch waiting in
	// c.free must not keep it alive (issue 28, item 7).
	clear(b.texts)
	b.texts, b.classes, b.size, b.buf = b.texts[:0], b.classes[:0], 0, b.buf[:0]
	select {
	case c.free <- b:
	default:
	}
}

// workerCount returns the number of workers: Options.Workers, or one per
// core.
func (c *Counter) workerCount() int {
	if c.opt.Workers > 0 {
		return c.opt.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// start starts the workers, when they are not running.
func (c *Counter) start() error {
	if c.workers != nil {
		return nil
	}
	c.collected = false
	n := c.workerCount()
	ws := make([]*worker, n)
	for i := range ws {
		ws[i] = newWorker(c.tok, c.vocab, c.pooled)
		if !c.opt.Replay || c.vocab != nil {
			continue
		}
		if k := len(c.carried); k > 0 { // hashed: the segment goes on
			ws[i].cache, c.carried = c.carried[k-1], c.carried[:k-1]
			continue
		}
		cw, err := newCacheWriter(c.opt.TempDir, c.s.HashBits)
		if err != nil {
			for _, w := range ws[:i] {
				if s, err := w.cache.finish(nil); err == nil {
					s.release()
				}
			}
			c.cacheErr = err
			return err
		}
		ws[i].cache = cw
	}
	c.workers = ws
	c.queue = make(chan *batch, n)
	for _, w := range ws {
		c.running.Add(1)
		go func() {
			defer c.running.Done()
			for b := range c.queue {
				w.process(&b.work)
				c.budget.Release(b.held)
				b.held = 0
				if b.counted != nil {
					clear(b.texts)
					close(b.counted)
				} else {
					c.recycle(b)
				}
				c.pending.Done()
			}
		}()
	}
	return nil
}

// dispatch queues the current batch for the workers, and spills the
// tables when they are over their bound.
func (c *Counter) dispatch() error {
	if len(c.cur.texts) == 0 {
		return nil
	}
	if err := c.start(); err != nil {
		return err
	}
	c.cur.held, _ = c.budget.Acquire(int64(c.cur.size))
	c.pending.Add(1)
	c.queue <- c.cur
	c.cur = c.newBatch()
	return c.spillIfFull()
}

// spillIfFull spills the tables when they are over their bound
// (Options.Mem), or stops the count when they are past its ceiling
// (Options.Ceiling).
func (c *Counter) spillIfFull() error {
	if c.opt.Ceiling > 0 {
		if err := c.fullError(); err != nil {
			return err
		}
	}
	if c.opt.Mem > 0 {
		var mem int64
		for _, w := range c.workers {
			mem += w.mem.Load()
		}
		if mem > c.opt.Mem/2 {
			return c.spill()
		}
	}
	return nil
}

// drain counts every document added so far and waits for the workers to
// be idle; it returns the first error a worker met.
func (c *Counter) drain() error {
	if err := c.dispatch(); err != nil {
		return err
	}
	c.pending.Wait()
	for _, w := range c.workers {
		if w.err != nil {
			return w.err
		}
	}
	if c.opt.Ceiling > 0 {
		return c.fullError() // the last batches' terms
	}
	return nil
}

// stop stops the workers and lets their tables go, and closes the
// segments of the row cache.
func (c *Counter) stop() { c.halt(false) }

// halt stops the workers and lets their tables go. Their segments of the
// row cache end with them, except with carry under hashing: the ids of
// hashed segments are buckets, which need no TermCounter to name them
// (worker.bucketRow), so across a spill they go on in the next workers
// (start), and the segments stay as many as the workers however many
// spills there are.
func (c *Counter) halt(carry bool) {
	if c.workers != nil {
		close(c.queue)
		c.running.Wait()
		for _, w := range c.workers {
			switch {
			case w.cache == nil:
			case carry && w.named:
				c.carried = append(c.carried, w.cache)
			default:
				c.endSegment(w.cache, w.tc)
			}
		}
		c.workers, c.queue = nil, nil
		clear(c.classDocs)
	}
	if !carry {
		for _, cw := range c.carried {
			c.endSegment(cw, nil)
		}
		c.carried = nil
	}
}

// endSegment finishes the segment of cw, whose local ids tc names, and
// keeps it for RoundTwo.
func (c *Counter) endSegment(cw *cacheWriter, tc *vectorize.TermCounter) {
	s, err := cw.finish(tc)
	if err != nil {
		if c.cacheErr == nil {
			c.cacheErr = err
		}
		return
	}
	c.segments = append(c.segments, s)
}

// Counts returns the counts of every document added, in memory. It fails
// once the table has been spilled: use WriteFile then.
func (c *Counter) Counts() (*Counts, error) {
	if c.pooled {
		return nil, errVocabOnly
	}
	if len(c.runs) > 0 {
		return nil, errors.New("the count table was spilled to disk: write it with WriteFile")
	}
	m, err := c.parts(true)
	if err != nil {
		return nil, err
	}
	defer m.close()
	m.h.Inputs = c.record
	dst := newMemSink(*m.h)
	if err := m.into(dst); err != nil {
		return nil, err
	}
	c.stop()
	return dst.c, nil
}

// WriteFile writes the counts of every document added to path,
// atomically: the merge of the spilled runs and the workers' tables. It
// returns the header written.
func (c *Counter) WriteFile(path string) (*Header, error) {
	if c.pooled {
		return nil, errVocabOnly
	}
	if err := fsutil.CheckOutput(path); err != nil {
		return nil, err
	}
	m, err := c.parts(true)
	if err != nil {
		return nil, err
	}
	defer m.close()
	m.h.Inputs = c.record
	err = fsutil.WriteFile(path, m.write)
	c.stop()
	return m.h, err
}

// Stats returns the statistics an NB model (Bernoulli when presence) is
// fitted from, as Counts.Stats does for the counts of every document
// added, without building those counts: the merge of the runs and tables
// feeds them term by term, so memory holds a few numbers per term and
// class, whatever the number of documents.
func (c *Counter) Stats(presence bool) (*Stats, error) {
	if c.pooled {
		return nil, errVocabOnly
	}
	s, err := c.feed(true, presence)
	if err != nil {
		return nil, err
	}
	return s.result()
}

// Vocabulary returns what Counts.Vocabulary returns for the counts of
// every document added (the first result), without building them, and
// their header.
func (c *Counter) Vocabulary() (*vectorize.Vocabulary, *Header, error) {
	s, err := c.feed(false, false)
	if err != nil {
		return nil, nil, err
	}
	v, _, err := s.vocabulary()
	if err != nil || !c.pooled {
		return v, s.h, err
	}
	h, _ := c.header(c.total) // the classes the tables pooled
	return v, h, nil
}

// feed merges every part into a new statsSink.
func (c *Counter) feed(nb, presence bool) (*statsSink, error) {
	m, err := c.parts(true)
	if err != nil {
		return nil, err
	}
	defer m.close()
	s, err := newStatsSink(m.h, nb, presence)
	if err != nil {
		return nil, err
	}
	s.early = !nb && c.vocab == nil // Vocabulary of round one
	if c.vocab != nil && len(m.srcs) == 0 && len(m.workers) > 0 {
		// Round two's tables alone (it never spills): sum them id by id.
		err = s.sumTables(m.workers, m.toSum, c.vocab)
	} else {
		tables := len(m.srcs) == 0 // no runs: the workers' tables alone
		m.sources()
		if tables && !nb {
			err = s.mergeRanges(m)
		} else {
			s.reserve(m.terms)
			err = mergeInto(s, m.srcs, m.remap, len(m.h.Classes))
		}
	}
	if err != nil {
		return nil, err
	}
	m.srcs, m.workers = nil, nil // the workers' tables
	c.stop()
	// The tables are garbage now, and the caller is about to allocate (a
	// model as big as the statistics, or round two's tables): collect them
	// first, and give their pages back to the system, so that the peak is
	// the tables', not the tables' and that. (Collected but kept, their
	// pages of small blocks would not take the caller's large arrays.)
	debug.FreeOSMemory()
	c.collected = true
	return s, nil
}

// Close stops the workers and removes the spilled runs and the row cache.
func (c *Counter) Close() {
	if c.workers != nil {
		c.pending.Wait()
	}
	c.stop()
	for _, r := range c.runs {
		fsutil.RemoveTemp(r)
	}
	for i := range c.segments {
		c.segments[i].release()
	}
	c.runs, c.segments = nil, nil
	c.freeing.Wait()
}
