package pipeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/corpus"
	"github.com/nbtext/nbtext/internal/counts"
	"github.com/nbtext/nbtext/internal/model"
	"github.com/nbtext/nbtext/internal/vectorize"
)

// TestCountShardsAndRounds counts a toy corpus in two shards and whole,
// checks the report and that the shards hold every document once, then
// counts round two over the round-one vocabulary.
func TestCountShardsAndRounds(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "c.tsv")
	text := "pos\tgood fine film\nneg\tbad awful film\npos\tgood nice\nneg\tbad poor\npos\tfine good\n"
	if err := os.WriteFile(data, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	source := func() (Source, error) {
		return Source{Paths: []string{data}, Options: corpus.Options{Format: "auto"}}, nil
	}
	settings, vocab, fixed, err := CountSettings(model.Complement, "", func(s *vectorize.Settings) error { s.MinDF = 1; return nil })
	if err != nil || vocab != nil || fixed {
		t.Fatalf("CountSettings: %v, vocab %v, fixed %v", err, vocab, fixed)
	}
	count := func(name string, shard, shards int, s vectorize.Settings, v *vectorize.Vocabulary) *CountReport {
		rep, err := Count(CountPlan{Source: source, Settings: s, Vocab: v, Shard: shard, Shards: shards, Output: filepath.Join(dir, name)})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	r1 := count("1.nbc", 1, 2, settings, nil)
	r2 := count("2.nbc", 2, 2, settings, nil)
	if r1.Docs != 3 || r2.Docs != 2 || r1.Seen != 5 || r1.Classes != 1 || r1.RoundTwo {
		t.Errorf("shards: %+v, %+v", r1, r2)
	}
	whole := count("all.nbc", 1, 1, settings, nil)
	var b bytes.Buffer
	whole.Write(&b)
	for _, want := range []string{"documents    5 of 5 (shard 1/1)", "classes      2", "round        one"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, b.String())
		}
	}
	if counts.NeedsVocab(settings) != (whole.RoundTwoNeeded() != "") {
		t.Errorf("complement's default weighting %s: round two needed %q", settings.Weighting, whole.RoundTwoNeeded())
	}
	// Round two: the settings and vocabulary of the round-one file.
	s2, v2, fixed, err := CountSettings(model.Multinomial, filepath.Join(dir, "all.nbc"), nil)
	if err != nil || !fixed || v2 == nil || s2 != settings {
		t.Fatalf("round two settings: %v, fixed %v, %+v", err, fixed, s2)
	}
	two := count("two.nbc", 1, 1, s2, v2)
	if !two.RoundTwo || two.RoundTwoNeeded() != "" {
		t.Errorf("round two: %+v", two)
	}
	if _, _, _, err := CountSettings(model.Multinomial, filepath.Join(dir, "two.nbc"), nil); err == nil || !strings.Contains(err.Error(), "--vocab takes round-one counts") {
		t.Errorf("round two as --vocab: %v", err)
	}
}
