// Package corpus reads labelled text collections into memory: the first
// stage of nbtext, before vectorize turns texts into term ids.
//
// # What it owns
//
//   - Readers for every source: a folder tree ROOT/<label>/<doc>; the
//     20 Newsgroups "bydate" tree ROOT/<split>/<label>/<doc>, where a split
//     folder is named train, test, *-train or *-test and Options.Split picks
//     one; a .tar.gz, .tgz or .tar archive of either tree, streamed and
//     never unpacked to disk; TSV (label<TAB>text per line); JSONL
//     ({"label": ..., "text": ...} per line); standard input (ReadFrom).
//     Read returns a whole Corpus; ReadStream returns the same and, while
//     reading, hands each decoded text to a consumer (vectorize.FitStream)
//     so that decompressing and tokenizing overlap; Walk streams unlabelled
//     documents, one per file, for prediction.
//   - Decoding: a document's bytes are its text when they are valid UTF-8,
//     else they are latin-1 (one byte, one rune), as scikit-learn reads
//     20 Newsgroups. Nothing else is touched: "\r" stays (tokenizers treat
//     it as white space), and so do tabs and form feeds.
//   - Header, footer and quote stripping with exactly the meaning of
//     scikit-learn's fetch_20newsgroups(remove=...) (see Strip).
//   - Splits and subsets: the split folders of a bydate tree, the class
//     filter (Options.Classes), stratified k-fold splits (StratifiedKFold,
//     Complement) and stratified subsets (StratifiedSubset).
//   - Where the default corpus lives (DefaultPath, FindDefault).
//
// It does not tokenize, count or weigh anything: that is vectorize.
//
// # Conventions
//
// Order is deterministic and independent of the file system and the
// archive: tree documents are sorted by label, then by file name (byte
// order); TSV and JSONL documents keep their line order; Corpus.Labels is
// sorted. Document IDs are the path inside the source for trees
// ("20news-bydate-train/sci.crypt/15234") and "FILE:LINE" for line formats
// (FILE as given, "stdin" for standard input).
//
// A tree may sit inside one wrapping folder (archives made with
// "tar czf x.tgz corpus/"). Hidden names (starting with ".") are skipped.
// Files beside the label folders and folders inside them are skipped with a
// warning. A tree holding both a train and a test folder needs
// Options.Split. To read only the train half of an archive the reader stops
// at the first member past the train folder, so it assumes, as every tar
// writer does, that a folder's members are stored together.
//
// Errors are lower case and name the path, and for TSV and JSONL the line
// ("data.tsv:17: missing tab between label and text"); causes are wrapped
// with %w (errors.Is(err, fs.ErrNotExist) works for a missing path). Bad
// input never panics. A missing path, an empty folder or archive, a label
// folder without documents, an unreadable file, a corrupt or truncated
// archive, an unknown class and an empty result are errors. A document file
// with NUL bytes is not text: it is skipped with exactly one warning naming
// it, through Options.Warn. In TSV and JSONL, where one line is one
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
