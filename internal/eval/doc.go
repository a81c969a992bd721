// Package eval measures text classifiers: accuracy, per-class precision,
// recall and F1, log-loss, top-k accuracy and confusion matrices; reports of
// them for people (a table) and for scripts (TSV, JSON) with CI gates;
// stratified k-fold cross-validation of a training configuration; and
// learning curves (error against training-set size, after Ng & Jordan 2002,
// or accuracy against vocabulary size, after McCallum & Nigam 1998) with
// their plots.
//
// # Conventions
//
//   - Labels are ids: an index into the model's classes, in the model's
//     order. Labels of the evaluated corpus that the model does not know get
//     the ids after the classes (see MapLabels); they are reported by name
//     and count, are counted as errors (they can never be predicted) and stay
//     in every denominator. They are never dropped.
//   - Probabilities arrive as natural-log probabilities, row-major n×C
//     (LogProb[i*C+c] = ln P(c | document i)), as the model's scorer and
//     log-sum-exp produce them.
//   - Metrics follow scikit-learn: classification_report's labels (the union
//     of true and predicted labels) and averages (macro: unweighted mean over
//     labels; weighted: by support; micro: from summed counts), with
//     zero_division=0 (a ratio with a zero denominator is 0, and F1 is
//     2·tp / (2·tp + fp + fn)); log_loss with the natural log and
//     probabilities clipped to [ε, 1-ε], ε = float64 machine epsilon
//     (scikit-learn ≥ 1.5; older versions used 1e-15); confusion matrices
//     with rows for the true label, normalised per row on request; for two
//     classes roc_auc_score and average_precision_score of the second
//     class, and brier_score_loss (Brier's sum over the classes for more).
//   - Gates (Gates.Check) read Scores, which every mode's result gives
//     (Report, MultiLabelReport, CVResult): a gate on a figure the mode
//     lacks is a GateUnavailableError, never a silent pass.
//   - Ties between classes go to the lower class id, in predictions and in
//     top-k ranks. Nothing depends on map iteration order.
//   - Standard deviations are sample standard deviations (n-1 denominator,
//     gonum's stat.StdDev); with one value they are 0.
//   - Randomness is seeded: cross-validation folds come from
//     corpus.StratifiedKFold(y, k, seed) and every learning-curve subset from
//     a generator derived from (seed, size, repeat), so the same seed gives
//     the same numbers whatever the number of cores.
//   - Progress is reported through a callback func(done, total int); this
//     package never prints progress itself.
//
// # Formats
//
// Report: WriteTable (aligned, like scikit-learn's classification_report,
// with an optional numbered confusion matrix), WriteTSV (long form: metric,
// label, predicted, value) and WriteJSON (one object; keys documented at
// WriteJSON). Cross-validation: CVResult.WriteTable, WriteTSV, WriteJSON.
// Learning curves: CurveResult.WriteTable (mean ± std per model and the
// crossovers found in the data), WriteCSV / ReadCurveCSV (one row per
// model, size and repeat; they round-trip) and PlotCurves (PNG or SVG). The
// golden files in testdata/ pin every format; refresh them with
// go test ./internal/eval -update after a deliberate change.
//
// # What eval does not do
//
// It does not fit models or vocabularies itself: cross-validation and
// learning curves call vectorize to tokenize and weigh and train to fit
// (or the caller's fit, CVOptions.Fit: a training run's). It
// does not read corpora, and it does not print: writers take an io.Writer,
// and the command decides where output goes. StreamScorer scores texts as a
// reader hands them over (corpus.ReadStream's emit), so that scoring
// overlaps decompression; it is EvaluateTexts to the bit. The model
// files it reads are LoadStreamScorer's, which loads the model (with
// model.Load) while the caller starts reading its corpus, and
// EvaluateFile's: the evaluation of a model file as nbtext eval -m makes
// it, whose corpus a Loader of the caller's reads as the model asks
// (Reading), and whose errors are typed for the caller's exit codes
// (UsageError, ModelError, GateError).
package eval
