package vectorize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCharNGrams checks the character analyzers on any input and range:
// no panic; char n-grams have MIN..MAX runes and there are as many as the
// collapsed text has windows; a char_wb n-gram has MIN..MAX runes and no
// white space inside, or is a whole padded word " w " of at most MAX
// runes. Seeds are in testdata/fuzz/FuzzCharNGrams.
func FuzzCharNGrams(f *testing.F) {
	f.Add("Hello  wörld\t\tİΣ 日本語 a", uint8(1), uint8(3))
	f.Add("x", uint8(4), uint8(6))
	f.Fuzz(func(t *testing.T, text string, lo, span uint8) {
		cmin := int(lo)%MaxCharNGram + 1
		cmax := min(cmin+int(span)%4, MaxCharNGram)
		for _, kind := range []string{"char", "char_wb"} {
			s := charSettings(kind, cmin, cmax)
			if err := s.Validate(); err != nil {
				t.Fatal(err)
			}
			tok := NewTokenizer(s)
			terms := tok.Terms(text)
			for _, term := range terms {
				n := utf8.RuneCountInString(term)
				if term == "" || n > cmax {
					t.Fatalf("%s %d,%d: n-gram %q of %q", kind, cmin, cmax, term, text)
				}
				if kind == "char" && n < cmin {
					t.Fatalf("char %d,%d: n-gram %q shorter than %d", cmin, cmax, term, cmin)
				}
				if kind == "char_wb" {
					inner := strings.TrimPrefix(strings.TrimSuffix(term, " "), " ")
					if strings.ContainsFunc(inner, isPySpace) {
						t.Fatalf("char_wb: n-gram %q of %q holds white space", term, text)
					}
					whole := len(term) >= 3 && term[0] == ' ' && term[len(term)-1] == ' '
					if n < cmin && !whole {
						t.Fatalf("char_wb %d,%d: n-gram %q is short and not a whole word", cmin, cmax, term)
					}
				}
			}
			if kind == "char" {
				r := collapsedRunes(pyLower(text)) // lowering may add runes (İ)
				want := 0
				for n := cmin; n <= cmax; n++ {
					want += max(0, r-n+1)
				}
				if len(terms) != want {
					t.Fatalf("char %d,%d: %d n-grams of %q, want %d", cmin, cmax, len(terms), text, want)
				}
			}
		}
	})
}

// collapsedRunes counts the runes of text with every run of two or more
// white space runes counted as one, as scikit-learn collapses them.
func collapsedRunes(text string) int {
	n, run := 0, 0
	for _, r := range text {
		if isPySpace(r) {
			run++
			if run <= 1 {
				n++
			}
			continue
		}
		run = 0
		n++
	}
	return n
}

// FuzzCJKBigrams checks the word analyzer with CJK bigrams and subwords:
// no panic; a term holding a CJK character is one or two CJK characters;
// a subword term has SubwordMin..SubwordMax runes after its prefix.
func FuzzCJKBigrams(f *testing.F) {
	f.Add("日本語のテキスト abc漢字 猫 ภาษาไทย 한국어 コーヒー")
	f.Add("mixed中文text")
	s := DefaultSettings()
	s.SubwordMin, s.SubwordMax = 2, 4
	tok := NewTokenizer(s)
	f.Fuzz(func(t *testing.T, text string) {
		for _, term := range tok.Terms(text) {
			if rest, ok := strings.CutPrefix(term, SubwordPrefix); ok {
				if n := utf8.RuneCountInString(rest); n < 2 || n > 4 {
					t.Fatalf("subword %q of %q has %d runes", term, text, n)
				}
				continue
			}
			if !strings.ContainsFunc(term, isCJK) {
				continue
			}
			n := utf8.RuneCountInString(term)
			if n > 2 || strings.ContainsFunc(term, func(r rune) bool { return !isCJK(r) }) {
				t.Fatalf("term %q of %q mixes CJK with other characters or is long", term, text)
			}
		}
	})
}
