package vectorize

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The expected tokens below are what Python 3.11 gives for
// re.findall(r"(?u)\b\w\w+\b", text.lower()), scikit-learn's default.
func TestTokenizerDefault(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"Hello, World!", []string{"hello", "world"}},
		{"don't stop", []string{"don", "stop"}},
		{"a b cc I", []string{"cc"}},
		{"x² y½ ab² ¼¾", []string{"x²", "y½", "ab²", "¼¾"}},
		{"café Ÿes", []string{"café", "ÿes"}},
		{"Ñandú ÀÉÎ ×÷ ÀB", []string{"ñandú", "àéî", "àb"}},
		{"snake_case __ _a _", []string{"snake_case", "__", "_a"}},
		{"line1\r\nline2\rline3\n", []string{"line1", "line2", "line3"}},
		{"123 4 56 7.89", []string{"123", "56", "89"}},
		{"nai\u0308ve", []string{"nai", "ve"}},            // a combining mark is not \w
		{"İstanbul KİM", []string{"stanbul", "ki"}},       // İ lowers to i + U+0307
		{"ΟΔΟΣ ΟΔΟΣ. ΣΑ", []string{"οδος", "οδος", "σα"}}, // final sigma
		{"ﬁne 日本語 ٣٤ ⅫⅫ Ⅻ", []string{"ﬁne", "日本語", "٣٤", "ⅻⅻ"}},
		{"a\u00a0bb\tcc\u2003dd", []string{"bb", "cc", "dd"}},
		{"👍👍 ǅemal", []string{"ǆemal"}},
		{"MIXed é", []string{"mixed"}},
		{"bad \xff\xfe utf8\xc3", []string{"bad", "utf8"}},
		{strings.Repeat("Ab", 40) + " x", []string{strings.Repeat("ab", 40)}},
		{strings.Repeat("é", 70) + "Z", []string{strings.Repeat("é", 70) + "z"}},
	}
	tok := NewTokenizer(sklearnSettings())
	for _, tt := range tests {
		got := tok.Terms(tt.text)
		if !slices.Equal(got, tt.want) && len(got)+len(tt.want) > 0 {
			t.Errorf("Terms(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestTokenizerNoLowercase(t *testing.T) {
	s := DefaultSettings()
	s.Lowercase = false
	got := NewTokenizer(s).Terms("Hello İstanbul ΟΔΟΣ x")
	want := []string{"Hello", "İstanbul", "ΟΔΟΣ"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestTokenizerStopWordsAndNGrams(t *testing.T) {
	text := "The cat sat on the MAT, and the dog barked"
	tests := []struct {
		stop       string
		nmin, nmax int
		want       []string
	}{
		{"", 1, 1, []string{"the", "cat", "sat", "on", "the", "mat", "and", "the", "dog", "barked"}},
		{"english", 1, 1, []string{"cat", "sat", "mat", "dog", "barked"}},
		// n-grams are built after stop-word removal, unigrams first.
		{"english", 1, 2, []string{"cat", "sat", "mat", "dog", "barked", "cat sat", "sat mat", "mat dog", "dog barked"}},
		{"english", 2, 3, []string{"cat sat", "sat mat", "mat dog", "dog barked", "cat sat mat", "sat mat dog", "mat dog barked"}},
		{"english", 5, 5, []string{"cat sat mat dog barked"}},
		{"english", 6, 6, nil},
	}
	for _, tt := range tests {
		s := DefaultSettings()
		s.StopWords, s.NGramMin, s.NGramMax = tt.stop, tt.nmin, tt.nmax
		tok := NewTokenizer(s)
		got := tok.Terms(text)
		if !slices.Equal(got, tt.want) && len(got)+len(tt.want) > 0 {
			t.Errorf("stop %q ngram %d,%d: got %q, want %q", tt.stop, tt.nmin, tt.nmax, got, tt.want)
		}
		var each []string
		tok.Each(text, func(term string) { each = append(each, strings.Clone(term)) })
		if !slices.Equal(each, got) {
			t.Errorf("Each differs from Terms: %q vs %q", each, got)
		}
	}
}

func TestEnglishStopWords(t *testing.T) {
	w := EnglishStopWords()
	if len(w) != 318 {
		t.Fatalf("%d stop words, want scikit-learn's 318", len(w))
	}
	if !slices.IsSorted(w) {
		t.Error("stop words not sorted")
	}
	// The list's quirks, kept as scikit-learn has them.
	for _, s := range []string{"a", "amoungst", "couldnt", "hasnt", "noone", "system", "bill", "yourselves", "fire"} {
		if _, ok := slices.BinarySearch(w, s); !ok {
			t.Errorf("%q missing", s)
		}
	}
	for _, s := range []string{"couldn't", "no one", "don", "nbtext"} {
		if _, ok := slices.BinarySearch(w, s); ok {
			t.Errorf("%q should not be a stop word", s)
		}
	}
}

// refTerms is a plain rune-at-a-time statement of the tokenizer: lower
// the whole text as Python does, then keep every maximal run of at least
// two word runes.
func refTerms(text string, lower bool) []string {
	var low []rune
	for j, r := range text {
		switch {
		case !lower:
			low = append(low, r)
		case r == 'İ':
			low = append(low, 'i', '\u0307')
		case r == 'Σ':
			if finalSigma(text, j, j+utf8.RuneLen(r)) {
				low = append(low, 'ς')
			} else {
				low = append(low, 'σ')
			}
		default:
			low = append(low, unicode.ToLower(r))
		}
	}
	var out []string
	start := -1
	for i := 0; i <= len(low); i++ {
		if i < len(low) && IsWordRune(low[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start >= 2 {
			out = append(out, string(low[start:i]))
		}
		start = -1
	}
	return out
}

// randomText draws n runes from an alphabet rich in boundaries: ASCII of
// every class, Latin-1, marks, Greek sigma, İ, numbers that are not
// digits, invalid bytes.
func randomText(r *rand.Rand, n int) string {
	alphabet := []string{"a", "Z", "q", "7", "_", " ", "\n", "\r", "'", ".", "-", "\t",
		"é", "É", "ß", "²", "½", "\u0301", "\u0307", "Σ", "σ", "İ", "ʰ", "Ⅳ", "ǅ", "·",
		"\u00a0", "\u200d", "日", "\xff", "\xc3", "👍", "ﬁ", "K"}
	var b strings.Builder
	for range n {
		if r.IntN(3) == 0 {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		} else {
			const ascii = "abcdefgHIJKLM_ 0123 \n,."
			b.WriteByte(ascii[r.IntN(len(ascii))])
		}
	}
	return b.String()
}

func TestTokenizerMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, lower := range []bool{true, false} {
		s := sklearnSettings()
		s.Lowercase = lower
		tok := NewTokenizer(s)
		for i := range 3000 {
			text := randomText(r, r.IntN(200))
			got := tok.Terms(text)
			want := refTerms(text, lower)
			if !slices.Equal(got, want) && len(got)+len(want) > 0 {
				t.Fatalf("case %d lower=%v: Terms(%q)\n got %q\nwant %q", i, lower, text, got, want)
			}
		}
	}
}

func TestTokenizerTermsStableWithinDocument(t *testing.T) {
	// Lowered tokens live in the arena, which may grow mid-document: the
	// earlier terms must keep their text.
	text := strings.Repeat("ABCD efgh ÉCOLE ", 3000)
	s := DefaultSettings()
	s.NGramMax = 2
	got := NewTokenizer(s).Terms(text)
	for i, term := range got[:9000] {
		if want := [3]string{"abcd", "efgh", "école"}[i%3]; term != want {
			t.Fatalf("term %d = %q, want %q", i, term, want)
		}
	}
	if got[9000] != "abcd efgh" || got[len(got)-1] != "efgh école" {
		t.Errorf("bigrams: %q … %q", got[9000], got[len(got)-1])
	}
}

func TestIsWordRune(t *testing.T) {
	for _, r := range "aZ09_éÿß²³¹¼½¾日Ⅻǅʰ" {
		if !IsWordRune(r) {
			t.Errorf("IsWordRune(%q) = false", r)
		}
	}
	for _, r := range " \t\n'-.,×÷·\u0301\u0307\u00a0\u200d👍\ufffd" {
		if IsWordRune(r) {
			t.Errorf("IsWordRune(%q) = true", r)
		}
	}
}

func TestScanMasks(t *testing.T) {
	// Every byte value at every position of a 64-byte block, and a tail.
	tok := NewTokenizer(DefaultSettings())
	for shift := range 67 {
		var b []byte
		for c := range 256 {
			b = append(b, byte(c))
			for range shift % 7 {
				b = append(b, 'x')
			}
		}
		b = append(make([]byte, shift), b...)
		s := string(b)
		tok.scan(s)
		for i := 0; i < len(s)+64; i++ {
			bit := func(m []uint64) bool { return i>>6 < len(m) && m[i>>6]>>(i&63)&1 != 0 }
			var c byte
			if i < len(s) {
				c = s[i]
			}
			word := i < len(s) && (asciiClass[c]&clsWord != 0 || c >= 0x80)
			upper := i < len(s) && asciiClass[c]&clsUpper != 0
			high := i < len(s) && c >= 0x80
			if bit(tok.wordMask) != word || bit(tok.upperMask) != upper || bit(tok.highMask) != high {
				t.Fatalf("byte %#x at %d: masks word %v upper %v high %v", c, i, bit(tok.wordMask), bit(tok.upperMask), bit(tok.highMask))
			}
		}
	}
}

// TestScanBlocksGo checks scanBlocks (packed SSE2 on amd64) against
// scanBlocksGo, which other platforms use, on random blocks of bytes from
// every class.
func TestScanBlocksGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const blocks = 64
	b := make([]byte, blocks*64)
	for round := range 50 {
		for i := range b {
			switch round % 3 {
			case 0:
				b[i] = byte(r.IntN(256))
			case 1: // mostly ASCII near the class boundaries
				const edges = "/09:@AZ[`az{_^ \x80\xff"
				b[i] = edges[r.IntN(len(edges))]
			default:
				b[i] = byte('a' + r.IntN(26))
			}
		}
		var got, want [3][blocks]uint64
		gh, gu := scanBlocks(b, got[0][:], got[1][:], got[2][:])
		wh, wu := scanBlocksGo(b, want[0][:], want[1][:], want[2][:])
		if got != want || gh != wh || gu != wu {
			t.Fatalf("round %d: scanBlocks differs from scanBlocksGo", round)
		}
	}
}

// sklearnSettings are DefaultSettings without CJK bigrams: scikit-learn's
// word analyzer exactly, which the reference tests check against.
func sklearnSettings() Settings {
	s := DefaultSettings()
	s.CJKBigrams = false
	return s
}
