package train

import (
	"errors"
	"fmt"
	"math/rand/v2"

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
	if p.Solver != "sgd" {
		return nil, fmt.Errorf("streamed logistic regression needs --solver sgd, not %s", p.Solver)
	}
	n, nf, nc := rc.Rows(), vocab.Len(), len(classes)
	if n == 0 {
		return nil, errors.New("no training documents")
	}
	if rc.classes > nc {
		return nil, fmt.Errorf("row cache has label id %d, but %d classes", rc.classes-1, nc)
	}
	if buffer <= 0 {
		buffer = DefaultStreamBuffer
	}
	x0, err := initPoint(opt.Init, nf, nc)
	if err != nil {
		return nil, err
	}
	d := &cacheData{rc: rc, buffer: buffer, nf: nf, rng: rand.New(rand.NewPCG(uint64(p.Seed), chunkStream))}
	var base []float64
	scores := func(fn func(base []float64, y []int)) error {
		return d.each(func(X *vectorize.Matrix, y []int) error {
			m := X.Rows()
			base = append(base[:0], make([]float64, m*nc)...)
			parallel(opt.workers(), ceilDiv(m, docChunk), func(k int) {
				for i := k * docChunk; i < min(m, (k+1)*docChunk); i++ {
					ind, val := X.Row(i)
					addScores(base[i*nc:i*nc+nc], x0[:nf*nc], ind, val)
				}
			})
			fn(base, y)
			return nil
		})
	}
	last := 0
	if fn := opt.Progress; fn != nil {
		opt.Progress = func(done, total int) { last = done; fn(done, total) }
	}
	w, err := fitSGDData(d, n, nf, rc.sq, nc, p, x0, opt, scores)
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

func (d *cacheData) reset() {
	d.X = vectorize.Matrix{Indptr: append(d.X.Indptr[:0], 0), Indices: d.X.Indices[:0], Values: d.X.Values[:0], Cols: d.nf}
	d.y = d.y[:0]
}
