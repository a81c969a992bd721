package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestCountVocabulary counts a small corpus: the documents, classes and
// document frequencies, a min_df that keeps no term relaxed to 1 with a
// warning (softMinDF) or refused (not soft), and the summary line.
func TestCountVocabulary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.tsv")
	if err := os.WriteFile(path, []byte("a\tgpu texture\nb\torbit launch\na\tgpu shader\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := &Source{Paths: []string{path}}
	vc, err := CountVocabulary(src, vectorize.DefaultSettings(), counts.Options{}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	v := vc.Vocab
	gpu, ok := v.Lookup("gpu")
	if vc.Docs != 3 || vc.Classes != 2 || v.Len() != 5 || !ok || v.DF[gpu] != 2 {
		t.Fatalf("docs %d, classes %d, terms %v, df %v", vc.Docs, vc.Classes, v.Terms, v.DF)
	}
	vc.Duration = 1500 * time.Millisecond
	if got, want := vc.Summary("v.tsv"), "vocabulary: 5 terms from 3 documents, 2 classes (1.50s) -> v.tsv"; got != want {
		t.Errorf("Summary: %q, want %q", got, want)
	}
	vc.Runs = 2
	if got, want := vc.Summary("-"), "vocabulary: 5 terms from 3 documents, 2 classes (1.50s) (2 runs spilled)"; got != want {
		t.Errorf("Summary: %q, want %q", got, want)
	}

	s := vectorize.DefaultSettings()
	s.MinDF = 3
	if _, err := CountVocabulary(src, s, counts.Options{}, false, nil); err == nil {
		t.Error("min_df 3 of 3 documents, not soft: no error")
	}
	var warned []string
	vc, err = CountVocabulary(src, s, counts.Options{}, true, func(msg string) { warned = append(warned, msg) })
	if err != nil || vc.Vocab.Len() != 5 {
		t.Fatalf("soft min_df: %v, %+v", err, vc)
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "--min-df 3 would keep no term") {
		t.Errorf("warnings %q", warned)
	}
}

// TestVocabOutput: --top out of range, and where the TSV and the table go.
func TestVocabOutput(t *testing.T) {
	wantUsage(t, "top", VocabOutput{Top: -1}.Check(), "--top must be ≥ 0, got -1")
	wantUsage(t, "ok", VocabOutput{Top: 3}.Check(), "")
	v, err := vectorize.NewVocabulary(vectorize.DefaultSettings(), []string{"gpu"}, []int32{2}, []int64{3}, 2)
	if err != nil {
		t.Fatal(err)
	}
	vc := &VocabCount{Vocab: v}
	file := filepath.Join(t.TempDir(), "v.tsv")
	for _, tc := range []struct {
		o             VocabOutput
		tsvOut, table bool
	}{
		{VocabOutput{}, true, false},
		{VocabOutput{Top: 1}, false, true},
		{VocabOutput{File: "-", Top: 1}, true, true},
		{VocabOutput{File: file, Top: 1}, false, true},
	} {
		var out strings.Builder
		if err := tc.o.Write(vc, &out); err != nil {
			t.Fatal(err)
		}
		got := out.String()
		if strings.Contains(got, "gpu\t2") != tc.tsvOut || strings.Contains(got, "rank") != tc.table {
			t.Errorf("%+v: stdout %q", tc.o, got)
		}
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), "gpu") {
		t.Errorf("file: %q, %v", b, err)
	}
}
