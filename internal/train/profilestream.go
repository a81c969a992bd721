package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// ProfiledFitStream is a vectorize.FitStream whose settings follow the
// corpus profile: it holds the first documents (profile.SampleDocs, at
// most profile.SampleBytes of text), profiles them, asks its
// ProfileChoice for the settings, and only then starts the FitStream,
// handing it those documents and every later one. With no ProfileChoice
// it is the FitStream of the settings it was given.
type ProfiledFitStream struct {
	choice  *ProfileChoice
	workers int
	relax   bool
	sampler profile.Sampler
	held    []string
	fst     *vectorize.FitStream
	err     error
}

// NewProfiledFitStream returns a stream with settings s, or, when pc is
// not nil, with the settings pc chooses from the profile of the first
// documents (s must then be pc's base). It fails on invalid settings.
func NewProfiledFitStream(s vectorize.Settings, workers int, pc *ProfileChoice) (*ProfiledFitStream, error) {
	f := &ProfiledFitStream{choice: pc, workers: workers}
	if pc == nil {
		fst, err := vectorize.NewFitStream(s, workers)
		if err != nil {
			return nil, err
		}
		f.fst = fst
		return f, nil
	}
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return f, nil
}

// Add hands the next document to the stream.
func (f *ProfiledFitStream) Add(text string) {
	if f.fst != nil {
		f.fst.Add(text)
		return
	}
	if f.err != nil {
		return
	}
	f.sampler.Add(text)
	f.held = append(f.held, text)
	if f.sampler.Full() {
		f.start()
	}
}

// start chooses the settings from the sample and starts the FitStream
// with the documents held.
func (f *ProfiledFitStream) start() {
	s := f.choice.Settings(f.sampler.Profile())
	fst, err := vectorize.NewFitStream(s, f.workers)
	if err != nil {
		f.err = fmt.Errorf("the settings chosen from the corpus profile: %w", err)
		return
	}
	if f.relax {
		fst.RelaxMinDF()
	}
	f.fst = fst
	for _, t := range f.held {
		fst.Add(t)
	}
	f.held = nil
}

// started starts the stream if the sample was not full, and returns the
// FitStream, or the error of the settings chosen.
func (f *ProfiledFitStream) started() (*vectorize.FitStream, error) {
	if f.fst == nil && f.err == nil {
		f.start()
	}
	return f.fst, f.err
}

// RelaxMinDF is vectorize.FitStream.RelaxMinDF.
func (f *ProfiledFitStream) RelaxMinDF() {
	f.relax = true
	if f.fst != nil {
		f.fst.RelaxMinDF()
	}
}

// Unpruned is vectorize.FitStream.Unpruned (0 before Finish).
func (f *ProfiledFitStream) Unpruned() int {
	if f.fst == nil {
		return 0
	}
	return f.fst.Unpruned()
}

// Finish is vectorize.FitStream.Finish.
func (f *ProfiledFitStream) Finish(order, labels []int, nClasses int) (*vectorize.Vocabulary, *vectorize.Matrix, error) {
	fst, err := f.started()
	if err != nil {
		return nil, nil, err
	}
	return fst.Finish(order, labels, nClasses)
}

// FinishVocabulary is vectorize.FitStream.FinishVocabulary.
func (f *ProfiledFitStream) FinishVocabulary(order, labels []int, nClasses int) (*vectorize.Vocabulary, error) {
	fst, err := f.started()
	if err != nil {
		return nil, err
	}
	return fst.FinishVocabulary(order, labels, nClasses)
}

// Close is vectorize.FitStream.Close.
func (f *ProfiledFitStream) Close() {
	f.held = nil
	if f.fst != nil {
		f.fst.Close()
	}
}
