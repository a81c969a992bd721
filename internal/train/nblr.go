package train

import (
	"math"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitNBLR fits the NB-weighted linear model NBSVM of Wang & Manning (2012,
// "Baselines and bigrams") on the rows of X with label ids y: one-vs-rest,
// one binary problem per class (a single one for two classes). A
// document's features are binarised, x̂_t = 1 when term t occurs, and
// scaled by the log-count ratio of its problem's class c against the rest,
//
//	r_t = log( (α + p_t) / ‖α + p‖₁ ) - log( (α + q_t) / ‖α + q‖₁ )
//
// where p_t and q_t count the documents of c and of the other classes
// holding t (each document weighted by its class weight) and α = p.Alpha.
// An L2-loss SVM (see FitSVM, with p.C and the bias feature) is fitted on
// x̃ = r ∘ x̂, and its weights are interpolated towards their mean
// magnitude, w' = (1-β)·w̄ + β·w with w̄ = ‖w‖₁/V and β = p.Interpolation,
// and the bias scaled to b' = β·b: the classifier (w', b') interpolates
// between the SVM (w, b) and the NB-like (w̄·1, 0), whose score is w̄·Σ r_t
// over the document's terms. (Keeping b unscaled, as a literal reading of
// the paper's w' might suggest, loses 1.4 points on IMDB held-out data:
// 0.9000 against 0.9144 with bigrams, C = 0.1.) The model folds r into its weights, W[t*C + c] = w'_t·r_t,
// and scores presence (Model.Binary), so it is the plain linear scorer's
// b_c + Σ_{t ∈ doc} W[t*C + c]. The solver stops at the looser tolerance
// DefaultNBLREps. As for the SVM, Fit calibrates the scores with a
// temperature chosen on held-out folds.
func FitNBLR(X *vectorize.Matrix, y []int, classes []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	f, err := newDualFit(model.NBLR, X, y, classes, vocab, p)
	if err != nil {
		return nil, err
	}
	return f.fit(nil, y, opt, 0)
}

// logCountRatios returns NB-LR's log-count ratios r of the terms of X
// (see FitNBLR), feature-major: r[t*P + k] for problem k of P (P = 1 for
// two classes, the ratio of class 1 against class 0; else one per class
// against the rest). The presence counts are gathered in the array that
// then holds the ratios when P is the number of classes, and the logs of
// whole counts are read from a table (counts are whole unless class
// weights say otherwise): the ratios of 20 Newsgroups' 390,000 word
// bigrams and unigrams cost 12 million logs otherwise.
//
// rows, when not nil, lists the rows of X that are the documents (y[i]
// labels row rows[i]).
func logCountRatios(X *vectorize.Matrix, rows []int, y []int, nc int, p model.Params) []float64 {
	return logCountRatiosIn(nil, X, rows, y, nc, p)
}

// logCountRatiosIn is logCountRatios counting in buf, when it holds V×C
// floats (an earlier fit's, whatever their values), rather than in a
// fresh array; the ratios are then in buf when there are more than two
// classes.
func logCountRatiosIn(buf []float64, X *vectorize.Matrix, rows []int, y []int, nc int, p model.Params) []float64 {
	nf := X.Cols
	// Presence counts, feature-major, weighted by class.
	cnt := buf
	if len(cnt) == nf*nc {
		clear(cnt)
	} else {
		cnt = make([]float64, nf*nc)
	}
	tot := make([]float64, nc) // Σ_t cnt[t, c]
	for i, c := range y {
		w := classWeight(p, c)
		r := i
		if rows != nil {
			r = rows[i]
		}
		ind, _ := X.Row(r)
		for _, t := range ind {
			cnt[int(t)*nc+c] += w
		}
		tot[c] += w * float64(len(ind))
	}
	return countRatios(cnt, tot, len(y), nf, nc, p)
}

// countRatios turns the presence counts cnt[t*nc + c] of n documents, of
// nf terms and nc classes, whose sums per class are tot, into the
// log-count ratios logCountRatios returns, in place when there are more
// than two classes.
func countRatios(cnt, tot []float64, n, nf, nc int, p model.Params) []float64 {
	probs := nc
	if nc == 2 {
		probs = 1
	}
	all := 0.0
	for _, v := range tot {
		all += v
	}
	a := p.Alpha
	// logA(v) = log(α + v), from the table for whole v.
	table := make([]float64, 0, n+1)
	if p.ClassWeights == nil {
		for v := 0; v <= n; v++ {
			table = append(table, math.Log(a+float64(v)))
		}
	}
	logA := func(v float64) float64 {
		if i := int(v); float64(i) == v && i < len(table) {
			return table[i]
		}
		return math.Log(a + v)
	}
	lp, lq := make([]float64, probs), make([]float64, probs)
	pos := make([]int, probs)
	for k := range pos {
		pos[k] = k
		if nc == 2 {
			pos[k] = 1
		}
		lp[k] = math.Log(a*float64(nf) + tot[pos[k]])
		lq[k] = math.Log(a*float64(nf) + all - tot[pos[k]])
	}
	scale := cnt // the ratios replace the counts, term by term
	if probs != nc {
		scale = make([]float64, nf*probs)
	}
	row := make([]float64, nc)
	for t := 0; t < nf; t++ {
		copy(row, cnt[t*nc:t*nc+nc])
		df := 0.0 // Σ_c cnt[t, c]
		for _, v := range row {
			df += v
		}
		for k, c := range pos {
			in := row[c]
			scale[t*probs+k] = logA(in) - lp[k] - logA(max(df-in, 0)) + lq[k]
		}
	}
	return scale
}
