package semisup

import (
	"fmt"
	"math"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// DefaultWeightGrid are the weights λ that --unlabeled-weight auto
// cross-validates: 0 (the labelled documents alone) and three decades up
// to 1 (an unlabelled document counts as much as a labelled one, Nigam et
// al.'s basic EM).
var DefaultWeightGrid = []float64{0, 0.01, 0.1, 1}

// WeightScore is the cross-validated accuracy of one weight λ.
type WeightScore struct {
	Weight    float64
	Mean, Std float64
}

// Choice is the outcome of ChooseWeight.
type Choice struct {
	Folds  int
	Scores []WeightScore // in grid order
	Best   int           // index into Scores
}

// Weight returns the chosen λ.
func (c *Choice) Weight() float64 { return c.Scores[c.Best].Weight }

// ChooseWeight chooses λ among grid (nil: DefaultWeightGrid) by stratified
// k-fold cross-validation on the labelled rows X, y (folds from
// corpus.StratifiedKFold with seed): for each fold and λ, FitEM on the
// other folds and U with opt (its Weight ignored), scored by accuracy on
// the fold held out, which EM never sees. With lab (the same documents as
// texts), λ = 0 is the model of the fold's labelled texts over their own
// vocabulary (see Labelled), which is what a choice of λ = 0 should
// give. The best mean accuracy wins; ties go to the smaller λ. progress,
// when set, counts the fits done of folds × len(grid).
func ChooseWeight(kind model.Kind, X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, U Rows, opt Options, folds int, seed uint64, grid []float64, lab *Labelled, workers int, progress func(done, total int)) (*Choice, error) {
	if grid == nil {
		grid = DefaultWeightGrid
	}
	if len(grid) == 0 {
		return nil, fmt.Errorf("no weights to choose from")
	}
	for _, w := range grid {
		o := opt
		o.Weight = w
		if err := validate(kind, p, o); err != nil {
			return nil, err
		}
	}
	held, err := corpus.StratifiedKFold(y, folds, seed)
	if err != nil {
		return nil, fmt.Errorf("--unlabeled-weight auto: %w", err)
	}
	acc := make([][]float64, len(grid)) // [λ][fold]
	total, done := folds*len(grid), 0
	inner := opt
	inner.Progress, inner.Iteration = nil, nil
	for f, te := range held {
		tr := corpus.Complement(len(y), te)
		Xtr, ytr := X.Subset(tr), corpus.Pick(y, tr)
		Xte, yte := X.Subset(te), corpus.Pick(y, te)
		for g, w := range grid {
			if w == 0 && lab != nil {
				a, err := lab.accuracy(kind, tr, te, y, classes, p)
				if err != nil {
					return nil, fmt.Errorf("fold %d, λ=0: %w", f+1, err)
				}
				acc[g] = append(acc[g], a)
			} else {
				inner.Weight = w
				r, err := FitEM(kind, Xtr, ytr, classes, vocab, p, U, inner)
				if err != nil {
					return nil, fmt.Errorf("fold %d, λ=%g: %w", f+1, w, err)
				}
				acc[g] = append(acc[g], train.Accuracy(r.Model, Xte, yte, workers))
			}
			done++
			if progress != nil {
				progress(done, total)
			}
		}
	}
	ch := &Choice{Folds: folds}
	for g, w := range grid {
		mean, std := meanStd(acc[g])
		ch.Scores = append(ch.Scores, WeightScore{Weight: w, Mean: mean, Std: std})
		if b := ch.Scores[ch.Best]; mean > b.Mean || (mean == b.Mean && w < b.Weight) {
			ch.Best = g
		}
	}
	return ch, nil
}

// meanStd returns the mean and the (population) standard deviation of xs.
func meanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		std += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(std / float64(len(xs)))
}
