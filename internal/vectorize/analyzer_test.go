package vectorize

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func analysisSettings(a Analysis) Settings {
	s := DefaultSettings()
	s.Analysis = a
	return s
}

func TestAnalyzers(t *testing.T) {
	tests := []struct {
		name string
		a    Analysis
		text string
		want []string
	}{
		// scikit-learn: CountVectorizer(analyzer='char', ngram_range=(1, 2)).build_analyzer()
		{"char", Analysis{Analyzer: "char", CharMin: 1, CharMax: 2}, "Ab  c\td",
			[]string{"a", "b", " ", "c", "\t", "d", "ab", "b ", " c", "c\t", "\td"}},
		{"char longer than text", Analysis{Analyzer: "char", CharMin: 2, CharMax: 5}, "abc",
			[]string{"ab", "bc", "abc"}},
		// scikit-learn: analyzer='char_wb', ngram_range=(2, 4)
		{"char_wb", Analysis{Analyzer: "char_wb", CharMin: 2, CharMax: 4}, "a Bcd",
			[]string{" a", "a ", " a ", " b", "bc", "cd", "d ", " bc", "bcd", "cd ", " bcd", "bcd "}},
		{"char_wb short word once", Analysis{Analyzer: "char_wb", CharMin: 4, CharMax: 6}, "x\n\nyz",
			[]string{" x ", " yz "}},
		{"char unicode lower", Analysis{Analyzer: "char", CharMin: 1, CharMax: 1}, "ΟΣ İ",
			[]string{"ο", "ς", " ", "i", "\u0307"}},
		{"cjk bigrams", Analysis{CJKBigrams: true}, "日本語のテスト abc漢字 猫 x",
			[]string{"日本", "本語", "語の", "のテ", "テス", "スト", "abc", "漢字", "猫"}},
		{"cjk katakana prolonged", Analysis{CJKBigrams: true}, "コーヒー",
			[]string{"コー", "ーヒ", "ヒー"}},
		{"thai with marks", Analysis{CJKBigrams: true}, "ภาษาไทย",
			[]string{"ภา", "าษ", "ษา", "าไ", "ไท", "ทย"}},
		{"hangul", Analysis{CJKBigrams: true}, "한국어 텍스트",
			[]string{"한국", "국어", "텍스", "스트"}},
		{"no cjk", Analysis{}, "日本語 猫", []string{"日本語"}},
		{"nfkc", Analysis{Normalize: "nfkc"}, "ＡＢＣ ｶﾀｶﾅ ﬁne", []string{"abc", "カタカナ", "fine"}},
		{"case fold", Analysis{CaseFold: true}, "Straße ΣΑΣ", []string{"strasse", "σασ"}},
		{"strip accents", Analysis{StripAccents: true}, "Café naïve İyi", []string{"cafe", "naive", "iyi"}},
		{"token pattern", Analysis{TokenPattern: `[\pL\pN_]+`}, "a Bb c-d", []string{"a", "bb", "c", "d"}},
		{"token pattern group", Analysis{TokenPattern: `#(\w+)`}, "#Go and #rust", []string{"go", "rust"}},
		{"subwords", Analysis{SubwordMin: 3, SubwordMax: 3}, "where",
			[]string{"where", "^<wh", "^whe", "^her", "^ere", "^re>"}},
		{"subwords whole word", Analysis{SubwordMin: 1, SubwordMax: 4}, "ab",
			[]string{"ab", "^<a", "^<ab", "^<ab>", "^a", "^ab", "^ab>", "^b", "^b>"}},
	}
	for _, tt := range tests {
		s := analysisSettings(tt.a)
		if err := s.Validate(); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := NewTokenizer(s).Terms(tt.text)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Terms(%q)\n got %q\nwant %q", tt.name, tt.text, got, tt.want)
		}
	}
}

func TestAnalysisValidate(t *testing.T) {
	bad := []struct {
		a    Analysis
		edit func(*Settings)
		want string
	}{
		{Analysis{Analyzer: "chars"}, nil, "--analyzer"},
		{Analysis{Analyzer: "char"}, nil, "--char-ngram"},
		{Analysis{Analyzer: "char", CharMin: 3, CharMax: 2}, nil, "--char-ngram"},
		{Analysis{Analyzer: "char_wb", CharMin: 1, CharMax: 3}, func(s *Settings) { s.NGramMax = 2 }, "--ngram"},
		{Analysis{Analyzer: "char_wb", CharMin: 1, CharMax: 3}, func(s *Settings) { s.StopWords = "english" }, "--stop-words"},
		{Analysis{CharMin: 1, CharMax: 3}, nil, "--char-ngram"},
		{Analysis{SubwordMin: 0, SubwordMax: 3}, nil, "--subwords"},
		{Analysis{Normalize: "nfc"}, nil, "--unicode-norm"},
		{Analysis{CaseFold: true}, func(s *Settings) { s.Lowercase = false }, "--case-fold"},
		{Analysis{TokenPattern: "("}, nil, "--token-pattern"},
		{Analysis{TokenPattern: "(a)(b)"}, nil, "--token-pattern"},
	}
	for _, tt := range bad {
		s := analysisSettings(tt.a)
		if tt.edit != nil {
			tt.edit(&s)
		}
		err := s.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: err = %v, want one naming %s", tt.a, err, tt.want)
		}
	}
}

// TestAnalyzerFitMatchesTransform checks that Fit's rows (in memory and by
// hashing) are the rows Vectorize gives, for every analyzer.
func TestAnalyzerFitMatchesTransform(t *testing.T) {
	texts := []string{
		"The cat sat on the mat.\tThe  end",
		"東京都の天気は晴れ。猫",
		"Ｆｕｌｌ width ＡＢＣ and café naïve",
		"where were   we",
		strings.Repeat("long text, ", 50),
	}
	for _, a := range []Analysis{
		{Analyzer: "char", CharMin: 1, CharMax: 3},
		{Analyzer: "char_wb", CharMin: 2, CharMax: 4, Normalize: "nfkc"},
		{CJKBigrams: true, Normalize: "nfkc", CaseFold: true, StripAccents: true},
		{SubwordMin: 2, SubwordMax: 4, CJKBigrams: true},
		{TokenPattern: `\S+`},
	} {
		for _, hashBits := range []int{0, 10} {
			for _, ngram := range []int{1, 2} {
				s := analysisSettings(a)
				s.HashBits = hashBits
				if ngram == 2 && a.Analyzer == "" {
					s.NGramMax = 2
				} else if ngram == 2 {
					continue
				}
				v, m, err := Fit(texts, nil, 0, s, 2, nil)
				if err != nil {
					t.Fatalf("%+v: %v", s, err)
				}
				z := v.NewVectorizer()
				for i, text := range texts {
					ind, val := z.Vectorize(text)
					lo, hi := m.Indptr[i], m.Indptr[i+1]
					if !slices.Equal(ind, m.Indices[lo:hi]) || !slices.Equal(val, m.Values[lo:hi]) {
						t.Fatalf("%+v doc %d: Vectorize %v %v, Fit %v %v", s, i, ind, val, m.Indices[lo:hi], m.Values[lo:hi])
					}
				}
			}
		}
	}
}

func TestVocabularyFileEscapes(t *testing.T) {
	s := analysisSettings(Analysis{Analyzer: "char", CharMin: 1, CharMax: 2})
	s.CJKBigrams = false
	texts := []string{"a\tb\\c\nd\re#f", "#x"}
	v, err := FitVocabulary(texts, nil, 0, s, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteTSV(&buf, v); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTSV(&buf, "v.tsv")
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !slices.Equal(back.Terms, v.Terms) || back.Settings != v.Settings {
		t.Fatalf("read back %q %+v, want %q %+v", back.Terms, back.Settings, v.Terms, v.Settings)
	}
	if _, err := ReadTSV(strings.NewReader(strings.Replace(buf.String(), "\\\\", "\\q", 1)), "v.tsv"); err == nil {
		t.Fatal("a bad escape was accepted")
	}
}

// TestOlderVocabularyKeepsItsAnalyzer checks that a vocabulary file that
// records no analysis reads back with the zero Analysis: no CJK bigrams,
// whatever DefaultSettings now says.
func TestOlderVocabularyKeepsItsAnalyzer(t *testing.T) {
	const file = "# nbtext vocabulary v1\n# terms 1\n# documents 1\n" +
		`# settings {"lowercase":true,"stop_words":"","ngram_min":1,"ngram_max":1,"min_df":1,"max_df":1,"max_features":0,"select":"","weighting":"count","sublinear_tf":false,"norm":"none"}` +
		"\nterm\tdf\tcf\n日本語\t1\t1\n"
	v, err := ReadTSV(strings.NewReader(file), "old.tsv")
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.Analysis != (Analysis{}) {
		t.Fatalf("older file read with analysis %+v", v.Settings.Analysis)
	}
	if got := NewTokenizer(v.Settings).Terms("日本語"); !slices.Equal(got, []string{"日本語"}) {
		t.Fatalf("older file tokenizes 日本語 as %q", got)
	}
}
