package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// toyIn returns the predict corpus (predictDocs) in an input format.
func toyIn(format string) string {
	var b strings.Builder
	switch format {
	case "csv":
		b.WriteString("id,text,label\n")
	case "tsv-header":
		b.WriteString("text\tlabel\n")
	}
	for i, d := range predictDocs {
		switch format {
		case "tsv":
			fmt.Fprintf(&b, "%s\t%s\n", d.label, d.text)
		case "tsv-header":
			fmt.Fprintf(&b, "%s\t%s\n", d.text, d.label)
		case "csv":
			fmt.Fprintf(&b, "%d,\"%s\",%s\n", i, d.text, d.label)
		case "jsonl":
			fmt.Fprintf(&b, "{\"topic\":%q,\"body\":%q}\n", d.label, d.text)
		case "fasttext":
			fmt.Fprintf(&b, "__label__%s %s\n", d.label, d.text)
		}
	}
	return b.String()
}

func gzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestInputFormatsRoundTrip trains, evaluates and predicts with a corpus
// in each input format: from a file by its name, compressed, and on stdin.
func TestInputFormatsRoundTrip(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	tests := []struct {
		name, file, stdin string
		flags             []string
	}{
		{"tsv", writeFile(t, dir, "a.tsv", toyIn("tsv")), "", nil},
		{"tsv with header", writeFile(t, dir, "b.tsv", toyIn("tsv-header")), "", nil},
		{"csv", writeFile(t, dir, "c.csv", toyIn("csv")), "", nil},
		{"csv gzipped", writeFile(t, dir, "d.csv.gz", gzipped(t, toyIn("csv"))), "", nil},
		{"jsonl", writeFile(t, dir, "e.jsonl", toyIn("jsonl")), "", []string{"--label-field", "topic", "--text-field", "body"}},
		{"fasttext", writeFile(t, dir, "f.txt", toyIn("fasttext")), "", nil},
		{"fasttext on stdin", "-", toyIn("fasttext"), nil},
		{"jsonl gzipped on stdin", "-", gzipped(t, toyIn("jsonl")), []string{"--label-field", "topic", "--text-field", "body"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := filepath.Join(dir, fmt.Sprintf("m%d.nbm", i))
			r := nbtext(t, tt.stdin, append([]string{"train", tt.file, "-q", "-o", m}, tt.flags...)...)
			check(t, r, 0)
			r = nbtext(t, tt.stdin, append([]string{"eval", "-m", m, tt.file, "--format", "json"}, tt.flags...)...)
			check(t, r, 0)
			var rep struct {
				N        int     `json:"n"`
				Accuracy float64 `json:"accuracy"`
				PerClass []struct {
					Label string `json:"label"`
				} `json:"per_class"`
			}
			if err := json.Unmarshal([]byte(r.out), &rep); err != nil {
				t.Fatalf("eval output %q: %v", r.out, err)
			}
			if rep.N != 6 || rep.Accuracy != 1 || len(rep.PerClass) != 2 || rep.PerClass[0].Label != "crypt" {
				t.Errorf("eval: %+v", rep)
			}
			r = nbtext(t, "pgp cipher key encryption\nopengl polygons textures\n", "predict", "-m", m)
			check(t, r, 0)
			if r.out != "crypt\ngraphics\n" {
				t.Errorf("predict: %q", r.out)
			}
		})
	}
}

// TestInputMisreadings covers the input cases of issue 9 that read wrong
// or not at all before: each reads right or fails naming file and line.
func TestInputMisreadings(t *testing.T) {
	isolate(t)
	dir := t.TempDir()
	// A header row was a class named "label".
	r := nbtext(t, "", "vocab", writeFile(t, dir, "h.tsv", "label\ttext\n"+toyIn("tsv")), "-o", filepath.Join(dir, "v1.tsv"))
	check(t, r, 0, "6 documents, 2 classes")
	// A BOM and spaces made new classes.
	r = nbtext(t, "", "vocab", writeFile(t, dir, "bom.tsv", "\ufeffcrypt\tpgp key\n crypt \tcipher key\ngraphics\topengl\n"), "-o", filepath.Join(dir, "v2.tsv"))
	check(t, r, 0, "3 documents, 2 classes")
	// A gzipped TSV failed with "NUL byte in line".
	r = nbtext(t, "", "vocab", writeFile(t, dir, "z.tsv.gz", gzipped(t, toyIn("tsv"))), "-o", filepath.Join(dir, "v3.tsv"))
	check(t, r, 0, "6 documents, 2 classes")
	// A number label was refused.
	r = nbtext(t, "", "vocab", writeFile(t, dir, "n.jsonl", `{"label":1,"text":"good film"}`+"\n"+`{"label":0,"text":"bad film"}`+"\n"), "-o", filepath.Join(dir, "v4.tsv"))
	check(t, r, 0, "2 documents, 2 classes")
	// Empty label and several labels: errors naming file and line.
	r = nbtext(t, "", "vocab", writeFile(t, dir, "e.tsv", "a\tx y\n  \tz w\n"))
	check(t, r, 1, "e.tsv:2: empty label")
	r = nbtext(t, "", "vocab", writeFile(t, dir, "m.txt", "__label__a x y\n__label__a __label__b z w\n"))
	check(t, r, 1, "m.txt:2: 2 labels on one record (a, b)")
	// Bounds and non-regular files.
	r = nbtext(t, strings.Repeat("a", 5000), "vocab", "-", "--max-doc-bytes", "1000")
	check(t, r, 1, "stdin:1: document larger than 1000 bytes")
	r = nbtext(t, "", "vocab", "/dev/null")
	check(t, r, 1, "/dev/null: not a regular file")
	r = nbtext(t, "", "vocab", "-", "--input-format", "xml")
	check(t, r, 2, "--input-format must be one of auto, dir, tar, tsv, csv, jsonl, fasttext")
	r = nbtext(t, "", "vocab", "-", "--max-doc-bytes", "0")
	check(t, r, 2, "--max-doc-bytes must be ≥ 1")
}

// TestImdbArchive reads the IMDB archive as distributed (aclImdb/train/
// {pos,neg,unsup} below a top folder with README and vocabulary files):
// --split train finds it, unsup and the other files are skipped with one
// warning.
func TestImdbArchive(t *testing.T) {
	p := os.Getenv("NBTEXT_IMDB_TARBALL")
	if p == "" {
		t.Skip("set NBTEXT_IMDB_TARBALL to aclImdb.tar.gz to read the IMDB archive")
	}
	isolate(t)
	r := nbtext(t, "", "vocab", p, "--split", "train", "-o", filepath.Join(t.TempDir(), "v.tsv"))
	check(t, r, 0, "25000 documents, 2 classes", "ignoring the unlabelled folder aclImdb/train/unsup (50000 documents")
	if n := strings.Count(r.err, "warning"); n != 1 {
		t.Errorf("%d warnings: %s", n, r.err)
	}
}
