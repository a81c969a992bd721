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
// CrossValidate runs a plan's configuration through stratified k-fold
// cross-validation (eval --cv): the corpus held in memory, each fold
// fitted as the in-memory run fits.
//
// With StreamAuto, Run streams when the corpus would not fit the memory
// budget (membudget) held in memory, or when streaming gives the same
// model and the corpus is large; the Report says which way it went and
// why. Source is the corpus to read (files, folders, archives, stdin),
// shared with the commands that read corpora without training (count,
// vocab, update). Count is the counting run of 'nbtext count': one shard
// of a source counted with the settings of a round (CountSettings) into a
// counts file, with its CountReport.
//
// Beside training runs, the package carries out the runs of the other
// commands that read corpora or model files, each from a plain options
// struct: UpdateModel (update and forget: from the model's counts, or a
// warm start of a linear model; CheckKeepCounts says which training runs
// can keep those counts), Merge (of counts files, or of logistic
// regression models), CountVocabulary (vocab) and EvalRecords (eval of a
// model with record fields).
//
// TrainRequest and CountRequest are what a train or count command line
// asks for before a plan is built: their Check refuses the combinations
// of options no run carries out (request.go), in the order the CLI has
// always reported them; TrainRequest.Apply then sets a Plan's options.
//
// With Plan.FollowProfile (train's default), every strategy makes the
// kind's defaults follow the corpus profile alike (profile.go): the
// analyzer and Bernoulli's α from the first documents, multinomial's
// weighting from the class balance (from counts: the class balance
// only), so that streamed and in-memory runs still write the same bytes.
// ProfileDefaults is the same choice for commands that hold the corpus
// and fit it several times (eval --cv, compare).
//
// The package prints nothing but Report.Write's summary and a search's
// leaderboard (Search.Leaderboard) to the writers it is given; notes, warnings and progress go through the Plan's
// callbacks. Errors in what a plan asks are UsageErrors.
package pipeline
