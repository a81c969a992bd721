package search

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// Request is a search on a labelled corpus and the fit of its choice on all
// of it: what 'nbtext train --auto' asks.
type Request struct {
	Texts   []string
	Y       []int // label ids into Classes
	Classes []string
	// ValidTexts and ValidY, when given, are a labelled validation set on
	// which the candidates are scored instead of by cross-validation;
	// the chosen model is fitted on Texts alone.
	ValidTexts []string
	ValidY     []int
	// Kind, when not 0, narrows the search to that model kind.
	Kind model.Kind
	// Remove is the --remove setting every candidate records.
	Remove string
	Options
}

// Trained is a search and the model fitted from its choice.
type Trained struct {
	Result *Result
	Model  *model.Model // an ensemble, or one model; its Meta.Auto holds the search's summary
	// X and Calibration are the training matrix and probability
	// calibration of a single model (nil for an ensemble or its
	// fallback), for the caller's summary.
	X           *vectorize.Matrix
	Calibration *train.Calibration
}

// Ensemble reports whether the model is the search's ensemble.
func (t *Trained) Ensemble() bool { return t.Model.Kind == model.Ensemble }

// SpaceFor returns the space 'train --auto' searches on texts: DefaultSpace,
// with the Subject field terms when the texts have mail headers, narrowed
// to kind when it is not 0.
func SpaceFor(texts []string, kind model.Kind) Space {
	sp := DefaultSpace(HasMailHeaders(texts))
	if kind != 0 {
		var ks []KindSpace
		for _, k := range sp.Kinds {
			if k.Kind == kind {
				ks = append(ks, k)
			}
		}
		sp.Kinds = ks
	}
	return sp
}

// Train searches SpaceFor(req.Texts, req.Kind) and fits the choice on all
// of req.Texts: the ensemble the search chose (FitEnsemble, which falls
// back to the best single candidate when the budget cannot cover the
// members' refit), else the best candidate with its calibration (Fit).
func Train(req Request) (*Trained, error) {
	texts, y := req.Texts, req.Y
	var valid *Split
	if len(req.ValidTexts) > 0 {
		if len(req.ValidTexts) != len(req.ValidY) {
			return nil, fmt.Errorf("%d validation texts but %d labels", len(req.ValidTexts), len(req.ValidY))
		}
		valid = &Split{}
		for i := range texts {
			valid.Train = append(valid.Train, i)
		}
		for i := range req.ValidTexts {
			valid.Held = append(valid.Held, len(texts)+i)
		}
		texts = append(append([]string(nil), texts...), req.ValidTexts...)
		y = append(append([]int(nil), y...), req.ValidY...)
	}
	sp := SpaceFor(texts, req.Kind)
	if len(sp.Kinds) == 0 {
		return nil, fmt.Errorf("--model %s: not a kind the search knows", req.Kind)
	}
	res, err := Run(texts, y, req.Classes, sp, req.Remove, valid, req.Options)
	if err != nil {
		return nil, err
	}
	texts, y = req.Texts, req.Y
	t := &Trained{Result: res}
	if res.Ensemble != nil && res.Ensemble.Used {
		if t.Model, err = FitEnsemble(texts, y, req.Classes, res, req.Workers); err != nil {
			return nil, err
		}
	} else if t.Model, t.X, t.Calibration, err = Fit(texts, y, req.Classes, res.Best(), req.Workers); err != nil {
		return nil, err
	}
	if t.Model.Meta.Auto, err = res.Summary(); err != nil {
		return nil, err
	}
	return t, nil
}
