package eval

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// scoreChunk is the number of documents a scoring goroutine takes at a time.
const scoreChunk = 256

// Score predicts every row of X (weighted as m's vocabulary says) with m on
// workers goroutines (0: GOMAXPROCS), each with its own model.Scorer. It
// returns the predicted class of each row (model.Scorer.Predict: the MAP
// class, ties to the lower id), when wantProbs is set the rows' class
// log-probabilities, row-major n×C, and the number of predictions made
// from the prior (model.Prediction.Fallback). Results are stored by row,
// so they do not depend on workers.
func Score(m *model.Model, X *vectorize.Matrix, workers int, wantProbs bool) (pred []int, logProb []float64, fallback int) {
	return scoreRows(m, X.Rows(), workers, wantProbs, func(s *model.Scorer, i int) model.Prediction {
		return s.Predict(X.Row(i))
	})
}

// ScoreEnsemble predicts texts (already stripped as m.Remove says) with
// the ensemble m on workers goroutines (0: GOMAXPROCS), each with its own
// model.EnsembleScorer, and returns what Score returns for a single
// model, by text, so that the result does not depend on workers.
func ScoreEnsemble(m *model.Model, texts []string, workers int) (pred []int, logProb []float64, fallback int) {
	C := m.NumClasses()
	pred = make([]int, len(texts))
	fb := make([]bool, len(texts))
	logProb = make([]float64, len(texts)*C)
	parallelChunks(len(texts), scoreChunk, workers, func() func(lo, hi int) {
		es := m.NewEnsembleScorer()
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := es.Predict(texts[i])
				pred[i], fb[i] = p.Class, p.Fallback
				copy(logProb[i*C:(i+1)*C], p.LogProbs)
			}
		}
	})
	return pred, logProb, countTrue(fb)
}

// countTrue returns how many of bs are set.
func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// scoreRows predicts rows 0..n-1 with predict on workers goroutines, each
// with its own model.Scorer, and gathers what Score returns: the class of
// each row, when wantProbs is set the rows' class log-probabilities, and
// the number of predictions made from the prior. Results are stored by
// row, so they do not depend on workers.
func scoreRows(m *model.Model, n, workers int, wantProbs bool, predict func(s *model.Scorer, i int) model.Prediction) (pred []int, logProb []float64, fallback int) {
	C := m.NumClasses()
	pred = make([]int, n)
	fb := make([]bool, n)
	if wantProbs {
		logProb = make([]float64, n*C)
	}
	parallelChunks(n, scoreChunk, workers, func() func(lo, hi int) {
		s := m.NewScorer()
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p := predict(s, i)
				pred[i], fb[i] = p.Class, p.Fallback
				if wantProbs {
					copy(logProb[i*C:(i+1)*C], p.LogProbs)
				}
			}
		}
	})
	return pred, logProb, countTrue(fb)
}

// EvaluateModel scores the rows of X (weighted as m's vocabulary says) and
// evaluates the predictions against labels, the documents' label names
// (labels the model does not know are counted as errors; see Report).
// Log-loss is always computed; opt.TopK adds top-k accuracy.
func EvaluateModel(m *model.Model, X *vectorize.Matrix, labels []string, opt Options, workers int) (*Report, error) {
	if err := checkLabels(X.Rows(), labels); err != nil {
		return nil, err
	}
	pred, lp, fallback := Score(m, X, workers, true)
	r, err := evaluateScored(m, labels, pred, lp, fallback, opt)
	if r != nil {
		r.Empty = emptyRows(X)
	}
	return r, err
}

// emptyRows counts the rows of X with no term (nil X: none).
func emptyRows(X *vectorize.Matrix) int {
	if X == nil {
		return 0
	}
	n := 0
	for i := range X.Rows() {
		if ind, _ := X.Row(i); len(ind) == 0 {
			n++
		}
	}
	return n
}

// checkLabels checks that there are n labels and none is empty.
func checkLabels(n int, labels []string) error {
	if n != len(labels) {
		return fmt.Errorf("%d documents but %d labels", n, len(labels))
	}
	for i, l := range labels {
		if l == "" {
			return fmt.Errorf("document %d has no label: evaluation needs a labelled corpus", i+1)
		}
	}
	return nil
}

// evaluateScored evaluates m's predictions pred and class log-probabilities
// logProb (row-major n×C) against labels, the documents' label names: the
// last step of EvaluateModel and StreamScorer.Finish.
func evaluateScored(m *model.Model, labels []string, pred []int, logProb []float64, fallback int, opt Options) (*Report, error) {
	truth, unknown := MapLabels(m.Classes, labels)
	return Evaluate(Input{Classes: m.Classes, Unknown: unknown, Truth: truth, Pred: pred, LogProb: logProb, Fallback: fallback}, opt)
}

// EvaluateTexts tokenizes and weighs texts with m's vocabulary
// (train.PrepareWith) and evaluates them as EvaluateModel does. For texts
// that arrive while a reader decodes them, StreamScorer gives the same
// Report and overlaps the scoring with the reading.
func EvaluateTexts(m *model.Model, texts, labels []string, opt Options, workers int) (*Report, error) {
	X := train.PrepareWith(m.Vocab, texts, workers)
	return EvaluateModel(m, X, labels, opt, workers)
}

// parallelChunks runs the function made by setup over [0, n) in chunks of
// size chunk on up to workers goroutines (0: GOMAXPROCS); each goroutine
// calls setup once for its own state.
func parallelChunks(n, chunk, workers int, setup func() func(lo, hi int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	nc := (n + chunk - 1) / chunk
	workers = max(1, min(workers, nc))
	if workers == 1 {
		if n > 0 {
			setup()(0, n)
		}
		return
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn := setup()
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if c >= nc {
					return
				}
				fn(c*chunk, min((c+1)*chunk, n))
			}
		}()
	}
	wg.Wait()
}
