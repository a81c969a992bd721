package vectorize

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseFields(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []Field
	}{
		{"", nil},
		{"  ", nil},
		{"subject", []Field{{"subject", 1}}},
		{"Subject:2, organization", []Field{{"subject", 2}, {"organization", 1}}},
		{"x-newsreader:100", []Field{{"x-newsreader", 100}}},
	} {
		got, err := ParseFields(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseFields(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{"subject:0", "subject:101", "subject:x", "subject:", ":2", "sub ject", "subject,,from", "subject,Subject:2"} {
		if _, err := ParseFields(in); err == nil || !strings.Contains(err.Error(), "--fields") {
			t.Errorf("ParseFields(%q): error %v, want one naming --fields", in, err)
		}
	}
	s := DefaultSettings()
	s.Fields = "subject:-1"
	if err := s.Validate(); err == nil {
		t.Error("Validate accepted Fields subject:-1")
	}
}

func TestFieldTerms(t *testing.T) {
	s := DefaultSettings()
	s.StopWords = "english"
	s.Fields = "subject:2,keywords"
	tok := NewTokenizer(s)
	for _, c := range []struct {
		name, text string
		want       []string // the field terms, after the text's own
	}{
		{"none", "just text: no header\n\nSubject: body", nil},
		{"folded", "From: a@b.c\r\nSUBJECT: Re: PGP keys\r\n  and the Clipper\r\nLines: 3\r\n\r\nSubject: not a header",
			[]string{"subject:re", "subject:re", "subject:pgp", "subject:pgp", "subject:keys", "subject:keys",
				"subject:and", "subject:and", "subject:the", "subject:the", "subject:clipper", "subject:clipper"}},
		{"two fields", "Keywords: ÉCU\nSubject: x² ok\n\nbody", []string{"keywords:écu", "subject:x²", "subject:x²", "subject:ok", "subject:ok"}},
		{"folded unknown field", "Summary: gone\n  still gone\nSubject: yes\n", []string{"subject:yes", "subject:yes"}},
		{"continuation first", " Subject: no\n\n", nil},
		{"broken header", "Subject: one\nnot a field\nKeywords: two\n", []string{"subject:one", "subject:one"}},
	} {
		all := slices.Clone(tok.Terms(c.text))
		base := NewTokenizer(Settings{Lowercase: true, StopWords: "english", NGramMin: 1, NGramMax: 1}).Terms(c.text)
		if !slices.Equal(all[:len(base)], base) {
			t.Errorf("%s: the text's own terms changed: %q, want %q", c.name, all[:len(base)], base)
			continue
		}
		if got := all[len(base):]; !slices.Equal(got, c.want) {
			t.Errorf("%s: field terms %q, want %q", c.name, got, c.want)
		}
	}

	// With n-grams the field terms come after them; without lower-casing
	// the words keep their case but the prefix does not.
	s.NGramMax, s.Lowercase, s.StopWords = 2, false, ""
	got := NewTokenizer(s).Terms("Subject: Big Bang\n\nbody")
	want := []string{"Subject", "Big", "Bang", "body", "Subject Big", "Big Bang", "Bang body", "subject:Big", "subject:Big", "subject:Bang", "subject:Bang"}
	if !slices.Equal(got, want) {
		t.Errorf("n-grams: %q, want %q", got, want)
	}
}

func TestFitFields(t *testing.T) {
	// Fit, FitStream's fast path (unigrams, stop words) and Vectorize agree,
	// and a long document takes field terms from its head only.
	texts := []string{
		"Subject: Re: the PGP FAQ\nFrom: x@y\n\nPGP is here",
		"Subject: clipper\n\nsubject: pgp in the body is text",
		"no header at all, pgp",
		"Subject: long\n\n" + strings.Repeat("word and words\n", longDocument/15+1000) + "\nSubject: tail\n",
	}
	for _, stop := range []string{"", "english"} {
		s := DefaultSettings()
		s.StopWords, s.Fields = stop, "subject:3"
		v, m, err := Fit(texts, nil, 0, s, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		r0 := row(v, m, 0)
		if r0["subject:re"] != 3 || r0["subject:pgp"] != 3 || r0["subject:faq"] != 3 || r0["subject:the"] != 3 || r0["pgp"] != 2 {
			t.Errorf("stop %q: row 0 = %v", stop, r0)
		}
		if r1 := row(v, m, 1); r1["subject:pgp"] != 0 || r1["subject:clipper"] != 3 {
			t.Errorf("stop %q: row 1 = %v", stop, r1)
		}
		if r2 := row(v, m, 2); len(r2) != 2 && stop == "english" || r2["pgp"] != 1 {
			t.Errorf("stop %q: row 2 = %v", stop, r2)
		}
		if r3 := row(v, m, 3); r3["subject:long"] != 3 || r3["subject:tail"] != 0 {
			t.Errorf("stop %q: long document: subject:long %v, subject:tail %v; want 3, 0", stop, r3["subject:long"], r3["subject:tail"])
		}
		z := v.NewVectorizer()
		for i, text := range texts {
			ind, val := z.Vectorize(text)
			wi, wv := m.Row(i)
			if !slices.Equal(ind, wi) || !slices.Equal(val, wv) {
				t.Errorf("stop %q: Vectorize(text %d) differs from Fit's row", stop, i)
			}
		}
	}
}

func TestFieldsOffWithoutHeaders(t *testing.T) {
	// After --remove headers a body may open with "Name: value" lines; they
	// are not a header.
	s := DefaultSettings()
	s.Fields = "subject"
	for remove, want := range map[string]int{"": 5, "footers,quotes": 5, "headers": 4, "headers,footers": 4} {
		s.Remove = remove
		if got := len(NewTokenizer(s).Terms("Subject: forwarded\n\nhi there")); got != want {
			t.Errorf("Remove %q: %d terms, want %d", remove, got, want)
		}
	}
}
