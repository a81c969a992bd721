package vectorize

import (
	"slices"
	"strings"
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
	tok := NewTokenizer(sklearnSettings())
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

// FuzzFieldTerms checks the field terms on any input against a plain
// reference: the header block is the lines before the first empty one,
// each "name: value" (name printable ASCII, no space or ':') or a
// continuation starting with a space or tab (not first); the value's
// reference tokens, prefixed, follow the text's own terms, each Weight
// times.
func FuzzFieldTerms(f *testing.F) {
	f.Add("Subject: Re: PGP\r\n  keys and\tCLIPPER\nFrom: x@y\n\nbody: text\n")
	f.Add(" Subject: no\n\n")
	f.Add("SUBJECT:İx Σς\nsubject: two\nbad line\nSubject: after\n")
	s := DefaultSettings()
	s.Fields = "subject:2,from"
	tok, plain := NewTokenizer(s), NewTokenizer(DefaultSettings())
	weight := map[string]int{"subject": 2, "from": 1}
	f.Fuzz(func(t *testing.T, text string) {
		var want []string
		lines := strings.Split(text, "\n")
		cur := ""
		for i, line := range lines {
			if i == len(lines)-1 && line == "" {
				break
			}
			line = strings.TrimSuffix(line, "\r")
			if line == "" {
				break
			}
			value := line
			if line[0] == ' ' || line[0] == '\t' {
				if i == 0 {
					break
				}
			} else {
				name, v, ok := strings.Cut(line, ":")
				if !ok || name == "" || strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r > '~' }) {
					break
				}
				cur, value = strings.ToLower(name), v
			}
			for _, w := range refTerms(value, true) {
				for range weight[cur] {
					want = append(want, cur+":"+w)
				}
			}
		}
		want = append(slices.Clone(plain.Terms(text)), want...)
		if got := tok.Terms(text); !slices.Equal(got, want) {
			t.Fatalf("Terms(%q) = %q, reference %q", text, got, want)
		}
	})
}
