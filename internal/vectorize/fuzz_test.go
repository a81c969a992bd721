package vectorize

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzTokenizer checks the tokenizer's invariants on any input: no panic;
// every term non-empty, valid UTF-8, lower-case, at least 2 runes, all
// word runes; and the same terms as the plain reference statement.
// Seeds are in testdata/fuzz/FuzzTokenizer.
func FuzzTokenizer(f *testing.F) {
	f.Add("Hello, World! don't x² ½ İSTANBUL ΟΔΟΣ")
	tok := NewTokenizer(DefaultSettings())
	f.Fuzz(func(t *testing.T, text string) {
		terms := tok.Terms(text)
		for _, term := range terms {
			if term == "" || !utf8.ValidString(term) || utf8.RuneCountInString(term) < 2 {
				t.Fatalf("bad term %q from %q", term, text)
			}
			for _, r := range term {
				if !IsWordRune(r) || unicode.ToLower(r) != r {
					t.Fatalf("term %q from %q has rune %q", term, text, r)
				}
			}
		}
		if want := refTerms(text, true); !slices.Equal(terms, want) && len(terms)+len(want) > 0 {
			t.Fatalf("Terms(%q) = %q, reference %q", text, terms, want)
		}
	})
}
