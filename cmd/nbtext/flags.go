package main

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
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

// options validates the flags and returns corpus.Options.
func (o *corpusOptions) options() (corpus.Options, error) {
	rm, err := corpus.ParseRemove(o.remove)
	if err != nil {
		return corpus.Options{}, usageErrorf("--remove: %v", err)
	}
	switch o.split {
	case "", "train", "test":
	default:
		return corpus.Options{}, usageErrorf("--split must be train or test, got %q", o.split)
	}
	if !slices.Contains(inputFormats, o.inputFormat) {
		return corpus.Options{}, usageErrorf("--input-format must be one of %s, got %q", strings.Join(inputFormats, ", "), o.inputFormat)
	}
	opts := corpus.Options{Split: o.split, Format: o.inputFormat, Remove: rm, Classes: o.classes,
		LabelPrefix: o.labelPrefix, Header: o.header, MaxDocBytes: o.maxDocBytes,
		ExtraFields: o.extra, MultiLabel: o.multiLabel, LabelSep: o.labelSep, TextFields: o.defaultText}
	if o.fs != nil && o.fs.Lookup("label-field") != nil {
		switch {
		case strings.TrimSpace(o.labelPrefix) == "":
			return corpus.Options{}, usageErrorf("--label-prefix must not be empty")
		case strings.TrimSpace(o.labelField) == "":
			return corpus.Options{}, usageErrorf("--label-field must not be empty")
		case o.maxDocBytes < 1:
			return corpus.Options{}, usageErrorf("--max-doc-bytes must be ≥ 1, got %d", o.maxDocBytes)
		}
		// Only names the user chose make a header row required.
		if o.fs.Changed("label-field") || o.namedByModel {
			opts.LabelField = o.labelField
		}
		if o.fs.Changed("text-field") || o.namedByModel {
			for _, t := range o.textFields {
				if strings.TrimSpace(t) == "" {
					return corpus.Options{}, usageErrorf("--text-field must not name an empty field")
				}
			}
			opts.TextFields = o.textFields
		}
	}
	return opts, nil
}

// vectorizeOptions are the tokenizer, pruning and weighting flags shared by
// vocab and train. Only flags the user set (on the command line, in the
// environment or in the config file) override the defaults of the model.
type vectorizeOptions struct {
	fs          *pflag.FlagSet
	lowercase   bool
	stopWords   string
	ngram       string
	minDF       int
	maxDF       float64
	maxFeatures int
	sel         string
	weighting   string
	sublinear   bool
	norm        string
	fields      string
	hashBits    int
	analysis    analysisOptions
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
	if perModel {
		d.Weighting, d.Norm = "", ""
		wHelp += " (default: the model's)"
		nHelp += " (default: the model's)"
		sHelp += " (default: the model's)"
	}
	o.fs = fs
	fs.BoolVar(&o.lowercase, "lowercase", d.Lowercase, "fold text to lower case before tokenizing")
	fs.StringVar(&o.stopWords, "stop-words", d.StopWords, "stop word list to drop: english, or empty for none")
	fs.StringVar(&o.ngram, "ngram", "1,1", fmt.Sprintf("word n-gram range MIN,MAX, MAX ≤ %d (e.g. 1,2 for unigrams and bigrams)", vectorize.MaxNGram))
	fs.IntVar(&o.minDF, "min-df", d.MinDF, "drop terms found in fewer documents than this")
	fs.Float64Var(&o.maxDF, "max-df", d.MaxDF, "drop terms found in more than this fraction of documents")
	fs.IntVar(&o.maxFeatures, "max-features", d.MaxFeatures, "keep only the N terms of highest document frequency (0: all)")
	fs.StringVar(&o.sel, "select", d.Select, "keep the K terms of highest mutual information with the class: mi:K")
	fs.StringVar(&o.weighting, "weighting", d.Weighting, wHelp)
	fs.BoolVar(&o.sublinear, "sublinear-tf", d.Sublinear, sHelp)
	fs.StringVar(&o.norm, "norm", d.Norm, nHelp)
	fHelp := "header fields whose words also count as terms of their own, NAME[:WEIGHT],... (e.g. subject:2; none to turn off)"
	if perModel {
		fHelp += " (default: the model's)"
	}
	fs.StringVar(&o.fields, "fields", d.Fields, fHelp)
	fs.IntVar(&o.hashBits, "hash-bits", d.HashBits, fmt.Sprintf("feature hashing: count terms in 2^B buckets, B in 1..%d, so the model size is fixed (0: a vocabulary of terms)", vectorize.MaxHashBits))
	o.analysis.addFlags(fs, d)
}

// softMinDF reports whether --min-df was left to its default, which a
// corpus too small for it may lower (fitCorpus).
func (o *vectorizeOptions) softMinDF() bool { return !o.fs.Changed("min-df") }

// apply overrides the fields of s whose flags were set, then validates.
func (o *vectorizeOptions) apply(s *vectorize.Settings) error {
	changed := func(name string) bool { return o.fs.Changed(name) }
	if changed("lowercase") {
		s.Lowercase = o.lowercase
	}
	if changed("stop-words") {
		s.StopWords = o.stopWords
	}
	if changed("ngram") {
		lo, hi, err := parseRange(o.ngram)
		if err != nil {
			return usageErrorf("--ngram: %v", err)
		}
		s.NGramMin, s.NGramMax = lo, hi
	}
	if changed("min-df") {
		s.MinDF = o.minDF
	}
	if changed("max-df") {
		s.MaxDF = o.maxDF
	}
	if changed("max-features") {
		s.MaxFeatures = o.maxFeatures
	}
	if changed("select") {
		s.Select = o.sel
	}
	if changed("weighting") {
		s.Weighting = o.weighting
	}
	if changed("sublinear-tf") {
		s.Sublinear = o.sublinear
	}
	if changed("norm") {
		s.Norm = o.norm
	}
	if changed("fields") {
		s.Fields = o.fields
		if strings.EqualFold(strings.TrimSpace(s.Fields), "none") {
			s.Fields = ""
		}
	}
	if changed("hash-bits") {
		s.HashBits = o.hashBits
		if s.HashBits > 0 && !changed("max-features") {
			// A model's default cap on its terms (train.Defaults) bounds
			// a vocabulary that grows with the corpus; hashing fixes the
			// model's size itself, at 2^B buckets.
			s.MaxFeatures = 0
		}
	}
	if err := o.analysis.apply(s, changed); err != nil {
		return err
	}
	if err := s.Validate(); err != nil {
		return &codedError{exitUsage, err}
	}
	return nil
}

// parseRange parses "MIN,MAX" or a single "N" (meaning N,N).
func parseRange(s string) (int, int, error) {
	parts := strings.Split(s, ",")
	if len(parts) > 2 {
		return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
	}
	lo, err := strconv.Atoi(strings.TrimSpace(parts[0]))
	if err != nil {
		return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
	}
	hi := lo
	if len(parts) == 2 {
		if hi, err = strconv.Atoi(strings.TrimSpace(parts[1])); err != nil {
			return 0, 0, fmt.Errorf("want MIN,MAX, got %q", s)
		}
	}
	if lo < 1 || hi < lo {
		return 0, 0, fmt.Errorf("want 1 ≤ MIN ≤ MAX, got %q", s)
	}
	return lo, hi, nil
}

// changedRemove reports whether --remove was set by the user.
func (o *corpusOptions) changedRemove() bool { return o.fs != nil && o.fs.Changed("remove") }

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// removeSetting returns --remove in canonical form, as vectorize.Settings
// records it ("" for nothing removed).
func (o *corpusOptions) removeSetting() (string, error) {
	opts, err := o.options()
	if err != nil {
		return "", err
	}
	return opts.Remove.String(), nil
}
