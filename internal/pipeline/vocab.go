package pipeline

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/fsutil"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// VocabCount is the vocabulary CountVocabulary counted, with the
// documents and classes it saw, the sorted runs its tables spilled and
// how long it took.
type VocabCount struct {
	Vocab               *vectorize.Vocabulary
	Docs, Classes, Runs int
	Duration            time.Duration
}

// Summary is the line 'nbtext vocab' notes when done: the terms,
// documents, classes and seconds, the output file (none for "" and "-",
// stdout) and the runs spilled, if any.
func (vc *VocabCount) Summary(output string) string {
	where := ""
	if output != "" && output != "-" {
		where = " -> " + output
	}
	if vc.Runs > 0 {
		where += fmt.Sprintf(" (%d runs spilled)", vc.Runs)
	}
	return fmt.Sprintf("vocabulary: %d terms from %d documents, %d classes (%.2fs)%s",
		vc.Vocab.Len(), vc.Docs, vc.Classes, vc.Duration.Seconds(), where)
}

// CountVocabulary counts the documents of src as 'nbtext count' does (a
// counts.Counter that pools the classes: nothing is kept per document, and
// past half of opt.Mem the tables spill to sorted runs on disk, in
// opt.TempDir) and returns the vocabulary that settings prune from the
// counts. It is the vocabulary an in-memory fit of the same documents
// gives (vectorize.Fit). With softMinDF, a default min_df that keeps no
// term is relaxed to 1, with a warning to warn (when not nil), when the
// corpus can be read again (not stdin).
func CountVocabulary(src *Source, settings vectorize.Settings, opt counts.Options, softMinDF bool, warn func(msg string)) (*VocabCount, error) {
	start := time.Now()
	opt.VocabOnly = true
	count := func(settings vectorize.Settings) (*VocabCount, error) {
		ctr, err := counts.NewCounter(settings, nil, opt)
		if err != nil {
			return nil, usage(err)
		}
		defer ctr.Close()
		_, docs, err := src.Count(ctr, 1, 1)
		if err != nil {
			return nil, err
		}
		if docs == 0 {
			return nil, errors.New("no training documents")
		}
		v, h, err := ctr.Vocabulary()
		if err != nil {
			return nil, err
		}
		return &VocabCount{Vocab: v, Docs: docs, Classes: len(h.Classes), Runs: ctr.Runs()}, nil
	}
	vc, err := count(settings)
	if errors.Is(err, vectorize.ErrPrunedAll) && softMinDF && settings.MinDF > 1 && !src.readsStdin() {
		if warn != nil {
			warn(fmt.Sprintf("nbtext: the default --min-df %d would keep no term of these documents: using --min-df 1", settings.MinDF))
		}
		settings.MinDF = 1
		vc, err = count(settings)
	}
	if err != nil {
		return nil, err
	}
	vc.Duration = time.Since(start)
	return vc, nil
}

// VocabOutput is what 'nbtext vocab' writes: the vocabulary TSV to File
// ("-": stdout; "": stdout unless Top is given), and a table of the Top
// terms of highest document frequency (0: none).
type VocabOutput struct {
	File string
	Top  int
}

// Check reports an option of o out of range.
func (o VocabOutput) Check() error {
	if o.Top < 0 {
		return usagef("--top must be ≥ 0, got %d", o.Top)
	}
	return nil
}

// Write writes the vocabulary of vc as o says, what goes to stdout on
// out; File is written atomically. A failed write of the table is the
// caller's to see on out.
func (o VocabOutput) Write(vc *VocabCount, out io.Writer) error {
	var err error
	switch write := func(w io.Writer) error { return vectorize.WriteTSV(w, vc.Vocab) }; {
	case o.File != "" && o.File != "-":
		err = fsutil.WriteFile(o.File, write)
	case o.File == "-" || o.Top == 0:
		err = write(out)
	}
	if err != nil {
		return err
	}
	if o.Top > 0 {
		vectorize.WriteTop(out, vc.Vocab, o.Top)
	}
	return nil
}
