package train

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// profiledVocab fits, through a ProfiledFitStream for kind, the vocabulary
// of texts, and returns it with the choice's note.
func profiledVocab(t *testing.T, kind model.Kind, texts []string) (*vectorize.Vocabulary, string) {
	t.Helper()
	s, _ := Defaults(kind)
	pc := NewProfileChoice(kind, s)
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
		{"long", model.NBLR, longs, false, "the model's defaults"},
		{"unsegmented", model.LogReg, japanese, true, "100% of letters in scripts without spaces"},
		{"small", model.SVM, short[:ProfileMinDocs-1], false, "fewer than 1000 documents"},
	} {
		v, note := profiledVocab(t, tc.kind, tc.texts)
		if got := v.Settings.Analyzer == "char_wb"; got != tc.char {
			t.Errorf("%s: analyzer %q, want char_wb: %v", tc.name, v.Settings.Analyzer, tc.char)
		}
		if tc.char && (v.Settings.CharMin != ProfileCharMin || v.Settings.CharMax != ProfileCharMax || v.Settings.NGramMax != 1 || v.Settings.Fields != "") {
			t.Errorf("%s: settings %+v", tc.name, v.Settings)
		}
		if !strings.Contains(note, tc.note) {
			t.Errorf("%s: note %q, want it to say %q", tc.name, note, tc.note)
		}
		if v.NDocs != len(tc.texts) {
			t.Errorf("%s: vocabulary of %d documents, want %d", tc.name, v.NDocs, len(tc.texts))
		}
	}
	if ProfileFollows(model.Multinomial) {
		t.Error("multinomial follows the profile")
	}
}
