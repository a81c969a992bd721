// Package semisup fits naive Bayes models from labelled and unlabelled
// documents together by expectation-maximization (EM), as Nigam,
// McCallum, Thrun & Mitchell (2000) do: it owns the EM loop (FitEM), the
// cross-validated choice of the unlabelled documents' weight λ
// (ChooseWeight) and the record of what EM did (model.EM).
//
// # The method
//
// The model is a mixture with one component per class. EM starts from the
// model of the labelled documents D_l alone (train.FitNB) and repeats:
//
//   - E-step: for every unlabelled document x_u, the class posteriors
//     P(c|x_u) = softmax_c(score_c(x_u)) under the current model, where the
//     score is the log joint probability log P(c) + log P(x_u|c) of the
//     Bernoulli or multinomial event model (McCallum & Nigam 1998).
//   - M-step: the sufficient statistics are those of the labelled
//     documents plus λ times the unlabelled documents' statistics, each
//     unlabelled document counted in class c with weight P(c|x_u), and
//     model.NewNB smooths them into the new model as for any NB model.
//
// The M-step's statistics are
//
//	N_c  = N_c(D_l)  + λ Σ_u P(c|x_u)
//	N_cd = N_cd(D_l) + λ Σ_u P(c|x_u) · x_ud   (Bernoulli: [x_ud > 0])
//
// Each iteration maximizes, and so never decreases, the penalized
// log-likelihood
//
//	ℓ(θ) = log P(θ) + Σ_{l ∈ D_l} w_{y_l} log P(y_l) P(x_l|y_l) + λ Σ_u log Σ_c P(c) P(x_u|c)
//
// where P(θ) is the smoothing prior (Dirichlet α for the multinomial,
// Beta(α, β) for the Bernoulli model: log P(θ) = α Σ log θ_cd, plus
// β Σ log(1-θ_cd) for Bernoulli, up to a constant) and w the class
// weights (--class-weight; 1 without). EM stops when the relative change
// |ℓ_k - ℓ_{k-1}| / |ℓ_{k-1}| falls below Options.Tol or after
// Options.MaxIter iterations. Complement NB is not a generative model (its
// scores are no likelihood), so EM does not apply to it.
//
// # Conventions
//
//   - Streaming. The unlabelled documents are Rows read once per
//     iteration (train.RowCache: weighted rows on disk), so memory is
//     bounded by the model (three V×C arrays), never by the number of
//     unlabelled documents.
//   - Determinism. One goroutine reads the rows and sums the statistics in
//     row order; the result depends on the inputs and parameters only,
//     never on GOMAXPROCS.
//   - Scores are taken at temperature 1 (log joint probabilities); a
//     temperature p.Temperature > 0 applies to the final model only.
//   - Progress is reported through func(done, total int) callbacks and
//     the log-likelihood of each iteration through Options.Iteration; the
//     package never prints.
//   - Validation. Bad parameters are errors naming the flag and its range
//     ("--unlabeled-weight must be ≥ 0, got -1").
//
// # What semisup does not do
//
// It does not read corpora or tokenize (corpus, vectorize), build the row
// cache (the caller writes it with train.NewRowCache) or encode models
// (model).
//
// # References
//
//   - K. Nigam, A. McCallum, S. Thrun, T. Mitchell (2000). Text
//     classification from labeled and unlabeled documents using EM.
//     Machine Learning 39(2/3):103-134.
//   - A. McCallum, K. Nigam (1998). A comparison of event models for Naive
//     Bayes text classification. AAAI-98 workshop on learning for text
//     categorization.
//   - A. Dempster, N. Laird, D. Rubin (1977). Maximum likelihood from
//     incomplete data via the EM algorithm. JRSS B 39(1).
package semisup
