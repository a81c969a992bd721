package eval

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// LoadingScorer is a StreamScorer whose model file is still loading: it
// lets a caller start reading (for an archive, decompressing) its corpus
// while the model loads, instead of after. See LoadStreamScorer.
//
// Add, Wait and Close are called from one goroutine at a time, as a
// StreamScorer's methods are.
type LoadingScorer struct {
	done chan struct{} // closed when ss or err is set
	ss   *StreamScorer
	err  error
}

// RemoveSettingError is the error of LoadingScorer.Wait for a model whose
// recorded Remove setting (Vocab.Settings.Remove) does not parse: Err is
// corpus.ParseRemove's error.
type RemoveSettingError struct {
	Path    string // the model file
	Setting string // the Remove setting it records
	Err     error
}

// Error returns "Path: remove setting "Setting": Err".
func (e *RemoveSettingError) Error() string {
	return fmt.Sprintf("%s: remove setting %q: %v", e.Path, e.Setting, e.Err)
}

// Unwrap returns Err.
func (e *RemoveSettingError) Unwrap() error { return e.Err }

// LoadStreamScorer starts loading the model file at path with model.Load
// on a goroutine of its own and returns at once; the model then starts a
// StreamScorer on workers goroutines (see NewStreamScorer). With strip,
// the scorer strips every text as the model's Vocab.Settings.Remove says,
// for a corpus read with corpus.Options.Remove 0 because the reader
// started before the model had loaded; without it, texts are scored as
// given.
//
// The point is latency: in the 20 Newsgroups archive the train split comes
// first and is decompressed before the first test document, by when the
// model is ready, so loading it adds nothing to the time of an eval. The
// LoadingScorer's Add can be a corpus.ReadStream emit function as it
// stands: it waits for the model before its first text.
//
// Every error of Wait concerns the model file: model.Load's (a
// *model.FileError, which matches model.ErrModelFile), a
// *RemoveSettingError, or NewStreamScorer's, prefixed with path. After a
// failure, Add drops its texts, so a reader can run to its end.
func LoadStreamScorer(path string, workers int, strip bool) *LoadingScorer {
	ls := &LoadingScorer{done: make(chan struct{})}
	go func() {
		defer close(ls.done)
		ls.ss, ls.err = loadStreamScorer(path, workers, strip)
	}()
	return ls
}

// StartStreamScorer is LoadStreamScorer for the model m, already loaded
// from path: a caller that needed the model to choose how to read its
// corpus (a multi-label model, one with record fields) gets the same
// LoadingScorer, ready at once.
func StartStreamScorer(m *model.Model, path string, workers int, strip bool) *LoadingScorer {
	ls := &LoadingScorer{done: make(chan struct{})}
	ls.ss, ls.err = streamScorer(m, path, workers, strip)
	close(ls.done)
	return ls
}

func loadStreamScorer(path string, workers int, strip bool) (*StreamScorer, error) {
	m, err := model.Load(path)
	if err != nil {
		return nil, err
	}
	return streamScorer(m, path, workers, strip)
}

func streamScorer(m *model.Model, path string, workers int, strip bool) (*StreamScorer, error) {
	var (
		rm  corpus.Remove
		err error
	)
	if strip {
		if rm, err = corpus.ParseRemove(m.Remove()); err != nil {
			return nil, &RemoveSettingError{Path: path, Setting: m.Remove(), Err: err}
		}
	}
	ss, err := NewStreamScorer(m, workers, rm)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ss, nil
}

// Add hands the next text to the scorer (StreamScorer.Add), once the model
// has loaded; it drops the text when the model failed to load.
func (ls *LoadingScorer) Add(text string) {
	<-ls.done
	if ls.ss != nil {
		ls.ss.Add(text)
	}
}

// Wait waits for the model and returns the scorer, which has every text
// Add was given, or why the model could not be loaded. The caller then
// finishes the scorer (StreamScorer.Finish) or closes it.
func (ls *LoadingScorer) Wait() (*StreamScorer, error) {
	<-ls.done
	return ls.ss, ls.err
}

// Close waits for the model and closes the scorer (StreamScorer.Close): a
// deferred Close stops the workers when the caller gives up before
// Finish, and does nothing after it.
func (ls *LoadingScorer) Close() {
	<-ls.done
	if ls.ss != nil {
		ls.ss.Close()
	}
}
