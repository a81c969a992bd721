package pipeline

// merge.go: 'nbtext merge', of counts files or of logistic regression
// models, told apart by the first file.

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// MergeOptions are what a merge is asked: the files to merge, the file to
// write, the shards the counts must hold (ExpectShards > 0:
// counts.Header.CheckShards), the nbtext version a merged model records,
// and where notes go (nil: nowhere).
type MergeOptions struct {
	Paths        []string
	Output       string
	ExpectShards int
	Version      string
	Note         func(msg string)
}

// Merged is what Merge wrote: the merged counts' Header, or the mixed
// Model.
type Merged struct {
	Header   *counts.Header
	Model    *model.Model
	Parts    int
	Output   string
	Duration time.Duration
}

// Merge writes to o.Output the merge of the files o.Paths. When the first
// is a model file, the models are loaded and averaged, each weighted by
// the documents it was fitted on (train.MixLinear), and the result saved
// with the Meta of 'nbtext merge'; otherwise they are counts files, added
// exactly by counts.MergeFilesChecked, with a note when some parts record
// no inputs (the merge then cannot refuse documents counted twice). A
// model file that does not load is an error naming it.
func Merge(o MergeOptions) (*Merged, error) {
	start := time.Now()
	r := &Merged{Parts: len(o.Paths), Output: o.Output}
	if len(o.Paths) == 0 {
		return nil, errors.New("merge: no files given")
	}
	m0, err := model.Load(o.Paths[0])
	switch {
	case errors.Is(err, model.ErrNotModel):
		r.Header, err = counts.MergeFilesChecked(o.Output, o.Paths, o.ExpectShards)
		if err != nil {
			return nil, err
		}
		if r.Header.Inputs == nil && o.Note != nil {
			o.Note("nbtext: some parts record no inputs (counted by an older nbtext, or by a tool that does not record them): the merge cannot refuse documents counted twice, and records no inputs")
		}
	case err != nil:
		return nil, err
	default:
		ms := []*model.Model{m0}
		for _, p := range o.Paths[1:] {
			m, err := model.Load(p)
			if err != nil {
				return nil, err
			}
			ms = append(ms, m)
		}
		if r.Model, err = train.MixLinear(ms, o.Paths); err != nil {
			return nil, err
		}
		r.Model.Meta = model.Meta{Version: o.Version, CreatedBy: "nbtext merge"}
		if err := model.Save(o.Output, r.Model); err != nil {
			return nil, err
		}
	}
	r.Duration = time.Since(start)
	return r, nil
}

// Write prints merge's summary: what was merged into what, the documents,
// the classes and the seconds.
func (r *Merged) Write(w io.Writer) {
	if m := r.Model; m != nil {
		fmt.Fprintf(w, "model        %s, %d models averaged -> %s\n", m.Kind, r.Parts, r.Output)
		fmt.Fprintf(w, "documents    %d\n", m.Params.Docs)
		fmt.Fprintf(w, "classes      %d\n", len(m.Classes))
	} else {
		fmt.Fprintf(w, "counts       %d parts -> %s\n", r.Parts, r.Output)
		fmt.Fprintf(w, "documents    %d\n", r.Header.Documents())
		fmt.Fprintf(w, "classes      %d\n", len(r.Header.Classes))
	}
	fmt.Fprintf(w, "seconds      %.2f\n", r.Duration.Seconds())
}
