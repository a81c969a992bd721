package train

import (
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestAnalyzersOnSharedCorpora checks, on the train split of each shared
// non-English corpus (its documents cut to their first 200 characters,
// every third one held out; ldcc: half of them), what docs/languages.md reports from the
// held-out experiments: multinomial NB on character n-grams inside words
// (char_wb 2-4) beats the same model on scikit-learn's word tokens, and on
// Japanese the CJK bigrams of the word analyzer do too. The corpora come
// from NBTEXT_LDCC_TARBALL, NBTEXT_TTC_TARBALL and
// NBTEXT_LANGDETECT_TARBALL; each part skips without its variable.
func TestAnalyzersOnSharedCorpora(t *testing.T) {
	for _, c := range []struct {
		env     string
		cjkGain float64 // least gain of CJK bigrams over the legacy words
		chrGain float64 // least gain of char_wb 2-4 over the legacy words
	}{
		{"NBTEXT_LDCC_TARBALL", 0.01, 0.04},     // seen: +0.028, +0.092
		{"NBTEXT_TTC_TARBALL", 0, 0.005},        // seen: 0, +0.019 (no CJK: same terms)
		{"NBTEXT_LANGDETECT_TARBALL", 0, 0.005}, // seen: 0, +0.012
	} {
		t.Run(c.env, func(t *testing.T) {
			path := os.Getenv(c.env)
			if path == "" {
				t.Skipf("%s is not set: no corpus", c.env)
			}
			cp, err := corpus.Read(path, corpus.Options{Split: "train"})
			if err != nil {
				t.Fatal(err)
			}
			texts, y := cp.Texts(), cp.LabelIDs()
			var trX, teX []string
			var trY, teY []int
			step := max(1, len(texts)/3000) // ldcc: half of it, for time
			for i, text := range texts {
				if i%step != 0 {
					continue
				}
				text = strings.TrimLeftFunc(strings.TrimPrefix(text, "\uFEFF"), unicode.IsSpace)
				if r := []rune(text); len(r) > 200 {
					text = string(r[:200])
				}
				if i/step%3 == 0 {
					teX, teY = append(teX, text), append(teY, y[i])
				} else {
					trX, trY = append(trX, text), append(trY, y[i])
				}
			}
			acc := func(a vectorize.Analysis) float64 {
				s, p := Defaults(model.Multinomial)
				s.Fields, s.Analysis = "", a
				v, X, err := Prepare(trX, trY, len(cp.Labels), s, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				m, err := Fit(model.Multinomial, X, trY, cp.Labels, v, p, Options{NoCalibrate: true})
				if err != nil {
					t.Fatal(err)
				}
				T := PrepareWith(v, teX, 0)
				right := 0
				for i := range teX {
					lo, hi := T.Indptr[i], T.Indptr[i+1]
					if m.Predict(T.Indices[lo:hi], T.Values[lo:hi]).Class == teY[i] {
						right++
					}
				}
				return float64(right) / float64(len(teX))
			}
			legacy := acc(vectorize.Analysis{})
			cjk := acc(vectorize.Analysis{CJKBigrams: true})
			chars := acc(vectorize.Analysis{Analyzer: "char_wb", CharMin: 2, CharMax: 4})
			t.Logf("%s, 200 characters, multinomial NB: words %.4f, CJK bigrams %.4f, char_wb 2-4 %.4f", c.env, legacy, cjk, chars)
			if cjk < legacy+c.cjkGain {
				t.Errorf("CJK bigrams %.4f, want ≥ words %.4f + %.2f", cjk, legacy, c.cjkGain)
			}
			if chars < legacy+c.chrGain {
				t.Errorf("char_wb 2-4 %.4f, want ≥ words %.4f + %.2f", chars, legacy, c.chrGain)
			}
		})
	}
}
