package train

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// FitMultiLabel fits a one-vs-rest multi-label model of kind on the rows
// of X (weighted as Prepare weights them) with label sets Y: Y[i] holds
// the ids (into labels) of document i's labels. For each label l it fits,
// with Fit, a binary model of kind on the same rows and vocabulary with
// the classes "absent" and "present" (document i is present when l ∈
// Y[i]), takes present − absent of its weights and biases, and calibrates
// that score s with PlattScale on the training documents, so that the
// label's probability is σ(a·s + b): a and b are folded into the weights
// and bias that model.NewMultiLabel scores (except for logistic
// regression, whose σ(s) is already the fitted probability of the label,
// regularised, and ranks better on held-out data than its Platt-scaled
// training scores). The calibration puts every
// label's probability on one scale, whatever the kind (NB log-odds, SVM
// margins, centroid similarities), and pulls a label seen on few
// documents toward its base rate, so that ranking labels by probability
// (top-k, precision@k) is meaningful. The training scores of the
// strongly regularised multi-label fits (MultiLabelC) are not
// over-confident enough to hurt: NB-LR calibrated instead on the
// out-of-fold scores of 5 folds (the final weights unchanged) scored on
// GoEmotions' dev split precision@1 0.5960 against 0.5955, but micro F1
// 0.5624 against 0.5669 and recall@5 0.8389 against 0.8475, at 2.6 times
// the CPU; on the scores of one held-out fold, 0.5933, 0.5612, 0.8393.
//
// A label on none of the documents, or on all of them (which happens in
// the folds of TuneThresholds), has no binary model to fit: its weights
// are 0 and its bias the log-odds of the smoothed rate (N₊+1)/(n+2).
// Labels are fitted on opt.Workers goroutines (0: GOMAXPROCS), each fit
// on one; the result does not depend on the number. Logistic regression
// with the SGD solver (the default) fits each label as one weight vector
// with a sigmoid, several labels per pass over the rows (fitOVRSGD):
// the iterates of the two-class softmax Fit would run, at about a third
// of its CPU time.
func FitMultiLabel(kind model.Kind, X *vectorize.Matrix, Y [][]int, labels []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) (*model.Model, error) {
	if X == nil || X.Rows() != len(Y) {
		return nil, fmt.Errorf("%d label sets for the documents", len(Y))
	}
	if err := model.CheckSize(kind, true, vocab.Len(), len(labels)); err != nil {
		return nil, err
	}
	if len(labels) < 1 {
		return nil, fmt.Errorf("no labels")
	}
	L, V, n := len(labels), X.Cols, len(Y)
	present := make([][]bool, L)
	count := make([]int, L)
	for l := range present {
		present[l] = make([]bool, n)
	}
	for i, ls := range Y {
		for _, l := range ls {
			if l < 0 || l >= L {
				return nil, fmt.Errorf("document %d: label id %d out of range [0, %d)", i, l, L)
			}
			if !present[l][i] {
				present[l][i] = true
				count[l]++
			}
		}
	}
	bp := p
	if p.Prior == "given" {
		bp.Prior, bp.Priors = "learned", nil
	}
	W, B := make([]float64, V*L), make([]float64, L)
	errs := make([]error, L)
	var done int
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var mu sync.Mutex
	report := func(k int) {
		if opt.Progress != nil {
			mu.Lock() // so that the counts reach Progress in order
			done += k
			opt.Progress(done, L)
			mu.Unlock()
		}
	}
	if useOVRSGD(kind, bp) && !opt.twoClassOVR {
		if err := fitOVRSGD(X, present, count, labels, bp, opt, workers, report, W, B); err != nil {
			return nil, err
		}
		bp.Temperature = 0
		return model.NewMultiLabel(kind, labels, vocab, bp, W, B)
	}
	parallel(workers, L, func(l int) {
		defer report(1)
		if count[l] == 0 || count[l] == n {
			B[l] = priorBias(count[l], n)
			return
		}
		y := make([]int, n)
		for i := range y {
			if present[l][i] {
				y[i] = 1
			}
		}
		// The SVM's and NB-LR's temperature, fitted on a held-out fold
		// of their own, would scale s, which PlattScale rescales: their
		// labels skip that fold fit (a quarter of their CPU time).
		noTemp := kind == model.SVM || kind == model.NBLR
		m, err := Fit(kind, X, y, binaryClasses, vocab, bp, Options{Workers: 1, Tol: opt.Tol, Eta0: opt.Eta0, NoCalibrate: noTemp})
		if err != nil {
			errs[l] = fmt.Errorf("label %q: %w", labels[l], err)
			return
		}
		a, b := 1.0, 0.0 // logistic regression: its sigmoid is already the fitted probability of the label
		if kind != model.LogReg {
			s := make([]float64, n)
			sc := m.NewScorer()
			for i := range s {
				r := sc.Scores(X.Row(i))
				s[i] = r[1] - r[0]
			}
			a, b = PlattScale(s, present[l])
		}
		for t := 0; t < V; t++ {
			W[t*L+l] = a * (m.W[t*2+1] - m.W[t*2])
		}
		B[l] = a*(m.B[1]-m.B[0]) + b
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	bp.Temperature = 0 // each label has its own; they are in the weights
	return model.NewMultiLabel(kind, labels, vocab, bp, W, B)
}

// priorBias is the bias of a label on count of n documents that has no
// binary model (on none or all of them): the log-odds of its smoothed
// rate (count+1)/(n+2).
func priorBias(count, n int) float64 {
	r := (float64(count) + 1) / (float64(n) + 2)
	return math.Log(r / (1 - r))
}

// DefaultLabelThreshold is the probability threshold stored for every
// label of a multi-label model trained without tuned thresholds. With
// the per-label Platt scaling of FitMultiLabel the probabilities are on
// one scale for every kind, and the threshold that maximizes F1 is about
// half the best F1 (Lipton, Elkan & Naryanaswamy 2014); on the dev split
// of GoEmotions (held out from training), 0.2 gave the highest or
// within 0.001 of the highest micro F1 of the thresholds 0.15, 0.2, ...,
// 0.5 for each of the seven kinds (docs/multi-label.md).
const DefaultLabelThreshold = 0.2

// MultiLabelC returns the C of the binary models of a multi-label fit of
// kind where the user gives none, and whether kind has one. The
// one-vs-rest problems of a tag corpus (a few positives among many
// documents) want more regularisation than the single-label defaults
// give. Chosen, as every default, by the smallest loss on the worst
// held-out corpus: the dev split of GoEmotions (28 emotion labels on
// short comments, the one multi-label corpus shared) and, as one-label
// documents, the held-out part of every other shared train split: the
// later posts of 20 Newsgroups (scripts/holdout-20news.sh), IMDB by
// movie (scripts/holdout-imdb.sh), and ttc-3600, langdetect17, ldcc and
// their 200-character variants (scripts/holdout-split). Micro F1 of the
// one-vs-rest model at the stored threshold, the other settings the
// kind's defaults (words):
//
//	          GoEmo   20NG    IMDB    ttc     ttc200  ld17    ld17-200 ldcc    ldcc200
//	logreg 30 0.5208  0.8311  0.8656  0.9364  0.8439  0.9488  0.9492   0.9378  0.8943  (single-label default)
//	       15 0.5299  0.8291  0.8581  0.9347  0.8407  0.9488  0.9494   0.9359  0.8944
//	       10 0.5376  0.8274  0.8507  0.9357  0.8395  0.9484  0.9491   0.9341  0.8931  ←
//	        5 0.5483  0.8196  0.8345  0.9333  0.8346  0.9458  0.9471   0.9282  0.8881
//	svm   0.5 0.5455  0.8486  0.8903  0.9281  0.8549  0.9596  0.9603   0.9423  0.8965  (single-label default)
//	      0.2 0.5589  0.8504  0.8863  0.9293  0.8484  0.9571  0.9560   0.9329  0.8862  ←
//	nblr 0.01 0.5696  0.8396  0.8945  0.9274  0.8450  0.9518  0.9501   0.9661  0.9056  (single-label default)
//	    0.003 0.5669  0.8594  0.8900  0.9290  0.8389  0.9561  0.9525   0.9653  0.9026  ←
//
// The worst loss in points against the best of the row's values:
// logreg C = 10 1.49 (IMDB; C = 30 2.75 and C = 15 1.84 on GoEmotions,
// C = 5 3.11 on IMDB), svm C = 0.2 1.03 (ldcc200; C = 0.5 1.34 on
// GoEmotions), NB-LR C = 0.003 0.61 (ttc200; C = 0.01 1.98 on 20NG). A C
// given by the user (--C, a config file) is kept.
//
// Multi-label training follows the corpus profile (ChooseDefaults),
// and its analyzer on at most MultiLabelProfileLabels labels: see
// MultiLabelFollowsAnalyzer.
func MultiLabelC(kind model.Kind) (float64, bool) {
	switch kind {
	case model.LogReg:
		return 10, true
	case model.SVM:
		return 0.2, true
	case model.NBLR:
		return 0.003, true
	}
	return 0, false
}

// MultiLabelProfileLabels is the most labels of a multi-label corpus
// whose analyzer follows the corpus profile (MultiLabelFollowsAnalyzer).
const MultiLabelProfileLabels = 64

// MultiLabelFollowsAnalyzer reports whether multi-label training of kind
// on a corpus of labels labels takes the analyzer the corpus profile
// chooses (character n-grams on short text for the linear kinds and the
// kinds of MultiLabelShortChar, on unsegmented text for every kind) when
// the user gives neither --follow-profile nor an analyzer flag: on at most
// MultiLabelProfileLabels labels, for every kind but complement NB. The
// other choices of the profile (multinomial NB's weighting, Bernoulli
// NB's α, the one-vs-rest weighting of MultiLabelCounts) are followed
// whatever the labels.
//
// A one-vs-rest fit costs labels × terms per document, and character
// n-grams are many more terms: on GoEmotions' 28 labels nblr's fit took
// 9.8 CPU-seconds on them against 2.6 on words, svm's 10.9 against 3.8,
// logreg's 7.4 against 2.3; on a synthetic corpus of 735 tags logistic
// regression took 24 against 10. The bound of 64 labels is one of cost,
// not of accuracy: past it the analyzer is words. On the held-out data
// of every shared train split, as one-label documents for all but
// GoEmotions (see MultiLabelC), micro F1 of the one-vs-rest model (the
// multi-label C, the stored threshold) with words and with the profile's
// analyzer; on 20NG, IMDB and ttc-3600 (long text in spaced scripts) the
// profile keeps words; NB on short text in spaced scripts (GoEmotions,
// ttc200, ld17, ld17-200), left blank below, is MultiLabelShortChar's
// table:
//
//	                    GoEmo   ttc200  ld17    ld17-200 ldcc    ldcc200
//	nblr        words   0.5669  0.8389  0.9561  0.9525   0.9653  0.9026
//	            profile 0.5647  0.8769  0.9817  0.9817   0.9685  0.9337
//	svm         words   0.5589  0.8484  0.9571  0.9560   0.9329  0.8862
//	            profile 0.5598  0.8734  0.9830  0.9830   0.9506  0.9224
//	logreg      words   0.5376  0.8395  0.9484  0.9491   0.9341  0.8931
//	            profile 0.5412  0.8637  0.9817  0.9826   0.9504  0.9274
//	multinomial words                                    0.8225  0.8037
//	            profile                                  0.8680  0.8503
//	bernoulli   words                                    0.8773  0.8057
//	            profile                                  0.9191  0.8881
//	complement  words                                    0.6032  0.7055
//	            profile                                  0.6881  0.6055
//
// The worst loss in points against the better of the two: the profile's
// analyzer, nblr 0.22 (GoEmotions, where it gains 0.86 of precision@1,
// 0.6041 against 0.5955, and 2.7 of recall@5), svm, logreg, multinomial
// and Bernoulli none, complement 10.0 (ldcc200); words, nblr 2.92
// (ld17-200), svm 3.62 and logreg 3.43 (ldcc200), multinomial 4.66 and
// Bernoulli 8.24 (ldcc200), complement 8.49 (ldcc). Hence every kind but
// complement follows the profile's analyzer.
func MultiLabelFollowsAnalyzer(kind model.Kind, labels int) bool {
	return labels <= MultiLabelProfileLabels && kind != model.Complement
}

// MultiLabelShortChar reports whether kind, in a multi-label fit on
// short text in a spaced script, takes the profile's character analyzer
// although its single-label fit keeps words: multinomial and Bernoulli NB
// and nearest centroid (the linear kinds take it in both). Micro F1 (and
// precision@1) of the one-vs-rest model on the held-out data of the
// short corpora in spaced scripts, with words and with char_wb 2,4; the
// other corpora as one-label documents, imdb200 being IMDB's reviews cut
// to their first 200 characters (centroid on ldcc and ldcc200, where
// the profile now gives it character n-grams too: words 0.8547 and
// 0.8120, char_wb 0.9039 and 0.8663):
//
//	                    GoEmo   ttc200  ld17    ld17-200 imdb200
//	multinomial words   0.4599  0.8720  0.9731  0.9719   0.7217
//	            char_wb 0.4977  0.8782  0.9514  0.9538   0.7201
//	bernoulli   words   0.4535  0.8760  0.9735  0.9729   0.7161
//	            char_wb 0.4833  0.8676  0.9482  0.9491   0.7170
//	centroid    words   0.4874  0.7899  0.9415  0.9406   0.7035
//	            char_wb 0.4956  0.8167  0.9595  0.9589   0.6992
//
// (multinomial weighing by counts, MultiLabelCounts.) The worst loss in
// points against the better of the two: char_wb, multinomial 2.17
// (ld17), Bernoulli 2.53 (ld17), centroid 0.43
// (imdb200); words, multinomial 3.78, Bernoulli 2.98 (GoEmotions),
// centroid 5.43 (ldcc200). Precision@1 on GoEmotions' dev split rises
// from 0.5166 to 0.5387 (multinomial), 0.4921 to 0.5269 (Bernoulli) and
// 0.5249 to 0.5299 (centroid). Single-label NB keeps words on such text,
// where one model over all classes loses with character n-grams
// (docs/defaults.md): the one-vs-rest binary models are another problem.
func MultiLabelShortChar(kind model.Kind) bool {
	return kind == model.Multinomial || kind == model.Bernoulli || kind == model.Centroid
}

// MultiLabelCounts reports whether kind, in a multi-label fit, weights
// its terms by counts (neither tf-idf nor l2-normalised) whatever the
// class balance: multinomial NB (which does so on imbalanced classes
// anyway) and complement NB, whose one-vs-rest fit also takes α =
// MultiLabelComplementAlpha. Each label's binary model opposes its few
// documents to all the others. Micro F1 of the one-vs-rest model on the
// held-out data of every shared corpus (as MultiLabelShortChar; 20ng and
// imdb as one-label documents, the analyzer the profile gives):
//
//	                              GoEmo  ttc200 ld17   ld17-200 imdb200 ldcc200 ldcc   20ng   imdb
//	multinomial tf-idf (balanced)  -     0.8346  -      -       0.7237  0.8503  0.8680 0.7027 0.8139
//	            counts            0.4977 0.8782 0.9514 0.9538   0.7201  0.8818  0.9124 0.8252 0.7931
//	complement  tf-idf, α 1       0.3589 0.8065 0.9769 0.9772   0.7316  0.7055  0.6032 0.2887 0.8210
//	            counts, α 1       0.3987 0.8542 0.9701 0.9692   0.7312  0.8160  0.8709
//	            counts, α 0.3     0.4375 0.8582 0.9739 0.9749   0.7212  0.8108  0.8771 0.8087 0.7987
//
// (multinomial on GoEmo and ld17 weights by counts already: imbalanced.)
// The worst loss in points against the best measured: multinomial, counts
// 2.08 (imdb), tf-idf on balanced classes 12.25 (20ng); complement
// (the best including the words-against-char_wb runs of
// docs/multi-label.md), counts with α 0.3 4.91 (GoEmo), counts with α 1
// 8.79 (GoEmo), tf-idf with α 1 52.0 (20ng, where its micro F1 was 0.29).
func MultiLabelCounts(kind model.Kind) bool {
	return kind == model.Multinomial || kind == model.Complement
}

// MultiLabelComplementAlpha is complement NB's α in a multi-label fit
// (MultiLabelCounts).
const MultiLabelComplementAlpha = 0.3

// binaryClasses are the classes of the binary model of one label.
var binaryClasses = []string{"absent", "present"}

// TuneThresholds chooses a probability threshold for each label of the
// one-vs-rest model FitMultiLabel fits on X and Y: the documents are split
// into DefaultFolds folds (stratified by each document's lowest label id,
// seeded with p.Seed), a model is fitted on the other folds of each and
// scores its held-out documents, and each label gets the threshold among
// 0.01, 0.02, ..., 0.99 that maximizes its F1 over these out-of-fold
// probabilities (ties: the one nearest 0.5). A label on fewer than
// MinTunePositives documents has too few positives to tune on (some folds
// hold none of it): it gets the shared threshold, the one that maximizes
// the micro F1 of all labels' out-of-fold probabilities pooled. The
// result is what model.Params.LabelThresholds stores. It never fails for
// a rare label: a fold without a label fits it as FitMultiLabel fits a
// label on no document.
func TuneThresholds(kind model.Kind, X *vectorize.Matrix, Y [][]int, labels []string, vocab *vectorize.Vocabulary, p model.Params, opt Options) ([]float64, error) {
	if X == nil || X.Rows() != len(Y) {
		return nil, fmt.Errorf("%d label sets for the documents", len(Y))
	}
	L, n := len(labels), len(Y)
	strata := make([]int, n)
	for i, ls := range Y {
		strata[i] = L // no label
		if len(ls) > 0 {
			strata[i] = slices.Min(ls)
		}
	}
	folds, err := corpus.StratifiedKFold(strata, DefaultFolds, uint64(p.Seed))
	if err != nil {
		return nil, fmt.Errorf("tuning thresholds: %w", err)
	}
	probs := make([]float64, n*L)
	for f, held := range folds {
		rows := corpus.Complement(n, held)
		m, err := FitMultiLabel(kind, X.Subset(rows), corpus.Pick(Y, rows), labels, vocab, p, Options{Workers: opt.Workers, Tol: opt.Tol, Eta0: opt.Eta0})
		if err != nil {
			return nil, fmt.Errorf("tuning thresholds: fold %d of %d: %w", f+1, len(folds), err)
		}
		s := m.NewScorer()
		for _, i := range held {
			copy(probs[i*L:(i+1)*L], s.LabelProbs(X.Row(i)))
		}
		if opt.Progress != nil {
			opt.Progress(f+1, len(folds))
		}
	}
	truth := make([]bool, n*L)
	count := make([]int, L)
	for i, ls := range Y {
		for _, l := range ls {
			if !truth[i*L+l] {
				truth[i*L+l] = true
				count[l]++
			}
		}
	}
	// tp, fp, fn of label l (or of every label when l < 0) at threshold t.
	counts := func(l int, t float64) (tp, fp, fn float64) {
		lo, hi := 0, L
		if l >= 0 {
			lo, hi = l, l+1
		}
		for i := 0; i < n; i++ {
			for j := lo; j < hi; j++ {
				switch pred, yes := probs[i*L+j] >= t, truth[i*L+j]; {
				case pred && yes:
					tp++
				case pred:
					fp++
				case yes:
					fn++
				}
			}
		}
		return tp, fp, fn
	}
	best := func(l int) float64 {
		best, bestF1 := 0.5, -1.0
		for k := 1; k <= 99; k++ {
			t := float64(k) / 100
			tp, fp, fn := counts(l, t)
			f1 := 0.0
			if tp > 0 {
				f1 = 2 * tp / (2*tp + fp + fn)
			}
			if f1 > bestF1+1e-12 || (math.Abs(f1-bestF1) <= 1e-12 && math.Abs(t-0.5) < math.Abs(best-0.5)) {
				best, bestF1 = t, f1
			}
		}
		return best
	}
	shared := best(-1)
	out := make([]float64, L)
	for l := range out {
		out[l] = shared
		if count[l] >= MinTunePositives {
			out[l] = best(l)
		}
	}
	return out, nil
}

// MinTunePositives is the number of documents a label needs for
// TuneThresholds to tune its own threshold: with DefaultFolds folds, a
// label on fewer documents is missing from some fold.
const MinTunePositives = DefaultFolds
