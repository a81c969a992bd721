package train

import (
	"fmt"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// AnalyzerFlags are the command-line flags that fix the analyzer: when
// one of them is given (or a vocabulary or a model to start from), the
// analyzer does not follow the corpus profile.
var AnalyzerFlags = []string{"analyzer", "char-ngram", "subwords", "token-pattern", "cjk-bigrams", "ngram", "stop-words", "fields"}

// ProfileChoice makes the defaults of one kind follow a corpus profile
// (package profile): the analyzer from the length and script of the first
// documents (Settings, before the corpus is tokenized), and the note that
// says what was chosen (Note, recorded in model.Params.Profile for 'nbtext
// info' and printed in train's summary). See "The corpus profile" in
// defaults.go for the rule and the held-out figures behind it.
type ProfileChoice struct {
	kind model.Kind
	base vectorize.Settings
	// Profile is the corpus's profile; Chose says what it changed from
	// the defaults ("" when nothing).
	Profile profile.Profile
	Chose   string
}

// NewProfileChoice starts the choice of kind's defaults, base being the
// settings without a profile (Defaults, with the flags given applied).
func NewProfileChoice(kind model.Kind, base vectorize.Settings) *ProfileChoice {
	return &ProfileChoice{kind: kind, base: base}
}

// Settings returns the vectorizer settings for the corpus whose sampled
// profile is prof, and records prof and the choice.
func (pc *ProfileChoice) Settings(prof profile.Profile) vectorize.Settings {
	pc.Profile = prof
	s := pc.base
	if why := charAnalyzerReason(pc.kind, prof); why != "" {
		s.Analysis.Analyzer, s.Analysis.CharMin, s.Analysis.CharMax = "char_wb", ProfileCharMin, ProfileCharMax
		s.Analysis.CJKBigrams, s.Analysis.SubwordMin, s.Analysis.SubwordMax = false, 0, 0
		s.NGramMin, s.NGramMax, s.StopWords, s.Fields = 1, 1, "", ""
		pc.Chose = fmt.Sprintf("--analyzer char_wb --char-ngram %d,%d (%s)", ProfileCharMin, ProfileCharMax, why)
	}
	return s
}

// Note is the line that says what the profile chose, for the model's
// parameters (model.Params.Profile): the profile, then the choice ("words"
// when the analyzer stayed the default).
func (pc *ProfileChoice) Note() string {
	if pc == nil {
		return ""
	}
	chose := pc.Chose
	switch {
	case chose != "":
	case pc.Profile.Docs < ProfileMinDocs:
		chose = fmt.Sprintf("the model's defaults (fewer than %d documents: the profile is not followed)", ProfileMinDocs)
	default:
		chose = "the model's defaults"
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
// follow: the rule was chosen on corpora of 2299 documents and more, and a
// small corpus keeps the defaults it always had (on two short lines,
// character n-grams at min_df 2 leave next to no term).
const ProfileMinDocs = 1000

// ProfileShortChars is the median document length, in characters, below
// which a corpus is short text; ProfileUnsegmented the share of letters in
// unsegmented scripts above which a corpus is unsegmented text.
const (
	ProfileShortChars  = 400
	ProfileUnsegmented = 0.3
)

// charAnalyzerReason says why kind takes the character analyzer on a
// corpus of profile prof, or returns "" when it keeps words.
func charAnalyzerReason(kind model.Kind, prof profile.Profile) string {
	if prof.Docs < ProfileMinDocs || !profileKinds[kind] {
		return ""
	}
	switch {
	case prof.Unsegmented > ProfileUnsegmented:
		return fmt.Sprintf("%.0f%% of letters in scripts without spaces > %.0f%%", 100*prof.Unsegmented, 100*ProfileUnsegmented)
	case prof.MedianChars < ProfileShortChars:
		return fmt.Sprintf("median document %d characters < %d", prof.MedianChars, ProfileShortChars)
	}
	return ""
}

// ProfileFollows reports whether kind's defaults follow the corpus
// profile.
func ProfileFollows(kind model.Kind) bool { return profileKinds[kind] }

// profileKinds are the kinds whose analyzer follows the profile.
var profileKinds = map[model.Kind]bool{
	model.LogReg: true, model.SVM: true, model.NBLR: true,
}
