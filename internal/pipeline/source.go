package pipeline

import (
	"errors"
	"fmt"
	"io"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/fsutil"
)

// Source is a corpus to read: the files, folders or archives Paths ("-"
// is Stdin), read with Options. Splits, when not nil, holds for each path
// the split to read when Options.Split is empty (the cached 20
// Newsgroups archive reads its train split by default; a caller resolves
// that name to a path).
type Source struct {
	Paths   []string
	Splits  []string
	Stdin   io.Reader
	Options corpus.Options
}

// options returns the reader options of path i.
func (s *Source) options(i int) corpus.Options {
	opts := s.Options
	if opts.Split == "" && i < len(s.Splits) {
		opts.Split = s.Splits[i]
	}
	return opts
}

// first returns the path and reader options of the first corpus, which
// the readers that hold the corpus read.
func (s *Source) first() (string, corpus.Options, error) {
	if len(s.Paths) == 0 {
		return "", corpus.Options{}, errors.New("no corpus given")
	}
	return s.Paths[0], s.options(0), nil
}

// Load reads the first corpus of s into memory.
func (s *Source) Load() (*corpus.Corpus, error) {
	c, _, err := s.LoadStream(nil)
	return c, err
}

// LoadStream is Load for a consumer that works while the source is read
// (vectorize.FitStream): emit, when not nil, gets every text as it is
// decoded, and seq maps the corpus's documents to the emit calls (see
// corpus.ReadStream).
func (s *Source) LoadStream(emit func(string)) (*corpus.Corpus, []int, error) {
	path, opts, err := s.first()
	if err != nil {
		return nil, nil, err
	}
	if path == "-" || emit == nil {
		var c *corpus.Corpus
		if path == "-" {
			c, err = corpus.ReadFrom(s.Stdin, "stdin", opts)
		} else {
			c, err = corpus.Read(path, opts)
		}
		if err != nil || emit == nil {
			return c, nil, err
		}
		return c, corpus.EmitAll(c, emit, opts.DropTexts), nil
	}
	return corpus.ReadStream(path, opts, emit)
}

// stream calls fn with each document of path i, one at a time
// (corpus.Stream): memory does not grow with the corpus. The document's
// strings are valid only until fn returns (corpus.Options.Transient): fn
// copies what it keeps.
func (s *Source) stream(i int, fn func(corpus.Document) error) error {
	opts := s.options(i)
	opts.Transient = true
	if s.Paths[i] == "-" {
		return corpus.StreamFrom(s.Stdin, "stdin", opts, fn)
	}
	return corpus.Stream(s.Paths[i], opts, fn)
}

// Each calls add with the text and label of every document of every
// corpus of s, in corpus.Stream's order (Read's order for folders and
// record files, member order for archives), after onDoc, when not nil,
// has seen the document. The strings add gets are valid only until it
// returns: counts.Counter.Add copies them.
func (s *Source) Each(onDoc docFunc, add func(text, label string) error) error {
	return s.each(nil, onDoc, add)
}

// each is Each that calls begin, when not nil, with each corpus's path
// before its documents.
func (s *Source) each(begin func(path string), onDoc docFunc, add func(text, label string) error) error {
	if len(s.Paths) == 0 {
		return errors.New("no corpus given")
	}
	for i := range s.Paths {
		if begin != nil {
			begin(s.Paths[i])
		}
		err := s.stream(i, func(d corpus.Document) error {
			if onDoc != nil {
				if err := onDoc(d); err != nil {
					return err
				}
			}
			if err := add(d.Text, d.Label); err != nil {
				if errors.Is(err, counts.ErrClasses) {
					return fmt.Errorf("%s: %w", d.ID, err)
				}
				return err
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// Count counts shard i of n of the documents of s (documents i, i+n,
// i+2n, ... counted from 1) with ctr, and returns how many documents it
// saw and how many it counted.
func (s *Source) Count(ctr *counts.Counter, i, n int) (seq, docs int, err error) {
	return s.CountRecorded(ctr, nil, i, n)
}

// CountRecorded is Count that also records each corpus and all its
// documents with rec (when not nil), for the counts file to say what it
// counted (counts.Recorder).
func (s *Source) CountRecorded(ctr *counts.Counter, rec *counts.Recorder, i, n int) (seq, docs int, err error) {
	var begin func(string)
	if rec != nil {
		begin = rec.Begin
	}
	err = s.each(begin, nil, func(text, label string) error {
		rec.Add(label, text)
		if seq%n == i-1 {
			if err := ctr.Add(text, label); err != nil {
				return err
			}
			docs++
		}
		seq++
		return nil
	})
	if err != nil {
		return 0, 0, err
	}
	return seq, docs, nil
}

// rereadable makes s readable more than once: when it reads stdin, stdin
// is copied to a scratch file (unlinked, so that no kill leaves it
// behind). It returns a function that rewinds stdin, to call before each
// pass (the passes read "-" as stdin, in the format its first bytes show,
// and errors name stdin and its lines), and one that removes the copy.
func (s *Source) rereadable() (rewind func(), done func(), err error) {
	if len(s.Paths) != 1 || s.Paths[0] != "-" {
		return func() {}, func() {}, nil
	}
	f, err := fsutil.NewScratch("", "nbtext-stdin-*")
	if err != nil {
		return nil, nil, fmt.Errorf("spool stdin: %w", err)
	}
	n, err := io.Copy(f, s.Stdin)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("spool stdin to %s: %w", f.Name(), err)
	}
	return func() { s.Stdin = io.NewSectionReader(f, 0, n) }, func() { f.Close() }, nil
}

// readsStdin reports whether s reads standard input, which cannot be read
// twice without a copy.
func (s *Source) readsStdin() bool {
	for _, p := range s.Paths {
		if p == "-" {
			return true
		}
	}
	return false
}

// withRemove returns s reading with the --remove setting remove (a
// vocabulary file's or a model's, which fixes what is stripped).
func (s Source) withRemove(remove string) (Source, error) {
	rm, err := corpus.ParseRemove(remove)
	if err != nil {
		return s, fmt.Errorf("remove setting: %w", err)
	}
	s.Options.Remove = rm
	return s, nil
}

// docFunc sees every document a pass streams before its text is counted
// (the streamed runs spool record fields with it).
type docFunc = func(corpus.Document) error
