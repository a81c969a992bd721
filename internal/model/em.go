package model

import "fmt"

// EM records what semi-supervised expectation-maximization did to fit a
// naive Bayes model (Nigam, McCallum, Thrun & Mitchell 2000; train
// --unlabeled): the model's statistics are those of its labelled
// documents plus Weight times the unlabelled documents' statistics, each
// unlabelled document counted in every class c with its posterior P(c|x)
// under the model of the previous iteration. It has no effect on
// scoring: W and B are computed from the statistics as for any NB model.
type EM struct {
	// Unlabeled is the number of unlabelled documents.
	Unlabeled int `json:"unlabeled"`
	// Weight is λ, the weight of an unlabelled document relative to a
	// labelled one; WeightAuto says it was chosen by cross-validation on
	// the labelled documents, among WeightGrid.
	Weight     float64   `json:"weight"`
	WeightAuto bool      `json:"weight_auto,omitempty"`
	WeightGrid []float64 `json:"weight_grid,omitempty"`
	// MaxIterations and Tol are the stopping rule: at most MaxIterations
	// E- and M-steps, fewer when the relative change of the log-likelihood
	// falls below Tol.
	MaxIterations int     `json:"max_iterations"`
	Tol           float64 `json:"tol"`
	// Iterations is the number of E- and M-steps done; Converged says the
	// change fell below Tol. LogLikelihood[k] is the log-likelihood of
	// the model entering iteration k+1 (LogLikelihood[0]: the model of the
	// labelled documents alone), with the log of the smoothing prior.
	Iterations    int       `json:"iterations"`
	Converged     bool      `json:"converged"`
	LogLikelihood []float64 `json:"log_likelihood"`
	// VocabularyFromUnlabeled says the vocabulary was fitted on the
	// labelled and the unlabelled documents together.
	VocabularyFromUnlabeled bool `json:"vocabulary_from_unlabeled,omitempty"`
}

// Summary describes e in one line, for 'nbtext info': the unlabelled
// documents, λ, the iterations and the log-likelihood at the start and
// the end.
func (e *EM) Summary() string {
	how := "given"
	if e.WeightAuto {
		how = "cross-validated"
	}
	if e.Weight == 0 {
		return fmt.Sprintf("%d unlabelled documents left out: weight λ=0 (%s)", e.Unlabeled, how)
	}
	stop := "stopped at the iteration limit"
	if e.Converged {
		stop = fmt.Sprintf("converged (relative change < %g)", e.Tol)
	}
	s := fmt.Sprintf("%d unlabelled documents, weight λ=%g (%s), %d of at most %d iterations, %s", e.Unlabeled, e.Weight, how, e.Iterations, e.MaxIterations, stop)
	if n := len(e.LogLikelihood); n > 0 {
		s += fmt.Sprintf("; log-likelihood %.6g -> %.6g", e.LogLikelihood[0], e.LogLikelihood[n-1])
	}
	if e.VocabularyFromUnlabeled {
		s += "; vocabulary from labelled and unlabelled documents"
	}
	return s
}
