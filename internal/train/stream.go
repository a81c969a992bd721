package train

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/kernel"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// DefaultStreamBuffer is the number of rows FitLogRegStream shuffles
// together by default.
const DefaultStreamBuffer = 1 << 16

// chunkStream is the PCG stream of the chunk shuffle of FitLogRegStream
// (the seed is p.Seed).
const chunkStream = 0x6e62747261696e02

// FitLogRegStream fits logistic regression by SGD (p.Solver "sgd"; see
// fitSGD) on the rows of rc, weighted over vocab, with label ids into
// classes. Memory holds the weights (vocabulary × classes) and buffer rows
// (DefaultStreamBuffer when buffer ≤ 0), never the whole corpus: each epoch
// reads rc again, a block of buffer rows at a time, and shuffles within the
// block with p.Seed. A block is made of chunks of 64 rows taken from
// across the cache in an order shuffled at each epoch (with p.Seed), so
// that a corpus sorted by label still gives blocks of every label. When buffer covers every row the fit visits the rows
// in the same order as FitLogReg on the same matrix, and gives the same
// model. opt.Init starts from a model's weights (see FitLogReg).
func FitLogRegStream(rc *RowCache, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options, buffer int) (*model.Model, error) {
	if err := ValidateParams(model.LogReg, p, len(classes)); err != nil {
		return nil, err
	}
	if err := model.CheckSize(model.LogReg, false, vocab.Len(), len(classes)); err != nil {
		return nil, err
	}
	if p.Solver != "sgd" {
		return nil, fmt.Errorf("streamed logistic regression needs --solver sgd, not %s", p.Solver)
	}
	n, nf, nc := rc.Rows(), vocab.Len(), len(classes)
	buffer, err := rc.check(nc, buffer)
	if err != nil {
		return nil, err
	}
	x0, err := initPoint(opt.Init, nf, nc)
	if err != nil {
		return nil, err
	}
	d := &cacheData{rc: rc, buffer: buffer, nf: nf, rng: rand.New(rand.NewPCG(uint64(p.Seed), chunkStream))}
	d.presize()
	sp := &scoreSpool{d: d, nc: nc, W: x0[:nf*nc], workers: opt.workers()}
	defer sp.close()
	last := 0
	if fn := opt.Progress; fn != nil {
		opt.Progress = func(done, total int) { last = done; fn(done, total) }
	}
	w, err := fitSGDData(d, n, nf, rc.sq, nc, p, x0, opt, sp.scores)
	if err != nil {
		return nil, err
	}
	if opt.Progress != nil && last < p.Epochs {
		opt.Progress(p.Epochs, p.Epochs)
	}
	return newLogReg(w, n, classes, vocab, p)
}

// cacheData reads a RowCache in blocks of at most buffer rows (sgdData).
type cacheData struct {
	rc     *RowCache
	buffer int
	nf     int
	rng    *rand.Rand // shuffles the chunks when the buffer holds fewer than all the rows
	order  []int
	X      vectorize.Matrix
	y      []int
}

func (d *cacheData) each(fn func(X *vectorize.Matrix, y []int) error) error {
	d.reset()
	add := func(y int, ind []int32, val []float32) error {
		d.X.Indices = append(d.X.Indices, ind...)
		d.X.Values = append(d.X.Values, val...)
		d.X.Indptr = append(d.X.Indptr, len(d.X.Indices))
		d.y = append(d.y, y)
		if len(d.y) < d.buffer {
			return nil
		}
		err := fn(&d.X, d.y)
		d.reset()
		return err
	}
	var err error
	if d.rng == nil || d.buffer >= d.rc.Rows() {
		err = d.rc.Each(add)
	} else {
		// A corpus may come sorted by label: the blocks gather chunks of
		// rows from across it, in an order shuffled at each pass.
		if len(d.order) != d.rc.Chunks() {
			d.order = make([]int, d.rc.Chunks())
			for i := range d.order {
				d.order[i] = i
			}
		}
		d.rng.Shuffle(len(d.order), func(i, j int) { d.order[i], d.order[j] = d.order[j], d.order[i] })
		err = d.rc.EachChunk(d.order, add)
	}
	if err == nil && len(d.y) > 0 {
		err = fn(&d.X, d.y)
	}
	d.reset()
	return err
}

// presize allocates the block for about as many terms as a block of rows
// holds on average, and an eighth more: grown by appending, the block
// would leave three times its size in garbage beside the weights, which
// the runtime keeps mapped as long as the fit runs.
func (d *cacheData) presize() {
	rows := min(d.buffer, d.rc.Rows())
	if rows <= 0 {
		return
	}
	nnz := int(d.rc.nnz / int64(d.rc.Rows()) * int64(rows))
	nnz += nnz / 8
	d.X.Indptr = make([]int, 0, rows+1)
	d.X.Indices = make([]int32, 0, nnz)
	d.X.Values = make([]float32, 0, nnz)
	d.y = make([]int, 0, rows)
}

func (d *cacheData) reset() {
	d.X = vectorize.Matrix{Indptr: append(d.X.Indptr[:0], 0), Indices: d.X.Indices[:0], Values: d.X.Values[:0], Cols: d.nf}
	d.y = d.y[:0]
}

// scoreSpool gives refitBias the scores of the final weights W over the
// rows of d (biasScores): the first call computes them block by block and
// writes them, with the labels, to an unlinked temporary file next to the
// row cache; the later calls (one per L-BFGS evaluation) read them back,
// which costs C floats a row instead of a row's terms times C.
type scoreSpool struct {
	d       *cacheData
	nc      int
	W       []float64
	workers int
	f       *fsutil.Scratch
	base    []float64
	y       []int
	buf     []byte
}

func (sp *scoreSpool) scores(fn func(base []float64, y []int)) error {
	if sp.f == nil {
		return sp.compute(fn)
	}
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("score spool: %w", err)
	}
	r := bufio.NewReaderSize(sp.f, 1<<20)
	row := make([]byte, 4+8*sp.nc)
	for left := sp.d.rc.Rows(); left > 0; {
		m := min(left, sp.d.buffer)
		sp.base, sp.y = sp.base[:0], sp.y[:0]
		for range m {
			if _, err := io.ReadFull(r, row); err != nil {
				return fmt.Errorf("score spool %s: %w", sp.f.Name(), err)
			}
			sp.y = append(sp.y, int(binary.LittleEndian.Uint32(row)))
			for c := range sp.nc {
				sp.base = append(sp.base, math.Float64frombits(binary.LittleEndian.Uint64(row[4+8*c:])))
			}
		}
		fn(sp.base, sp.y)
		left -= m
	}
	return nil
}

// compute computes the scores of the rows, calls fn with them block by
// block and spools them.
func (sp *scoreSpool) compute(fn func(base []float64, y []int)) error {
	f, err := fsutil.NewScratch("", "nbtext-scores-*")
	if err != nil {
		return fmt.Errorf("score spool: %w", err)
	}
	sp.f = f
	w := bufio.NewWriterSize(f, 1<<20)
	nc := sp.nc
	err = sp.d.each(func(X *vectorize.Matrix, y []int) error {
		m := X.Rows()
		sp.base = append(sp.base[:0], make([]float64, m*nc)...)
		parallel(sp.workers, ceilDiv(m, docChunk), func(k int) {
			for i := k * docChunk; i < min(m, (k+1)*docChunk); i++ {
				ind, val := X.Row(i)
				kernel.AddScores(sp.base[i*nc:i*nc+nc], sp.W, ind, val)
			}
		})
		fn(sp.base, y)
		for i, yi := range y {
			b := binary.LittleEndian.AppendUint32(sp.buf[:0], uint32(yi))
			for _, v := range sp.base[i*nc : i*nc+nc] {
				b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
			}
			sp.buf = b
			if _, err := w.Write(b); err != nil {
				return fmt.Errorf("score spool %s: %w", f.Name(), err)
			}
		}
		return nil
	})
	if err == nil {
		if err = w.Flush(); err != nil {
			err = fmt.Errorf("score spool %s: %w", f.Name(), err)
		}
	}
	return err
}

func (sp *scoreSpool) close() {
	if sp.f != nil {
		sp.f.Close()
	}
}
