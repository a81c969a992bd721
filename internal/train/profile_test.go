package train

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/profile"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// profiledVocab fits, through a ProfiledFitStream for kind, the vocabulary
// of texts, and returns it with the choice's note.
func profiledVocab(t *testing.T, kind model.Kind, texts []string) (*vectorize.Vocabulary, string) {
	t.Helper()
	s, _ := Defaults(kind)
	pc := NewProfileChoice(kind, s, false)
	f, err := NewProfiledFitStream(s, 2, pc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	y := make([]int, len(texts))
	for i, text := range texts {
		f.Add(text)
		y[i] = i % 2
	}
	v, X, err := f.Finish(nil, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	if X.Rows() != len(texts) {
		t.Fatalf("%d rows for %d documents", X.Rows(), len(texts))
	}
	return v, pc.Note()
}

// TestProfileChoice checks the analyzer the corpus profile chooses: char_wb
// 2,4 for short documents and for unsegmented scripts, words for long
// documents, for a small corpus, and for a kind that does not follow the
// profile; and that the documents held while sampling all reach the
// vectorizer, in order (the sample is full before the corpus ends).
func TestProfileChoice(t *testing.T) {
	long := strings.Repeat("the quick brown fox jumps over the lazy dog ", 10)
	var short, longs, japanese []string
	for i := range 5200 {
		short = append(short, fmt.Sprintf("short text number %d", i%50))
	}
	for i := range 1100 {
		longs = append(longs, long+fmt.Sprint(i%50))
		japanese = append(japanese, strings.Repeat("東京都の天気は晴れ", 50)+fmt.Sprint(i%50))
	}
	for _, tc := range []struct {
		name  string
		kind  model.Kind
		texts []string
		char  bool
		note  string
	}{
		{"short", model.NBLR, short, true, "median document 20 characters < 400"},
		{"long", model.NBLR, longs, false, ""},
		{"unsegmented", model.LogReg, japanese, true, "100% of letters in scripts without spaces"},
		{"small", model.SVM, short[:ProfileMinDocs-1], false, ""},
	} {
		v, note := profiledVocab(t, tc.kind, tc.texts)
		if got := v.Settings.Analyzer == "char_wb"; got != tc.char {
			t.Errorf("%s: analyzer %q, want char_wb: %v", tc.name, v.Settings.Analyzer, tc.char)
		}
		if tc.char && (v.Settings.CharMin != ProfileCharMin || v.Settings.CharMax != ProfileCharMax || v.Settings.NGramMax != 1 || v.Settings.Fields != "") {
			t.Errorf("%s: settings %+v", tc.name, v.Settings)
		}
		if !strings.Contains(note, tc.note) || (tc.note == "") != (note == "") {
			t.Errorf("%s: note %q, want it to say %q", tc.name, note, tc.note)
		}
		if v.NDocs != len(tc.texts) {
			t.Errorf("%s: vocabulary of %d documents, want %d", tc.name, v.NDocs, len(tc.texts))
		}
	}
	if ProfileFollows(model.Centroid, false) {
		t.Error("centroid follows the profile")
	}
}

// TestProfileParams checks the choices made after sampling: Bernoulli's
// α = β on short text unless --alpha is given, and multinomial NB's count
// weighting on imbalanced classes unless a weighting flag is given.
func TestProfileParams(t *testing.T) {
	none := func(string) bool { return false }
	short := profile.Profile{Docs: 5000, MedianChars: 100, Script: "Latin"}
	s, p := Defaults(model.Bernoulli)
	pc := NewProfileChoice(model.Bernoulli, s, false)
	if got := pc.Settings(short); got.Analyzer != "" {
		t.Errorf("bernoulli on short Latin text: analyzer %q, want words", got.Analyzer)
	}
	pc.Params(&p, none)
	if p.Alpha != ProfileShortBernoulliAlpha || p.Beta != ProfileShortBernoulliAlpha || !strings.Contains(pc.Note(), "--alpha 0.1") {
		t.Errorf("bernoulli on short text: α %v β %v, note %q", p.Alpha, p.Beta, pc.Note())
	}
	_, p = Defaults(model.Bernoulli)
	pc.Params(&p, func(name string) bool { return name == "alpha" })
	if p.Alpha == ProfileShortBernoulliAlpha {
		t.Error("--alpha given, but the profile set it")
	}
	s, _ = Defaults(model.Multinomial)
	for _, tc := range []struct {
		sizes []int
		count bool
	}{{[]int{500, 500, 500}, false}, {[]int{5000, 3000, 40}, true}} {
		pc = NewProfileChoice(model.Multinomial, s, false)
		v := &vectorize.Vocabulary{Settings: pc.Settings(short)}
		pc.Weighting(v, tc.sizes, none)
		if got := v.Settings.Weighting == "count" && v.Settings.Norm == "none"; got != tc.count {
			t.Errorf("classes %v: weighting %s, norm %s; want counts: %v (note %q)", tc.sizes, v.Settings.Weighting, v.Settings.Norm, tc.count, pc.Note())
		}
	}
}

// TestProfileMultiLabelShort checks the analyzer rule of a one-vs-rest
// fit: on short text in a spaced script the kinds of MultiLabelShortChar
// take char_wb where their single-label fit keeps words; nearest centroid
// follows the profile only in a multi-label fit; long text keeps words.
func TestProfileMultiLabelShort(t *testing.T) {
	short := profile.Profile{Docs: 5000, MedianChars: 64, Script: "Latin"}
	long := profile.Profile{Docs: 5000, MedianChars: 1500, Script: "Latin"}
	japanese := profile.Profile{Docs: 5000, MedianChars: 1500, Script: "Han", Unsegmented: 0.9}
	for _, kind := range []model.Kind{model.Multinomial, model.Bernoulli, model.Centroid, model.Complement, model.NBLR} {
		s, _ := Defaults(kind)
		for _, tc := range []struct {
			prof              profile.Profile
			multiLabel, chars bool
		}{
			{short, false, kind == model.NBLR},
			{short, true, kind != model.Complement},
			{long, true, false},
			{japanese, true, true},
			{japanese, false, kind != model.Centroid},
		} {
			pc := NewProfileChoice(kind, s, false)
			if tc.multiLabel {
				pc.ForMultiLabel()
			}
			got := pc.Settings(tc.prof).Analyzer == "char_wb"
			if got != tc.chars {
				t.Errorf("%s, multi-label %v, median %d characters, %s: char_wb %v, want %v (note %q)", kind, tc.multiLabel, tc.prof.MedianChars, tc.prof.Script, got, tc.chars, pc.Note())
			}
			if got && tc.multiLabel && !kind.IsLinear() && tc.prof.Unsegmented == 0 && !strings.Contains(pc.Note(), "multi-label") {
				t.Errorf("%s: note %q does not say multi-label", kind, pc.Note())
			}
		}
		if ProfileFollows(kind, false) != (kind != model.Centroid) || !ProfileFollows(kind, true) {
			t.Errorf("%s: ProfileFollows %v single-label, %v multi-label", kind, ProfileFollows(kind, false), ProfileFollows(kind, true))
		}
	}
	// ChooseDefaultsMultiLabel, for a search that holds the corpus, makes
	// the same choice.
	texts := make([]string, ProfileMinDocs)
	for i := range texts {
		texts[i] = fmt.Sprintf("short text number %d", i%50)
	}
	y := make([]int, len(texts))
	for _, multi := range []bool{false, true} {
		s, p := Defaults(model.Multinomial)
		choose := ChooseDefaults
		if multi {
			choose = ChooseDefaultsMultiLabel
		}
		choose(model.Multinomial, &s, &p, texts, y, 1, nil)
		if got := s.Analyzer == "char_wb"; got != multi {
			t.Errorf("ChooseDefaults, multi-label %v: analyzer %q", multi, s.Analyzer)
		}
	}
	// A one-vs-rest fit of multinomial or complement NB weights by counts
	// whatever the class balance; complement takes α 0.3. Single-label
	// fits keep tf-idf on balanced classes.
	none := func(string) bool { return false }
	for _, kind := range []model.Kind{model.Multinomial, model.Complement, model.Bernoulli} {
		for _, multi := range []bool{false, true} {
			s, p := Defaults(kind)
			pc := NewProfileChoice(kind, s, false)
			if multi {
				pc.ForMultiLabel()
			}
			v := &vectorize.Vocabulary{Settings: pc.Settings(profile.Profile{Docs: 5000, MedianChars: 1500, Script: "Latin"})}
			pc.Weighting(v, []int{500, 500, 500}, none)
			pc.Params(&p, none)
			counts := v.Settings.Weighting == "count" && v.Settings.Norm == "none" && !v.Settings.Sublinear
			want := multi && kind != model.Bernoulli
			if counts != want {
				t.Errorf("%s, multi-label %v, balanced classes: weighting %s, norm %s; want counts: %v (note %q)", kind, multi, v.Settings.Weighting, v.Settings.Norm, want, pc.Note())
			}
			if kind == model.Complement && (p.Alpha == MultiLabelComplementAlpha) != multi {
				t.Errorf("%s, multi-label %v: α %g", kind, multi, p.Alpha)
			}
			if multi && kind == model.Complement {
				_, p = Defaults(kind)
				pc.Params(&p, func(name string) bool { return name == "alpha" })
				if p.Alpha == MultiLabelComplementAlpha {
					t.Error("complement: --alpha given, but the one-vs-rest rule set it")
				}
			}
		}
	}
}
