package pipeline

import (
	"bytes"
	"compress/gzip"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// TestSourceSize: plain files count their bytes, folders the bytes of
// their files, gzip files the size their trailer records; stdin is
// unknown.
func TestSourceSize(t *testing.T) {
	dir := t.TempDir()
	text := strings.Repeat("spam\tbuy cheap pills now\n", 4000)
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := write("a.tsv", []byte(text))
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(text))
	w.Close()
	zipped := write("a.tsv.gz", gz.Bytes())
	write("folder/x/1.txt", []byte("hello"))
	write("folder/y/2.txt", []byte("world!"))
	for _, tt := range []struct {
		paths []string
		want  int64
		known bool
	}{
		{[]string{plain}, int64(len(text)), true},
		{[]string{zipped}, int64(len(text)), true},
		{[]string{filepath.Join(dir, "folder")}, 11, true},
		{[]string{plain, zipped}, 2 * int64(len(text)), true},
		{[]string{"-"}, 0, false},
	} {
		s := &Source{Paths: tt.paths}
		if got, known := s.size(); got != tt.want || known != tt.known {
			t.Errorf("size(%v) = %d, %v; want %d, %v", tt.paths, got, known, tt.want, tt.known)
		}
	}
}

// TestChoose: the strategy StreamAuto picks for kinds, budgets and
// options, and that StreamAlways and StreamNever are obeyed.
func TestChoose(t *testing.T) {
	dir := t.TempDir()
	corpus := filepath.Join(dir, "c.tsv")
	if err := os.WriteFile(corpus, bytes.Repeat([]byte("a\tsome words here\n"), 1<<16), 0o644); err != nil { // 1.1 MiB
		t.Fatal(err)
	}
	params := func(temp float64) func([]string, []int) (model.Params, bool, error) {
		return func([]string, []int) (model.Params, bool, error) {
			_, p := train.Defaults(model.Complement)
			p.Temperature = temp
			return p, false, nil
		}
	}
	budget := func(n int64) membudget.Budget { return membudget.Budget{Bytes: n, Source: "--mem"} }
	for _, tt := range []struct {
		name   string
		plan   Plan
		stream bool
		why    string
	}{
		{"small multinomial", Plan{Kind: model.Multinomial, Budget: budget(1 << 40)}, false, "streaming gives the same model"},
		{"multinomial past the quota", Plan{Kind: model.Multinomial, Budget: budget(16 << 20)}, true, "the same model as in memory"},
		{"complement past the quota", Plan{Kind: model.Complement, Budget: budget(16 << 20)}, false, "within half the budget"},
		{"complement given τ", Plan{Kind: model.Complement, Budget: budget(16 << 20), Params: params(1)}, true, "the same model"},
		{"complement past half", Plan{Kind: model.Complement, Budget: budget(8 << 20), Params: params(0)}, true, "over half the budget 8.0 MiB (--mem)"},
		{"text with fields", Plan{Kind: model.Multinomial, Budget: budget(16 << 20), Fields: train.FieldSpec{Categorical: []string{"x"}}}, false, "within half the budget"},
		{"record fields alone", Plan{Kind: model.Categorical, Budget: budget(16 << 20), Fields: train.FieldSpec{Categorical: []string{"x"}}}, true, "the same model"},
		{"lda", Plan{Kind: model.LDA, Budget: budget(1 << 20)}, false, "lda is fitted on documents held in memory"},
		{"tuned", Plan{Kind: model.Multinomial, Budget: budget(1 << 20), Tune: true}, false, "cross-validating"},
		{"forced", Plan{Kind: model.Multinomial, Budget: budget(1 << 20), Stream: StreamNever}, false, ""},
		{"forced stream", Plan{Kind: model.LDA, Budget: budget(1 << 40), Stream: StreamAlways}, true, ""},
		{"no budget", Plan{Kind: model.Complement, Budget: budget(math.MaxInt64)}, false, "within half"},
		// 1.1 MiB: about 7.3 MiB held by complement NB, 19 MiB by the SVM.
		{"svm holds more", Plan{Kind: model.SVM, Budget: budget(24 << 20)}, true, "would need about 19.1 MiB"},
		{"complement within", Plan{Kind: model.Complement, Budget: budget(24 << 20)}, false, "within half"},
	} {
		p := tt.plan
		p.Source = Source{Paths: []string{corpus}}
		r := &run{Plan: &p, rep: &Report{}}
		stream, why := r.choose()
		if stream != tt.stream || !strings.Contains(why, tt.why) || (tt.why == "" && why != "") {
			t.Errorf("%s: choose() = %v, %q; want %v, %q", tt.name, stream, why, tt.stream, tt.why)
		}
	}
}
