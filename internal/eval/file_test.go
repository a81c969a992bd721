package eval

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/train"
)

// textLoader returns a Loader of the documents texts with labels, which
// hands each text to Emit as it "reads" it, and records the Readings it
// was asked for.
func textLoader(texts, labels []string, asked *[]Reading) Loader {
	return func(rd Reading) (*corpus.Corpus, []int, error) {
		*asked = append(*asked, rd)
		c := &corpus.Corpus{}
		var seq []int
		for i, t := range texts {
			c.Docs = append(c.Docs, corpus.Document{ID: "doc", Label: labels[i], Text: t})
			if rd.Emit != nil {
				rd.Emit(t)
				seq = append(seq, i)
			}
		}
		return c, seq, nil
	}
}

// TestEvaluateFile evaluates a model file as eval -m does and checks the
// report against EvaluateTexts', the reading it asks for, the warning of
// unknown labels, the gates and a baseline.
func TestEvaluateFile(t *testing.T) {
	m, texts, labels := fitSynth(t, model.Multinomial)
	labels[5] = "mystery"
	path := filepath.Join(t.TempDir(), "m.nbm")
	if err := model.Save(path, m); err != nil {
		t.Fatal(err)
	}
	want, err := EvaluateTexts(m, texts, labels, Options{TopK: 2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range Formats {
		var wantOut bytes.Buffer
		if err := WriteReport(&wantOut, format, want, WriteOptions{Confusion: true}); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		var asked []Reading
		var warnings []string
		verdict, err := EvaluateFile(FileOptions{
			Model: path, TopK: 2, Workers: 2, Format: format, Write: WriteOptions{Confusion: true},
			Warn: func(msg string) { warnings = append(warnings, msg) },
		}, textLoader(texts, labels, &asked), &out)
		if err != nil || verdict != "" {
			t.Fatalf("%s: verdict %q, error %v", format, verdict, err)
		}
		if out.String() != wantOut.String() {
			t.Errorf("%s: report\n%s\nwant\n%s", format, out.String(), wantOut.String())
		}
		if len(asked) != 1 || !asked[0].Hold || asked[0].Emit == nil || asked[0].Remove != "" || asked[0].Model == nil || asked[0].MultiLabel {
			t.Errorf("%s: readings %+v, want one streamed, held, as is", format, asked)
		}
		if len(warnings) != 1 || !strings.Contains(warnings[0], "1 documents have labels the model does not know") || !strings.Contains(warnings[0], "mystery (1)") {
			t.Errorf("%s: warnings %q", format, warnings)
		}
	}

	// Gates: one met, one not; a baseline (the same model) within the
	// tolerance.
	var asked []Reading
	opt := FileOptions{Model: path, Baseline: path, Format: "tsv", Gates: Gates{MinAccuracy: want.Accuracy - 0.01}}
	verdict, err := EvaluateFile(opt, textLoader(texts, labels, &asked), &bytes.Buffer{})
	if err != nil || !strings.Contains(verdict, "passed") || !strings.Contains(verdict, "baseline") {
		t.Errorf("gates met: verdict %q, error %v", verdict, err)
	}
	opt.Gates.MinAccuracy = want.Accuracy + 0.01
	_, err = EvaluateFile(opt, textLoader(texts, labels, &asked), &bytes.Buffer{})
	var ge *GateError
	if !errors.As(err, &ge) || ge.Flag != "--min-accuracy" {
		t.Errorf("gate not met: error %v, want a *GateError of --min-accuracy", err)
	}
}

// TestEvaluateFileErrors checks the typed errors of EvaluateFile.
func TestEvaluateFileErrors(t *testing.T) {
	m, texts, labels := fitSynth(t, model.Bernoulli)
	dir := t.TempDir()
	path := filepath.Join(dir, "m.nbm")
	if err := model.Save(path, m); err != nil {
		t.Fatal(err)
	}
	var asked []Reading
	load := textLoader(texts, labels, &asked)
	var me *ModelError
	if _, err := EvaluateFile(FileOptions{Model: filepath.Join(dir, "none.nbm")}, load, &bytes.Buffer{}); !errors.As(err, &me) {
		t.Errorf("missing model: error %v, want a *ModelError", err)
	}
	if _, err := EvaluateFile(FileOptions{Model: path, Baseline: filepath.Join(dir, "none.nbm")}, load, &bytes.Buffer{}); !errors.As(err, &me) {
		t.Errorf("missing baseline: error %v, want a *ModelError", err)
	}
	var ue *UsageError
	_, err := EvaluateFile(FileOptions{Model: path, MultiLabel: true}, load, &bytes.Buffer{})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "is not a multi-label model") {
		t.Errorf("--multi-label of a single-label model: error %v, want a *UsageError", err)
	}
	_, err = EvaluateFile(FileOptions{Model: path, Fields: train.FieldSpec{Numeric: []string{"size"}}}, load, &bytes.Buffer{})
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "has no record fields") {
		t.Errorf("fields of a text model: error %v, want a *UsageError", err)
	}
	// A Remove setting of the model that does not parse is a usage error
	// when the scorer strips (as --remove would be), none when the user
	// gave --remove.
	badRemove, raw, rawLabels := saveSynth(t, "headers,sigs")
	_, err = EvaluateFile(FileOptions{Model: badRemove}, textLoader(raw, rawLabels, &asked), &bytes.Buffer{})
	if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "--remove: ") {
		t.Errorf("bad Remove setting: error %v, want a *UsageError of --remove", err)
	}
	if _, err = EvaluateFile(FileOptions{Model: badRemove, RemoveGiven: true}, textLoader(raw, rawLabels, &asked), &bytes.Buffer{}); err != nil {
		t.Errorf("bad Remove setting with --remove given: %v", err)
	}
	none := make([]string, len(labels))
	for i := range none {
		none[i] = "pos"
	}
	var out bytes.Buffer
	_, err = EvaluateFile(FileOptions{Model: path, Corpus: "reviews.tsv"}, textLoader(texts, none, &asked), &out)
	if err == nil || !strings.Contains(err.Error(), "none of the 140 documents of reviews.tsv has a label the model knows (labels pos;") || out.Len() > 0 {
		t.Errorf("no known label: error %v, output %q", err, out.String())
	}
}

// TestCountList checks the list of labels with their counts.
func TestCountList(t *testing.T) {
	if got := CountList(map[string]int{"b": 1, "a": 2, "c": 10}); got != "a (2), b (1), c (10)" {
		t.Errorf("CountList = %q", got)
	}
	if got := CountList(nil); got != "" {
		t.Errorf("CountList(nil) = %q", got)
	}
}

// TestCVResultWrite checks that Write dispatches on the format.
func TestCVResultWrite(t *testing.T) {
	r := NewCVResult("multinomial", 2, 1, 4, []Fold{{Fold: 1, Accuracy: 0.5}, {Fold: 2, Accuracy: 1}})
	for format, write := range map[string]func(*bytes.Buffer) error{
		"table": func(b *bytes.Buffer) error { return r.WriteTable(b) },
		"tsv":   func(b *bytes.Buffer) error { return r.WriteTSV(b) },
		"json":  func(b *bytes.Buffer) error { return r.WriteJSON(b) },
	} {
		var got, want bytes.Buffer
		if err := r.Write(&got, format); err != nil {
			t.Fatal(err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: %q, want %q", format, got.String(), want.String())
		}
	}
}

// TestWriteReport checks that WriteReport dispatches on the format.
func TestWriteReport(t *testing.T) {
	m, texts, labels := fitSynth(t, model.Complement)
	r, err := EvaluateTexts(m, texts, labels, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	wo := WriteOptions{Confusion: true, Normalize: true}
	for format, write := range map[string]func(*bytes.Buffer) error{
		"table": func(b *bytes.Buffer) error { return WriteTable(b, r, wo) },
		"tsv":   func(b *bytes.Buffer) error { return WriteTSV(b, r, wo) },
		"json":  func(b *bytes.Buffer) error { return WriteJSON(b, r, wo) },
	} {
		var got, want bytes.Buffer
		if err := WriteReport(&got, format, r, wo); err != nil {
			t.Fatal(err)
		}
		if err := write(&want); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("%s: %q, want %q", format, got.String(), want.String())
		}
	}
}
