// Package model holds nbtext's fitted classifiers: each estimator's
// parameters and its scoring, probabilities by log-sum-exp, per-term
// explanations, decisions under class costs, and the model file.
//
// # Estimators
//
// Every model is linear in the features of a document. With C classes, a
// document given as ascending term ids t and values v (a row of a
// vectorize.Matrix) scores class c as
//
//	score[c] = B[c] + Σ_t v_t · W[t*C + c]
//
// Naive Bayes models are built from sufficient statistics by NewNB, which
// states each formula: multi-variate Bernoulli and multinomial NB
// (McCallum & Nigam 1998) and complement NB with weight normalisation
// (Rennie, Shih, Teevan & Karger 2003). Their statistics stay in the model,
// so models of corpus shards can be merged (Model.Merge). Logistic
// regression is fitted by package train and wrapped by NewLinear. The
// nearest-centroid model (NewCentroid) has W[t,c] = μ_ct/‖μ_c‖ and B = 0
// (or its class offsets, Params.CentroidOffset), so it scores by cosine
// similarity. Record models score the fields of a
// record (Fields): categorical and Gaussian NB, whose numeric fields may
// have kernel densities (NumericField), and Gaussian discriminant
// analysis (NewDiscriminant): LDA, linear in the fields, and QDA, whose
// quadratic form Quadratic scores. This
// package reads no corpora and runs no optimizers.
//
// # Conventions
//
//   - W is feature-major: W[t*C + c], so one term reads its C class
//     weights from contiguous memory (as in liblinear).
//   - Everything stays in log space. Scores are log joint probabilities
//     (NB), logits (LR) or complement scores; LogProbs normalises them by
//     log-sum-exp after subtracting the maximum. With α = 0 weights may be
//     -Inf (a class the document rules out) and, for complement NB, +Inf;
//     the scorer then takes an exact path. Nothing is ever NaN: a document
//     that no class can produce falls back to the prior and says so
//     (Prediction.Fallback).
//   - Ties go to the lower class id, in Decide, TopK, Predict and Explain;
//     nothing depends on map order.
//   - Scoring allocates nothing per document: a Scorer owns its scratch.
//   - Decisions with class costs: a(x) = argmax_y λ_y P(y|x), in log space
//     (Decide, ParseCosts); λ_y = 1 for every class is the MAP decision.
//   - Explanations give each term's exact contribution to the log-odds of
//     the explained class against its strongest rival (Scorer.Explain).
//
// # Model file
//
// A model file (.nbm) is self-contained: vocabulary, tokenizer and
// weighting settings, classes, training parameters, weights (for NB, when
// they are what the counts give, the counts they are computed from) and,
// for NB, the counts. All integers are little-endian;
// floats are IEEE 754 binary64 bits, little-endian; a uvarint is
// encoding/binary's unsigned varint and a varint its zig-zag signed one.
// With n the payload length, V the number of terms and C the number of
// classes:
//
//	offset   size   field
//	0        8      magic: 0x89 'N' 'B' 'M' '\r' '\n' 0x1a '\n'
//	8        2      format version, uint16 (this build writes 2, 3 for a
//	                model with record fields or several labels, 4 for one with
//	                feature hashing, 5 for an ensemble, and reads 1..5)
//	10       1      model kind, uint8: 1 bernoulli, 2 multinomial, 3 complement, 4 logreg,
//	                5 svm, 6 nblr, 7 centroid, 8 categorical, 9 gaussian, 10 ensemble,
//	                11 lda, 12 qda
//	11       1      reserved, 0
//	12       8      payload length n, uint64 (at most MaxPayload, 1 GiB)
//	20       n      payload (below)
//	20+n     32     SHA-256 of bytes [0, 20+n)
//
// The payload holds a JSON header and then binary sections, packed without
// padding, in this order. Version 2:
//
//	size     field
//	4        h, the JSON header length, uint32
//	h        JSON header: {"classes": [C names], "params": Params,
//	         "settings": vectorize.Settings, "terms": V, "n_docs": int,
//	         "binary": bool, "stats": bool, "nbtext_version": string,
//	         "created_by": string, "auto": object (only in a model
//	         chosen by 'train --auto': how the search chose it),
//	         "history": [steps] (only in a model changed by 'nbtext
//	         update' or 'nbtext forget': each {"op": "train", "update"
//	         or "forget", "docs", "total", "date", "source",
//	         "classes"}, see Step),
//	         "input": {"label_field", "text_fields", "label_prefix"}
//	         (optional, any version: the corpus's names where train
//	         was given others than the defaults; InputNames),
//	         "trained": string (optional, any version: how train's
//	         streaming changed the fit, e.g. "streamed: no temperature
//	         is fitted"; absent where the model is the one held in
//	         memory; Meta.Trained)}
//	8        T, the byte length of the terms section, uint64
//	T        V terms in id order, each: uvarint byte length, the UTF-8
//	         bytes, varint document frequency, varint collection frequency
//	then, without stats (logistic regression, SVM, NB-LR):
//	8·V·C    W, float64, feature-major
//	8·C      B, float64
//	or, with stats (NB):
//	8·C      ClassDocs N_c, float64
//	8        S, the byte length of the counts section, uint64
//	S        Counts, sparse, feature-major: for each term in id order a
//	         uvarint k ≤ C, then k entries, each a uvarint class id (strictly
//	         ascending within the term) and the count, float64; the
//	         counts left out are 0
//	1        weights flag: 0, W and B are computed from the counts; 1, they
//	         follow
//	8·V·C    W, float64, feature-major   (only if the flag is 1)
//	8·C      B, float64                  (only if the flag is 1)
//
// The JSON header is decoded strictly: a key that is not a field of the
// header structs (fileHeader, Params, vectorize.Settings), or a required
// key that is missing or null, makes the file corrupt (a file with a valid
// checksum but a misspelt "alpha" must not load as an α = 0 model). In
// versions 1 and 2 the required keys are those every such file holds
// (requiredV2); from version 3 on, every field without omitempty. A field
// added to those structs needs nothing else: so "params" of an NB model
// fitted by 'train --unlabeled' holds "em" (Params.EM: the unlabelled
// documents, λ, the iterations and log-likelihoods), optional in every
// version, which scoring never reads. created_by names the command
// ("nbtext train"), not its command line, so that the same data, effective
// settings and seed give the same bytes whatever the output name or the
// spelling of the flags.
//
// Encode leaves the NB weights out (flag 0) when they are exactly, bit for
// bit, what NewNB computes from the counts and parameters, which it checks
// by computing them; Decode then computes them with the same code. The
// calibration temperature is a parameter (Params.Temperature, applied by
// NewNB), so calibrated models are computed too; only weights changed
// after NewNB by other means are stored. Most counts are 0, so a 20 Newsgroups multinomial model with
// train's defaults (56,126 terms, 20 classes) takes 2.6 MB instead of
// version 1's 19 MB, and saving and loading it cost a fraction (hashing
// 19 MB alone took 50 ms). (Computed weights are the saved ones bit for bit
// on the same platform; math.Log may differ in the last bit between
// architectures.) The dense arrays a version 2 NB file expands to (16·V·C
// bytes) are bounded by what a version 1 payload could hold (MaxPayload),
// so a small file cannot make the reader allocate more.
//
// Version 3 is version 2 with one more JSON header field, "fields": the
// record fields of the model (Fields: for each categorical field its name,
// sorted values and either NB counts N_vc with α or one-hot weights; for
// each numeric field its name and either the per-class count, mean, ML
// variance and ε or the standardisation and weights). Two optional keys
// came later: "own_scale" (a mixed NB whose fields are not multiplied by
// its temperature) and, per categorical field, "shrink" (the
// empirical-Bayes strength m); a file without them scores as before, and
// an older build, which decodes strictly, refuses a file with them rather
// than misread it (see Fields). Floats in JSON are
// Go's shortest round-tripping decimals, so they load bit for bit. A
// one-vs-rest multi-label model (NewMultiLabel) is version 3 too, with
// "multi_label": true: C is then the number of labels, W and B hold each
// label's log-odds, and NB kinds store them as logistic regression does
// (stats false, no counts). Models without fields or labels sets are still
// written as version 2, which older builds read; a version 2 reader would
// ignore the new keys and misread the model, hence the bump. Categorical
// and Gaussian NB models (kinds 8, 9) have no terms (V = 0) and store B =
// log P(c), with no stats.
//
// Kernel densities, LDA and QDA (no version bump; older builds refuse
// these files, as unknown JSON keys make a file corrupt and unknown kinds
// newer). A naive Bayes numeric field with a kernel density
// (Params.NumericDensity "kernel") adds to its Gaussian statistics
// "bandwidth" (C values h_c), "grid_min", "grid_step" and "bins" (C·G
// weights, class-major, G ≤ KernelGrid = 1024; see NumericField). LDA and
// QDA (kinds 11, 12) are record models like kind 9: V = 0, B stored. LDA's
// numeric fields are linear ones ("center" the training mean, "scale" 1,
// "weights" Σ⁻¹μ_c); QDA's have "center" and "scale" 1 only, and "fields"
// holds "quadratic": {"mean": [C·d], "cov": [C·d·d]} (each class's mean and
// covariance, row-major), from which loading computes the precision
// matrices and log-determinants and fails (ErrCorrupt) when a covariance
// is not positive definite. Params may hold "numeric_density",
// "bandwidth", "shrinkage" and "reg_param", all omitted when unset, so
// that files without them are written byte for byte as before.
//
// Version 4 is version 3 for a model with feature hashing
// (settings.hash_bits = B > 0; vectorize.Settings.HashBits): its terms are
// bucket names ("~" and the bucket number in ⌈B/4⌉ lower-case hex digits,
// the bucket of a term being the low B bits of XXH64 of its UTF-8 bytes
// with seed 0, vectorize.HashTerm), and each entry of the terms section
// goes on, after the collection frequency, with the bucket's names:
//
//	uvarint  k ≤ 4, then k times: uvarint byte length, the UTF-8 bytes of
//	         a term the bucket holds, uvarint its occurrences (≥ 1);
//	         by occurrences descending, then term ascending
//
// A header with hash_bits in a file of version 1 to 3 is corrupt, and so
// is a term of a version 4 file that is not a bucket name of its B.
// Models without hashing are still written as version 2 or 3.
//
// Version 5 is an ensemble (kind 10; see NewEnsemble), the only kind
// written in it. Its payload is
//
//	4        h, the JSON header length, uint32
//	h        JSON header: {"classes": [C names], "weights": [K weights > 0
//	         summing to 1], "members": K, "nbtext_version": string,
//	         "created_by": string, "auto": the search's summary}
//	then K times:
//	8        L, the member's file length, uint64
//	L        the member's complete model file (magic to checksum, in its
//	         own format version 1..4; never an ensemble), checked as a file
//
// Every member must be valid, and the members must agree on the classes
// (in order, as the header lists them) and on the --remove setting.
//
// Version 1, still read: the same header and JSON, then
//
//	8        T, the byte length of the terms section, uint64
//	T        V terms, each a uvarint byte length and that many UTF-8 bytes
//	4·V      document frequency of each term, int32
//	8·V      collection frequency of each term, int64
//	8·V·C    W, float64, feature-major
//	8·C      B, float64
//	8·C      ClassDocs N_c, float64        (only if stats, i.e. NB)
//	8·V·C    Counts, float64, feature-major (only if stats, i.e. NB)
//
// A reader checks, in order: the magic (else ErrNotModel), the version
// range (ErrNewer), the payload length bound (ErrTooLarge), the file length
// (ErrTruncated, or ErrCorrupt for trailing data), the checksum
// (ErrCorrupt), the kind and reserved byte (ErrNewer), and finally decodes
// and validates the payload (ErrCorrupt). Writers bump the format version
// for any change a reader of the current version would misread; JSON
// header fields may be added without a bump, since readers ignore unknown
// fields. Save writes atomically (temporary file, sync, rename, directory
// sync).
package model
