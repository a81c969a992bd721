package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/eval"
	"github.com/nbtext/nbtext/internal/membudget"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// cvCorpus writes a JSON-lines corpus of three classes, each document with
// a text and a field "colour" that leans to its class, and returns its
// path.
func cvCorpus(t *testing.T) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	words := map[string][]string{
		"ham":  {"meeting", "lunch", "report", "team", "friday"},
		"spam": {"cheap", "pills", "winner", "prize", "click"},
		"news": {"election", "market", "storm", "minister", "league"},
	}
	colours := []string{"red", "green", "blue"}
	var b strings.Builder
	for i := range 90 {
		label := []string{"ham", "spam", "news"}[i%3]
		var text []string
		for range 8 {
			if rng.IntN(3) == 0 {
				text = append(text, words[[]string{"ham", "spam", "news"}[rng.IntN(3)]][rng.IntN(5)])
			} else {
				text = append(text, words[label][rng.IntN(5)])
			}
		}
		colour := colours[i%3]
		if rng.IntN(4) == 0 {
			colour = colours[rng.IntN(3)]
		}
		line, _ := json.Marshal(map[string]string{"label": label, "text": strings.Join(text, " "), "colour": colour})
		fmt.Fprintf(&b, "%s\n", line)
	}
	path := filepath.Join(t.TempDir(), "c.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestCrossValidate checks that CrossValidate gives eval.CrossValidate's
// result for the plan's configuration (and CrossValidateRecords' with
// fields), with the plan's vectorizer settings, parameters and warnings,
// and refuses what it cannot measure.
func TestCrossValidate(t *testing.T) {
	path := cvCorpus(t)
	c, err := corpus.Read(path, corpus.Options{Format: "jsonl", ExtraFields: []string{"colour"}})
	if err != nil {
		t.Fatal(err)
	}
	settings, _ := train.Defaults(model.Multinomial)
	settings.MinDF = 1
	_, params := train.Defaults(model.Multinomial)
	params.Alpha = 0
	var warnings, phases []string
	plan := &Plan{
		Source: Source{Paths: []string{path}, Options: corpus.Options{Format: "jsonl", ExtraFields: []string{"colour"}}},
		Kind:   model.Multinomial,
		Vectorizer: func(s *vectorize.Settings) error {
			s.MinDF = 1
			return nil
		},
		Params: func(classes []string, sizes []int) (model.Params, bool, error) {
			if !reflect.DeepEqual(classes, []string{"ham", "news", "spam"}) || !reflect.DeepEqual(sizes, []int{30, 30, 30}) {
				t.Errorf("Params(%q, %v)", classes, sizes)
			}
			return params, false, nil
		},
		Workers:  2,
		Warn:     func(msg string) { warnings = append(warnings, msg) },
		Progress: func(phase string) func(done, total int) { phases = append(phases, phase); return nil },
	}
	got, err := CrossValidate(plan, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := eval.CrossValidate(c.Texts(), c.LabelIDs(), c.Labels, settings, model.Multinomial, params, 3, uint64(params.Seed), eval.CVOptions{TopK: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got.Mean != want.Mean || got.Std != want.Std || got.N != 90 || got.Model != "multinomial" {
		t.Errorf("got %+v ± %+v (n %d, %s), want %+v ± %+v", got.Mean, got.Std, got.N, got.Model, want.Mean, want.Std)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "--alpha 0") || !reflect.DeepEqual(phases, []string{"cross-validating"}) {
		t.Errorf("warnings %q, progress phases %q", warnings, phases)
	}

	// With the record field.
	params.Alpha = 1
	plan.Fields = train.FieldSpec{Categorical: []string{"colour"}}
	got, err = CrossValidate(plan, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Records(c, plan.Fields)
	if err != nil {
		t.Fatal(err)
	}
	want, err = eval.CrossValidateRecords(c.Texts(), c.LabelIDs(), c.Labels, settings, model.Multinomial, params, recs, 3, uint64(params.Seed), eval.CVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Mean != want.Mean || got.Std != want.Std {
		t.Errorf("with fields: %+v ± %+v, want %+v ± %+v", got.Mean, got.Std, want.Mean, want.Std)
	}

	// A parameter to tune is not one configuration.
	plan.Params = func([]string, []int) (model.Params, bool, error) { return params, true, nil }
	var ue *UsageError
	if _, err := CrossValidate(plan, 3, 0); !errors.As(err, &ue) || !strings.Contains(err.Error(), "--alpha auto") {
		t.Errorf("auto: error %v, want a UsageError", err)
	}
	// A corpus over the memory budget is refused before it is read.
	plan.Budget = membudget.Budget{Bytes: 1000, Source: "--mem"}
	if _, err := CrossValidate(plan, 3, 0); err == nil || !strings.Contains(err.Error(), "eval --cv holds every document in memory") {
		t.Errorf("over the budget: error %v", err)
	}
}
