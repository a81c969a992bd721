package predict

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strconv"
	"sync"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/inflight"
	"github.com/nbtext/nbtext/internal/model"
)

// A batch is sent to the workers when it holds batchSize documents or
// batchBytes bytes of text, whichever comes first, or when the reader
// would have to wait for input.
const (
	batchSize  = 256
	batchBytes = 1 << 20
)

// Stats count what a run saw.
type Stats struct {
	Docs     int // documents answered, Failed included
	Empty    int // documents with no term of the vocabulary
	Fallback int // documents predicted from the prior (see model.Prediction)
	Failed   int // documents that could not be read, answered with "?"
	// NoDocs are the path arguments of Files that held no document (an
	// empty folder, archive or file), in order.
	NoDocs []string
	// Labelled are the sources that hold labels (a label column or key,
	// fastText labels, label<TAB>text rows), in order, each with what
	// the labels are: predict ignores them; eval measures against them.
	Labelled []Labelled
}

// Labelled is a source that holds labels, and what they are.
type Labelled struct{ Source, What string }

func (s *Stats) add(o Stats) {
	s.Docs += o.Docs
	s.Empty += o.Empty
	s.Fallback += o.Fallback
	s.Failed += o.Failed
}

// batch is a run of consecutive documents and, once a worker is done with
// it, their output. Batches are recycled through Predictor.pool, so a
// stream of short lines allocates nothing per line.
type batch struct {
	recs  []record
	arena []byte // the bytes of the raw records
	size  int    // bytes of text in recs
	out   []byte
	st    Stats
	err   error         // a framing error after recs: written after them, then returned
	done  chan struct{} // receives one value when out is ready (capacity 1, reused)
	held  int64         // bytes taken from the run's budget (inflight.Budget)
}

// Predictor scores documents with one model. It is safe for concurrent
// use: each Stream or Files call runs its own workers.
type Predictor struct {
	m     *model.Model
	opt   Options
	strip corpus.Remove
	// lineStrip is strip for a document that is one line of its input,
	// which never holds the blank line that ends a mail header: header
	// stripping would empty it (see corpus.StripHeader).
	lineStrip corpus.Remove
	pool      sync.Pool // *batch
	// onBudget, when set (tests), receives each run's byte budget.
	onBudget func(*inflight.Budget)
	// onCollect, when set (tests), is called after the collection that
	// follows the answers of a huge document.
	onCollect func()
}

// New validates opt against m and returns a Predictor.
func New(m *model.Model, opt Options) (*Predictor, error) {
	if err := opt.normalize(); err != nil {
		return nil, err
	}
	if m.Vocab == nil && m.Kind != model.Ensemble {
		return nil, errors.New("the model has no vocabulary")
	}
	if m.Fields != nil && !slices.Contains([]string{InputJSONL, InputCSV, InputTSV, InputAuto}, opt.Input) {
		return nil, errFieldsInput
	}
	if opt.Costs != nil && len(opt.Costs) != m.NumClasses() {
		return nil, errCosts(len(opt.Costs), m.NumClasses())
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if warn := opt.Warn; warn != nil {
		// The writer reports unreadable documents while a folder walk on
		// the reading goroutine may report skipped files.
		var mu sync.Mutex
		opt.Warn = func(msg string) {
			mu.Lock()
			defer mu.Unlock()
			warn(msg)
		}
	}
	opt.TopK = min(opt.TopK, m.NumClasses())
	var strip corpus.Remove
	if m.Remove() != "" {
		var err error
		if strip, err = corpus.ParseRemove(m.Remove()); err != nil {
			return nil, err
		}
	}
	return &Predictor{m: m, opt: opt, strip: strip, lineStrip: strip &^ corpus.RemoveHeaders}, nil
}

// Header writes the TSV header line when Options.Header asks for one.
func (p *Predictor) Header(w io.Writer) error {
	if p.opt.Format != FormatTSV || !p.opt.Header {
		return nil
	}
	_, err := w.Write(tsvHeader(p.opt))
	return err
}

// Stream predicts every document framed out of r (named name in errors;
// decompressed first when it is gzip, zstd or bzip2) and writes the results to w in input order. It flushes w (when w has a
// Flush method) each time it has answered everything read so far. A
// document that cannot be read (larger than MaxDocBytes) is answered with
// "?" and reported to Options.Warn. A framing error (invalid JSONL, an
// oversized record whose end cannot be found) is returned after the
// results of the documents before it have been written. When ctx is
// cancelled or w fails, Stream returns at once, but a read from r that
// blocks keeps its goroutine until the read returns.
func (p *Predictor) Stream(ctx context.Context, r io.Reader, name string, w io.Writer) (Stats, error) {
	return p.run(ctx, w, func(q *batcher) error {
		return q.frameReader(r, name, "")
	})
}

// Stdin is the name of the path that stands for standard input in Files.
const Stdin = "-"

// Files predicts the documents at each path, in order, and writes the
// results to w as Stream does:
//
//   - a plain file is framed as stdin is, by Options.Input (one document
//     per line by default), decompressed first when its first bytes are
//     those of gzip, zstd or bzip2 (corpus.Decompress); the id of record N
//     is "PATH:N" (or, with --input doc, the path);
//   - "-" is stdin (ids "stdin:N");
//   - a folder or an archive (by name, see corpus.IsArchiveName) gives one
//     document per file, whose id is its path (see corpus.Walk).
//
// Every path is checked before anything is read: a path that does not
// exist or is neither a folder nor a regular file (a device, a FIFO) is an
// error. A document that cannot be read (NUL bytes in a file of a folder or
// archive, larger than MaxDocBytes, a malformed JSONL record) and a file
// that cannot be opened once the run began (permission denied) are
// answered with "?" and reported to Options.Warn, so the answers always
// line up with the documents and the readable ones after them are
// answered too.
func (p *Predictor) Files(ctx context.Context, paths []string, stdin io.Reader, w io.Writer) (Stats, error) {
	for _, path := range paths {
		if path == Stdin {
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			return Stats{}, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if !fi.IsDir() && !fi.Mode().IsRegular() {
			return Stats{}, corpus.NotRegular(path, fi)
		}
	}
	var noDocs []string
	st, err := p.run(ctx, w, func(q *batcher) error {
		for _, path := range paths {
			n := q.n
			if err := q.path(path, stdin); err != nil {
				return err
			}
			if q.n == n {
				noDocs = append(noDocs, path)
			}
		}
		return nil
	})
	if err == nil {
		// run returned after the producer finished (it closes order).
		st.NoDocs = noDocs
	}
	return st, err
}

// unwrapPath drops the operation and path of a *fs.PathError, which the
// caller names itself.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// path sends the documents at path to the batcher; see Files.
func (q *batcher) path(path string, stdin io.Reader) error {
	opt := &q.p.opt
	if path == Stdin {
		return q.frameReader(stdin, "stdin", "stdin:")
	}
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if fi.IsDir() || corpus.IsArchiveName(path) {
		return corpus.Walk(path, corpus.Options{Warn: opt.Warn, MaxDocBytes: opt.MaxDocBytes, Room: q.room}, func(d corpus.Document, err error) error {
			if err != nil {
				return q.add(record{id: d.ID, fail: err.Error()}, nil)
			}
			return q.add(record{id: d.ID, text: d.Text}, nil)
		})
	}
	f, err := corpus.OpenRegular(path)
	if err != nil {
		// A file that cannot be read (permission denied, removed since)
		// is answered as one failed document: the readable documents
		// after it are still answered.
		return q.add(record{id: path, fail: err.Error()}, nil)
	}
	defer f.Close()
	return q.frameReader(f, path, path+":")
}

// frameReader sends every record of r (named name in errors, ids prefixed
// with prefix) to the batcher, decompressing r first when its first bytes
// are those of gzip, zstd or bzip2 (corpus.Decompress, which reads no
// further ahead than it must, so a stream of lines is answered as it
// arrives).
func (q *batcher) frameReader(r io.Reader, name, prefix string) error {
	d, err := corpus.Decompress(r)
	if err != nil {
		if name != "stdin" {
			return q.add(record{id: name, fail: fmt.Sprintf("%s: %v", name, err)}, nil)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	defer d.Close()
	fr := newFramer(d, name, q.p.opt.Input, q.p.opt.MaxDocBytes)
	fr.prefix = prefix
	if f, ok := r.(*os.File); ok {
		fr.at = f // a regular file (OpenRegular), read from its start
	}
	fr.fields = q.p.opt.Fields
	if fr.input == InputAuto {
		fr.input = resolveInput(fr.br, name, prefix == "" || name == "stdin", fr.fields.LabelPrefix)
	}
	if q.p.m.Fields != nil && fr.input != InputJSONL && fr.input != InputCSV && fr.input != InputTSV {
		return fmt.Errorf("%s: %w", name, errFieldsInput)
	}
	fr.onLabels = func(name, what string) {
		q.labelled = append(q.labelled, Labelled{name, what})
	}
	read, err := q.frame(fr)
	if err != nil && read && name != "stdin" {
		// A file that fails while read (a damaged archive stream, an I/O
		// error): one failed document for the rest of it, then the next
		// file.
		return q.add(record{id: name, fail: err.Error()}, nil)
	}
	return err
}

// frame sends every record of fr to the batcher. read reports whether the
// error came from reading fr (not from the batcher).
func (q *batcher) frame(fr *framer) (read bool, err error) {
	fr.wait = q.flush
	fr.room = q.room
	for {
		rec, text, err := fr.next()
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return true, err
		}
		if err := q.add(rec, text); err != nil {
			return false, err
		}
	}
}

// batcher gathers records into batches on the producing goroutine and
// hands each full batch to the writer (order) and the workers (jobs).
type batcher struct {
	ctx   context.Context
	p     *Predictor
	cur   *batch
	order chan<- *batch
	jobs  chan<- *batch
	bytes *inflight.Budget
	n     int // records added so far
	// labelled are the sources read so far that hold labels.
	labelled []Labelled
}

// add appends rec to the current batch, copying text (the bytes of a raw
// record) into the batch, and sends the batch when it is full. It fails
// only when the run is cancelled.
func (q *batcher) add(rec record, text []byte) error {
	b := q.cur
	q.n++
	if rec.raw {
		rec.lo = len(b.arena)
		b.arena = append(b.arena, text...)
		rec.hi = len(b.arena)
		b.size += len(text)
	} else {
		b.size += len(rec.text)
	}
	b.recs = append(b.recs, rec)
	if len(b.recs) >= batchSize || b.size >= batchBytes {
		return q.send()
	}
	return nil
}

// room waits, before a reader holds n bytes of one document (the framer
// while a record grows, corpus.Walk before an archive member), until they
// fit in the byte budget beside the batches in flight, the current batch
// sent first: a huge document is read once the documents before it are
// written, not beside them, so the budget plus the largest document
// bound the text in memory. It fails only when the run is cancelled.
func (q *batcher) room(n int64) error {
	if n <= batchBytes {
		return nil
	}
	if err := q.flush(); err != nil {
		return err
	}
	if !q.bytes.WaitRoom(n) {
		return context.Canceled // the writer has stopped
	}
	return nil
}

// flush sends the current batch if it holds anything.
func (q *batcher) flush() error {
	if len(q.cur.recs) == 0 {
		return nil
	}
	return q.send()
}

func (q *batcher) send() error {
	b := q.cur
	held, ok := q.bytes.Acquire(int64(max(b.size, len(b.arena))))
	if !ok {
		return context.Canceled // the writer has stopped
	}
	b.held = held
	select {
	case q.order <- b:
	case <-q.ctx.Done():
		return q.ctx.Err()
	}
	q.jobs <- b // never blocks for long: the workers do not wait on the writer
	q.cur = q.p.getBatch()
	return nil
}

func (p *Predictor) getBatch() *batch {
	if b, ok := p.pool.Get().(*batch); ok {
		return b
	}
	return &batch{done: make(chan struct{}, 1)}
}

// putBatch recycles b, dropping what it refers to and any buffer a huge
// document grew beyond maxScratch.
func (p *Predictor) putBatch(b *batch) {
	clear(b.recs)
	b.recs = b.recs[:0]
	b.arena, b.out = b.arena[:0], b.out[:0]
	if cap(b.arena) > maxScratch {
		b.arena = nil
	}
	if cap(b.out) > maxScratch {
		b.out = nil
	}
	b.size, b.st, b.err, b.held = 0, Stats{}, nil, 0
	p.pool.Put(b)
}

// run drives the pipeline: produce frames records into batches on its own
// goroutine, workers score them, and this goroutine writes them in order.
// At most 2·Workers batches are in flight, and at most
// Options.MaxBytesInFlight bytes of their text (inflight.Budget; a batch larger
// than that passes alone), so memory is bounded in bytes.
func (p *Predictor) run(ctx context.Context, w io.Writer, produce func(*batcher) error) (Stats, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	queued := 2 * p.opt.Workers
	jobs := make(chan *batch, queued)
	order := make(chan *batch, queued)
	budget := inflight.New(p.opt.MaxBytesInFlight)
	defer budget.Close()
	if p.onBudget != nil {
		p.onBudget(budget)
	}

	for i := 0; i < p.opt.Workers; i++ {
		go p.worker(jobs)
	}
	q := &batcher{ctx: ctx, p: p, cur: p.getBatch(), order: order, jobs: jobs, bytes: budget}
	go func() {
		defer close(jobs)
		defer close(order)
		err := produce(q)
		if ctx.Err() != nil {
			return // the writer has stopped
		}
		q.cur.err = err
		if len(q.cur.recs) > 0 || err != nil {
			q.send()
		}
	}()

	var st Stats
	flusher, _ := w.(interface{ Flush() error })
	emptyWarned := 0
	for b := range order {
		<-b.done
		_, err := w.Write(b.out)
		huge, held := b.size > maxScratch, b.held
		if !huge {
			budget.Release(held)
			held = 0
		}
		if err != nil {
			budget.Release(held)
			return st, err
		}
		st.add(b.st)
		if b.st.Failed > 0 && p.opt.Warn != nil {
			for i := range b.recs {
				if b.recs[i].fail != "" {
					p.opt.Warn(b.recs[i].fail)
				}
			}
		}
		// JSON marks such a document ("empty": true); text and TSV have
		// no field for it, so the first few are named on stderr.
		if b.st.Empty > 0 && p.opt.Warn != nil && p.opt.Format != FormatJSON && !p.m.MultiLabel {
			for i := range b.recs {
				if r := &b.recs[i]; r.empty && emptyWarned < maxEmptyWarnings {
					emptyWarned++
					p.opt.Warn(fmt.Sprintf("%s: no word the model knows: answered from its biases (the prior) alone", recordID(r)))
				}
			}
		}
		if b.err != nil {
			budget.Release(held)
			if flusher != nil {
				flusher.Flush()
			}
			return st, b.err
		}
		p.putBatch(b)
		if huge {
			// The text of a huge document is garbage now: collect it
			// before the next one is read (the reader waits for the
			// room this release gives, batcher.room), or the heap grows
			// to twice what is live (GOGC) and N huge documents cost
			// about N.
			runtime.GC()
			if p.onCollect != nil {
				p.onCollect()
			}
			budget.Release(held)
		}
		if flusher != nil && len(order) == 0 {
			if err := flusher.Flush(); err != nil {
				return st, err
			}
		}
	}
	if flusher != nil {
		if err := flusher.Flush(); err != nil {
			return st, err
		}
	}
	// order is closed: the producer is done with q.
	st.Labelled = q.labelled
	return st, ctx.Err()
}

// worker scores batches with its own vectorizer and scorer, formatting
// each result into the batch's output bytes.
func (p *Predictor) worker(jobs <-chan *batch) {
	f := newFormatter(p.m, p.opt)
	answer := p.answerer(f)
	for b := range jobs {
		out := b.out[:0]
		for i := range b.recs {
			rec := &b.recs[i]
			b.st.Docs++
			if rec.fail != "" {
				out = f.appendFailed(out, rec)
				b.st.Failed++
				continue
			}
			text := rec.text
			if rec.raw {
				text = decodeInPlace(b.arena[rec.lo:rec.hi])
			}
			if s := p.strip; s != 0 {
				if rec.oneLine {
					s = p.lineStrip
				}
				text = corpus.Strip(text, s)
			}
			var pr model.Prediction
			out, pr = answer(out, rec, text)
			if pr.Empty {
				b.st.Empty++
				rec.empty = true
			}
			if pr.Fallback {
				b.st.Fallback++
			}
		}
		b.out = out
		b.done <- struct{}{}
	}
}

// answerer returns what a worker does with each readable document: score
// its text (stripped already) and render the result onto out with f. A
// model vectorizes the text with its vocabulary; each member of an
// ensemble does so with its own (model.EnsembleScorer).
func (p *Predictor) answerer(f *formatter) func(out []byte, rec *record, text string) ([]byte, model.Prediction) {
	if p.m.Kind == model.Ensemble {
		es := p.m.NewEnsembleScorer()
		f.ens = es
		return func(out []byte, rec *record, text string) ([]byte, model.Prediction) {
			pr := es.Predict(text)
			return f.append(out, rec, pr, nil, nil, nil), pr
		}
	}
	vz := p.m.Vocab.NewVectorizer()
	sc := p.m.NewScorer()
	fields := p.m.Fields
	return func(out []byte, rec *record, text string) ([]byte, model.Prediction) {
		ind, val := vz.Vectorize(text)
		p.m.Vocab.WeightRow(ind, val)
		var pr model.Prediction
		if fields != nil {
			recordOf(fields, rec, &f.rec)
			pr = sc.PredictRecord(ind, val, f.rec)
		} else {
			pr = sc.Predict(ind, val)
		}
		return f.append(out, rec, pr, sc, ind, val), pr
	}
}

// maxEmptyWarnings is how many documents with no known word a run names on
// stderr (Options.Warn); Stats.Empty counts them all.
const maxEmptyWarnings = 5

// recordID returns the id of rec as the output writes it.
func recordID(rec *record) string {
	if rec.raw {
		return rec.src + strconv.Itoa(rec.n)
	}
	return rec.id
}

// NewWriter wraps w in a buffered writer whose Flush the pipeline calls
// whenever it has caught up with its input.
func NewWriter(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, 1<<16) }
