package corpus

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Document is one labelled text. ID is its path inside the source (or
// "file:line" for line-oriented sources); Label is its class name, empty when
// the source carries none.
//
// Labels and Fields are set only on request. With Options.MultiLabel every
// record of a line format carries all its labels in Labels (one or more,
// each once, in source order) and Label is the first of them; otherwise
// Labels is nil. Fields holds the raw values of the columns or keys named
// in Options.ExtraFields (CSV, TSV with a header, JSONL): a JSON number or
// boolean as its JSON text, a string as is; a missing key, a JSON null and
// an empty cell are absent keys. Fields is nil when ExtraFields is empty.
type Document struct {
	ID     string
	Label  string
	Text   string
	Labels []string
	Fields map[string]string
}

// Remove is a set of parts of a 20 Newsgroups post to strip, with the meaning
// of scikit-learn's fetch_20newsgroups(remove=...).
type Remove uint8

// The parts Remove can name; see Strip for their exact meaning.
const (
	RemoveHeaders Remove = 1 << iota // everything up to the first blank line
	RemoveFooters                    // a trailing signature block
	RemoveQuotes                     // quoted lines ("> ...", "... writes:")
)

// ParseRemove parses a comma-separated list such as "headers,footers,quotes".
func ParseRemove(s string) (Remove, error) {
	var r Remove
	for _, part := range strings.Split(s, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case "headers":
			r |= RemoveHeaders
		case "footers":
			r |= RemoveFooters
		case "quotes":
			r |= RemoveQuotes
		default:
			return 0, fmt.Errorf("unknown part %q to remove (want headers, footers or quotes)", part)
		}
	}
	return r, nil
}

// String returns the canonical comma-separated form of r.
func (r Remove) String() string {
	var parts []string
	if r&RemoveHeaders != 0 {
		parts = append(parts, "headers")
	}
	if r&RemoveFooters != 0 {
		parts = append(parts, "footers")
	}
	if r&RemoveQuotes != 0 {
		parts = append(parts, "quotes")
	}
	return strings.Join(parts, ",")
}

// Options select what Read takes from a source.
type Options struct {
	// Split picks the split folder of a bydate-style tree, at the top or
	// one level below a wrapping folder: "train" matches a folder named
	// "*-train" or "train", "test" likewise (any other name the same way). Empty reads a plain tree, or a bydate tree with a
	// single split folder; a tree with both train and test folders is then
	// an error that says to pass --split. Split is an error for sources
	// without split folders (plain trees, record files).
	Split string
	// Format forces the source format: "auto" (default), "dir", "tar",
	// "tsv", "csv", "jsonl" or "fasttext" (see Formats). Auto goes by the
	// name, then by the first bytes (see the package documentation).
	Format string
	// LabelPrefix marks labels in fastText lines ("" means
	// DefaultLabelPrefix).
	LabelPrefix string
	// LabelField and TextFields name the label column and the text
	// columns of CSV, TSV with a header and JSONL (empty: "label" and
	// "text"). Several text fields are joined with a newline. A TSV file
	// without a header row can only be read with the default names.
	LabelField string
	TextFields []string
	// ExtraFields names further columns or keys whose raw values go to
	// Document.Fields; an error for formats without named fields.
	ExtraFields []string
	// Header says the first row of a TSV file is a header row. Without it
	// the first row is a header when its fields name the label and text
	// fields; CSV always has a header row.
	Header bool
	// MultiLabel accepts several labels on one record (fastText lines with
	// several labels, a JSON array, a field split by LabelSep) and fills
	// Document.Labels. Without it such a record is an error naming it.
	MultiLabel bool
	// LabelSep, when set, splits a label field into several labels.
	LabelSep string
	// MaxDocBytes bounds one document: a file of a tree, an archive
	// member, a line or CSV record (0: DefaultMaxDocBytes). A larger one is
	// an error ("x.tsv:3: document larger than N bytes"), never read whole.
	MaxDocBytes int
	// Remove strips headers, footers and quotes from each document.
	Remove Remove
	// Classes keeps only documents whose label is in the list (nil: all).
	// A class that does not occur in the source is an error.
	Classes []string
	// Warn receives a message per skipped input (a document file with NUL
	// bytes; one summary for the files outside the label folders and an
	// unsup folder). Nil ignores them.
	Warn func(msg string)
	// Progress, when set, is called as reading advances, from one
	// goroutine at a time: done and total are bytes as read (compressed)
	// for archives and record files, documents for folders. total is 0
	// while unknown (streams); the last call has done == total. Nil
	// reports nothing.
	Progress func(done, total int)
	// DropTexts, for ReadStream, keeps no text: each one goes to emit
	// and the corpus returned has documents with empty Text (IDs, labels
	// and fields stay). A consumer that needs nothing but what emit gets
	// (fitting a vocabulary and its count matrix) so holds no copy of
	// the corpus, and an archive's texts become garbage as soon as they
	// are tokenized. Read and ReadFrom ignore it.
	DropTexts bool
	// Transient, for Stream and StreamFrom, lets the strings of a
	// document of a TSV (without a header row) or fastText file, its ID,
	// Label and Text, share the reader's buffers: they are valid only
	// until fn returns, and fn copies what it keeps. Such a stream
	// allocates nothing per line, so a consumer that copies the text into
	// memory of its own (counts.Counter.Add) leaves the collector no
	// garbage. Read, ReadFrom, ReadStream and Walk ignore it.
	Transient bool
	// Room, when set, is called by Walk and Stream with the size of each
	// archive member before its content is read: a consumer that bounds
	// the bytes of the documents it holds (package inflight) waits there
	// until the member fits beside them, so that a huge member is read
	// once the documents before it are done with, not beside them. An
	// error stops the reading and is returned as is.
	Room func(size int64) error
	// at is the regular file a stream of lines is read from, from its
	// start and uncompressed, set by streamSource on its copy of the
	// options (lineReader.at).
	at io.ReaderAt
	// shared is Transient where it applies: set by streamRecords on its
	// copy of the options, read by the line parsers.
	shared bool
}

// DefaultMaxDocBytes is the default of Options.MaxDocBytes: 256 MiB, as
// for nbtext predict.
const DefaultMaxDocBytes = 256 << 20

// DefaultLabelPrefix is the default of Options.LabelPrefix, fastText's.
const DefaultLabelPrefix = "__label__"

// maxDoc returns the document size bound.
func (o *Options) maxDoc() int {
	if o.MaxDocBytes > 0 {
		return o.MaxDocBytes
	}
	return DefaultMaxDocBytes
}

// prefix returns the fastText label prefix.
func (o *Options) prefix() string {
	if o.LabelPrefix != "" {
		return o.LabelPrefix
	}
	return DefaultLabelPrefix
}

// tooLarge is the error of a document over the size bound; where names it
// ("x.tsv:3" or a path).
func tooLarge(where string, max int) error {
	return fmt.Errorf("%s: document larger than %d bytes (raise --max-doc-bytes)", where, max)
}

// warn reports msg through o.Warn when it is set.
func (o *Options) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// Corpus is a labelled document collection in a deterministic order.
type Corpus struct {
	Source string     // the path it was read from ("-" for stdin)
	Docs   []Document // in source order: folder trees sorted by label, then by name
	Labels []string   // the distinct labels, sorted
}

// LabelIDs returns, for each document, the index of its label in c.Labels
// (of Label, the first label of a multi-label document).
func (c *Corpus) LabelIDs() []int {
	idx := make(map[string]int, len(c.Labels))
	for i, l := range c.Labels {
		idx[l] = i
	}
	ids := make([]int, len(c.Docs))
	for i, d := range c.Docs {
		ids[i] = idx[d.Label]
	}
	return ids
}

// LabelSets returns each document's labels (its Label when the reader
// gave no Labels) and the sorted set of all of them.
func (c *Corpus) LabelSets() (sets [][]string, labels []string) {
	seen := map[string]bool{}
	sets = make([][]string, len(c.Docs))
	for i, d := range c.Docs {
		sets[i] = d.Labels
		if sets[i] == nil && d.Label != "" {
			sets[i] = []string{d.Label}
		}
		for _, l := range sets[i] {
			if !seen[l] {
				seen[l] = true
				labels = append(labels, l)
			}
		}
	}
	slices.Sort(labels)
	return sets, labels
}

// DropTexts empties the text of every document and keeps the rest (IDs,
// labels, fields): for a caller that has vectorized the texts and is about
// to allocate a model, so that the collector can free them.
func (c *Corpus) DropTexts() {
	for i := range c.Docs {
		c.Docs[i].Text = ""
	}
}

// Texts returns the documents' texts in order.
func (c *Corpus) Texts() []string {
	t := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		t[i] = d.Text
	}
	return t
}
