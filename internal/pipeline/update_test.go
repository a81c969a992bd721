package pipeline

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/update"
	"github.com/nbtext/nbtext/internal/vectorize"
)

const (
	oldDocs = "autos\tthe engine and the brake\nspace\torbit of the moon\nautos\tengine oil\nspace\tlaunch to orbit\n"
	newDocs = "autos\tbrake pads wear\nspace\tmoon landing\ngraphics\tgpu texture\n"
)

// trainFile trains a model of kind on the TSV corpus at src in memory,
// with count weighting and min_df 1, to out, keeping its counts in keep
// when not empty.
func trainFile(t *testing.T, kind model.Kind, src, out, keep string) {
	t.Helper()
	p := &Plan{Source: Source{Paths: []string{src}}, Kind: kind, Stream: StreamNever, Output: out, KeepCounts: keep,
		Budget: membudget.Budget{Bytes: 1 << 40},
		Vectorizer: func(s *vectorize.Settings) error {
			s.Weighting, s.MinDF, s.Norm = "count", 1, ""
			return nil
		},
		Params: func([]string, []int) (model.Params, bool, error) {
			_, p := train.Defaults(kind)
			p.Temperature = 1
			return p, false, nil
		},
	}
	if _, err := Run(p); err != nil {
		t.Fatal(err)
	}
}

func writeTSV(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func openSource(arg, remove string) (Source, error) {
	return Source{Paths: []string{arg}}.withRemove(remove)
}

// TestUpdateModelExact: updating a naive Bayes model with new documents
// gives the bytes of the model trained on all of them (without history),
// forgetting them gives back the model before, the history records the
// steps with SOURCE_DATE_EPOCH's date, the files are checked before
// anything is read, and the summary counts the documents.
func TestUpdateModelExact(t *testing.T) {
	dir := t.TempDir()
	a := writeTSV(t, dir, "a.tsv", oldDocs)
	b := writeTSV(t, dir, "b.tsv", newDocs)
	ab := writeTSV(t, dir, "ab.tsv", oldDocs+newDocs)
	path := func(name string) string { return filepath.Join(dir, name) }
	trainFile(t, model.Multinomial, a, path("a.nbm"), CountsPath(path("a.nbm")))
	trainFile(t, model.Multinomial, ab, path("ab.nbm"), "")

	var checked [][]string
	check := func(corpus, inputs []string, outputs ...string) error {
		checked = append(checked, slices.Concat(corpus, inputs, outputs))
		return nil
	}
	r, err := UpdateModel(UpdateOptions{ModelPath: path("a.nbm"), Corpus: b, Output: path("up.nbm"), NoHistory: true, Source: openSource, CheckFiles: check})
	if err != nil {
		t.Fatal(err)
	}
	same := func(x, y string) {
		t.Helper()
		bx, err1 := os.ReadFile(x)
		by, err2 := os.ReadFile(y)
		if err1 != nil || err2 != nil || !bytes.Equal(bx, by) {
			t.Errorf("%s and %s differ (%v, %v)", x, y, err1, err2)
		}
	}
	same(path("up.nbm"), path("ab.nbm"))
	want := []string{b, path("a.nbm"), path("a.nbc"), "", path("up.nbm"), path("up.nbc")}
	if len(checked) != 1 || !slices.Equal(checked[0], want) {
		t.Errorf("CheckFiles got %q, want %q", checked, want)
	}
	if r.Old != 4 || r.Delta != 3 || r.Counts.Documents() != 7 || r.Linear || r.CountsOut != path("up.nbc") {
		t.Errorf("report %+v", r)
	}
	var w strings.Builder
	r.Write(&w)
	if want := "model        multinomial, updated -> " + path("up.nbm") + " (counts " + path("up.nbc") + ")\ndocuments    4 +3 = 7\nclasses      3\nvocabulary   "; !strings.HasPrefix(w.String(), want) {
		t.Errorf("summary\n%s\nwant it to start with\n%s", w.String(), want)
	}

	r, err = UpdateModel(UpdateOptions{ModelPath: path("up.nbm"), Corpus: b, Output: path("back.nbm"), Forget: true, NoHistory: true, Source: openSource})
	if err != nil {
		t.Fatal(err)
	}
	same(path("back.nbm"), path("a.nbm"))
	w.Reset()
	r.Write(&w)
	if !strings.Contains(w.String(), "forgotten -> ") || !strings.Contains(w.String(), "documents    7 -3 = 4\n") {
		t.Errorf("forget summary\n%s", w.String())
	}

	// The history step, dated by SOURCE_DATE_EPOCH.
	if _, err := UpdateModel(UpdateOptions{ModelPath: path("a.nbm"), Corpus: b, Split: "test", Output: path("h.nbm"), SourceDateEpoch: "86400", Version: "v7", Source: openSource}); err != nil {
		t.Fatal(err)
	}
	m, err := model.Load(path("h.nbm"))
	if err != nil {
		t.Fatal(err)
	}
	h := m.Meta.History
	if len(h) != 2 || h[0].Op != "train" || h[1].Op != "update" || h[1].Date != "1970-01-02T00:00:00Z" || h[1].Source != b+" (split test)" || m.Meta.Version != "v7" {
		t.Errorf("history %+v, version %q", h, m.Meta.Version)
	}
}

// TestUpdateModelRefusals: a model that does not load, a bad
// SOURCE_DATE_EPOCH, missing counts, --counts of a linear model, a model
// that cannot be updated from counts, and a refusal of CheckFiles, each
// before anything is written.
func TestUpdateModelRefusals(t *testing.T) {
	dir := t.TempDir()
	a := writeTSV(t, dir, "a.tsv", oldDocs)
	b := writeTSV(t, dir, "b.tsv", newDocs)
	nb, lr := filepath.Join(dir, "nb.nbm"), filepath.Join(dir, "lr.nbm")
	trainFile(t, model.Multinomial, a, nb, "")
	trainFile(t, model.LogReg, a, lr, "")
	out := filepath.Join(dir, "out.nbm")
	opts := func(m string) UpdateOptions {
		return UpdateOptions{ModelPath: m, Corpus: b, Output: out, Source: openSource}
	}
	var u *UsageError
	o := opts(filepath.Join(dir, "none.nbm"))
	if _, err := UpdateModel(o); !errors.Is(err, model.ErrModelFile) {
		t.Errorf("missing model: %v", err)
	}
	o = opts(nb)
	o.SourceDateEpoch = "yesterday"
	if _, err := UpdateModel(o); !errors.As(err, &u) || !strings.Contains(err.Error(), "SOURCE_DATE_EPOCH") {
		t.Errorf("bad SOURCE_DATE_EPOCH: %v", err)
	}
	if _, err := UpdateModel(opts(nb)); !errors.Is(err, update.ErrNoCounts) || !strings.Contains(err.Error(), "'nbtext count --model multinomial'") {
		t.Errorf("missing counts: %v", err)
	}
	o = opts(nb)
	o.Forget = true
	if _, err := UpdateModel(o); !errors.Is(err, update.ErrNoCounts) || !strings.Contains(err.Error(), "needed to forget it") {
		t.Errorf("missing counts of forget: %v", err)
	}
	o = opts(lr)
	o.Counts = filepath.Join(dir, "x.nbc")
	if _, err := UpdateModel(o); !errors.As(err, &u) || err.Error() != "--counts: logreg models keep no counts" {
		t.Errorf("--counts of logreg: %v", err)
	}
	o = opts(lr)
	o.Forget = true
	if _, err := UpdateModel(o); !errors.As(err, &u) || !strings.HasPrefix(err.Error(), lr+": ") {
		t.Errorf("forget of logreg: %v", err)
	}
	o = opts(lr)
	refused := errors.New("refused")
	o.CheckFiles = func([]string, []string, ...string) error { return refused }
	if _, err := UpdateModel(o); err != refused {
		t.Errorf("CheckFiles: %v", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refused update wrote %s: %v", out, err)
	}
}

// TestUpdateModelLinear: a logistic regression model is warm-started on
// the new documents and the replayed old ones, and learns the new class.
func TestUpdateModelLinear(t *testing.T) {
	dir := t.TempDir()
	a := writeTSV(t, dir, "a.tsv", oldDocs)
	b := writeTSV(t, dir, "b.tsv", newDocs)
	lr := filepath.Join(dir, "lr.nbm")
	trainFile(t, model.LogReg, a, lr, "")
	out := filepath.Join(dir, "lr2.nbm")
	r, err := UpdateModel(UpdateOptions{ModelPath: lr, Corpus: b, Replay: a, Output: out, SourceDateEpoch: "0", Source: openSource})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Linear || r.New != 3 || r.Replayed != 4 || !slices.Contains(r.Model.Classes, "graphics") {
		t.Errorf("report %+v", r)
	}
	m, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if h := m.Meta.History; len(h) != 2 || h[1].Source != b+" + replay "+a {
		t.Errorf("history %+v", h)
	}
	var w strings.Builder
	r.Write(&w)
	if want := "model        logreg, warm start -> " + out + " (not exact: see docs/updating.md)\ndocuments    3 new, 4 replayed\nclasses      3\nseconds      "; !strings.HasPrefix(w.String(), want) {
		t.Errorf("summary\n%s\nwant it to start with\n%s", w.String(), want)
	}
}

// TestHistoryDate: SOURCE_DATE_EPOCH in RFC 3339, UTC; now without it; a
// usage error for what is not a number.
func TestHistoryDate(t *testing.T) {
	if d, err := HistoryDate("1700000000"); err != nil || d != "2023-11-14T22:13:20Z" {
		t.Errorf("HistoryDate(1700000000) = %q, %v", d, err)
	}
	if d, err := HistoryDate(""); err != nil || !strings.HasSuffix(d, "Z") || d < "2024" {
		t.Errorf("HistoryDate() = %q, %v", d, err)
	}
	var u *UsageError
	if _, err := HistoryDate("1.5"); !errors.As(err, &u) {
		t.Errorf("HistoryDate(1.5): %v, want a UsageError", err)
	}
}

// TestCountsPath: .nbm is replaced, any other name followed, by .nbc.
func TestCountsPath(t *testing.T) {
	for in, want := range map[string]string{"news.nbm": "news.nbc", "dir/m": "dir/m.nbc", "x.nbm.bak": "x.nbm.bak.nbc"} {
		if got := CountsPath(in); got != want {
			t.Errorf("CountsPath(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCheckKeepCounts: kept counts for NB and centroid only, refused with
// each option that makes them useless, naming the flag.
func TestCheckKeepCounts(t *testing.T) {
	for _, k := range []model.Kind{model.Multinomial, model.Bernoulli, model.Complement, model.Centroid} {
		if err := CheckKeepCounts(k, KeepCountsWith{}); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	for _, tt := range []struct {
		kind model.Kind
		with KeepCountsWith
		want string
	}{
		{model.LogReg, KeepCountsWith{}, "not logreg"},
		{model.Multinomial, KeepCountsWith{FromCounts: true}, "--from-counts"},
		{model.Multinomial, KeepCountsWith{Stream: true}, "--stream"},
		{model.Multinomial, KeepCountsWith{Auto: true}, "--auto"},
		{model.Multinomial, KeepCountsWith{Vocab: true}, "--vocab"},
		{model.Multinomial, KeepCountsWith{MultiLabel: true}, "--multi-label"},
		{model.Multinomial, KeepCountsWith{Fields: true}, "record fields"},
	} {
		var u *UsageError
		if err := CheckKeepCounts(tt.kind, tt.with); !errors.As(err, &u) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s %+v: %v, want a UsageError naming %q", tt.kind, tt.with, err, tt.want)
		}
	}
}
