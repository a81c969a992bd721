// Package pipeline owns a training run end to end: a Plan (where the
// documents come from, the vectorizer settings, the model kind and its
// parameters, and the options: record fields, multi-label, unlabelled
// documents for EM, a counts file, a warm start, kept counts) and Run,
// which chooses how to carry it out and returns the model's Report.
//
// The strategies:
//   - in memory: the corpus is read and vectorized at once
//     (vectorize.FitStream), parameters tuned by cross-validation where
//     asked, and the model fitted (train.FitWithFields, per label for
//     multi-label, semisup.FitEM for unlabelled documents);
//   - streamed: the corpus is read a document at a time, so memory is
//     bounded by the model, not the corpus: naive Bayes and centroid count
//     it (counts.Counter, two rounds for the weightings that need the
//     document frequencies of the whole corpus), the linear models write
//     their rows to a row cache on disk that the solvers read per epoch or
//     block, record fields go to a spool on disk;
//   - from counts: naive Bayes and centroid fitted from a counts file;
//   - searched (Plan.Search, train --auto): the corpus in memory, the
//     model chosen by internal/search, fitted and saved as the in-memory
//     strategy saves its own (SearchCV estimates the search by nested
//     cross-validation, eval --cv --auto).
//
// RunCompare is compare's learning-curve experiment: the training and test
// corpora read whole, each model's curve fitted by eval.LearningCurve.
//
// With StreamAuto, Run streams when the corpus would not fit the memory
// budget (membudget) held in memory, or when streaming gives the same
// model and the corpus is large; the Report says which way it went and
// why. Source is the corpus to read (files, folders, archives, stdin),
// shared with the commands that read corpora without training (count,
// vocab, update).
//
// The package prints nothing but Report.Write's summary and a search's
// leaderboard (Search.Leaderboard) to the writers it is given; notes, warnings and progress go through the Plan's
// callbacks. Errors in what a plan asks are UsageErrors.
package pipeline
