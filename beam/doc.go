// Package nbbeam owns nbtext's count and merge steps as an Apache Beam
// pipeline (the Beam Go SDK), so that a corpus of any size is counted on
// an existing distributed engine: Google Cloud Dataflow, Apache Flink or
// Apache Spark through Beam's job server, or the in-process Prism runner
// for small data and tests.
//
// It lives in its own Go module (github.com/nbtext/nbtext/beam) so that
// the SDK's dependencies never reach the core module or the nbtext
// binary. It owns only the pipeline: what is counted, the counts file and
// the exact merge belong to internal/counts, tokenizing to
// internal/vectorize, reading a labelled line file to internal/corpus,
// and fitting a model from counts to internal/train (FitNBCounts, what
// 'nbtext train --from-counts' runs).
//
// # The pipeline
//
//	patterns ─ expand (filesystem.List; byte ranges) ─ reshuffle ─ count one shard per element
//	  ─ (partition, part) ─ CombinePerKey(exact merge) ─ group all partitions ─ join and write
//
// A shard is a file or folder in any format nbtext reads (internal/corpus),
// or, for a TSV, JSONL or fastText file larger than SplitBytes and not
// compressed, the lines that start in one byte range of it (shard.go). The
// count DoFn reads it through Beam's filesystem packages (local paths,
// gs://, s3://), counts its documents with a counts.Counter whose tables
// WorkerMem bounds (past half of it they spill to the worker's temporary
// folder), and writes them term by term as P encoded parts, one per
// term-hash partition (FNV-1a of the term, mod P;
// counts.Counter.WriteParts): every term of a part hashes to its
// partition, and every part carries the shard's whole header. It never
// emits one element per token: the Go SDK's lifted combiner caches only
// 2,000 keys, and the partition keys stay far below that. A shard whose
// text passes FlushBytes is emitted in several tables.
//
// The parts of a partition are summed by CombinePerKey with counts.Merge,
// which is exact, associative and commutative, so however the runner
// groups and orders them (combiner lifting, bundles, retries of whole
// bundles) the sum is the same bits. Each merged partition holds the
// classes and documents of the whole corpus and a disjoint set of terms;
// the write step joins them term by term (counts.Concat), which checks
// that the P headers agree and that no term is in two of them. The file written is, byte for byte, what
// 'nbtext count' writes for the same documents and settings, less the
// record of its inputs (a digest of each input's documents, which
// 'nbtext count' adds and 'nbtext merge' checks for overlaps): files read
// in byte ranges have no single pass to digest them.
//
// Weightings that need the corpus's document frequencies (tf-idf, the l2
// norm) count in two rounds, as 'nbtext count --vocab' does: Run runs the
// pipeline twice when a model is asked for, the second time over the
// vocabulary of the first round's counts.
package nbbeam
