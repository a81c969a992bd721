package eval

import (
	"math"
	"slices"
)

// brier returns the Brier score of the class probabilities logProb (n×C,
// natural logs) against truth (an id ≥ C is a label the model does not
// know: every class's target is 0). For two classes it is scikit-learn's
// brier_score_loss of the positive class (the second): the mean of
// (p_i - y_i)², in [0, 1]. For more it is Brier's (1950) sum over the
// classes, the mean of Σ_c (p_ic - [y_i = c])², in [0, 2].
func brier(truth []int, logProb []float64, C int) float64 {
	var sum float64
	for i, t := range truth {
		row := logProb[i*C : (i+1)*C]
		if C == 2 {
			y := 0.0
			if t == 1 {
				y = 1
			}
			d := math.Exp(row[1]) - y
			sum += d * d
			continue
		}
		for c, lp := range row {
			d := math.Exp(lp)
			if c == t {
				d--
			}
			sum += d * d
		}
	}
	return sum / float64(len(truth))
}

// binaryScores returns, for a two-class task, P(positive class) of each
// document whose label the model knows and whether that label is the
// positive class (the second of the model's two).
func binaryScores(truth []int, logProb []float64) (p []float64, pos []bool) {
	for i, t := range truth {
		if t > 1 {
			continue // a label the model does not know
		}
		p = append(p, math.Exp(logProb[2*i+1]))
		pos = append(pos, t == 1)
	}
	return p, pos
}

// rocAUC returns the area under the ROC curve of scores p for the
// positives pos: the probability that a random positive scores above a
// random negative, ties counting one half (the Mann-Whitney U statistic
// over n+·n-, as scikit-learn's roc_auc_score). NaN without both a
// positive and a negative.
func rocAUC(p []float64, pos []bool) float64 {
	idx := sortedByScore(p)
	var nPos, nNeg int
	for _, b := range pos {
		if b {
			nPos++
		} else {
			nNeg++
		}
	}
	if nPos == 0 || nNeg == 0 {
		return math.NaN()
	}
	// Ranks in ascending score order, ties given their mean rank.
	var rankSum float64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && p[idx[j]] == p[idx[i]] {
			j++
		}
		mean := float64(i+j+1) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			if pos[idx[k]] {
				rankSum += mean
			}
		}
		i = j
	}
	u := rankSum - float64(nPos)*float64(nPos+1)/2
	return u / (float64(nPos) * float64(nNeg))
}

// averagePrecision returns the area under the precision-recall curve as
// scikit-learn's average_precision_score computes it: Σ_k (R_k - R_k-1)
// P_k over the thresholds k, each distinct score from the highest down
// (tied scores form one threshold). NaN without a positive.
func averagePrecision(p []float64, pos []bool) float64 {
	idx := sortedByScore(p)
	slices.Reverse(idx)
	var nPos int
	for _, b := range pos {
		if b {
			nPos++
		}
	}
	if nPos == 0 {
		return math.NaN()
	}
	var tp, seen int
	var ap, prevRecall float64
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && p[idx[j]] == p[idx[i]] {
			if pos[idx[j]] {
				tp++
			}
			j++
		}
		seen += j - i
		recall := float64(tp) / float64(nPos)
		ap += (recall - prevRecall) * float64(tp) / float64(seen)
		prevRecall = recall
		i = j
	}
	return ap
}

// sortedByScore returns the indices of p by ascending score (stable).
func sortedByScore(p []float64) []int {
	idx := make([]int, len(p))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case p[a] < p[b]:
			return -1
		case p[a] > p[b]:
			return 1
		}
		return 0
	})
	return idx
}
