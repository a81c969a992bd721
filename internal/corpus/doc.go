// Package corpus reads labelled text collections into memory: the first
// stage of nbtext, before vectorize turns texts into term ids.
//
// # What it owns
//
//   - Readers for every source: a folder tree ROOT/<label>/<doc>; the
//     bydate tree ROOT/<split>/<label>/<doc>, where a split folder is named
//     train, test, *-train or *-test and Options.Split picks one; a tar
//     archive of either tree, streamed and never unpacked to disk; record
//     files: TSV (label<TAB>text per line, or columns under a header row),
//     CSV (RFC 4180, header row required, read with encoding/csv), JSONL
//     (one object per line) and fastText lines ("__label__X text");
//     standard input (ReadFrom). Archives and record files may be
//     compressed with gzip, zstd or bzip2, found by their magic bytes
//     (Decompress does the same for other packages). Read returns a whole
//     Corpus; ReadStream returns the same and, while reading, hands each
//     decoded text to a consumer (vectorize.FitStream) so that
//     decompressing and tokenizing overlap; Stream gives Read's documents
//     one at a time in bounded memory (archives in member order, read
//     twice: names, then texts); Walk streams unlabelled documents, one
//     per file, for prediction.
//   - Format detection: Options.Format when forced; else a folder is a
//     tree, and a file goes by its name without a compression suffix
//     (.tar, .tgz: tar; .tsv, .tab: TSV; .csv: CSV; .jsonl, .ndjson:
//     JSONL); else by its first bytes after decompression: a tar header,
//     then the first non-blank line: "{" is JSONL, the label prefix
//     fastText, a tab TSV, a comma CSV. A .txt file and standard input
//     that show none of these are TSV; another file is an error asking for
//     --input-format.
//   - Records: Options.LabelField and TextFields name the columns or keys
//     (defaults "label", "text"; several text fields are joined with a
//     newline). A CSV file's first record is its header row. A TSV file's
//     first row is a header row when Options.Header says so or when it
//     names the label and text fields; a first row naming some of them
//     but not all is an error, so a header is never read as a class, and
//     only the default names read a TSV file without a header. A JSON label
//     may be a string, a number or a boolean (taken as its JSON text: 1,
//     true) or an array of them.
//   - Labels: a byte-order mark and surrounding white space are removed;
//     an empty label, or one holding a tab, line break or NUL, is an error
//     naming file and line. A record with several labels (fastText labels,
//     a JSON array, a field split by Options.LabelSep) is an error unless
//     Options.MultiLabel is set; then Document.Labels holds them all, each
//     once, and Label the first. Options.ExtraFields copies further raw
//     values into Document.Fields (see Document).
//   - Bounds: one document (a tree file, an archive member, a line, a CSV
//     record) is at most Options.MaxDocBytes (DefaultMaxDocBytes, 256 MiB);
//     a larger one is an error ("x.tsv:3: document larger than N bytes")
//     met as soon as the bound is passed, and a NUL byte in a long line
//     fails at once, so an endless stream (cat /dev/zero) never grows
//     memory. A long line is held once (pieces joined at the end), so an
//     endless one costs about the bound; encoding/csv copies a record while
//     parsing it, so an endless CSV record may cost up to four times the
//     bound before it fails. A path that is neither a folder nor a regular file (a device,
//     a FIFO) is refused; standard input is read only as "-".
//   - Decoding: a document's bytes are its text when they are valid UTF-8,
//     else they are latin-1 (one byte, one rune), as scikit-learn reads
//     20 Newsgroups. Nothing else is touched: "\r" stays (tokenizers treat
//     it as white space), and so do tabs and form feeds.
//   - Header, footer and quote stripping with exactly the meaning of
//     scikit-learn's fetch_20newsgroups(remove=...) (see Strip).
//   - Splits and subsets: the split folders of a bydate tree, the class
//     filter (Options.Classes), stratified k-fold splits (StratifiedKFold,
//     Complement), stratified subsets (StratifiedSubset) and samples of n
//     documents per class with the rest (PerClass: train --per-class).
//   - Where the default corpus lives (DefaultPath, FindDefault).
//
// It does not tokenize, count or weigh anything: that is vectorize.
//
// # Conventions
//
// Order is deterministic and independent of the file system and the
// archive: tree documents are sorted by label, then by file name (byte
// order); record files keep their record order; Corpus.Labels is sorted
// (with Options.MultiLabel it holds every label of every record). Document
// IDs are the path inside the source for trees
// ("20news-bydate-train/sci.crypt/15234") and "FILE:LINE" for record files
// (FILE as given, "stdin" for standard input; LINE a CSV record's first).
//
// A tree may sit inside one wrapping folder (archives made with
// "tar czf x.tgz corpus/"), which may also hold files beside its split
// folders (the aclImdb layout: aclImdb/README beside aclImdb/train).
// Hidden names (starting with ".") are skipped. Files that are not in a
// label folder, and a label folder named "unsup" (unlabelled documents, as
// in aclImdb/train/unsup), are skipped with one summary warning; naming
// "unsup" in Options.Classes reads it as a class. Folders inside label
// folders are skipped with a warning each. A tree holding both a train and
// a test folder needs Options.Split. To read only the train half of an
// archive the reader stops at the first member past the train folder, so
// it assumes, as every tar writer does, that a folder's members are stored
// together.
//
// Errors are lower case and name the path, and for record files the line
// ("data.tsv:17: missing tab between label and text"; for CSV the first
// line of the record); causes are wrapped
// with %w (errors.Is(err, fs.ErrNotExist) works for a missing path). Bad
// input never panics. A missing path, an empty folder or archive, a label
// folder without documents, an unreadable file, a corrupt or truncated
// archive, an unknown class and an empty result are errors. A document file
// with NUL bytes is not text: it is skipped with exactly one warning naming
// it, through Options.Warn. In record files, where one record is one
// document, a NUL byte is an error naming the line.
//
// # Speed
//
// Folders are read by a few goroutines at once with plain system calls and
// kept in order. Archives are gunzipped with klauspost/compress on their own
// goroutine, overlapping tar parsing and decoding; with Split "train" the
// 20 Newsgroups archive is decompressed only up to the end of its train
// half. Decoding valid UTF-8 costs one scan and the one copy of the string
// conversion. Gunzip is the one step that cannot be spread over cores (the
// 20 Newsgroups train half takes about 0.18 s); ReadStream lets the other
// cores tokenize what is already decoded meanwhile, instead of idling
// until the last member.
package corpus
