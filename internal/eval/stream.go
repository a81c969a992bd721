package eval

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// streamBatch is the number of documents a StreamScorer hands to a worker
// at a time.
const streamBatch = 64

// StreamScorer is EvaluateTexts for documents that arrive one at a time
// while a reader decodes them (corpus.ReadStream): its workers tokenize,
// weigh and score each batch of documents as soon as it is complete, so
// that scoring overlaps reading (for an archive, decompressing) instead of
// waiting for the whole corpus.
//
// Add numbers the documents 0, 1, 2, … in the order of the calls, as
// corpus.ReadStream numbers its emit calls. Finish then says which of them
// make up the corpus, in which order, and returns exactly the Report that
// EvaluateTexts returns for those texts in that order, whatever the number
// of workers and the order of arrival. Documents that Finish leaves out
// count for nothing. The texts are scored as they are given, unless the
// scorer was told to strip them (see NewStreamScorer).
//
// Add and Finish are called from one goroutine at a time; Finish once. A
// StreamScorer that is not finished must be closed, to stop its workers
// (a deferred Close after Finish does nothing).
type StreamScorer struct {
	m       *model.Model
	batches []*scoredBatch // batch k holds documents k*streamBatch onwards
	pending []string       // texts of the batch being gathered
	n       int            // documents added
	jobs    chan scoreJob
	wg      sync.WaitGroup
	closed  bool
	discard atomic.Bool // set by Close: workers skip the jobs left
}

// scoredBatch holds a worker's results for one batch: the predicted class
// of each document and its class log-probabilities, row-major.
type scoredBatch struct {
	pred     []int
	logProb  []float64
	fallback []bool
	empty    []bool
}

// scoreJob is a batch for a worker and its texts.
type scoreJob struct {
	b     *scoredBatch
	texts []string
}

// NewStreamScorer starts a StreamScorer for m on workers goroutines (0
// means runtime.GOMAXPROCS), each with its own vectorize.Vectorizer and
// model.Scorer. When strip is not 0, the workers first strip each text as
// corpus.Strip does: for texts read with corpus.Options.Remove 0, such as
// a reader that started before the model was loaded and so did not know
// the model's setting (its Vocab.Settings.Remove). The result is then the
// Report of EvaluateTexts on the stripped texts. A reader that stripped
// already needs strip 0: stripping twice may remove more. NewStreamScorer
// fails when m has no vocabulary to tokenize with.
func NewStreamScorer(m *model.Model, workers int, strip corpus.Remove) (*StreamScorer, error) {
	if m.Vocab == nil && m.Kind != model.Ensemble {
		return nil, errors.New("model has no vocabulary: it cannot score texts")
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := &StreamScorer{m: m, jobs: make(chan scoreJob, 256)}
	C := m.NumClasses()
	for range workers {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			// Made here rather than by NewStreamScorer, so that building
			// the vocabulary's index overlaps the caller's reading.
			var predict func(text string) model.Prediction
			if m.Kind == model.Ensemble {
				predict = m.NewEnsembleScorer().Predict
			} else {
				z, sc := m.Vocab.NewVectorizer(), m.NewScorer()
				predict = func(text string) model.Prediction {
					// As EvaluateTexts: a row of train.PrepareWith's
					// matrix (Transform, then Weight row by row), scored
					// as Score does.
					ind, val := z.Vectorize(text)
					m.Vocab.WeightRow(ind, val)
					return sc.Predict(ind, val)
				}
			}
			for j := range s.jobs {
				if s.discard.Load() {
					continue
				}
				b := j.b
				b.pred = make([]int, len(j.texts))
				b.logProb = make([]float64, len(j.texts)*C)
				b.fallback = make([]bool, len(j.texts))
				b.empty = make([]bool, len(j.texts))
				for i, text := range j.texts {
					if strip != 0 {
						text = corpus.Strip(text, strip)
					}
					p := predict(text)
					b.pred[i], b.fallback[i], b.empty[i] = p.Class, p.Fallback, p.Empty
					copy(b.logProb[i*C:(i+1)*C], p.LogProbs)
				}
			}
		}()
	}
	return s, nil
}

// Add hands the next document to the scorer; its number is the count of
// the documents added before it. It may wait while the workers are behind.
// Add after Close or Finish does nothing.
func (s *StreamScorer) Add(text string) {
	if s.closed {
		return
	}
	if s.pending == nil {
		s.pending = make([]string, 0, streamBatch)
	}
	s.pending = append(s.pending, text)
	s.n++
	if len(s.pending) == streamBatch {
		s.flush()
	}
}

// flush sends the pending texts to the workers as the next batch.
func (s *StreamScorer) flush() {
	if len(s.pending) == 0 {
		return
	}
	b := &scoredBatch{}
	s.batches = append(s.batches, b)
	s.jobs <- scoreJob{b, s.pending}
	s.pending = nil
}

// Len returns the number of documents added so far.
func (s *StreamScorer) Len() int { return s.n }

// Close stops the workers, skipping the documents they have not taken yet,
// and discards the scores: for a reader that failed. It may be called more
// than once, and after Finish.
func (s *StreamScorer) Close() {
	if s.closed {
		return
	}
	s.discard.Store(true)
	s.stop()
	s.batches, s.pending = nil, nil
}

// stop closes the job queue and waits for the workers to empty it.
func (s *StreamScorer) stop() {
	s.closed = true
	close(s.jobs)
	s.wg.Wait()
}

// Finish waits for the workers and evaluates the documents numbered
// seq[0], seq[1], … (numbers below Len; nil means all of them, in the
// order added) against labels, their label names by position in seq, as
// EvaluateTexts evaluates those texts: the same Report, to the bit. It
// fails as EvaluateModel does (a count of labels that is not len(seq), an
// empty label), on a number out of range, and when the scorer was closed
// or finished. It releases the scorer.
func (s *StreamScorer) Finish(seq []int, labels []string, opt Options) (*Report, error) {
	if s.closed {
		return nil, errors.New("eval: StreamScorer finished or closed")
	}
	s.flush()
	s.stop()
	batches := s.batches
	s.batches = nil
	n := s.n
	if seq != nil {
		n = len(seq)
	}
	if err := checkLabels(n, labels); err != nil {
		return nil, err
	}
	C := s.m.NumClasses()
	pred := make([]int, n)
	logProb := make([]float64, n*C)
	fallback, empty := 0, 0
	for i := range n {
		k := i
		if seq != nil {
			k = seq[i]
			if k < 0 || k >= s.n {
				return nil, fmt.Errorf("document %d: number %d out of range [0, %d) of the documents added", i+1, k, s.n)
			}
		}
		b, j := batches[k/streamBatch], k%streamBatch
		pred[i] = b.pred[j]
		if b.fallback[j] {
			fallback++
		}
		if b.empty[j] {
			empty++
		}
		copy(logProb[i*C:(i+1)*C], b.logProb[j*C:(j+1)*C])
	}
	r, err := evaluateScored(s.m, labels, pred, logProb, fallback, opt)
	if r != nil {
		r.Empty = empty
	}
	return r, err
}
