// Package predict owns streaming prediction: it frames documents out of a
// stream or a plain file, decompressed when gzip, zstd or bzip2 (one per line, the whole stream, JSONL objects, or
// NUL-separated records; CSV, TSV and fastText records as train reads
// them, their labels never read as text: Fields, Stats.Labelled) or takes them from folders and archives (one per
// file), vectorizes and scores them on all cores, and writes one result per
// document in input order as text, TSV or JSON lines.
//
// Conventions:
//   - One answer per document, always: a document that cannot be read (one
//     larger than Options.MaxDocBytes, or with NUL bytes: a line, a file
//     read whole, a file of a folder or archive) is answered with "?" (TSV: an empty label; JSON: an empty
//     label and an "error" field) and reported to Options.Warn, so answers
//     never shift against their inputs.
//   - Memory is bounded whatever the input length: at most a fixed number of
//     batches are in flight, no document larger than Options.MaxDocBytes is
//     held (files and archive members over it are not read), and the rest of
//     an oversized record is skipped, at most 64 MiB: a stream whose record
//     goes on past that (cat /dev/zero) ends with an error naming its line.
//   - Only stdin may be a device or a pipe: a path that is neither a folder
//     nor a regular file is refused before anything is read.
//   - Output order is input order. Output is flushed whenever every document
//     read so far has been answered, so 'tail -f log | nbtext predict' answers
//     each line as it arrives, while a fast producer still gets batched
//     writes.
//   - A batch is sent to the workers when it holds 256 documents or 1 MiB
//     of text, or when the reader would have to wait for input (its buffer
//     holds no complete record), so a slow producer never waits for a batch
//     to fill, even when its writes end inside a record.
//   - A stream of short lines costs no allocation per line: the reader
//     copies each record's bytes into its batch, workers decode them in
//     place, and batches are recycled through a sync.Pool.
//   - Empty documents are predicted from the model's B (the prior for NB) and
//     flagged; bytes that are not UTF-8 are read as latin-1; nothing panics.
//   - A model trained with --remove headers strips headers from whole
//     documents (doc, nul, jsonl, files) but not from single lines, which
//     have none: stripping would empty them.
//
// Options.ForModel completes the options from the model: the input names
// it was trained with, its record fields, label thresholds and costs.
// Request.Check refuses a request before the model is read; Predictor.Run
// answers the arguments (or standard input) and Stats.Check turns what
// the run saw into its errors and notes (run.go).
//
// It does not fit models or compute metrics (see internal/eval).
package predict
