// Package update owns changing the documents of a fitted model without
// fitting it again from the corpus: adding documents ('nbtext update'),
// removing them ('nbtext forget'), and the history of those steps that
// the model records (model.Meta.History).
//
// # Naive Bayes and centroid: exact
//
// A Naive Bayes model (and nearest centroid) is a function of its counts
// (package counts): per-class documents and per-(term, class) documents
// and occurrences. Counts of disjoint sets of documents add, exactly and
// in any order (counts.Merge), and counts of a subset subtract
// (counts.Subtract). What a model file keeps is not enough: its counts
// cover only the terms that survived pruning (min_df, max_df,
// max_features, mi:K), and adding documents can bring a pruned term back
// or push a kept one out. So a model that is to be updated keeps its
// round-one counts, every term met, in a counts file beside it
// ('nbtext train --keep-counts' writes MODEL.nbc; 'nbtext count' with the
// same settings writes the same file). Add and Remove merge or subtract
// the counts of the new documents, prune again over the result, and fit
// with the model's own parameters (train.FitNBStats,
// train.FitCentroidStats): for weightings whose values are a document's
// own (binary, count; no l2 norm), that is the model 'nbtext train'
// fits on the union (or the difference) of the documents with the same
// settings, bit for bit, since train fits from the same sums
// (counts.Counts.NB, train.FitNB).
//
// What cannot be exact, and what is done instead:
//   - A temperature τ fitted by calibration (bernoulli, complement and
//     centroid by default) needs held-out documents: the model's τ is
//     kept. Training from scratch with --temperature τ gives the same
//     bytes.
//   - Class weights "balanced" are recomputed from the new class sizes,
//     as train computes them; given priors (--prior label=p) must name the
//     same classes, so an update that adds or drops a class is refused.
//   - tf-idf and l2-normalised rows weight each document by the document
//     frequencies of the whole corpus (and by the terms that survive
//     pruning): the old documents' weighted sums cannot be recomputed
//     without them. Multinomial and complement NB are then updated
//     approximately (AddApprox, RemoveApprox): exact vocabulary and idf
//     from the counts, the new documents weighted exactly, the old sums
//     rescaled by idf'/idf. Bernoulli NB counts documents whatever the
//     weighting, so it stays exact; centroid is refused.
//   - Logistic regression has no sufficient statistics: Linear warm-starts
//     it from the old weights on the new documents (and any old documents
//     the caller adds as a replay sample), over the old vocabulary and
//     classes; the result is a new optimum of the new documents' loss
//     near the old one, not the model of the union.
//   - SVM and NB-LR keep no dual variables: Linear takes a proximal step
//     from the old weights (train.FitDualWarm), each problem minimising
//     ½‖w - w_old‖² + C Σ squared hinge over the new (and replayed)
//     documents, with the old temperature; NB-LR's log-count ratios stay
//     folded in its weights, and the step is taken on presence rows.
//
// # History
//
// A model as 'nbtext train' writes it records no history, so that the same
// documents and settings give the same bytes. Update and forget append a
// model.Step (the operation, documents added or removed, documents in
// all, the date and the corpus), and the first one records the train
// step it starts from, without a date. The history is the only part of
// the file that differs from a model trained from scratch: Options.
// NoHistory leaves it out, and then the bytes are the same.
package update
