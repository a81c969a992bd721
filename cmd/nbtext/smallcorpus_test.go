package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// spamHam is the toy corpus: six lines, and only three words in
// two documents of it.
const spamHam = "spam\tfree money now\nspam\twin a free prize\nspam\tclick here to claim your prize\n" +
	"ham\tmeeting at noon tomorrow\nham\tcan you send the report\nham\tlunch on friday with the team\n"

// TestSmallCorpusWarns checks that the default pruning says what it
// dropped on a toy corpus, and that a document with no known word is
// marked in every output format and counted by eval.
func TestSmallCorpusWarns(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "sh.tsv", spamHam)
	m := filepath.Join(dir, "sh.nbm")
	check(t, nbtext(t, "", "train", data, "-q", "-o", m), 0, "the default --min-df 2 kept 3 of 24 terms of these 6 documents", "--min-df 1 keeps them all")
	// A choice of the user is not warned about.
	if r := nbtext(t, "", "train", data, "-q", "--min-df", "2", "-o", filepath.Join(dir, "x.nbm")); strings.Contains(r.err, "kept") {
		t.Errorf("warned about --min-df given: %s", r.err)
	}
	check(t, nbtext(t, "", "train", data, "-q", "--min-df", "1", "-o", filepath.Join(dir, "all.nbm")), 0)
	in := "free prize\nlunch friday\n"
	for _, format := range []string{"text", "tsv"} {
		r := nbtext(t, in, "predict", "-m", m, "--format", format)
		check(t, r, 0, "2: no word the model knows", "1 of 2 documents hold no word the model knows")
		if strings.Contains(r.err, "1: no word") && !strings.Contains(r.err, "2: no word") {
			t.Errorf("%s: the wrong document named: %s", format, r.err)
		}
	}
	r := nbtext(t, in, "predict", "-m", m, "--format", "json")
	check(t, r, 0)
	lines := strings.Split(strings.TrimSpace(r.out), "\n")
	if len(lines) != 2 || strings.Contains(lines[0], `"empty"`) || !strings.Contains(lines[1], `"empty":true`) {
		t.Errorf("json: %s", r.out)
	}
	r = nbtext(t, "", "eval", "-m", m, writeFile(t, dir, "te.tsv", "spam\tfree prize\nham\tlunch friday\n"))
	check(t, r, 0)
	if !strings.Contains(r.out, "no known word  1 of 2 documents") {
		t.Errorf("eval table: %s", r.out)
	}
	r = nbtext(t, "", "eval", "-m", m, filepath.Join(dir, "te.tsv"), "--format", "json")
	if !strings.Contains(r.out, `"empty": 1`) {
		t.Errorf("eval json: %s", r.out)
	}
}

// TestProbabilityPrecision checks that JSON carries probabilities to full
// precision (they read back as the model's), --digits sets the decimals
// of every format, --scores adds the decision values, and eval of a
// binary model reports ROC-AUC, PR-AUC and the Brier score.
func TestProbabilityPrecision(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	data := writeFile(t, dir, "sh.tsv", spamHam)
	m := filepath.Join(dir, "sh.nbm")
	check(t, nbtext(t, "", "train", data, "-q", "--min-df", "1", "--model", "logreg", "-o", m), 0)
	r := nbtext(t, "free money prize\n", "predict", "-m", m, "--format", "json", "--scores")
	check(t, r, 0)
	var out struct {
		Label  string
		Probs  map[string]float64
		Scores map[string]float64
	}
	if err := json.Unmarshal([]byte(r.out), &out); err != nil {
		t.Fatalf("%v: %s", err, r.out)
	}
	// The probabilities are the softmax of the scores, to the last bit
	// a float64 holds (not 4 decimals).
	z := math.Exp(out.Scores["spam"]) + math.Exp(out.Scores["ham"])
	if p := math.Exp(out.Scores["spam"]) / z; math.Abs(p-out.Probs["spam"]) > 1e-12 || out.Label != "spam" {
		t.Errorf("json: %s (softmax of the scores %v)", r.out, p)
	}
	if s := strconv.FormatFloat(out.Probs["spam"], 'f', -1, 64); len(s) <= 6 {
		t.Errorf("json probability %s: not full precision", s)
	}
	r = nbtext(t, "free money prize\n", "predict", "-m", m, "--format", "tsv", "--digits", "7")
	f := strings.Split(strings.TrimSpace(r.out), "\t")
	if len(f) != 3 || len(f[2]) != len("0.1234567") {
		t.Errorf("tsv --digits 7: %q", r.out)
	}
	check(t, nbtext(t, "x\n", "predict", "-m", m, "--digits", "30"), 2, "--digits must be between 1 and 17")
	r = nbtext(t, "", "eval", "-m", m, data, "--format", "json")
	check(t, r, 0)
	var rep struct {
		Brier    *float64 `json:"brier"`
		Positive string   `json:"positive"`
		ROCAUC   *float64 `json:"roc_auc"`
		PRAUC    *float64 `json:"pr_auc"`
	}
	if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Brier == nil || rep.ROCAUC == nil || rep.PRAUC == nil || rep.Positive != "spam" || *rep.ROCAUC != 1 || *rep.Brier <= 0 || *rep.Brier >= 0.25 {
		t.Errorf("eval json: %s", r.out)
	}
	r = nbtext(t, "", "eval", "-m", m, data)
	for _, want := range []string{"brier", "roc-auc   1.0000 (positive class spam)", "pr-auc"} {
		if !strings.Contains(r.out, want) {
			t.Errorf("eval table lacks %q:\n%s", want, r.out)
		}
	}
}
