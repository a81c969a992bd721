package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// inputFormats are the values of --input-format (shell completion too).
var inputFormats = corpus.Formats

// corpusOptions select the labelled documents a command reads.
type corpusOptions struct {
	fs          *pflag.FlagSet
	split       string
	inputFormat string
	remove      string
	classes     []string
	labelPrefix string
	labelField  string
	textFields  []string
	header      bool
	maxDocBytes int
	// defaultNoticed is set once the notice that no corpus was given and
	// the cached one is read has been printed (compare reads it twice).
	defaultNoticed bool
	// Set by commands, not flags: the record fields to read
	// (corpus.Options.ExtraFields), multi-label reading, and text columns
	// standing in when --text-field is not given (see records.go).
	extra       []string
	multiLabel  bool
	labelSep    string
	defaultText []string
	// namedByModel: the label and text names came from a model file
	// (useModelNames), as if given.
	namedByModel bool
	// holds, when not empty, names the command that holds every document
	// in memory (eval --cv, compare, --auto): loadCorpus then refuses a
	// corpus that would not fit the memory budget mem (--mem).
	holds, mem string
}

// inputNames returns the label and text names the user gave (nil when
// all are the defaults), for the model to record (model.Meta.Input).
func (o *corpusOptions) inputNames() *model.InputNames {
	if o.fs == nil || o.fs.Lookup("label-field") == nil {
		return nil
	}
	var n model.InputNames
	if o.fs.Changed("label-field") {
		n.LabelField = o.labelField
	}
	if o.fs.Changed("text-field") {
		n.TextFields = slices.Clone(o.textFields)
	}
	if o.fs.Changed("label-prefix") {
		n.LabelPrefix = o.labelPrefix
	}
	if n.LabelField == "" && n.TextFields == nil && n.LabelPrefix == "" {
		return nil
	}
	return &n
}

// useModelNames reads the corpus with the label and text names m was
// trained with (model.Meta.Input), where the flags do not name others.
func (o *corpusOptions) useModelNames(m *model.Model) {
	in := m.Meta.Input
	if in == nil || o.fs == nil || o.fs.Lookup("label-field") == nil {
		return
	}
	if in.LabelField != "" && !o.fs.Changed("label-field") {
		o.labelField, o.namedByModel = in.LabelField, true
	}
	if len(in.TextFields) > 0 && !o.fs.Changed("text-field") {
		o.textFields, o.namedByModel = slices.Clone(in.TextFields), true
	}
	if in.LabelPrefix != "" && !o.fs.Changed("label-prefix") {
		o.labelPrefix = in.LabelPrefix
	}
}

func (o *corpusOptions) AddFlags(fs *pflag.FlagSet) {
	o.AddSubsetFlags(fs)
	fs.StringVar(&o.split, "split", "", "split folder to read, train or test, also one level below a top folder (aclImdb/train) (default: the command's natural split for the 20 Newsgroups cache)")
	o.AddFormatFlags(fs)
}

// AddFormatFlags adds the flags that say how a file is read: its format,
// label prefix, fields, header row and document size bound.
func (o *corpusOptions) AddFormatFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.inputFormat, "input-format", "auto", "corpus format: auto (by name, then first bytes), "+strings.Join(inputFormats[1:], ", "))
	fs.StringVar(&o.labelPrefix, "label-prefix", corpus.DefaultLabelPrefix, "fasttext: the prefix that marks a label")
	fs.StringVar(&o.labelField, "label-field", "label", "csv, tsv with a header, jsonl: the label column or key")
	fs.StringSliceVar(&o.textFields, "text-field", []string{"text"}, "csv, tsv with a header, jsonl: the text column(s) or key(s), comma-separated; several are joined with a newline")
	fs.BoolVar(&o.header, "header", false, "tsv: the first row is a header row (detected without this flag when it names --label-field and --text-field)")
	fs.IntVar(&o.maxDocBytes, "max-doc-bytes", corpus.DefaultMaxDocBytes, "refuse a document (file, archive member, line or record) larger than this")
}

// AddSubsetFlags adds only --remove and --classes, for commands that choose
// the split themselves (compare reads both splits).
func (o *corpusOptions) AddSubsetFlags(fs *pflag.FlagSet) {
	o.fs = fs
	o.inputFormat = "auto"
	fs.StringVar(&o.remove, "remove", "", "strip parts of each post: headers,footers,quotes (as scikit-learn's fetch_20newsgroups)")
	fs.StringSliceVar(&o.classes, "classes", nil, "keep only these labels (comma-separated), e.g. sci.crypt,comp.graphics")
}

// options validates the flags and returns corpus.Options
// (corpus.Flags.Options).
func (o *corpusOptions) options() (corpus.Options, error) {
	framing := o.fs != nil && o.fs.Lookup("label-field") != nil
	f := corpus.Flags{Split: o.split, Format: o.inputFormat, Remove: o.remove, Classes: o.classes, Framing: framing,
		LabelPrefix: o.labelPrefix, LabelField: o.labelField, TextFields: o.textFields, Header: o.header, MaxDocBytes: o.maxDocBytes,
		LabelNamed:  framing && (o.fs.Changed("label-field") || o.namedByModel),
		TextNamed:   framing && (o.fs.Changed("text-field") || o.namedByModel),
		ExtraFields: o.extra, MultiLabel: o.multiLabel, LabelSep: o.labelSep, DefaultText: o.defaultText}
	opts, err := f.Options()
	return opts, withCode(exitUsage, err)
}

// vectorizeOptions are the tokenizer, pruning and weighting flags shared by
// vocab and train. Only flags the user set (on the command line, in the
// environment or in the config file) override the defaults of the model
// (vectorize.Settings.Override, which maps each flag to its setting).
type vectorizeOptions struct {
	fs    *pflag.FlagSet
	names []string // the flags addFlags added
}

func (o *vectorizeOptions) AddFlags(fs *pflag.FlagSet) {
	o.addFlags(fs, false)
}

// AddModelFlags adds the same flags for commands where each model has its
// own defaults (train, eval --cv): weighting and norm then default to the
// model's.
func (o *vectorizeOptions) AddModelFlags(fs *pflag.FlagSet) {
	o.addFlags(fs, true)
}

func (o *vectorizeOptions) addFlags(fs *pflag.FlagSet, perModel bool) {
	d := vectorize.DefaultSettings()
	wHelp, nHelp, sHelp := "feature values: binary, count or tfidf", "row normalisation after weighting: l2 or none", "tf-idf: replace tf by 1+ln(tf)"
	fHelp := "header fields whose words also count as terms of their own, NAME[:WEIGHT],... (e.g. subject:2; none to turn off)"
	if perModel {
		d.Weighting, d.Norm = "", ""
		wHelp += " (default: the model's)"
		nHelp += " (default: the model's)"
		sHelp += " (default: the model's)"
		fHelp += " (default: the model's)"
	}
	o.fs = fs
	o.names = addedFlags(fs, func(fs *pflag.FlagSet) {
		fs.Bool("lowercase", d.Lowercase, "fold text to lower case before tokenizing")
		fs.String("stop-words", d.StopWords, "stop word list to drop: english, or empty for none")
		fs.String("ngram", "1,1", fmt.Sprintf("word n-gram range MIN,MAX, MAX ≤ %d (e.g. 1,2 for unigrams and bigrams)", vectorize.MaxNGram))
		fs.Int("min-df", d.MinDF, "drop terms found in fewer documents than this")
		fs.Float64("max-df", d.MaxDF, "drop terms found in more than this fraction of documents")
		fs.Int("max-features", d.MaxFeatures, "keep only the N terms of highest document frequency (0: all)")
		fs.String("select", d.Select, "keep the K terms of highest mutual information with the class: mi:K")
		fs.String("weighting", d.Weighting, wHelp)
		fs.Bool("sublinear-tf", d.Sublinear, sHelp)
		fs.String("norm", d.Norm, nHelp)
		fs.String("fields", d.Fields, fHelp)
		fs.Int("hash-bits", d.HashBits, fmt.Sprintf("feature hashing: count terms in 2^B buckets, B in 1..%d, so the model size is fixed (0: a vocabulary of terms)", vectorize.MaxHashBits))
		// The analyzer (vectorize.Analysis): which text becomes which
		// terms. See docs/languages.md.
		fs.String("analyzer", "word", "terms: word (words, see --token-pattern), char (character n-grams of the text) or char_wb (character n-grams inside words padded with a space), as scikit-learn's")
		fs.String("char-ngram", vectorize.DefaultCharNGram, fmt.Sprintf("--analyzer char, char_wb: character n-gram range MIN,MAX, MAX ≤ %d", vectorize.MaxCharNGram))
		fs.String("subwords", "none", "word analyzer: each word w also gives the character n-grams of \"<w>\" of MIN,MAX characters as terms of their own (fastText's -minn/-maxn), e.g. 3,5; none for none")
		fs.Bool("cjk-bigrams", d.CJKBigrams, "word analyzer: a run of Han, Hiragana, Katakana, Hangul or Thai characters gives its overlapping character bigrams, as Lucene's CJK analyzer (false: one token per run)")
		fs.String("unicode-norm", orNone(d.Normalize), "Unicode normalisation before tokenizing (--normalize of eval is the confusion matrix): nfkc (full-width and compatibility forms to their plain ones) or none")
		fs.Bool("case-fold", d.CaseFold, "with --lowercase, fold case fully (Unicode case folding: ß → ss) instead of Python's str.lower")
		fs.Bool("strip-accents", d.StripAccents, "remove accents after lower-casing, as scikit-learn's strip_accents='unicode' (NFKD, drop combining marks)")
		fs.String("token-pattern", "", "word analyzer: the tokens are the matches of this regular expression (Go RE2 syntax; \\w is ASCII there, use [\\pL\\pN_] for any script; one capturing group: the group), instead of scikit-learn's (?u)\\b\\w\\w+\\b")
	})
}

// softMinDF reports whether --min-df was left to its default, which a
// corpus too small for it may lower (fitCorpus).
func (o *vectorizeOptions) softMinDF() bool { return !o.fs.Changed("min-df") }

// apply overrides the settings of s whose flags were set, then validates.
func (o *vectorizeOptions) apply(s *vectorize.Settings) error {
	return withCode(exitUsage, s.Override(changedValues(o.fs, o.names)))
}

// changedValues returns, by name, the values of the flags of names that
// were set.
func changedValues(fs *pflag.FlagSet, names []string) map[string]string {
	given := map[string]string{}
	for _, name := range names {
		if f := fs.Lookup(name); f != nil && f.Changed {
			given[name] = f.Value.String()
		}
	}
	return given
}

// changedRemove reports whether --remove was set by the user.
func (o *corpusOptions) changedRemove() bool { return o.fs != nil && o.fs.Changed("remove") }

// removeSetting returns --remove in canonical form, as vectorize.Settings
// records it ("" for nothing removed).
func (o *corpusOptions) removeSetting() (string, error) {
	opts, err := o.options()
	if err != nil {
		return "", err
	}
	return opts.Remove.String(), nil
}
