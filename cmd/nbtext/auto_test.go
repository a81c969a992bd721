package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbtext/nbtext/internal/model"
)

// autoTSV is a labelled corpus of n documents per class, big enough for
// 3-fold cross-validation: each document mixes its class's words with
// shared ones.
func autoTSV(n int) string {
	words := map[string][]string{
		"crypt":    {"key", "cipher", "pgp", "encryption", "escrow", "clipper"},
		"graphics": {"polygons", "rendering", "textures", "opengl", "gpu", "jpeg"},
	}
	var b strings.Builder
	for i := range n {
		for _, label := range []string{"crypt", "graphics"} {
			w := words[label]
			fmt.Fprintf(&b, "%s\tthe %s and %s with the %s of it %d\n", label, w[i%6], w[(i+2)%6], w[(i*5+1)%6], i%4)
		}
	}
	return b.String()
}

func TestTrainAuto(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(15))
	out := filepath.Join(dir, "m.nbm")
	r := nbtext(t, "", "train", corpus, "--auto", "--budget", "1m", "--folds", "3", "-o", out)
	check(t, r, 0)
	for _, want := range []string{"search: 482 candidates", "defaults: 6 scored on 3 split(s)", "multinomial *", "rung 0:", "rank  model", "chosen ", "model        "} {
		if !strings.Contains(r.out, want) {
			t.Errorf("output lacks %q:\n%s", want, r.out)
		}
	}
	m, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var auto struct {
		Metric      string `json:"metric"`
		Splits      int    `json:"splits"`
		Leaderboard []struct {
			Kind  string  `json:"kind"`
			Mean  float64 `json:"mean"`
			Folds int     `json:"folds"`
		} `json:"leaderboard"`
	}
	if err := json.Unmarshal(m.Meta.Auto, &auto); err != nil {
		t.Fatalf("model's auto record: %v (%s)", err, m.Meta.Auto)
	}
	if auto.Metric != "accuracy" || auto.Splits != 3 || len(auto.Leaderboard) == 0 || (auto.Leaderboard[0].Kind != m.Kind.String() && m.Kind != model.Ensemble) {
		t.Errorf("auto record %+v does not describe the model (%s)", auto, m.Kind)
	}

	// --model narrows the search to one kind; --leaderboard json prints JSON.
	r = nbtext(t, "", "train", corpus, "--auto", "--model", "complement", "--folds", "3", "--leaderboard", "json", "-q", "-o", out)
	check(t, r, 0)
	var board struct {
		Candidates  int `json:"candidates"`
		Leaderboard []struct {
			Kind string `json:"kind"`
		} `json:"leaderboard"`
		Ensemble *struct {
			Rounds  int `json:"rounds"`
			Library int `json:"library"`
		} `json:"ensemble"`
	}
	if err := json.Unmarshal([]byte(r.out), &board); err != nil {
		t.Fatalf("--leaderboard json: %v\n%s", err, r.out)
	}
	for _, e := range board.Leaderboard {
		if e.Kind != "complement" {
			t.Fatalf("--model complement searched %s", e.Kind)
		}
	}
	if board.Ensemble == nil || board.Ensemble.Rounds != 25 || board.Ensemble.Library < 2 {
		t.Errorf("--leaderboard json: ensemble %+v, want the selection of 25 rounds", board.Ensemble)
	}
	if board.Candidates != 81 { // 64 on words, 16 on char_wb 2-4, its default (fields=subject:2)
		t.Errorf("--model complement: %d candidates, want 81", board.Candidates)
	}
}

func TestTrainAutoValid(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(10))
	valid := writeFile(t, dir, "v.tsv", autoTSV(4))
	out := filepath.Join(dir, "m.nbm")
	r := nbtext(t, "", "train", corpus, "--auto", "--valid", valid, "--metric", "macro_f1", "-o", out)
	check(t, r, 0)
	if !strings.Contains(r.out, "scored on the validation set") || !strings.Contains(r.out, "macro_f1") {
		t.Errorf("output does not say it scored on the validation set by macro F1:\n%s", r.out)
	}
	bad := writeFile(t, dir, "bad.tsv", autoTSV(2)+"sports\tthe ball\n")
	r = nbtext(t, "", "train", corpus, "--auto", "--valid", bad, "-o", out)
	check(t, r, 1, "bad.tsv", `"sports"`)
}

func TestAutoUsageErrors(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(6))
	out := filepath.Join(dir, "m.nbm")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", corpus, "--auto", "--ngram", "1,2", "-o", out}, "--ngram"},
		{[]string{"train", corpus, "--auto", "--alpha", "auto", "-o", out}, "--alpha"},
		{[]string{"train", corpus, "--auto", "--metric", "auc", "-o", out}, "--metric"},
		{[]string{"train", corpus, "--auto", "--budget", "0s", "-o", out}, "--budget"},
		{[]string{"train", corpus, "--auto", "--leaderboard", "csv", "-o", out}, "--leaderboard"},
		{[]string{"train", corpus, "--auto", "--ensemble", "-1", "-o", out}, "--ensemble"},
		{[]string{"eval", corpus, "--auto"}, "--cv"},
	} {
		r := nbtext(t, "", tc.args...)
		check(t, r, 2, tc.want)
	}
}

func TestEvalCVAuto(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(15))
	r := nbtext(t, "", "eval", corpus, "--cv", "3", "--auto", "--model", "multinomial", "--format", "json")
	check(t, r, 0, "fold 1: chose multinomial")
	var res struct {
		Model string `json:"model"`
		K     int    `json:"k"`
		Mean  struct {
			Accuracy float64 `json:"accuracy"`
		} `json:"mean"`
	}
	if err := json.Unmarshal([]byte(r.out), &res); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	if res.Model != "auto (nested)" || res.K != 3 || res.Mean.Accuracy < 0.8 {
		t.Errorf("nested CV result %+v", res)
	}
}

// TestTrainAutoEvalsReproducible: with --budget evals:N and a fixed seed,
// two runs (one of them on one worker) write the same model and the same
// leaderboard, timings aside; a malformed budget is a usage error.
func TestTrainAutoEvalsReproducible(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	corpus := writeFile(t, dir, "c.tsv", autoTSV(12))
	var boards []string
	var models [][]byte
	for i, workers := range []string{"2", "1"} {
		out := filepath.Join(dir, fmt.Sprintf("m%d.nbm", i))
		r := nbtext(t, "", "train", corpus, "--auto", "--budget", "evals:3", "--folds", "3", "--seed", "5",
			"--workers", workers, "--leaderboard", "json", "-q", "-o", out)
		check(t, r, 0)
		var board map[string]any
		if err := json.Unmarshal([]byte(r.out), &board); err != nil {
			t.Fatalf("%v\n%s", err, r.out)
		}
		if board["budget"] != "evals:3" || board["spent"].(float64) > 3 {
			t.Errorf("budget %v, spent %v: want evals:3, at most 3", board["budget"], board["spent"])
		}
		dropTimes(board)
		b, _ := json.Marshal(board)
		boards = append(boards, string(b))
		m, err := model.Load(out)
		if err != nil {
			t.Fatal(err)
		}
		m.Meta.Auto = nil // holds the timings
		again := filepath.Join(dir, fmt.Sprintf("again%d.nbm", i))
		if err := model.Save(again, m); err != nil {
			t.Fatal(err)
		}
		models = append(models, readBytes(t, again))
	}
	if boards[0] != boards[1] {
		t.Errorf("two runs with evals:3 and seed 5 differ:\n%s\n%s", boards[0], boards[1])
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("two runs with evals:3 and seed 5 wrote different models")
	}
	for _, bad := range []string{"evals:0", "cpu:soon", "fast"} {
		r := nbtext(t, "", "train", corpus, "--auto", "--budget", bad, "-o", filepath.Join(dir, "x.nbm"))
		check(t, r, 2, "--budget")
	}
}

// dropTimes deletes the timings from a decoded JSON value.
func dropTimes(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if strings.HasSuffix(k, "seconds") {
				delete(v, k)
			} else {
				dropTimes(x)
			}
		}
	case []any:
		for _, x := range v {
			dropTimes(x)
		}
	}
}
