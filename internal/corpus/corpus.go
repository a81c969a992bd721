package corpus

import (
	"fmt"
	"strings"
)

// Document is one labelled text. ID is its path inside the source (or
// "file:line" for line-oriented sources); Label is its class name, empty when
// the source carries none.
type Document struct {
	ID    string
	Label string
	Text  string
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
	// Split picks the top folder of a bydate-style tree: "train" matches a
	// folder named "*-train" or "train", "test" likewise (any other name
	// the same way). Empty reads a plain tree, or a bydate tree with a
	// single split folder; a tree with both train and test folders is then
	// an error that says to pass --split. Split is an error for sources
	// without split folders (plain trees, TSV, JSONL).
	Split string
	// Format forces the source format: "auto" (default, by path), "dir",
	// "tar", "tsv" or "jsonl". For stdin ("-") auto means TSV.
	Format string
	// Remove strips headers, footers and quotes from each document.
	Remove Remove
	// Classes keeps only documents whose label is in the list (nil: all).
	// A class that does not occur in the source is an error.
	Classes []string
	// Warn receives one message per skipped input (a document file with NUL
	// bytes, a stray file outside the label folders). Nil ignores them.
	Warn func(msg string)
	// Progress, when set, is called as reading advances, from one
	// goroutine at a time: done and total are compressed bytes for
	// archives, bytes for TSV and JSONL and documents for folders. total is
	// 0 while unknown (streams); the last call has done == total. Nil
	// reports nothing.
	Progress func(done, total int)
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

// LabelIDs returns, for each document, the index of its label in c.Labels.
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

// Texts returns the documents' texts in order.
func (c *Corpus) Texts() []string {
	t := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		t[i] = d.Text
	}
	return t
}
