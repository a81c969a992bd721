package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestPredictReadsWhatTrainReads runs predict on the record files train
// reads: CSV and TSV with a header, label<TAB>text TSV, fastText lines and
// JSONL with other names, found by the file's name or first line, or
// forced with --input. The labels are never read as text (predict says
// so and points at eval); the id comes from --id-field; other columns
// pass through to the JSON output; a record model reads its fields from a
// CSV file.
func TestPredictReadsWhatTrainReads(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "toy.nbm")
	check(t, nbtext(t, "", "train", writeFile(t, dir, "toy.tsv", toyTSV), "--min-df", "1", "-q", "-o", m), 0)
	csv := writeFile(t, dir, "t.csv", "id,label,text,source\na1,graphics,the key and the cipher and pgp encryption,web\n"+
		"a2,crypt,\"polygons, rendering textures with opengl\",mail\n")
	r := nbtext(t, "", "predict", "-m", m, csv, "--format", "json")
	check(t, r, 0, "t.csv holds labels (column \"label\"): predict ignored them; 'nbtext eval -m "+m+" "+csv+"'")
	var got []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.out), "\n") {
		var o map[string]any
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("%v: %q", err, line)
		}
		got = append(got, o)
	}
	// The labels in the file are the wrong ones: the text decides.
	if len(got) != 2 || got[0]["id"] != "a1" || got[0]["label"] != "crypt" || got[0]["source"] != "web" ||
		got[1]["id"] != "a2" || got[1]["label"] != "graphics" || got[1]["source"] != "mail" || got[0]["text"] != nil {
		t.Errorf("predict CSV: %s", r.out)
	}
	// The same records in other formats, and on stdin with --input.
	for _, tc := range []struct {
		name, content string
		args          []string
		labelled      bool
	}{
		{"h.tsv", "source\ttext\nweb\tthe key and the cipher and pgp encryption\nmail\tpolygons rendering textures with opengl\n", nil, false},
		{"l.tsv", "graphics\tthe key and the cipher and pgp encryption\ncrypt\tpolygons rendering textures with opengl\n", nil, true},
		{"f.txt", "__label__graphics the key and the cipher and pgp encryption\n__label__crypt polygons rendering textures with opengl\n", nil, true},
		{"r.jsonl", `{"body":"the key and the cipher and pgp encryption","y":"graphics"}` + "\n" + `{"body":"polygons rendering textures with opengl","y":"crypt"}` + "\n", []string{"--text-field", "body", "--label-field", "y"}, true},
	} {
		p := writeFile(t, dir, tc.name, tc.content)
		r := nbtext(t, "", append([]string{"predict", "-m", m, p}, tc.args...)...)
		check(t, r, 0)
		if r.out != "crypt\ngraphics\n" {
			t.Errorf("%s: %q", tc.name, r.out)
		}
		if strings.Contains(r.err, "holds labels") != tc.labelled {
			t.Errorf("%s: stderr %q", tc.name, r.err)
		}
	}
	r = nbtext(t, readFile(t, csv), "predict", "-m", m, "--input", "csv")
	check(t, r, 0, "'nbtext eval -m "+m+" -'")
	if r.out != "crypt\ngraphics\n" {
		t.Errorf("--input csv on stdin: %q", r.out)
	}
	check(t, nbtext(t, "", "predict", "-m", m, csv, "--text-field", "body"), 1, `t.csv:1: the header has no column "body"`)
	// A record model reads its fields from CSV.
	tr := ticketsCSV(t, dir, "tickets.csv", 300, 1)
	rm := filepath.Join(dir, "rec.nbm")
	check(t, nbtext(t, "", "train", tr, "--label-field", "team", "--categorical-field", "product", "--numeric-field", "amount", "-q", "-o", rm), 0)
	rc := writeFile(t, dir, "rec.csv", "text,product,amount\nplease help,tv,50\nhello,laptop,100\n")
	r = nbtext(t, "", "predict", "-m", rm, rc)
	check(t, r, 0)
	if r.out != "team1\nteam2\n" {
		t.Errorf("record model on CSV: %q", r.out)
	}
	check(t, nbtext(t, "", "predict", "-m", rm, rc, "--categorical-field", "colour"), 2, "has the fields product, amount")
}

// TestModelKnowsItsNames trains on JSONL with a label and a text key of
// other names: eval and predict read the same names from the model file
// without the flags.
func TestModelKnowsItsNames(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimSpace(toyTSV), "\n") {
		label, text, _ := strings.Cut(l, "\t")
		js, _ := json.Marshal(map[string]string{"topic": label, "body": text})
		b.Write(append(js, '\n'))
	}
	corpus := writeFile(t, dir, "c.jsonl", b.String())
	m := filepath.Join(dir, "m.nbm")
	check(t, nbtext(t, "", "train", corpus, "--label-field", "topic", "--text-field", "body", "--min-df", "1", "-q", "-o", m), 0)
	r := nbtext(t, "", "eval", "-m", m, corpus, "--format", "json")
	check(t, r, 0)
	if !strings.Contains(r.out, `"accuracy": 1`) {
		t.Errorf("eval with the model's names: %s", r.out)
	}
	r = nbtext(t, "", "predict", "-m", m, corpus)
	check(t, r, 0, `holds labels (key "topic")`)
	if r.out != "crypt\ncrypt\ncrypt\ngraphics\ngraphics\ngraphics\n" {
		t.Errorf("predict with the model's names: %q", r.out)
	}
}
