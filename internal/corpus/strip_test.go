package corpus

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The expected values below are worked out by hand from scikit-learn's
// definitions in sklearn/datasets/_twenty_newsgroups.py.

func TestStripHeader(t *testing.T) {
	tests := []struct{ in, want string }{
		{"From: a\nSubject: b\n\nbody\n\nmore", "body\n\nmore"},
		{"\n\nbody", "body"},
		{"From: a\n\n", ""},
		{"no blank line at all\n", ""},       // partition finds nothing: empty
		{"From: a\r\n\r\nbody\r\n", ""},      // "\r\n\r\n" is not "\n\n"
		{"From: a\n \nbody\n\nrest", "rest"}, // a line of a space is not blank
		{"", ""},
	}
	for _, tt := range tests {
		if got := StripHeader(tt.in); got != tt.want {
			t.Errorf("StripHeader(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStripFooter(t *testing.T) {
	tests := []struct{ in, want string }{
		// lines after trimming: Hello, world, "", "-- ", Bob: "-- " is the
		// last separator, so lines[:3] joined: "Hello\nworld\n".
		{"Hello\nworld\n\n-- \nBob\n", "Hello\nworld\n"},
		{"Text\n-----\nsig", "Text"},
		{"Para one\n\nPara two", "Para one"},       // a blank line separates too
		{"  Para one\n\nPara two  \n", "Para one"}, // the result is the trimmed text
		{"a\n\n\nb", "a\n"},                        // the last blank line counts
		{"one line", "one line"},                   // no separator: unchanged
		{"a\nb\nc\n", "a\nb\nc\n"},                 // unchanged, not even trimmed
		{"-----\nsig", "-----\nsig"},               // separator on the first line: unchanged
		{"\n\n  a\nb\n\n", "\n\n  a\nb\n\n"},       // trimmed "a\nb" has none: unchanged
		{"a\n- -\nb", "a\n- -\nb"},                 // "- -" is not only hyphens
		{"a\n --- \nb", "a"},                       // hyphens inside white space
		{"a\n\u00a0\nb", "a"},                      // U+00A0 is white space in Python
		{"a\n\x1c\nb", "a"},                        // so is U+001C
		{"a\n\x1c", "a\n\x1c"},                     // trailing U+001C trimmed first: no separator
		{"a\n\t\r\nb", "a"},                        // tab and CR are white space
		{"", ""},
		{"\n\n", "\n\n"},
	}
	for _, tt := range tests {
		if got := StripFooter(tt.in); got != tt.want {
			t.Errorf("StripFooter(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStripQuotes(t *testing.T) {
	tests := []struct{ in, want string }{
		{"In article <1@x> bob@x writes:\n> quoted\nreply\n| piped\nnot In article\nQuoted from x\nhe said: hi\nkeep",
			"reply\nnot In article\nkeep"},
		{"She wrote: x\nkeep 1\nhe says: x\nkeep 2\nbob writes in x\nend", "keep 1\nkeep 2\nend"},
		{" > indented\nin article\nWROTE:\nwrote :", " > indented\nin article\nWROTE:\nwrote :"}, // prefix at start only; case matters
		{"a\n>b\n", "a\n"},
		{">a\nb", "b"},
		{"> only", ""},
		{"a\n\nb", "a\n\nb"},
		{"", ""},
		{"a\r\n> b\r\nc", "a\r\nc"},
	}
	for _, tt := range tests {
		if got := StripQuotes(tt.in); got != tt.want {
			t.Errorf("StripQuotes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestStripOrder(t *testing.T) {
	// scikit-learn strips headers, then footers, then quotes. Here the
	// order shows: quotes first would leave "a\n\nb\n", whose footer
	// strip gives "a".
	in := "Subject: x\n\na\n\nb\n\n> q"
	tests := []struct {
		r    Remove
		want string
	}{
		{0, in},
		{RemoveHeaders, "a\n\nb\n\n> q"},
		{RemoveHeaders | RemoveFooters, "a\n\nb"},
		{RemoveHeaders | RemoveQuotes, "a\n\nb\n"},
		{RemoveHeaders | RemoveFooters | RemoveQuotes, "a\n\nb"},
		{RemoveFooters | RemoveQuotes, "Subject: x\n\na\n\nb"},
	}
	for _, tt := range tests {
		if got := Strip(in, tt.r); got != tt.want {
			t.Errorf("Strip(%q, %s) = %q, want %q", in, tt.r, got, tt.want)
		}
	}
}

func TestParseRemove(t *testing.T) {
	for in, want := range map[string]Remove{
		"":                       0,
		"headers":                RemoveHeaders,
		"quotes, headers":        RemoveHeaders | RemoveQuotes,
		"headers,footers,quotes": RemoveHeaders | RemoveFooters | RemoveQuotes,
	} {
		got, err := ParseRemove(in)
		if err != nil || got != want {
			t.Errorf("ParseRemove(%q) = %v, %v; want %v", in, got, err, want)
		}
		if back, _ := ParseRemove(got.String()); back != got {
			t.Errorf("%v does not round-trip through %q", got, got.String())
		}
	}
	if _, err := ParseRemove("headers,signatures"); err == nil {
		t.Error("ParseRemove(signatures): no error")
	}
}

// isQuoteRef is _QUOTE_RE spelled out: the reference for isQuote.
func isQuoteRef(line string) bool {
	for _, m := range []string{"writes in", "writes:", "wrote:", "says:", "said:"} {
		if strings.Contains(line, m) {
			return true
		}
	}
	for _, p := range []string{"In article", "Quoted from", "|", ">"} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

func TestIsQuote(t *testing.T) {
	atoms := []string{"writes", "wrote", "says", "said", ":", " in", "in", " ", "a", ">", "|", "In article", "Quoted from", "::", "s:"}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		var sb strings.Builder
		for n := r.IntN(6); n > 0; n-- {
			sb.WriteString(atoms[r.IntN(len(atoms))])
		}
		line := sb.String()
		if got, want := isQuote(line), isQuoteRef(line); got != want {
			t.Fatalf("isQuote(%q) = %v, want %v", line, got, want)
		}
	}
}
