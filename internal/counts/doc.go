// Package counts owns the sufficient statistics of the Naive Bayes models,
// their file (.nbc), their exact merge, and counting them in bounded
// memory.
//
// Naive Bayes fits from sums: the documents of each class, and for each
// term and class the documents holding the term (Bernoulli) or the sum of
// its values (multinomial and complement NB; McCallum & Nigam 1998,
// Rennie et al. 2003). Sums of disjoint sets of documents add, so a
// corpus can be counted in shards, on any number of machines, and the
// shards merged in any order or tree: that is the contract of this
// package, and every result here is the same bits whatever the grouping.
//
// # What is counted
//
// Counts hold a Header (the vectorize.Settings the documents were counted
// with, what the reader stripped included; the classes, ascending, with
// their documents) and, for every term met (ascending byte order, as
// vectorize numbers them), one Cell per class whose documents hold it:
// the documents of the class holding the term, the term's occurrences in
// them (a field term counts its weight), and in round two the sum of the
// term's weighted values. Counting never prunes: min_df, max_df,
// max_features and mi:K need the whole corpus, and apply when a model is
// fitted (Counts.Vocabulary, with vectorize.Prune, which vectorize.Fit
// uses too). Document frequencies and corpus frequencies are the sums of a
// term's cells.
//
// # Two rounds
//
// Binary and count weightings without a row norm give each term a value
// of its own (1 or its count), so the first round's cells already hold
// what NB sums. tf-idf and the l2 norm do not (NeedsVocab): idf needs the
// document frequencies of the whole corpus, and the norm of a row depends
// on which terms survive pruning. Such settings count twice: round one as
// above; its merged counts, pruned, are the vocabulary (terms, df, cf, n)
// of round two, which counts only that vocabulary's terms and also sums
// their weighted values (vectorize.Vocabulary.WeightRow, as in-memory
// training weights them). The round-two header records the SHA-256 of
// that vocabulary (VocabDigest); when a model is fitted, the document and
// occurrence counts of round two must rebuild exactly that vocabulary,
// which proves both rounds counted the same documents.
//
// In one process (train --stream), round one can keep each document's
// row on disk (Options.Replay: per worker, the class, then each distinct
// term's local id, or under hashing its bucket, which needs no term table
// to be replayed, so that spills let the terms go, in stream VByte's
// layout, and its count unless 1, see
// replay.go; gathered in chunks by class modulo 16, so that round two
// replays a few classes' rows at a time and their columns share the
// caches; the partitions are shared out among the workers by size, so
// that each class's columns are in one worker's table, and an idle worker
// helps the others), and Counter.RoundTwo counts round two from that
// cache instead of the documents, as VW's --cache spares later passes
// the parsing: the ids are mapped to the vocabulary's, pruned terms
// dropped, and from there each row, in its cached order, is counted as Vectorize's row of the document would be, to the same bits:
// the weighting's l2 norm does not depend on the order of a row's terms.
// The input is read once, so stdin needs no spooling.
//
// # Exact sums
//
// Weighted values are float32. Each is turned into 64.64 fixed point
// (Fixed; exact for values ≥ 2⁻⁴¹, rounded to nearest below) and summed
// as integers, which is associative and commutative, so the merge of any
// tree of parts gives the same bits as counting the whole corpus at once.
// The in-memory training of NB (train.FitNB) sums weighted values the same
// way, so a model fitted from counts equals one fitted in memory.
//
// # What was counted
//
// A counts file records its inputs (Header.Inputs, inputs.go): each
// input (a CORPUS argument of 'nbtext count') by the SHA-256 of its
// documents as read, in order (label and text, each after its length as a
// varint), their number and the bytes of their texts, the path as given
// (for people: the same documents under another path, in another format
// or compressed are the same input), and the shards of it held: i/Of for
// each i in Shards, the documents k (from 0) with k mod Of = i-1. 'count
// INPUTS --shard i/N' takes the inputs as one sequence, so an input that
// starts at document s of it holds shard ((i-1-s) mod N)+1 of N. Digests
// cover every document of an input, in the shard or not, so every shard
// of it names it alike; stdin is an input too ("-"). Inputs are ordered
// by digest; each input's Shards are kept modulo their least period, so
// that the merge of all N shards of an input records it as 1/1, as one
// count does, and merged shards are the bytes of one count. When names
// differ (paths on other machines), the least one is kept.
//
// A merge unites the shards of each input and refuses a document counted
// twice, naming both files, the input and the shard: the same shard in
// two parts, a merge with one of its own parts, overlapping shard specs
// (1/2 and 1/3 share shard 1/6), an input counted alone and in a list.
// Header.CheckShards ('--expect-shards N') refuses counts that miss
// documents of their inputs, naming the missing shards. Counts written
// before inputs were recorded, or by a writer that does not record them,
// have none (nil): they load and merge as before, and a sum with them
// records none, for it cannot vouch for them.
//
// A writer records its inputs with a Recorder (Begin at each input, Add
// with every document of it, in the shard or not) and
// Counter.SetInputs(Recorder.Inputs(i, n)) before WriteFile or Counts.
// Counts of a piece of an input that is not a shard i/N (a run of its
// documents cut by a memory bound) must record none: a record says which
// documents of the input the counts hold.
//
// # Merging
//
// Parts merge if their settings and round-two vocabularies are equal
// (Compatible names the settings that differ). The merged classes are the
// union of the parts' classes; a term's cells are added class by class.
// MergeFiles is a streaming k-way merge (a heap of the parts' next terms,
// as LevelDB's merging iterator): it holds one term per part, so parts of
// any size merge in little memory.
//
// Subtract is Merge's inverse for round one: the counts of a set of
// documents minus those of some of them ('nbtext forget', package
// update). Cells, terms and classes left with no documents go, so the
// result is, byte for byte, the count of the documents left. Documents
// that were never counted cannot be told apart in general; they are
// refused when they make a count negative or name a class or term the
// counts lack.
//
// # Counting
//
// Counter hands batches of documents (about 1 MiB of text) to worker
// goroutines while its caller reads on. Add copies each text into its
// batch's buffer, and batches are reused once counted, so counting leaves
// no garbage per document (with corpus.Options.Transient, neither does
// reading). Each worker tokenizes with
// vectorize's own tokenizer (vectorize.TermCounter: Fit's per-token loop,
// which hashes a token's bytes once into a term table and compares the
// bytes on a hit, so terms never merge) and adds each document's distinct
// terms straight into columns of its own, one per class, indexed by term
// id (when round one pools the classes, for train --stream, the
// TermCounter sums them itself, vectorize.TermCounter.CountTotals): nothing
// is kept per document. Round two reads rows of the
// vocabulary (vectorize.Vectorizer) and sums their weighted values too.
// Memory grows with the vocabulary, the classes and the workers, not with
// the documents. The workers' tables are merged term by term, in ascending
// order, only at the end (the same k-way merge as MergeFiles, into a file,
// into Counts, or into the statistics a model is fitted from: Counter.Stats
// and Counter.Vocabulary build no Counts, so their memory does not grow
// with the (term, class) pairs met either). That end is work for every
// core too: each worker's terms are sorted by a goroutine of its own, a
// vocabulary merges ranges of terms in parallel, and round two's tables,
// all indexed by vocabulary id, are summed id by id, ranges of ids in
// parallel, without a merge. Under Options.Mem the tables
// are written as a sorted run in this same file format whenever they pass
// half the bound, emptied, and the runs merged at the end.
//
// # File format
//
// A counts file is little-endian; varints are unsigned LEB128
// (encoding/binary's Uvarint):
//
//	offset  size  field
//	0       8     magic 0x89 'N' 'B' 'C' '\r' '\n' 0x1a '\n'
//	8       4     format version (uint32), 1; 2 with feature hashing
//	12      4     header length H (uint32), ≤ 64 MiB
//	16      H     header: JSON {"settings": {...}, "vocab": "hex sha-256"
//	              (round two only), "classes": [...], "class_docs": [...],
//	              "inputs": [{"name", "sha256", "docs", "bytes", "of",
//	              "shards": [...]}, ...] (absent in older files: see What
//	              was counted)}
//	16+H    ...   terms, ascending, each:
//	                varint  term length L (1 ≤ L ≤ 1 MiB), then L bytes (UTF-8)
//	                varint  cells K (1 ≤ K ≤ classes)
//	                K times, by ascending class:
//	                  varint  class id − previous class id (the first: id + 1)
//	                  varint  documents (1 ≤ d ≤ the class's documents)
//	                  varint  occurrences − documents
//	                  round two only: varint sum integer part, varint sum fraction (units of 2⁻⁶⁴)
//	                version 2 only: varint names k ≤ 4, then k times varint
//	                  length, the UTF-8 bytes, varint occurrences
//	        ...   varint 0 (the end of the terms), varint number of terms
//	        32    SHA-256 of every byte before it
//
// Version 2 is written for counts with feature hashing (settings
// "hash_bits" B > 0, vectorize.Settings.HashBits): the terms are buckets,
// and each carries the most frequent terms of its bucket with their
// occurrences (as in a version 4 model file), so that models fitted from
// counts name words. Round one adds the parts' names
// (vectorize.AddNames, then TopNames); round two carries its vocabulary's. The names
// are exact, and every grouping of merges gives the same bytes, while no
// bucket holds more than 4 distinct terms; beyond, the names kept may
// depend on the grouping, the counts never do. Parts of different
// hash_bits, or hashed and not, refuse to merge (settings differ).
//
// The "inputs" field is additive: older files, which lack it, load as
// before, and counts without inputs write no such field, so they are the
// bytes an older nbtext wrote. (An older nbtext refuses a file that has
// it, as an unknown header field.)
//
// A reader checks, in order, the magic number, the version range, the
// header's size bound and its strict JSON (unknown fields are errors), its
// inputs (digests, sizes, ascending and distinct, shards in range), then
// each term as it comes (order, bounds, cell classes), then the term count,
// the checksum and the end of the file; an error names the file and the
// term. Files are written atomically (internal/fsutil).
package counts
