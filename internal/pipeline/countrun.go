package pipeline

// A counting run ('nbtext count'): the settings of a round one or a
// round two, one shard of a source counted with them, and the counts
// file with what it counted.

import (
	"fmt"
	"io"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// CountSettings returns the vectorizer settings a count of kind uses: the
// kind's defaults (train.Defaults) with vectorizer applied (the flags
// given), or, for a round two, those of the round-one counts file
// vocabFile, whose vocabulary it also returns (fixed then reports that
// the file fixed them, Remove included).
func CountSettings(kind model.Kind, vocabFile string, vectorizer func(*vectorize.Settings) error) (s vectorize.Settings, vocab *vectorize.Vocabulary, fixed bool, err error) {
	if vocabFile == "" {
		s, _ = train.Defaults(kind)
		if vectorizer != nil {
			err = vectorizer(&s)
		}
		return s, nil, false, err
	}
	r1, err := counts.ReadFile(vocabFile)
	if err != nil {
		return s, nil, true, err
	}
	if r1.Weighted() {
		return s, nil, true, fmt.Errorf("%s: --vocab takes round-one counts (counted without --vocab), these are of round two", vocabFile)
	}
	if vocab, _, err = r1.Vocabulary(); err != nil {
		return s, nil, true, fmt.Errorf("%s: %w", vocabFile, err)
	}
	return r1.Settings, vocab, true, nil
}

// CountPlan is one count: shard Shard of Shards (1 ≤ Shard ≤ Shards) of
// the source Source returns (called once the counter is set up, so that
// its bad settings fail before any input is opened), counted with
// Settings (over Vocab in a round two) and written to Output. Start is when the command started (zero: when Count did);
// Mem is the memory bound as the user gave it, for the report.
type CountPlan struct {
	Start         time.Time
	Mem           string
	Source        func() (Source, error)
	Settings      vectorize.Settings
	Vocab         *vectorize.Vocabulary
	Shard, Shards int
	Output        string
	Options       counts.Options
}

// CountReport says what a count counted.
type CountReport struct {
	Output          string
	Seen, Docs      int // documents read, and counted in the shard
	Shard, Shards   int
	Classes         int
	RoundTwo        bool
	Runs            int    // sorted runs spilled under the memory bound
	Mem             string // the bound, as given, for the report
	Seconds         float64
	weighting, norm string
	needsVocab      bool
}

// Count counts p's shard, records the inputs it read (counts.Recorder)
// and writes the counts file.
func Count(p CountPlan) (*CountReport, error) {
	start := p.Start
	if start.IsZero() {
		start = time.Now()
	}
	ctr, err := counts.NewCounter(p.Settings, p.Vocab, p.Options)
	if err != nil {
		return nil, usage(err)
	}
	defer ctr.Close()
	src, err := p.Source()
	if err != nil {
		return nil, err
	}
	rec := counts.NewRecorder() // what was counted, recorded in the file
	seq, docs, err := src.CountRecorded(ctr, rec, p.Shard, p.Shards)
	if err != nil {
		return nil, err
	}
	ins, err := rec.Inputs(p.Shard, p.Shards)
	if err != nil {
		return nil, err
	}
	ctr.SetInputs(ins)
	h, err := ctr.WriteFile(p.Output)
	if err != nil {
		return nil, err
	}
	return &CountReport{Output: p.Output, Seen: seq, Docs: docs, Shard: p.Shard, Shards: p.Shards,
		Classes: len(h.Classes), RoundTwo: h.Weighted(), Runs: ctr.Runs(), Mem: p.Mem, Seconds: time.Since(start).Seconds(),
		weighting: p.Settings.Weighting, norm: p.Settings.Norm, needsVocab: counts.NeedsVocab(p.Settings)}, nil
}

// Write prints the report, one line per fact.
func (r *CountReport) Write(w io.Writer) {
	round := "one"
	if r.RoundTwo {
		round = "two"
	}
	fmt.Fprintf(w, "counts       %s\n", r.Output)
	fmt.Fprintf(w, "documents    %d of %d (shard %d/%d)\n", r.Docs, r.Seen, r.Shard, r.Shards)
	fmt.Fprintf(w, "classes      %d\n", r.Classes)
	fmt.Fprintf(w, "round        %s\n", round)
	if r.Runs > 0 {
		fmt.Fprintf(w, "runs         %d spilled under --mem %s\n", r.Runs, r.Mem)
	}
	fmt.Fprintf(w, "seconds      %.2f\n", r.Seconds)
}

// RoundTwoNeeded returns what to do next when these round-one counts
// cannot give the model alone (their weighting needs the document
// frequencies of the whole corpus), or "".
func (r *CountReport) RoundTwoNeeded() string {
	if r.RoundTwo || !r.needsVocab {
		return ""
	}
	norm := r.norm
	if norm == "" {
		norm = "none"
	}
	return fmt.Sprintf("nbtext: these are round-one counts: weighting %s with norm %s needs the document frequencies of the whole corpus, so merge the parts of this round (nbtext merge PARTS... -o round1.nbc), count the same documents again with --vocab round1.nbc, and train from the merge of that round", r.weighting, norm)
}
