package train

import (
	"fmt"
	"strings"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// AnalyzerFlags are the command-line flags that fix the analyzer: when
// one of them is given, the analyzer does not follow the corpus profile
// (the other choices still do, unless their own flags are given).
var AnalyzerFlags = []string{"analyzer", "char-ngram", "subwords", "token-pattern", "cjk-bigrams", "ngram", "stop-words", "fields"}

// ProfileChoice makes the defaults of one kind follow a corpus profile
// (package profile): the analyzer, from the length and script of the
// first documents (Settings, before the corpus is tokenized); Bernoulli
// NB's smoothing, from the length (Params); multinomial NB's weighting,
// from the class balance (Weighting, once the labels are read). Note says
// what it chose, for model.Params.Profile ('nbtext info') and train's
// summary. See "The corpus profile" in defaults.go and docs/defaults.md
// for the rules and the held-out figures behind them.
type ProfileChoice struct {
	kind          model.Kind
	base          vectorize.Settings
	analyzerFixed bool
	// counted: the choice of a fit from counts (NewCountsChoice), which
	// knows the class balance but neither the length nor the script.
	counted bool
	// multiLabel: the choice of a one-vs-rest fit (ForMultiLabel), whose
	// rules take in more kinds (charAnalyzerReason, WeightingSettings,
	// Params).
	multiLabel bool
	// Profile is the corpus's profile; Chose lists what it changed from
	// the model's defaults, each with its reason.
	Profile profile.Profile
	Chose   []string
}

// NewProfileChoice starts the choice of kind's defaults, base being the
// settings without a profile (Defaults, with the flags given applied);
// analyzerFixed keeps base's analyzer (a flag of AnalyzerFlags was given).
func NewProfileChoice(kind model.Kind, base vectorize.Settings, analyzerFixed bool) *ProfileChoice {
	return &ProfileChoice{kind: kind, base: base, analyzerFixed: analyzerFixed}
}

// ForMultiLabel makes pc the choice of a multi-label (one-vs-rest) fit,
// where the NB kinds and nearest centroid take the character analyzer on
// short text too (MultiLabelShortChar), and multinomial and complement NB
// weigh by counts whatever the class balance, complement NB with α =
// MultiLabelComplementAlpha (MultiLabelCounts).
func (pc *ProfileChoice) ForMultiLabel() { pc.multiLabel = true }

// NewCountsChoice starts the choice of kind's defaults for a fit from
// counts of classDocs documents per class: the counts fix the analyzer
// (they were counted with it) and record neither the documents' length
// nor their script, so only the class balance is followed (Weighting,
// WeightingSettings).
func NewCountsChoice(kind model.Kind, classDocs []int) *ProfileChoice {
	pc := &ProfileChoice{kind: kind, analyzerFixed: true, counted: true}
	pc.Profile.SetClasses(classDocs)
	for _, n := range classDocs {
		pc.Profile.Docs += n
	}
	return pc
}

// Settings returns the vectorizer settings for the corpus whose sampled
// profile is prof, and records prof and the choice (anew: what an earlier
// call chose is forgotten).
func (pc *ProfileChoice) Settings(prof profile.Profile) vectorize.Settings {
	pc.Profile, pc.Chose = prof, nil
	s := pc.base
	if pc.analyzerFixed {
		return s
	}
	if why := charAnalyzerReason(pc.kind, prof, pc.multiLabel); why != "" {
		s.Analysis.Analyzer, s.Analysis.CharMin, s.Analysis.CharMax = "char_wb", ProfileCharMin, ProfileCharMax
		s.Analysis.CJKBigrams, s.Analysis.SubwordMin, s.Analysis.SubwordMax = false, 0, 0
		s.NGramMin, s.NGramMax, s.StopWords, s.Fields = 1, 1, "", ""
		pc.Chose = append(pc.Chose, fmt.Sprintf("--analyzer char_wb --char-ngram %d,%d (%s)", ProfileCharMin, ProfileCharMax, why))
	}
	return s
}

// Params sets the parameters that follow the profile in p, unless given
// (changed reports the flags given): Bernoulli NB's α = β on short text.
func (pc *ProfileChoice) Params(p *model.Params, changed func(string) bool) {
	if pc == nil || pc.counted || pc.Profile.Docs < ProfileMinDocs {
		return
	}
	if pc.kind == model.Bernoulli && !changed("alpha") && !changed("beta") &&
		pc.Profile.MedianChars < ProfileShortChars && pc.Profile.Unsegmented <= ProfileUnsegmented {
		p.Alpha, p.Beta = ProfileShortBernoulliAlpha, ProfileShortBernoulliAlpha
		pc.Chose = append(pc.Chose, fmt.Sprintf("--alpha %g (median document %d characters < %d)", ProfileShortBernoulliAlpha, pc.Profile.MedianChars, ProfileShortChars))
	}
	if pc.kind == model.Complement && pc.multiLabel && !changed("alpha") && p.Alpha != MultiLabelComplementAlpha {
		p.Alpha = MultiLabelComplementAlpha
		pc.Chose = append(pc.Chose, fmt.Sprintf("--alpha %g (one-vs-rest)", MultiLabelComplementAlpha))
	}
}

// Weighting sets, once the labels are read (sizes: documents per class),
// the weighting that follows the class balance in v's settings, unless
// given: multinomial NB on imbalanced classes weights by counts, neither
// tf-idf nor l2-normalised; so do multinomial and complement NB in a
// multi-label fit, whatever the balance (MultiLabelCounts). Call it
// before v.Weight.
func (pc *ProfileChoice) Weighting(v *vectorize.Vocabulary, sizes []int, changed func(string) bool) {
	if pc == nil {
		return
	}
	pc.WeightingSettings(&v.Settings, sizes, changed)
}

// Classes records the class balance, sizes being the documents per class
// (Weighting records it too; a choice from counts has it already).
func (pc *ProfileChoice) Classes(sizes []int) {
	if pc != nil && !pc.counted {
		pc.Profile.SetClasses(sizes)
	}
}

// WeightingSettings is Weighting on settings s, for a fit whose
// vocabulary is not yet made (a round two of counts, cross-validation);
// it reports whether it changed s.
func (pc *ProfileChoice) WeightingSettings(s *vectorize.Settings, sizes []int, changed func(string) bool) bool {
	if pc == nil {
		return false
	}
	pc.Classes(sizes)
	counts := pc.kind == model.Multinomial || pc.multiLabel && MultiLabelCounts(pc.kind)
	if pc.Profile.Docs < ProfileMinDocs || !counts || changed("weighting") || changed("norm") || changed("sublinear-tf") {
		return false
	}
	if s.Weighting == "count" && s.Norm == "none" && !s.Sublinear {
		return false
	}
	why := "one-vs-rest"
	if !pc.multiLabel {
		r := pc.Profile.SmallestClass * float64(pc.Profile.Classes)
		if r >= ProfileImbalance {
			return false
		}
		why = fmt.Sprintf("smallest class %.2f%% of documents, %.2f of an even share < %g", 100*pc.Profile.SmallestClass, r, ProfileImbalance)
	}
	s.Weighting, s.Norm, s.Sublinear = "count", "none", false
	pc.Chose = append(pc.Chose, "--weighting count --norm none --sublinear-tf=false ("+why+")")
	return true
}

// ChooseDefaults makes the defaults of kind follow the corpus profile of
// texts (labels y of nClasses classes), for a caller that holds the
// corpus: it samples the first texts (profile.Sampler, the sample train
// takes), then sets in settings (kind's defaults with the user's flags)
// and p (its parameters) what the profile chooses: the analyzer,
// multinomial's weighting, Bernoulli's α; a flag changed reports given is
// left alone (changed nil: none). It records the choice in p.Profile and
// returns it, or nil where kind's defaults do not follow the profile.
func ChooseDefaults(kind model.Kind, settings *vectorize.Settings, p *model.Params, texts []string, y []int, nClasses int, changed func(string) bool) *ProfileChoice {
	return chooseDefaults(kind, settings, p, texts, y, nClasses, changed, false)
}

// ChooseDefaultsMultiLabel is ChooseDefaults for a multi-label
// (one-vs-rest) fit (ProfileChoice.ForMultiLabel); y are the documents'
// first labels, whose balance the choice records.
func ChooseDefaultsMultiLabel(kind model.Kind, settings *vectorize.Settings, p *model.Params, texts []string, y []int, nClasses int, changed func(string) bool) *ProfileChoice {
	return chooseDefaults(kind, settings, p, texts, y, nClasses, changed, true)
}

func chooseDefaults(kind model.Kind, settings *vectorize.Settings, p *model.Params, texts []string, y []int, nClasses int, changed func(string) bool, multiLabel bool) *ProfileChoice {
	if !ProfileFollows(kind, multiLabel) {
		return nil
	}
	if changed == nil {
		changed = func(string) bool { return false }
	}
	fixed := false
	for _, name := range AnalyzerFlags {
		fixed = fixed || changed(name)
	}
	pc := NewProfileChoice(kind, *settings, fixed)
	pc.multiLabel = multiLabel
	var sampler profile.Sampler
	for _, t := range texts {
		if sampler.Full() {
			break
		}
		sampler.Add(t)
	}
	*settings = pc.Settings(sampler.Profile())
	pc.WeightingSettings(settings, ClassSizes(y, nClasses), changed)
	pc.Params(p, changed)
	p.Profile = pc.Note()
	return pc
}

// Note is the line that says what the profile chose, for the model's
// parameters (model.Params.Profile): the profile, then the choices; or ""
// when it changed none of the model's defaults (a corpus of fewer than
// ProfileMinDocs documents, long balanced text), so that such a model is,
// byte for byte, the one the fixed defaults give.
func (pc *ProfileChoice) Note() string {
	if pc == nil || len(pc.Chose) == 0 {
		return ""
	}
	chose := strings.Join(pc.Chose, "; ")
	if pc.counted {
		return fmt.Sprintf("from counts of %d documents (the analyzer they were counted with; length and script not recorded), smallest of %d classes %.1f%% of documents: %s",
			pc.Profile.Docs, pc.Profile.Classes, 100*pc.Profile.SmallestClass, chose)
	}
	return pc.Profile.String() + ": " + chose
}

// The corpus profile's analyzer: character n-grams inside words of
// ProfileCharMin..ProfileCharMax characters (scikit-learn's char_wb).
const (
	ProfileCharMin = 2
	ProfileCharMax = 4
)

// ProfileMinDocs is the fewest documents whose profile the defaults
// follow: the rules were chosen on corpora of 2299 documents and more, and
// a small corpus keeps the defaults it always had (on two short lines,
// character n-grams at min_df 2 leave next to no term).
const ProfileMinDocs = 1000

// ProfileShortChars is the median document length, in characters, below
// which a corpus is short text; ProfileUnsegmented the share of letters in
// unsegmented scripts above which a corpus is unsegmented text;
// ProfileImbalance the smallest class's share of the documents, as a
// fraction of an even share (1/classes), below which the classes are
// imbalanced.
const (
	ProfileShortChars  = 400
	ProfileUnsegmented = 0.3
	ProfileImbalance   = 0.2
)

// ProfileShortBernoulliAlpha is Bernoulli NB's α = β on short text.
const ProfileShortBernoulliAlpha = 0.1

// charAnalyzerReason says why kind takes the character analyzer on a
// corpus of profile prof, or returns "" when it keeps words: the linear
// models on short or unsegmented text, Naive Bayes on unsegmented text;
// in a multi-label fit (multiLabel) the kinds of MultiLabelShortChar on
// short text too, nearest centroid on unsegmented text too.
func charAnalyzerReason(kind model.Kind, prof profile.Profile, multiLabel bool) string {
	if prof.Docs < ProfileMinDocs || !ProfileFollows(kind, multiLabel) {
		return ""
	}
	switch {
	case prof.Unsegmented > ProfileUnsegmented:
		return fmt.Sprintf("%.0f%% of letters in scripts without spaces > %.0f%%", 100*prof.Unsegmented, 100*ProfileUnsegmented)
	case prof.MedianChars < ProfileShortChars && kind.IsLinear():
		return fmt.Sprintf("median document %d characters < %d", prof.MedianChars, ProfileShortChars)
	case prof.MedianChars < ProfileShortChars && multiLabel && MultiLabelShortChar(kind):
		return fmt.Sprintf("median document %d characters < %d, multi-label", prof.MedianChars, ProfileShortChars)
	}
	return ""
}

// ProfileFollows reports whether kind's defaults follow the corpus
// profile, in single-label training or, multiLabel, in a one-vs-rest fit
// (where nearest centroid follows its analyzer rule as well).
func ProfileFollows(kind model.Kind, multiLabel bool) bool {
	return profileKinds[kind] || multiLabel && kind == model.Centroid
}

// profileKinds are the kinds whose defaults follow the profile.
var profileKinds = map[model.Kind]bool{
	model.LogReg: true, model.SVM: true, model.NBLR: true,
	model.Bernoulli: true, model.Multinomial: true, model.Complement: true,
}
