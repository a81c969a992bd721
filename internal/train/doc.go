// Package train fits nbtext's estimators. It owns Naive Bayes fitting (one
// counting pass for the sufficient statistics), logistic regression (the
// objective, its parallel gradient, the L-BFGS and SGD solvers, L2, L1 and
// elastic-net penalties), the linear SVM and NB-LR (a dual coordinate
// descent solver shared by both, one-vs-rest), class weights, the
// temperature calibration of NB, SVM and NB-LR probabilities, seeds and
// determinism, the
// cross-validated choice of α and C behind --alpha auto and --C auto, and
// every default (defaults.go), chosen on held-out parts of the training
// splits of 20 Newsgroups and IMDB (cross-validation folds, later posts,
// reviews of held-out movies). The command line names parameters by its
// flags: ParamSpecOf reads the flags given into a ParamSpec, FlagDefaults
// shows each kind's defaults by flag for the help.
//
// # Conventions
//
//   - Input. A fit takes a vectorize.Matrix (CSR, term ids strictly
//     ascending per row) already weighted as its vocabulary's settings say
//     (Prepare and PrepareWith do the vectorizing and weighting), label ids
//     y (indices into classes, one per row) and the vocabulary, which the
//     model keeps. Fit dispatches on the model kind.
//   - Output. A *model.Model built by model.NewNB (from the counts) or
//     model.NewLinear (from fitted weights). Weights are feature-major,
//     W[t*C + c], in the optimizers too, so a non-zero of a document reads
//     and writes C contiguous weights.
//   - Calibration. Fit multiplies the weights and biases of complement
//     and Bernoulli NB by a temperature τ chosen on held-out folds of the
//     training data (CalibrateNB, DefaultCalibrate), so that softmax of
//     the scores is a calibrated posterior; decisions do not change.
//     FitNB returns the model as counted.
//   - Logistic regression minimizes the mean log-loss plus ‖W‖²/(2·C·n)
//     (L2) or ‖W‖₁/(C·n) (L1): scikit-learn's C·Σ loss + penalty divided by
//     C·n, so C means what it means there (see FitLogReg). The bias is not
//     penalized.
//   - SVM and NB-LR (FitSVM, FitNBLR) solve one binary L2-loss SVC per
//     class against the rest (one for two classes) by dual coordinate
//     descent with shrinking, as liblinear's solve_l2r_l1l2_svc; NB-LR
//     folds its log-count ratios into W. Their decision values are
//     calibrated by a temperature fitted on held-out folds
//     (calibrateCrossFit), which never changes a decision.
//   - Class weights (p.ClassWeights, ClassWeights): NB weights each
//     document's counts, the other models its loss; a weight of k is the
//     same fit as k copies of the class's documents.
//   - Determinism. A fit depends on its inputs, its parameters and p.Seed,
//     never on Options.Workers or on scheduling: gradients are summed over
//     fixed chunks in a fixed order (see objective), SGD shuffles with a
//     PCG seeded by p.Seed and applies its updates in order, and the folds
//     of a search come from corpus.StratifiedKFold with TuneOptions.Seed
//     (those of the NB calibration with p.Seed). Tests compare weights bit
//     for bit across 1, 2 and 4 workers.
//   - Parallelism. Options.Workers goroutines (0: GOMAXPROCS) compute the
//     L-BFGS gradient and the scores of SGD mini-batches of 128 documents or
//     more (the default SGD, one document per step, runs on one goroutine:
//     a step is a few microseconds); scoring in Accuracy and vectorizing in
//     Prepare use them too. The hot loops allocate nothing.
//   - Validation. Bad parameters are errors that name the flag and the
//     allowed range, e.g. "--C must be > 0, got 0" (ValidateParams).
//   - Progress is reported through func(done, total int) callbacks.
//   - Bounded memory (train --stream). NB and nearest centroid fit from
//     the statistics of counts (FitNBStats, FitCentroidStats), logistic
//     regression from a RowCache on disk read once per epoch
//     (FitLogRegStream), the SVM and NB-LR from the same cache by dual
//     block minimization, their dual variables in a scratch file
//     (FitSVMStream, FitNBLRStream), record fields from a FieldSpool on
//     disk read twice (FitFieldsStream, FitRecordsStream): each the model
//     the in-memory fit gives on the same documents, bit for bit (logistic
//     regression, the SVM and NB-LR when the buffer holds every row, the
//     latter two without calibration), except for logistic regression and
//     the SVM with record fields, which in memory are stacked on held-out
//     text scores (FitWithFields) and streamed are fitted jointly with the
//     terms.
//
// # What train does not do
//
// It does not read corpora or tokenize (corpus, vectorize), score or encode
// models (model), compute reports or learning curves (eval), and it never
// prints or logs: results and progress go back to the caller (cmd/nbtext).
//
// # References
//
//   - A. McCallum, K. Nigam (1998). A comparison of event models for Naive
//     Bayes text classification. AAAI-98 workshop on learning for text
//     categorization.
//   - J. Rennie, L. Shih, J. Teevan, D. Karger (2003). Tackling the poor
//     assumptions of Naive Bayes text classifiers. ICML.
//   - A. Ng, M. Jordan (2002). On discriminative vs. generative
//     classifiers: a comparison of logistic regression and naive Bayes.
//     NIPS.
//   - L. Bottou (2012). Stochastic gradient descent tricks. Neural
//     Networks: Tricks of the Trade, LNCS 7700.
//   - Y. Tsuruoka, J. Tsujii, S. Ananiadou (2009). Stochastic gradient
//     descent training for L1-regularized log-linear models with cumulative
//     penalty. ACL-IJCNLP.
//   - J. Nocedal, S. Wright (2006). Numerical Optimization, ch. 7 (L-BFGS).
//   - C. Guo, G. Pleiss, Y. Sun, K. Weinberger (2017). On calibration of
//     modern neural networks. ICML (temperature scaling).
//   - J. Platt (1999). Probabilistic outputs for support vector machines
//     and comparisons to regularized likelihood methods.
//   - C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. Keerthi, S. Sundararajan
//     (2008). A dual coordinate descent method for large-scale linear
//     SVM. ICML (liblinear's solver).
//   - H.-F. Yu, C.-J. Hsieh, K.-W. Chang, C.-J. Lin (2010). Large linear
//     classification when data cannot fit in memory. KDD (the block
//     minimization of FitSVMStream).
//   - S. Wang, C. Manning (2012). Baselines and bigrams: simple, good
//     sentiment and topic classification. ACL (NBSVM).
//   - H. Zou, T. Hastie (2005). Regularization and variable selection via
//     the elastic net. JRSS B.
package train
