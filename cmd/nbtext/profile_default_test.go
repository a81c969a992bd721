package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestFollowProfileFlag: train follows the corpus profile by default (on
// 1200 short documents, nblr takes char_wb 2,4, and info says so in its
// defaults line), --follow-profile=false keeps the fixed defaults, and
// --analyzer word wins over the rule; held and streamed alike, and
// multi-label when --follow-profile is given.
func TestFollowProfileFlag(t *testing.T) {
	dir := t.TempDir()
	corpus := shortCorpus(t, dir)
	for i, tc := range []struct {
		args []string
		char bool
	}{
		{nil, true},
		{[]string{"--stream"}, true},
		{[]string{"--multi-label", "--follow-profile"}, true},
		{[]string{"--multi-label"}, true}, // 3 labels: see TestFollowProfileMultiLabel
		{[]string{"--follow-profile=false"}, false},
		{[]string{"--analyzer", "word"}, false},
	} {
		out := filepath.Join(dir, fmt.Sprintf("m%d.nbm", i))
		args := append([]string{"train", corpus, "--model", "nblr", "--temperature", "1", "-q", "-o", out}, tc.args...)
		check(t, nbtext(t, "", args...), 0)
		r := nbtext(t, "", "info", out)
		check(t, r, 0)
		hasChar := strings.Contains(r.out, "char_wb")
		hasNote := strings.Contains(r.out, "defaults    ") && strings.Contains(r.out, "--analyzer char_wb --char-ngram 2,4 (median document")
		if hasChar != tc.char || hasNote != tc.char {
			t.Errorf("train %v: char_wb %v, defaults line %v; want %v\n%s", tc.args, hasChar, hasNote, tc.char, r.out)
		}
	}
}

// TestFollowProfileEvalCV: eval --cv follows the corpus profile as train
// does (char_wb n-grams: more terms than the 8 words and their pairs) and
// --follow-profile=false keeps the fixed defaults; a model file refuses
// the flag.
func TestFollowProfileEvalCV(t *testing.T) {
	dir := t.TempDir()
	corpus := shortCorpus(t, dir)
	for _, tc := range []struct {
		args []string
		char bool
	}{{nil, true}, {[]string{"--follow-profile=false"}, false}} {
		r := nbtext(t, "", append([]string{"eval", "--cv", "2", "--model", "nblr", "--format", "json", corpus}, tc.args...)...)
		check(t, r, 0)
		var res struct{ Folds []struct{ Terms int } }
		if err := json.Unmarshal([]byte(r.out), &res); err != nil || len(res.Folds) != 2 {
			t.Fatalf("eval --cv %v: %v\n%s", tc.args, err, r.out)
		}
		if char := res.Folds[0].Terms > 8*8; char != tc.char { // 8 words, at most 8*8 pairs of them
			t.Errorf("eval --cv %v: %d terms, want character n-grams %v", tc.args, res.Folds[0].Terms, tc.char)
		}
	}
	m := filepath.Join(dir, "m.nbm")
	check(t, nbtext(t, "", "train", corpus, "-q", "-o", m), 0)
	check(t, nbtext(t, "", "eval", "-m", m, corpus, "--follow-profile=false"), 2, "used only with --cv")
}

// shortCorpus writes 1200 three-word documents of 3 classes over 8 words:
// short text, on which the profile takes character n-grams.
func shortCorpus(t *testing.T, dir string) string {
	words := []string{"alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "theta"}
	var b strings.Builder
	for i := range 1200 {
		fmt.Fprintf(&b, "%c\t%s %s %s\n", 'a'+i%3, words[i%8], words[(i/3)%8], words[(i*5+i%3)%8])
	}
	return writeFile(t, dir, "short.tsv", b.String())
}

// TestFollowProfileMultiLabel: multi-label training follows the profile,
// its analyzer on few labels (Bernoulli takes the short-text α, nblr on 3
// labels character n-grams; words on many: internal/pipeline's
// TestMultiLabelAnalyzerByLabels), and --follow-profile=false keeps every
// fixed default.
func TestFollowProfileMultiLabel(t *testing.T) {
	dir := t.TempDir()
	corpus := shortCorpus(t, dir)
	for _, tc := range []struct {
		kind, flag string
		want       func(info string) bool
	}{
		{"bernoulli", "", func(info string) bool { return strings.Contains(info, "alpha=0.1 ") }},
		{"bernoulli", "--follow-profile=false", func(info string) bool { return strings.Contains(info, "alpha=0.01 ") }},
		{"nblr", "", func(info string) bool { return strings.Contains(info, "char_wb") }},
	} {
		out := filepath.Join(dir, tc.kind+".nbm")
		args := []string{"train", corpus, "--multi-label", "--model", tc.kind, "-q", "-o", out}
		if tc.flag != "" {
			args = append(args, tc.flag)
		}
		check(t, nbtext(t, "", args...), 0)
		r := nbtext(t, "", "info", out)
		check(t, r, 0)
		if !tc.want(r.out) {
			t.Errorf("train --multi-label --model %s %s:\n%s", tc.kind, tc.flag, r.out)
		}
	}
}
