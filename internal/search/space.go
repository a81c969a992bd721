package search

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// KindSpace is one model kind of a search space and the grid of its
// hyperparameter.
type KindSpace struct {
	Kind model.Kind
	// Param is "alpha" (Naive Bayes smoothing; Bernoulli NB's β follows
	// α) or "C" (the inverse regularisation strength of a linear model).
	Param  string
	Values []float64
	// Cost is the relative time of a first fit of a candidate group on
	// unigrams (multinomial NB with its α grid = 1; a kind fitted by
	// optimisation fits its pilot value first); the cheaper are scored
	// first. Word n-grams up to n multiply it by ngramCost(n).
	Cost float64
	// MaxNGram, when not 0, is the longest word n-grams the kind is
	// searched with, whatever the space's NGramMax.
	MaxNGram int
}

// DefaultKinds are the kinds 'train --auto' searches, with grids spanning
// the values that won on either of the two corpora of defaults.go. Word
// trigrams are searched for the linear models alone: on a quarter of the
// IMDB train reviews held out by movie (scripts/holdout-imdb.sh), 1-3
// grams at min_df 2 against 1-2 grams gave NB-LR (C = 0.03) 0.8968
// against 0.8918, the SVM (C = 0.5) 0.8930 against 0.8893, as Mesnil et
// al. (2014) found NBSVM on trigrams ahead of bigrams on the IMDB test
// split (0.9187 against 0.9122); the Naive Bayes kinds gain less from
// longer n-grams than the cost of their wider vocabulary.
var DefaultKinds = []KindSpace{
	{Kind: model.Multinomial, Param: "alpha", Values: []float64{0.03, 0.1, 0.3, 1}, Cost: 1, MaxNGram: 2},
	{Kind: model.Complement, Param: "alpha", Values: []float64{0.1, 0.3, 1, 3}, Cost: 1, MaxNGram: 2},
	{Kind: model.Bernoulli, Param: "alpha", Values: []float64{1e-3, 0.01, 0.1, 1}, Cost: 1.2, MaxNGram: 2},
	{Kind: model.LogReg, Param: "C", Values: []float64{3, 10, 30, 100}, Cost: 2.5},
	{Kind: model.SVM, Param: "C", Values: train.SVMCGrid, Cost: 1.5},
	{Kind: model.NBLR, Param: "C", Values: train.NBLRCGrid, Cost: 2},
}

// Space is the set of candidates: every kind of Kinds with every value of
// its grid, under every combination of the preprocessing dimensions. An
// empty dimension keeps the kind's default.
type Space struct {
	Kinds     []KindSpace
	StopWords []string // "" (none) or "english"
	NGramMax  []int    // word n-grams from 1 to this
	MinDF     []int
	Sublinear []bool   // varied for kinds whose default weighting is tf-idf
	Fields    []string // header field terms: "none" or e.g. "subject:2"
	// Analyzers are character analyzers searched beside the kind's own
	// (word) analyzer, e.g. char_wb 1-3: each with unigram settings only
	// (no word n-grams, stop words or field terms).
	Analyzers []vectorize.Analysis
}

// DefaultSpace returns the space of 'train --auto': DefaultKinds, stop
// words or none, word n-grams up to 1, 2 or 3 (trigrams at min_df 2 or
// more; see minDFs), min_df 1 or 2, sublinear tf or not, and, when
// mailHeaders, the Subject field terms or none; and beside the words,
// character n-grams of 2-4 inside words (char_wb), which serve
// unsegmented scripts, short texts and rich morphology (see
// docs/languages.md).
func DefaultSpace(mailHeaders bool) Space {
	s := Space{
		Kinds:     DefaultKinds,
		StopWords: []string{"", "english"},
		NGramMax:  []int{1, 2, 3},
		MinDF:     []int{1, 2},
		Sublinear: []bool{true, false},
		Fields:    []string{"none"},
		Analyzers: []vectorize.Analysis{{Analyzer: "char_wb", CharMin: 2, CharMax: 4}},
	}
	if mailHeaders {
		s.Fields = []string{"subject:2", "none"}
	}
	return s
}

// HasMailHeaders reports whether most of texts (at least half of the first
// 1000) open with a mail header block that has a Subject field, as news
// posts and e-mails do: the corpora where the field terms can help.
func HasMailHeaders(texts []string) bool {
	n := min(len(texts), 1000)
	if n == 0 {
		return false
	}
	tok := vectorize.NewTokenizer(vectorize.Settings{Lowercase: true, NGramMin: 1, NGramMax: 1, Fields: "subject:1"})
	with := 0
	for _, t := range texts[:n] {
		if hasField(tok, t, "subject:") {
			with++
		}
	}
	return 2*with >= n
}

// hasField reports whether tok gives text a term with the field prefix.
func hasField(tok *vectorize.Tokenizer, text, prefix string) bool {
	// Only the header block can give field terms; the body is not needed.
	if i := strings.Index(text, "\n\n"); i >= 0 {
		text = text[:i]
	}
	for _, term := range tok.Terms(text) {
		if strings.HasPrefix(term, prefix) {
			return true
		}
	}
	return false
}

// Candidate is one point of a space: a kind, its settings and parameters.
type Candidate struct {
	ID    int            // position in the space's order (ties go to the lower)
	Spec  eval.ModelSpec // what to fit
	Param string         // "alpha" or "C"
	Value float64
	// Default is set on a kind's default setting: train.Defaults, as
	// 'nbtext train --model K' fits it. The defaults are scored first.
	Default bool
	cost    float64
	group   int // candidates of one group differ only in Value
	round   int // the group's place among those of its kind and n-gram range
	// A kind fitted by optimisation races one value of its grid first, its
	// pilot (the kind's default value, else the middle one): lead is the
	// pilot of a follower, followers those of a pilot. Naive Bayes
	// candidates race every value, which costs one count.
	lead      *Candidate
	followers []*Candidate
}

// Describe returns the candidate's kind, preprocessing and value in one
// line, e.g. "complement ngram=1,2 stop=none min_df=1 sublinear fields=none alpha=1".
func (c *Candidate) Describe() string {
	return fmt.Sprintf("%s %s %s=%g", c.Spec.Kind, Preprocessing(c.Spec.Settings), c.Param, c.Value)
}

// Preprocessing describes the settings a space varies.
func Preprocessing(s vectorize.Settings) string {
	stop := s.StopWords
	if stop == "" {
		stop = "none"
	}
	fields := s.Fields
	if fields == "" {
		fields = "none"
	}
	tf := s.Weighting
	if s.Weighting == "tfidf" && s.Sublinear {
		tf = "tfidf-sublinear"
	}
	if s.Analyzer != "" {
		return fmt.Sprintf("%s=%d,%d min_df=%d %s", s.Analyzer, s.CharMin, s.CharMax, s.MinDF, tf)
	}
	return fmt.Sprintf("ngram=%d,%d stop=%s min_df=%d %s fields=%s", s.NGramMin, s.NGramMax, stop, s.MinDF, tf, fields)
}

// Candidates lists the space's candidates in the order they race: round by
// round over the groups of each kind and n-gram range (a kind's defaults
// first), cheapest first within a round (kind cost times the n-gram cost).
// remove is the --remove setting every candidate records.
func (sp Space) Candidates(remove string) ([]*Candidate, error) {
	return sp.candidates(remove, nil)
}

// DefaultsFunc returns a kind's default settings and parameters, as
// 'nbtext train --model K' fits them (nil: train.Defaults).
type DefaultsFunc func(kind model.Kind) (vectorize.Settings, model.Params)

// candidates is Candidates with each kind's default setting from defs.
func (sp Space) candidates(remove string, defs DefaultsFunc) ([]*Candidate, error) {
	var out []*Candidate
	group := 0
	pick := func(xs []string, def string) []string {
		if len(xs) == 0 {
			return []string{def}
		}
		return xs
	}
	analyses := append([]*vectorize.Analysis{nil}, ptrs(sp.Analyzers)...)
	for _, an := range analyses {
		for ni, ng := range orDefault(sp.NGramMax, 0) {
			if an != nil && ni > 0 {
				break // character analyzers: no word n-grams
			}
			for _, ks := range sp.Kinds {
				if len(ks.Values) == 0 {
					return nil, fmt.Errorf("search space: %s has no %s values", ks.Kind, ks.Param)
				}
				if ks.Param != "alpha" && ks.Param != "C" {
					return nil, fmt.Errorf("search space: %s: unknown parameter %q", ks.Kind, ks.Param)
				}
				if ks.MaxNGram > 0 && ng > ks.MaxNGram {
					continue
				}
				def, p := train.Defaults(ks.Kind)
				subs := []bool{def.Sublinear}
				if def.Weighting == "tfidf" && len(sp.Sublinear) > 0 {
					subs = sp.Sublinear
				}
				// Each dimension lists the kind's default first, so that a
				// kind's first group is its defaults (with this n-gram range).
				class := 0
				stops, fieldss, cost := pick(sp.StopWords, def.StopWords), pick(sp.Fields, def.Fields), ks.Cost*ngramCost(cmp.Or(ng, def.NGramMax))
				if an != nil {
					stops, fieldss, cost = []string{""}, []string{""}, ks.Cost*ngramCost(2)
				}
				for _, stop := range front(stops, def.StopWords) {
					for _, minDF := range front(minDFs(orDefault(sp.MinDF, def.MinDF), ng), def.MinDF) {
						for _, sub := range front(subs, def.Sublinear) {
							for _, fields := range front(fieldss, def.Fields) {
								s := def
								s.StopWords, s.MinDF, s.Sublinear, s.Fields, s.Remove = stop, minDF, sub, fields, remove
								if ng > 0 {
									s.NGramMin, s.NGramMax = 1, ng
								}
								if an != nil {
									s.NGramMin, s.NGramMax, s.Analysis = 1, 1, *an
								}
								if err := s.Validate(); err != nil {
									return nil, fmt.Errorf("search space: %w", err)
								}
								var pilot *Candidate
								if !ks.Kind.IsNB() {
									pilot = &Candidate{}
								}
								for i, v := range ks.Values {
									c := &Candidate{
										Spec:  eval.ModelSpec{Kind: ks.Kind, Settings: s, Params: withValue(ks.Kind, ks.Param, p, v)},
										Param: ks.Param, Value: v, group: group, round: class,
										cost: cost,
									}
									if pilot != nil && i == pilotIndex(ks, p) {
										*pilot = *c
										c = pilot
									}
									out = append(out, c)
								}
								if pilot != nil {
									for _, c := range out[len(out)-len(ks.Values):] {
										if c != pilot {
											c.lead = pilot
											pilot.followers = append(pilot.followers, c)
										}
									}
								}
								group++
								class++
							}
						}
					}
				}
			}
		}
	}
	out, err := addDefaults(out, sp.Kinds, remove, group, defs)
	if err != nil {
		return nil, err
	}
	// Round-robin over the kinds and n-gram ranges, cheapest first within a
	// round: the k-th group of every kind and n-gram range before the
	// (k+1)-th of any, so that a budget that cuts rung 0 short has tried
	// every kind and range with its defaults first. The kinds' own
	// defaults (round -1) come before all.
	stableSortBy(out, func(c *Candidate) float64 { return float64(c.round)*1e6 + c.cost })
	for i, c := range out {
		c.ID = i
	}
	return out, nil
}

// trigramMinDF is the lowest min_df of candidates with n-grams of three
// words or more. Most such n-grams occur once: kept, they would hold
// most of the memory of the search (on the IMDB train reviews, 'nbtext
// train --model nblr --ngram 1,3' peaks at 1.25 GB with min_df 1, 0.5 GB
// with min_df 2) for 0.03 points on held-out reviews (0.8971 against
// 0.8968), and a tokenization serving only min_df 2 or more drops them
// (eval.Tokenize).
const trigramMinDF = 2

// minDFs returns the min_df values of xs that candidates with n-grams up
// to ng use: each raised to trigramMinDF for trigrams, without repeats.
func minDFs(xs []int, ng int) []int {
	if ng < 3 {
		return xs
	}
	var out []int
	for _, x := range xs {
		x = max(x, trigramMinDF)
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// ngramCost is how many times a fit on word n-grams up to n costs one on
// unigrams: on 20 Newsgroups and IMDB, bigrams multiply the terms by 10 to
// 20 and the time of 'nbtext train' by 4 to 9.
func ngramCost(n int) float64 { return 1 + 4*float64(n-1) }

// pilotIndex returns the index in ks.Values of the kind's default value
// (of params p), or else of the middle value.
func pilotIndex(ks KindSpace, p model.Params) int {
	def := p.Alpha
	if ks.Param == "C" {
		def = p.C
	}
	for i, v := range ks.Values {
		if v == def {
			return i
		}
	}
	return len(ks.Values) / 2
}

// withValue returns p with the hyperparameter param set to v.
func withValue(kind model.Kind, param string, p model.Params, v float64) model.Params {
	if param == "C" {
		p.C = v
		return p
	}
	if kind == model.Bernoulli && p.Beta == p.Alpha {
		p.Beta = v
	}
	p.Alpha = v
	return p
}

// front returns xs with def moved to the front when it is in xs.
func front[T comparable](xs []T, def T) []T {
	out := make([]T, 0, len(xs))
	for _, x := range xs {
		if x == def {
			out = append(out, x)
		}
	}
	for _, x := range xs {
		if x != def {
			out = append(out, x)
		}
	}
	return out
}

func orDefault(xs []int, def int) []int {
	if len(xs) == 0 {
		return []int{def}
	}
	return xs
}

// ptrs returns pointers to the elements of xs.
func ptrs[T any](xs []T) []*T {
	out := make([]*T, len(xs))
	for i := range xs {
		out[i] = &xs[i]
	}
	return out
}

// defaultsOrder is the order in which the kinds' defaults are scored: the
// linear models first, which lead on every corpus measured (README's
// accuracy table: on 20 Newsgroups' and IMDB's test splits the SVM and
// NB-LR are the two best defaults, logistic regression the third), then
// the Naive Bayes kinds; a kind not listed comes last. When the budget is
// short, the strong defaults are the ones scored.
var defaultsOrder = []model.Kind{model.NBLR, model.SVM, model.LogReg, model.Complement, model.Multinomial, model.Bernoulli}

// defaultRank returns kind's place in defaultsOrder.
func defaultRank(kind model.Kind) int {
	if i := slices.Index(defaultsOrder, kind); i >= 0 {
		return i
	}
	return len(defaultsOrder)
}

// addDefaults marks, for each kind of kinds, the candidate of out that is
// the kind's default setting (defs, or train.Defaults when nil, with
// remove), or adds it to
// out, a group of its own (numbered from group on) in round -1, when the
// space does not hold it: the default value of a kind may not be on its
// grid, nor its preprocessing (NB-LR's min_df 3, say) in the space.
func addDefaults(out []*Candidate, kinds []KindSpace, remove string, group int, defs DefaultsFunc) ([]*Candidate, error) {
	if defs == nil {
		defs = train.Defaults
	}
	for _, ks := range kinds {
		s, p := defs(ks.Kind)
		s.Remove = remove
		if err := s.Validate(); err != nil {
			return nil, fmt.Errorf("search space: %s defaults: %w", ks.Kind, err)
		}
		spec := eval.ModelSpec{Kind: ks.Kind, Settings: s, Params: p}
		found := false
		for _, c := range out {
			// The grid's candidates carry no note of the corpus profile.
			bare := spec
			bare.Params.Profile = ""
			if reflect.DeepEqual(c.Spec, bare) {
				c.Spec.Params.Profile = p.Profile
				c.Default, found = true, true
				break
			}
		}
		if found {
			continue
		}
		value := p.Alpha
		if ks.Param == "C" {
			value = p.C
		}
		out = append(out, &Candidate{
			Spec: spec, Param: ks.Param, Value: value, Default: true,
			group: group, round: -1, cost: ks.Cost * ngramCost(s.NGramMax),
		})
		group++
	}
	return out, nil
}
