package vectorize

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestCharVocabularyMatchesScikitLearn checks the char and char_wb
// vocabularies, with each term's document and corpus frequency, against
// scikit-learn's CountVectorizer on testdata/sklearn/corpus.json: the
// expected files were written once by scikit-learn 1.2.1 with
// testdata/sklearn/gen.py (see its header to regenerate them).
func TestCharVocabularyMatchesScikitLearn(t *testing.T) {
	var texts []string
	readJSON(t, filepath.Join("testdata", "sklearn", "corpus.json"), &texts)
	for _, c := range []struct {
		analyzer string
		lo, hi   int
	}{{"char", 1, 3}, {"char_wb", 1, 3}, {"char_wb", 2, 5}, {"char", 3, 4}} {
		name := fmt.Sprintf("%s-%d-%d", c.analyzer, c.lo, c.hi)
		var want [][3]any
		readJSON(t, filepath.Join("testdata", "sklearn", name+".json"), &want)
		v, err := FitVocabulary(texts, nil, 0, charSettings(c.analyzer, c.lo, c.hi), 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(v.Terms) != len(want) {
			t.Errorf("%s: %d terms, scikit-learn %d", name, len(v.Terms), len(want))
		}
		for i := range min(len(v.Terms), len(want)) {
			w := want[i]
			if v.Terms[i] != w[0].(string) || float64(v.DF[i]) != w[1].(float64) || float64(v.CF[i]) != w[2].(float64) {
				t.Fatalf("%s: term %d is %q df %d cf %d, scikit-learn's %q df %v cf %v", name, i, v.Terms[i], v.DF[i], v.CF[i], w[0], w[1], w[2])
			}
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
