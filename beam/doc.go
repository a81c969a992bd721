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
//	patterns ─ expand (filesystem.List) ─ reshuffle ─ count one file per element
//	  ─ (partition, part) ─ CombinePerKey(exact merge) ─ group all partitions ─ write
//
// Each input file is a shard. The count DoFn reads it through Beam's
// filesystem packages (local paths, gs://, s3://), counts its documents
// with a counts.Counter in memory, and emits the table as P parts, one
// per term-hash partition (FNV-1a of the term, mod P): every term of a
// part hashes to its partition, and every part carries the file's whole
// header (settings, classes and their documents). It never emits one
// element per token: the Go SDK's lifted combiner caches only 2,000 keys,
// and the partition keys stay far below that. A file whose text passes
// FlushBytes is emitted in several tables, which bounds the DoFn's memory
// by that much text rather than by the file.
//
// The parts of a partition are summed by CombinePerKey with counts.Merge,
// which is exact, associative and commutative, so however the runner
// groups and orders them (combiner lifting, bundles, retries of whole
// bundles) the sum is the same bits. Each merged partition holds the
// classes and documents of the whole corpus and a disjoint set of terms;
// the write step checks that the P headers agree and concatenates the
// terms in ascending order. The file written is, byte for byte, what
// 'nbtext count' writes for the same documents and settings.
//
// Weightings that need the corpus's document frequencies (tf-idf, the l2
// norm) count in two rounds, as 'nbtext count --vocab' does: Run runs the
// pipeline twice when a model is asked for, the second time over the
// vocabulary of the first round's counts.
package nbbeam
