// Package vectorize turns text into sparse rows of term counts or weights.
//
// It owns the tokenizer, word n-grams, header field terms, the English stop
// word list, the vocabulary (building, pruning by document frequency,
// selection by mutual information with the class, and its file), the
// binary, count and tf-idf weightings, and the sparse row type (Matrix)
// that the training and scoring hot paths read. It knows nothing of
// corpora, file formats of documents or models, and uses labels only for
// mutual-information selection.
//
// # Tokens
//
// The default tokenizer is scikit-learn's CountVectorizer default, exactly:
// the text is lower-cased as Python's str.lower does it, and the tokens are
// the matches of the regular expression (?u)\b\w\w+\b, that is, every
// maximal run of at least 2 word characters, where a word character is
// Python's \w: a Unicode letter (L*), a number (N*, so ², ½ and Ⅻ count)
// or '_', but not a combining mark. "Don't" gives "don" (the "t" is too
// short); "naïve_2nd" is one token. The scanner is hand-written: it
// classifies 16 bytes at a time into bit masks (packed SSE2 on amd64, 8
// bytes at a time in Go elsewhere), slices ASCII tokens out of
// the text without copying, and decodes runes only in runs that hold a
// non-ASCII byte. Two rules of Python's lower-casing change tokens and are
// followed: İ (U+0130) lowers to "i" plus a combining dot, which ends the
// token, and Σ lowers to ς at the end of a word. Word-character tests
// follow Go's Unicode tables, which may be a version ahead of Python's.
//
// # Analyzers
//
// Settings.Analysis chooses other analyzers (analyzer.go, cjk.go); its zero
// value is the word scanner above, so files that record none of it
// tokenize as they always did. Analyzer "char" and "char_wb" give
// scikit-learn's character n-grams exactly (_char_ngrams: runs of two or
// more white space characters collapsed to one space, n-grams over the
// whole text; _char_wb_ngrams: each word padded with a space, n-grams
// inside the padded word, a padded word shorter than n given once).
// Subwords add fastText's character n-grams of "<word>" (prefixed "^").
// CJKBigrams makes a run of Han, Kana, Hangul or Thai characters its
// overlapping bigrams, as Lucene's CJKBigramFilter. Before any analyzer:
// NFKC (Normalize), str.lower or full case folding (CaseFold), accent
// stripping (NFKD, drop combining marks, as scikit-learn). TokenPattern
// replaces the word scanner by RE2 matches. DefaultSettings turns
// CJKBigrams on: it changes nothing in text without those scripts.
// Settings.Override sets settings by the names of the flags that set them
// (override.go), with the rules that tie them: a character analyzer
// turns off the word-only settings not given.
//
// English stop words (Settings.StopWords "english") are scikit-learn's
// ENGLISH_STOP_WORDS, 318 words. They are removed before n-grams are formed,
// as scikit-learn does, and n-grams of NGramMin..NGramMax tokens are joined
// by a single space. With unigrams only, removing them commutes with
// counting, and Fit and Vectorizer use that to spare each token a stop word
// set lookup on top of the term lookup they make anyway: Fit's term tables
// start with the stop words, whose ids are then skipped, and a Vectorizer
// over a vocabulary that holds no stop word lets the vocabulary lookup drop
// them as unknown terms. Tokenizer.Terms always removes them itself.
//
// # Field terms
//
// Settings.Fields ("subject:2") names header fields whose words also become
// terms of their own. When a document opens with a header block, as mail
// and news posts do (lines "Name: value", continued on lines that start
// with white space, up to the first empty line), each word w of a named
// field's value, tokenized as the text is, adds the term "name:w" Weight
// times, after the document's other terms. Stop words are kept there
// ("subject:re" marks a reply), and the words still count as plain terms
// of the text too. A ':' never occurs in a token, so field terms cannot
// collide with the text's own. Only the head of a long document (one
// over 1 MiB is tokenized in pieces) is searched for the header block.
//
// # Vocabulary
//
// Term ids are positions in Vocabulary.Terms, which Fit and ReadTSV keep in
// ascending byte order (code point order, as Python sorts). So ids are
// stable: the same set of terms always gets the same ids. Each term carries
// its document frequency df (documents containing it) and corpus frequency
// cf (occurrences) in the fitted corpus, and the vocabulary its document
// count n, from which tf-idf takes idf(t) = ln((1+n)/(1+df(t))) + 1.
//
// Fit prunes in scikit-learn's order: min/max document frequency, then
// MaxFeatures (by df, not by cf as scikit-learn does; ties by term), then
// Select "mi:K" (mutual information, McCallum & Nigam 1998). It tokenizes
// every document once, on all cores, and returns the count matrix with the
// vocabulary (FitVocabulary skips the matrix). Its result does not depend
// on the number of workers. FitStream does the same for documents that
// arrive while they are read (corpus.ReadStream), in any order: it
// tokenizes each batch as soon as it is complete, and Finish, told which
// documents make the corpus in which order, returns exactly what Fit
// returns for them. Transform and Vectorizer turn other documents into rows
// of a fitted vocabulary; unknown terms are dropped.
//
// Terms are looked up in an open-addressing hash table (termTable), not a
// Go map: lookups are the largest cost of Fit after tokenizing, and on the
// 20 Newsgroups token stream the table was about 20% faster than a
// map[string]int32, mostly by sparing short terms a visit to their bytes.
// A worker looks up all the terms of a text in one sweep
// (termTable.appendIDs, which hashes and probes terms of up to 8 bytes
// inline), then builds the row in a second loop: neither loop calls a
// function per token, so neither spills its variables every token.
// An n-gram is looked up by the pair of its (n−1)-gram prefix's id and its
// last word's id (pairTable), 8 bytes whatever its length; its text is
// built once, when first seen.
//
// With n-grams and a MinDF of 2 or more, Fit first sketches the n-gram
// occurrences in a count-min sketch (dfSketch: saturating cells of 2 bits
// for MinDF 2, an n-gram's cells in one cache line; FitStream does it
// while documents arrive and counts at Finish), then counts exactly only
// the n-grams whose bound reaches MinDF, which it asks of the sketch's
// dfFilter (a bit per cell, cell ≥ MinDF, folded into 1 MiB so that it
// stays in a core's cache). A sketch never under-counts, so the result is
// exact counting's; the rare n-grams, most of them, never take memory (20
// Newsgroups, --ngram 1,2 --min-df 2: nbtext vocab peaks at about 250 MB;
// without a sketch, nbtext train peaked at about 620).
//
// # Feature hashing
//
// With Settings.HashBits = B (1..MaxHashBits), every term (unigram,
// n-gram or field term, after stop words, exactly as Terms gives them) is
// hashed into one of 2^B buckets, as Vowpal Wabbit and scikit-learn's
// HashingVectorizer do, so that the vocabulary, and the model, never
// exceed 2^B rows however many words the corpus holds. The hash is XXH64
// of the term's UTF-8 bytes with seed 0 (HashTerm, pinned to the
// reference test vectors: fast, well mixed, and the same on every
// platform and in every version, since files depend on it); the bucket is
// its low B bits. A bucket is a term named BucketPrefix plus its number
// in zero-padded lower-case hexadecimal ("~0a3f1" for B = 18; '~' is no
// word character, so no token looks like one), and everything downstream
// treats buckets as terms: colliding terms add their counts, document
// frequencies are those of the union of their documents, and min_df,
// max_df, max_features and mi:K prune buckets. Hashing is unsigned (no
// alternate sign as in scikit-learn's alternate_sign): Naive Bayes needs
// non-negative counts, and the signed variant's unbiased inner products
// matter little with 2^18 buckets or more (20 Newsgroups: 3-fold
// accuracy 0.9045 against 0.9048 unhashed; IMDB 0.8592 against 0.8616).
//
// So that explanations and model inspection still name words, Fit keeps
// for each bucket its most frequent terms (Vocabulary.Names, at most
// MaxBucketNames, with their occurrences; DisplayName shows them). Each
// worker keeps a table of the terms it meets with their bucket and
// occurrences: a term is hashed once, when first met, and each occurrence
// then costs one term lookup, as without hashing. So the names and their
// counts are exact and do not depend on the workers; the term tables grow
// with the distinct terms of the documents one Fit counts, which are in
// memory anyway (internal/counts, which streams, fits a batch at a time
// and keeps only the buckets and their names between batches). Names
// count every document tokenized (FitStream's left-out documents too);
// they never change a prediction. BenchmarkFitHashed20Newsgroups measures
// the cost: about 1.5 times BenchmarkFit20Newsgroups's time (2.6 s
// against 1.7 s, medians of 4 runs of 5 under load).
//
// # Rows
//
// A Matrix is compressed sparse rows: row i holds its term ids in strictly
// ascending order with one value each (a count, 1 for binary, or a tf-idf
// weight). Vectorizer produces one such row per document without
// allocating, for predict. Weight and WeightRow apply the weighting of the
// vocabulary's Settings in place. What they give each term does not depend
// on the order of the row's terms: the l2 norm's sum of squares is exact
// on a fixed grid (sumSquares), so a row in any order, such as a replayed
// row of counts.RoundTwo, is weighted to the same bits.
//
// # Vocabulary file
//
// WriteTSV and ReadTSV use a UTF-8 text file:
//
//	# nbtext vocabulary v1
//	# terms 130107
//	# documents 11314
//	# settings {"lowercase":true,"stop_words":"","ngram_min":1,...}
//	term	df	cf
//	the	10420	146559
//	to	9979	73458
//	...
//
// The first line names the format and its version; a reader refuses a
// newer version. Then, before the header, lines starting with '#': the
// term count (checked on reading, so a cut file is noticed), the document
// count n of the fitted corpus, and the Settings as one line of JSON (the
// field names are Settings' json tags; absent fields take DefaultSettings'
// values). Other '#' lines are comments. Then the header line
// "term<TAB>df<TAB>cf" and one line per term, sorted by df descending, then
// by term ascending. Word terms never hold a tab, a newline or a
// backslash (they are runs of word characters, joined by spaces for
// n-grams, or prefixed by a field name and ':'); with a character analyzer
// or a token pattern, terms are written with tab, LF, CR and backslash
// escaped as \t, \n, \r and \\ (the settings line says which). The
// file order is not the id order: ids are the ascending term order, and
// ReadTSV renumbers accordingly. Read errors name the file and line:
// "vocab.tsv:17: df must be a whole number in 0..11314 (the documents), got "x"".
package vectorize
