// Package search chooses a model for a corpus: the search behind 'nbtext
// train --auto' and 'nbtext eval --cv K --auto'. It owns the candidate
// space (model kind × preprocessing × hyperparameter), the racing of the
// candidates under a time budget, the leaderboard, and the nested
// cross-validation of the whole search.
//
// # Conventions
//
//   - The space is data. Space.Kinds lists the model kinds with the grid of
//     their one hyperparameter (α for Naive Bayes, C for the linear models)
//     and a relative cost; a new kind joins the search by a row in
//     DefaultKinds. Each candidate starts from train.Defaults of its kind
//     and overrides the preprocessing dimensions of the space: stop words,
//     n-gram range, min_df, sublinear tf (for tf-idf kinds), and header
//     field terms, which DefaultSpace searches only when the corpus has
//     mail headers (HasMailHeaders). Word trigrams are searched for the
//     linear kinds only (KindSpace.MaxNGram caps the Naive Bayes kinds at
//     bigrams), with min_df 2 or more.
//   - Defaults first. Each kind's default setting (train.Defaults, as
//     'nbtext train --model K' fits it; Candidate.Default) is a candidate,
//     the space's own when it holds it, else added (addDefaults). Before
//     the race, the defaults are scored a level at a time (the first
//     split, then 3, then all), every default on a level before any goes
//     on, the strongest kinds first (defaultsOrder: NB-LR, SVM, logistic
//     regression, then the Naive Bayes kinds). The choice is made on the
//     splits n every scored default reached (Result.Decision): the
//     candidate with the best mean over those n splits among all scored on
//     them, ties to a default, so it is never below the best default
//     scored. When the race decided on fewer splits, its best three are
//     scored on the rest first (while the budget lasts); when on more,
//     the defaults are. Out of budget, the best default wins. The first
//     two jobs (NB-LR's and the SVM's defaults on the first split, one
//     tokenization: floorJobs) start whatever the budget and are not
//     abandoned: a search always returns a scored candidate. An ensemble is used only when it scores at least as well
//     as the best default on its held-out documents too.
//   - Scoring. Candidates are scored on train/held-out splits of the
//     training documents: the folds of corpus.StratifiedKFold(y, k, seed),
//     or one split given by the caller (a validation set). Each split refits
//     the vocabulary on its training rows only (eval.Tokenized.Split), as a
//     final fit meets new documents. The metric is accuracy, macro F1 or
//     log-loss (lower is better).
//   - Racing: successive halving over the folds (Jamieson & Talwalkar
//     2016; scikit-learn's HalvingGridSearchCV races over samples, this
//     one over folds, so a candidate's score is never from fewer
//     documents). Rung 0 scores every candidate on the first fold, in
//     phases: the defaults of every kind on unigrams (cheapest first); then
//     the kinds that lead (within one standard error of the best score so
//     far) on 1-2 grams, then on 1-3 grams (unless bigrams lost against
//     unigrams), then the other kinds on longer n-grams; then each later
//     round of preprocessing, leaders first. Each phase is ordered anew by
//     the scores so far, so that the leaders' variants race before the
//     laggards'. The best third
//     go on to the next two folds, the best third of those to the rest. Naive Bayes candidates that
//     differ only in α share their counts, so an α grid costs about one fit;
//     a kind fitted by optimisation races its default value first (its
//     pilot), and the other values of its grid join when the pilot goes on.
//   - Budget. Options.Budget bounds the search, in wall seconds, in CPU
//     seconds of the process (getrusage: a loaded machine does the same
//     work, more slowly) or in evaluations (Unit; ParseBudget reads
//     "60s", "cpu:60s", "evals:40"). A meter reads what was spent
//     (Options.Spent before the search). Under a time budget no job (one
//     kind and preprocessing on one fold) starts unless its expected time,
//     measured on earlier jobs of the same kind and n-gram range in the
//     budget's own seconds, ends before the limit less a reserve for the
//     final fit (measured on the leading candidate's own fits: a kind's C
//     grid spans solver times several times apart). Under an Evaluations
//     budget a job costs its fits over k (one fit per candidate, one for
//     a Naive Bayes α grid, which shares its counts), claimed when it is
//     admitted in the jobs' fixed order, and the fit of the choice costs
//     nothing: what the budget admits depends on no clock, so the same
//     seed gives the same model on any machine. A rung cut short by the
//     budget ends the race there. Rung 0 may use 55% of the budget left,
//     rung 1 80%; when the later rungs end early,
//     another race starts, its rung 0 going on where the last one stopped
//     (scores are kept), until rung 0 covers every candidate or no job fits.
//   - Memory. One tokenization of the documents serves every candidate
//     with the same stop words, n-gram range and fields (eval.Tokenized);
//     it keeps only the terms of the lowest min_df among them. A rung, and
//     each phase of rung 0, drops the tokenizations that neither its jobs
//     nor the pilots that would go on to rung 1 so far use (a later rung
//     that needs one again tokenizes anew). The ensemble's held-out
//     scores grow with the candidates scored, C float32 per held-out
//     document of each split a candidate was scored on (at most
//     candidates × documents × C); the library's selection frees those of
//     the others, then turns the library's into probabilities one
//     candidate at a time, and the search drops them all when it returns.
//   - Ensemble (Options.EnsembleRounds > 0; 'train --auto' asks for 25
//     rounds): the ensemble selection of Caruana et al. (2004), as
//     auto-sklearn runs it. The jobs keep each candidate's raw scores of
//     its held-out documents (float32, C per document). After the race,
//     the library is the search's choice and the best others, 20 in all
//     (at most a quarter of one model kind while other kinds are left),
//     on the most splits (up to the deciding rung's) that so many share:
//     the same folds, each document scored by models that did not see it.
//     Successive halving leaves few, and alike, candidates in its last
//     rungs; the first split alone is a holdout every scored candidate
//     shares, as auto-sklearn's ensemble builder has. Time the race
//     leaves goes to the library first (fillLibrary): its 20 best on the
//     first split are scored on more splits, a level of the race at a
//     time, up to the deciding rung's, until the deadline less 15% of the
//     budget, or less what the refit of the search's choice and of one
//     member of its cost is expected to take when that is more, so that
//     the selection sees more held-out documents and can still admit a
//     member. Each one's
//     probabilities are softmax(τ·score), τ fitted on its own held-out
//     scores (the temperature scaling of train's calibration; logistic
//     regression keeps τ = 1), and SelectEnsemble greedily averages them,
//     with replacement, from the search's choice, each round adding the
//     one that lowers the log-loss of the average most, whatever the
//     metric. The ensemble is used only when it scores better than that
//     candidate on the same documents and refitting its members on all
//     the documents is expected to end within the deadline (members of
//     equal settings share one preparation of the documents; the plan
//     takes the expected times unpadded, as FitEnsemble checks the members
//     after the first against the clock); the search itself keeps no more
//     time than for the single fit. FitEnsemble refits the members, the
//     search's choice first and the others grouped by settings (one matrix
//     of the documents at a time), and falls back to it when the next
//     member would overrun the deadline.
//     The model is a model.Ensemble.
//   - Determinism. The folds, the candidate order, SGD seeds and tie-breaks
//     (a default, then the earlier candidate in the space's order) depend
//     on the seed only: two searches that score the same candidates choose
//     the same one. What a time budget lets in depends on the speed and
//     load of the machine; what an Evaluations budget lets in does not.
//
// # What search does not do
//
// It does not read corpora, print, or write files: the caller (cmd/nbtext)
// reads the documents, calls Train (the search and the fit of its choice:
// Fit, or FitEnsemble for an ensemble) or NestedCV, and writes the
// leaderboard (Result.WriteTable, Result.WriteJSON) and the model.
//
// # References
//
//   - R. Caruana, A. Niculescu-Mizil, G. Crew, A. Ksikes (2004). Ensemble
//     selection from libraries of models. ICML.
//   - M. Feurer, A. Klein, K. Eggensperger, J. Springenberg, M. Blum,
//     F. Hutter (2015). Efficient and robust automated machine learning
//     (auto-sklearn). NeurIPS.
//   - K. Jamieson, A. Talwalkar (2016). Non-stochastic best arm
//     identification and hyperparameter optimization. AISTATS.
//   - L. Li, K. Jamieson, G. DeSalvo, A. Rostamizadeh, A. Talwalkar (2018).
//     Hyperband: a novel bandit-based approach to hyperparameter
//     optimization. JMLR.
package search
