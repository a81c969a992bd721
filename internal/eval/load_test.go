package eval

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
)

// saveSynth saves a synthetic multinomial model whose vocabulary records
// the Remove setting remove, and returns its path with held-out texts
// (each with a header and a quoted line that name other classes) and
// their labels.
func saveSynth(t *testing.T, remove string) (path string, raw, labels []string) {
	t.Helper()
	m, texts, labels := fitSynth(t, model.Multinomial)
	m.Vocab.Settings.Remove = remove
	path = filepath.Join(t.TempDir(), "m.nbm")
	if err := model.Save(path, m); err != nil {
		t.Fatal(err)
	}
	raw = make([]string, len(texts))
	for i, text := range texts {
		raw[i] = fmt.Sprintf("From: c%dw1 c%dw2\nSubject: c%dw3\n\n%s\n> c%dw4 c%dw5\n", i%3, i%3, i%3, text, i%4, i%4)
	}
	return path, raw, labels
}

// TestLoadStreamScorer checks that a LoadingScorer fed while its model
// loads gives the report of EvaluateTexts on the loaded model: on the
// texts as given, and, with strip, on the texts stripped as the model's
// Remove setting says.
func TestLoadStreamScorer(t *testing.T) {
	path, raw, labels := saveSynth(t, "headers,quotes")
	m, err := model.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	rm := corpus.RemoveHeaders | corpus.RemoveQuotes
	stripped := make([]string, len(raw))
	for i, text := range raw {
		stripped[i] = corpus.Strip(text, rm)
	}
	wants := map[bool]*Report{}
	for strip, texts := range map[bool][]string{false: raw, true: stripped} {
		if wants[strip], err = EvaluateTexts(m, texts, labels, Options{TopK: 2}, 1); err != nil {
			t.Fatal(err)
		}
	}
	if reflect.DeepEqual(wants[false], wants[true]) {
		t.Fatal("stripping makes no difference: the test shows nothing")
	}
	for _, strip := range []bool{false, true} {
		want := wants[strip]
		ls := LoadStreamScorer(path, 2, strip)
		for _, text := range raw {
			ls.Add(text) // the first waits for the model
		}
		ss, err := ls.Wait()
		if err != nil {
			t.Fatalf("strip %v: %v", strip, err)
		}
		if ss.Len() != len(raw) {
			t.Fatalf("strip %v: scorer has %d documents, want %d", strip, ss.Len(), len(raw))
		}
		got, err := ss.Finish(nil, labels, Options{TopK: 2})
		if err != nil {
			t.Fatal(err)
		}
		sameReport(t, fmt.Sprintf("strip %v", strip), got, want)
		ls.Close() // after Finish: does nothing
	}

	// Closed before Finish, as when the reader fails: the workers stop.
	ls := LoadStreamScorer(path, 2, false)
	ls.Add(raw[0])
	ls.Close()
	ls.Close()
}

// TestLoadStreamScorerErrors checks Wait's errors: model.Load's for a
// missing or damaged file (matching model.ErrModelFile), a
// *RemoveSettingError for a Remove setting that does not parse (only when
// the scorer is to strip), and that Add drops its texts after a failure
// instead of blocking.
func TestLoadStreamScorerErrors(t *testing.T) {
	dir := t.TempDir()
	good, raw, _ := saveSynth(t, "")
	b, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)/2] ^= 0x10
	corrupt := filepath.Join(dir, "corrupt.nbm")
	if err := os.WriteFile(corrupt, b, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.nbm")
	for _, tc := range []struct {
		name, path string
		is         error
	}{
		{"missing", missing, fs.ErrNotExist},
		{"corrupt", corrupt, model.ErrCorrupt},
	} {
		ls := LoadStreamScorer(tc.path, 2, true)
		for _, text := range raw {
			ls.Add(text)
		}
		ss, err := ls.Wait()
		if ss != nil || !errors.Is(err, model.ErrModelFile) || !errors.Is(err, tc.is) {
			t.Errorf("%s: Wait = %v, %v; want a model.ErrModelFile matching %v", tc.name, ss, err, tc.is)
		}
		ls.Close()
	}

	badRemove, raw, _ := saveSynth(t, "headers,sigs")
	ls := LoadStreamScorer(badRemove, 2, true)
	ls.Add(raw[0])
	_, err = ls.Wait()
	var re *RemoveSettingError
	if !errors.As(err, &re) || re.Path != badRemove || re.Setting != "headers,sigs" || re.Err == nil {
		t.Errorf("bad Remove setting: Wait error %v (%#v), want a *RemoveSettingError", err, err)
	}
	ls.Close()
	// Without strip the setting is not read: the model scores.
	ls = LoadStreamScorer(badRemove, 2, false)
	defer ls.Close()
	if _, err := ls.Wait(); err != nil {
		t.Errorf("bad Remove setting, no strip: %v", err)
	}
}
